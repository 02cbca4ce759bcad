package app

import (
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// TestSanctionACWCQualification: W17 in the qualification Swiss — an
// engine-marked player is dropped from the pairings, their finished games
// are adjudicated to the opponents and their open pairing goes to the
// opponent.
func TestSanctionACWCQualification(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 13) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		playRound(t, s, c, "wc")
		r1 := must(s.Matches(ctx, "wc", "s1r1"))
		// C.04.3 with 13 players: 1-7, 8-2, 3-9, 10-4, 5-11, 12-6, p13 the bye.
		if r1[5].Home != "p12" || r1[5].Away != "p06" || r1[5].Result.Result != "away_win" || !r1[6].IsBye() {
			t.Fatalf("round 1 %+v", r1)
		}
		r2 := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		var open arbiter.Match
		for _, m := range r2 {
			if m.Home == "p12" || m.Away == "p12" {
				open = m
			}
		}
		_, _, err := s.Sanction(ctx, player("p06"), "wc", SanctionRequest{Entrant: "p12", Kind: "engine_mark", Reason: "Lichess engine mark"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, _, err = s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: "p12", Kind: "lichess_ban", Reason: "banned"})
		wantErr(t, err, arbiter.EINVALID, "W17") // the ACWC has no such case
		_, _, err = s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: "p12", Kind: "engine_mark"})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		x, changed := must2(s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: "p12", Kind: "engine_mark", Reason: "Lichess engine mark on 2023-03-30"}))
		if x.Rule != "W17" || len(changed) != 2 {
			t.Fatalf("sanction %+v, changed %d matches", x, len(changed))
		}
		ms := must(s.Matches(ctx, "wc", ""))
		for _, m := range ms {
			switch m.ID {
			case r1[5].ID: // finished: adjudicated to p06
				if m.Decision != "sanction" || m.Result.Result != "away_win" || m.Result.Forfeit != "away" {
					t.Fatalf("round 1 match after the mark: %+v %+v", m, m.Result)
				}
			case open.ID: // open: to the opponent
				winner := "home_win"
				if open.Home == "p12" {
					winner = "away_win"
				}
				if m.Status != arbiter.MatchFinal || m.Result.Result != winner {
					t.Fatalf("open match after the mark: %+v %+v", m, m.Result)
				}
			}
		}
		_, err = s.ReportResult(ctx, player("p12"), "wc", open.ID, ResultInput{Summary: "6-0"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		// Round 2 ends; round 3 pairs the 12 others, no bye.
		c.t = r2Deadline(t, s, "wc")
		must(s.CloseRound(ctx, td, "wc"))
		r3 := pairOK(s.PairRound(ctx, td, "wc"))
		if len(r3) != 6 {
			t.Fatalf("round 3 has %d matches, want 6", len(r3))
		}
		for _, m := range r3 {
			if m.Home == "p12" || m.Away == "p12" || m.IsBye() {
				t.Fatalf("round 3 pairs %s-%s", m.Home, m.Away)
			}
		}
		es := must(s.Entrants(ctx, "wc"))
		if es[11].ID != "p12" || es[11].Status != arbiter.EntrantRemoved {
			t.Fatalf("p12 is %+v", es[11])
		}
		log := must(s.Audit(ctx, td, "wc", sqlstore.AuditFilter{}))
		found := false
		for _, e := range log {
			found = found || e.Action == "result.sanction" && e.Reason == "W17: engine mark of p12: Lichess engine mark on 2023-03-30"
		}
		if !found {
			t.Fatal("no audited sanction result")
		}
	})
}

func must2[A, B any](a A, b B, err error) (A, B) { return must(a, err), b }

func r2Deadline(t *testing.T, s *Service, slug string) time.Time {
	t.Helper()
	ev := must(s.Event(ctx, slug))
	return ev.Calendar[1].End
}

// TestSanctionTeamMember: antichess team cup A8/A15, per player. Boards
// (A12): capNN, aNN, bNN, cNN, so b01 is team-01's board 3.
//   - b01 is disqualified while s1r1b1 (team-01 v team-06) is still to be
//     played: A8, "their opponent wins the match", is b01's match on board
//     3: that board goes to team-06, the other boards are played. The
//     reported sheet (board 1 144-0, boards 2-4 68-76 each) counts with
//     board 3 as 0-144: 144+68+0+68 = 280 against 296, team-06 wins.
//   - team-07's captain is disqualified while s1r1b2 is open: the team is
//     out (A15: "the captain cannot be replaced"), so the whole match goes
//     to team-02.
//   - team-06's captain is disqualified after its match: the team is out,
//     its result is kept (A1).
func TestSanctionTeamMember(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		rankFour(t, s, "atc", 1, 6)
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 9, 0, 0)
		_, _, err := s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-01", Kind: "disqualification", Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "app.sanction") // which member?
		x, changed := must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-01", Player: "b01", Kind: "disqualification", Reason: "public accusations (A6)"}))
		if x.Rule != "A8" || len(changed) != 1 || changed[0].Status != arbiter.MatchScheduled || len(changed[0].Rulings) != 1 ||
			changed[0].Rulings[0].Board != 3 || changed[0].Rulings[0].Forfeit != "away" || changed[0].Rulings[0].Player != "b01" {
			t.Fatalf("sanction %+v, changed %+v", x, changed)
		}
		es := must(s.Entrants(ctx, "atc"))
		if es[0].ID != "team-01" || es[0].Status != arbiter.EntrantApproved || slices.Contains(es[0].Members, "b01") {
			t.Fatalf("team-01 after the DQ: %+v", es[0])
		}
		m := must(s.ReportResult(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)}))
		if m.Result.Result != "away_win" || m.Result.Home.Points != arbiter.P(280) || m.Result.Away.Points != arbiter.P(296) {
			t.Fatalf("the reported result with board 3 forfeited: %+v", m.Result)
		}
		must(s.ConfirmResult(ctx, arbiter.Actor{Name: "cap06", Role: arbiter.RoleCaptain}, "atc", ms[0].ID, 0))

		// team-07's captain: the team is out, its open match goes to team-02.
		_, changed = must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-07", Player: "cap07", Kind: "disqualification", Reason: "x"}))
		if len(changed) != 1 || changed[0].ID != ms[1].ID || changed[0].Result.Result != "away_win" || changed[0].Result.Forfeit != "away" {
			t.Fatalf("team-07 out: %+v", changed)
		}
		// Team 06's captain is disqualified: the team is out (A15), its
		// decided match stands (A1).
		_, changed = must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-06", Player: "cap06", Kind: "disqualification", Reason: "x"}))
		if len(changed) != 0 {
			t.Fatalf("changed %+v", changed)
		}
		es = must(s.Entrants(ctx, "atc"))
		if es[5].ID != "team-06" || es[5].Status != arbiter.EntrantRemoved {
			t.Fatalf("team-06: %+v", es[5])
		}
		_, err = s.SetCaptain(ctx, td, "atc", "team-01", "zzz")
		wantErr(t, err, arbiter.EINVALID, "A11")
		must(s.SetCaptain(ctx, td, "atc", "team-01", "a01"))
	})
}

// TestW17OnlyFinishedGames: W17's engine mark adjudicates "all of their
// finished games" to the opponents: a match that was never played (round
// 1: nobody offered a time, W14's draw) has none and stands; the open
// match of round 2 goes to the opponent.
func TestW17OnlyFinishedGames(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		r1 := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = ev.Calendar[0].End
		must(s.CloseRound(ctx, td, "wc"))
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = ev.Calendar[1].Start.Add(3600e9)
		p := r1[0].Home
		_, changed := must2(s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: p, Kind: "engine_mark", Reason: "engine mark"}))
		if len(changed) != 1 || changed[0].Round != 2 {
			t.Fatalf("changed %+v, want only the open round 2 match", changed)
		}
		m := must(s.Matches(ctx, "wc", "s1r1"))[0]
		if m.Decision != "negotiation" || m.Result.Forfeit != "full_draw" {
			t.Fatalf("round 1's unplayed match after the mark: %s %+v", m.Decision, m.Result)
		}
	})
}
