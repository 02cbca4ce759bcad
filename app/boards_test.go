package app

import (
	"bytes"
	"slices"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
)

// TestAntichessBoards: A12-A16 in the team cup. Team 01 has five members
// rated a01 2100, cap01 2000, b01 1900, c01 1800 (comm-banned), s01 1700:
// with 10 teams four boards (A9), so the TDs' order is a01, cap01, b01,
// c01 and s01 is the fifth member (A14). The TDs allow a01/cap01 to trade
// places and s01 to stand in for c01.
func TestAntichessBoards(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, true)
		must(s.CloseRegistration(ctx, td, "atc"))
		cap01 := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		members := []lineup.Member{{Name: "cap01", Rating: 2000}, {Name: "a01", Rating: 2100}, {Name: "b01", Rating: 1900},
			{Name: "c01", Rating: 1800, CommBanned: true}, {Name: "s01", Rating: 1700}}
		comparable := lineup.Comparable{{"a01", "cap01"}, {"c01", "s01"}}
		_, err := s.RankBoards(ctx, cap01, "atc", "team-01", members, comparable)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.RankBoards(ctx, td, "atc", "team-01", members[:4], comparable)
		wantErr(t, err, arbiter.EINVALID, "A12") // s01 has no rating
		_, err = s.SubmitBoards(ctx, cap01, "atc", "team-01", []string{"a01", "cap01", "b01", "c01"})
		wantErr(t, err, arbiter.ENOTFOUND, "") // not ranked yet
		bt := must(s.RankBoards(ctx, td, "atc", "team-01", members, comparable))
		if !slices.Equal(bt.TDOrder, []string{"a01", "cap01", "b01", "c01"}) {
			t.Fatalf("TD order %v", bt.TDOrder)
		}
		// A16: a comm-banned captain is refused.
		banned := []lineup.Member{{Name: "cap02", Rating: 2000, CommBanned: true}, {Name: "a02", Rating: 1900}, {Name: "b02", Rating: 1800},
			{Name: "c02", Rating: 1700}, {Name: "s02", Rating: 1600}}
		_, err = s.RankBoards(ctx, td, "atc", "team-02", banned, nil)
		wantErr(t, err, arbiter.EINVALID, "A16")

		// A12: the allowed interchange only.
		_, err = s.SubmitBoards(ctx, cap01, "atc", "team-01", []string{"b01", "a01", "cap01", "c01"})
		wantErr(t, err, arbiter.ERULE, "A12")
		must(s.SubmitBoards(ctx, cap01, "atc", "team-01", []string{"cap01", "a01", "b01", "c01"}))
		// A14: the fifth member stands in for a comparable player only.
		_, err = s.SubstituteBoard(ctx, cap01, "atc", "team-01", "s01", "a01")
		wantErr(t, err, arbiter.ERULE, "A14")
		bt = must(s.SubstituteBoard(ctx, cap01, "atc", "team-01", "s01", "c01"))
		e := must(s.Entrants(ctx, "atc"))[0]
		if !slices.Equal(e.Boards, []string{"cap01", "a01", "b01", "s01"}) || !slices.Equal(bt.Team.Boards, e.Boards) {
			t.Fatalf("boards %v / %v", e.Boards, bt.Team.Boards)
		}

		pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		// Round 1 is paired: changes are for round 2 on.
		_, err = s.ChangeCaptain(ctx, td, "atc", "team-01", "c01", "captain inactive")
		wantErr(t, err, arbiter.ERULE, "A16") // comm-banned
		must(s.ChangeCaptain(ctx, cap01, "atc", "team-01", "a01", ""))
		if e := must(s.Entrants(ctx, "atc"))[0]; e.Captain != "cap01" {
			t.Fatalf("captain %s before round 2", e.Captain)
		}
		_, err = s.ChangeCaptain(ctx, cap01, "atc", "team-01", "b01", "")
		wantErr(t, err, arbiter.ERULE, "A13") // the team's one change is used
		c.t = utc(2025, 1, 14, 0, 0)
		must(s.CloseRound(ctx, td, "atc"))
		decideHeld(t, s, "atc")
		pairOK(s.PairRound(ctx, td, "atc"))
		if e := must(s.Entrants(ctx, "atc"))[0]; e.Captain != "a01" {
			t.Fatalf("captain %s in round 2, want a01", e.Captain)
		}
	})
}

// TestAntichessBoardsKnockout: A14.1 and A15 in the knockout. The preset
// cut to one Swiss round (1-6, 7-2, 3-8, 9-4, 5-10): team-02, -03, -04 and
// -05 win 576-0, team-01 only 348-228, so those four go on by points
// difference (A21, 10 teams: a knockout of 4, A10). The first semifinal's
// home team may bring its fifth member in for the final only after winning
// its semifinal, never for the captain, and not once the final is paired.
func TestAntichessBoardsKnockout(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("antichess-team-cup"))
		one := 1
		f.Name, f.Stages[0].Rounds = "one-round-cup", &format.Count{Fixed: &one}
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Format: doc.Bytes(), Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "ko", 10, 1, true)
		must(s.CloseRegistration(ctx, td, "ko"))
		ms := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 9, 0, 0)
		for i, m := range ms {
			sheet := antichessSheet("1")
			if i == 0 {
				sheet = teamSheet
			} else if m.Away == "team-02" || m.Away == "team-04" {
				sheet = antichessSheet("0")
			}
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Sheet: []byte(sheet)}, "from Lichess", 0))
		}
		c.t = utc(2025, 1, 14, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		// Every team won 1 match: A21's points difference leaves the four
		// tied, so their knockout seeding is the TDs' to decide.
		ev := advanceTied(t, s, "ko", "A21", []string{"team-02", "team-03", "team-04", "team-05"})
		if !sameSet(ev.Stages[1].Seeds, []string{"team-02", "team-03", "team-04", "team-05"}) {
			t.Fatalf("semifinalists %v", ev.Stages[1].Seeds)
		}
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		team := semis[0].Home
		n := team[len(team)-2:]
		capt := arbiter.Actor{Name: "cap" + n, Role: arbiter.RoleCaptain}
		members := []lineup.Member{{Name: "cap" + n, Rating: 2000}, {Name: "a" + n, Rating: 1990}, {Name: "b" + n, Rating: 1900},
			{Name: "c" + n, Rating: 1800}, {Name: "s" + n, Rating: 1750}}
		must(s.RankBoards(ctx, td, "ko", team, members, lineup.Comparable{{"s" + n, "c" + n}, {"s" + n, "cap" + n}}))
		_, err := s.SubstituteBoard(ctx, capt, "ko", team, "s"+n, "c"+n)
		wantErr(t, err, arbiter.ERULE, "A14") // the semifinal is not won yet
		c.t = utc(2025, 1, 16, 0, 0)
		must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Summary: "forfeit:home"}, "opponent did not show", 0))
		_, err = s.SubstituteBoard(ctx, capt, "ko", team, "s"+n, "cap"+n)
		wantErr(t, err, arbiter.ERULE, "A15") // the captain cannot sit out
		must(s.SubstituteBoard(ctx, capt, "ko", team, "s"+n, "c"+n))
		must(s.OverrideResult(ctx, td, "ko", semis[1].ID, ResultInput{Summary: "forfeit:home"}, "opponent did not show", 0))
		c.t = ev.Calendar[1].End
		must(s.CloseRound(ctx, td, "ko"))
		pairOK(s.PairRound(ctx, td, "ko"))
		_, err = s.SubstituteBoard(ctx, capt, "ko", team, "c"+n, "s"+n)
		wantErr(t, err, arbiter.ERULE, "A14") // every round is paired
	})
}

// decideHeld has a TD rule every match held for the TDs at the last
// closed round's deadline (A5: nobody offered a time) a double forfeit.
func decideHeld(t *testing.T, s *Service, slug string) {
	t.Helper()
	for _, m := range must(s.Matches(ctx, slug, "")) {
		if m.Status == arbiter.MatchHeld {
			must(s.OverrideResult(ctx, td, slug, m.ID, ResultInput{Summary: "forfeit:double"}, "neither team offered a time", 0))
		}
	}
}
