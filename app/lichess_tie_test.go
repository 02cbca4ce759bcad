package app

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
	"arbiter/score"
)

// sealBids seals and reveals both sides' armageddon bids (seconds) of a
// match, as its two players do on the match page.
func sealBids(t *testing.T, s *Service, slug string, m arbiter.Match, home, away int) {
	t.Helper()
	sealBidsAs(t, s, slug, m, [2]string{m.Home, m.Away}, home, away)
}

// sealBidsAs: the same, bid by who (the teams' captains).
func sealBidsAs(t *testing.T, s *Service, slug string, m arbiter.Match, who [2]string, home, away int) {
	t.Helper()
	var secrets [2]armageddon.Secret
	for i, p := range []struct {
		who string
		bid int
	}{{who[0], home}, {who[1], away}} {
		_, _, sec, err := s.SealBid(ctx, arbiter.NamedUser(p.who), slug, m.ID, time.Duration(p.bid)*time.Second, rand.Reader)
		must(sec, err)
		secrets[i] = sec
	}
	for i, w := range who {
		_, err := s.BidArmageddon(ctx, arbiter.Actor{Name: w, Role: arbiter.RolePlayer}, slug, m.ID, nil, &secrets[i])
		if err != nil {
			_, err = s.BidArmageddon(ctx, arbiter.Actor{Name: w, Role: arbiter.RoleCaptain}, slug, m.ID, nil, &secrets[i])
		}
		must(0, err)
	}
}

// tieOf is the imported sheet's tie, as JSON in the struct's order
// (PostgreSQL keeps the stored document in an order of its own).
func tieOf(t *testing.T, im LichessImport) string {
	t.Helper()
	sh, err := score.LoadSheet(bytes.NewReader(im.Sheet))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sh.Tie)
	return string(b)
}

// challengesNamed are the open challenges whose name has the suffix,
// in the order they were asked for.
func challengesNamed(r *lichessRig, suffix string) []lichesstest.Request {
	var out []lichesstest.Request
	for _, q := range challengesAsked(r.f) {
		if strings.HasSuffix(q.Form.Get("name"), suffix) {
			out = append(out, q)
		}
	}
	return out
}

// TestLichessKnockoutTies runs the ACWC knockout stage alone (4 players
// seeded by rating) through the fake Lichess, games created when each
// round is published:
//
//   - semifinal p01 v p04 (W10): White wins every game, 5-5 after ten; the
//     match is tied, so Arbiter creates the armageddon once both bids are
//     revealed: p01 bid 100 s, p04 120 s, so p01 (home) plays White (A3 via
//     W12: the lowest bid), created with 90+0 (100 s rounded down to
//     Lichess's clock steps), antichess, rated. It is drawn: Black (p04)
//     wins on draw odds. The import puts it on the sheet's tie.armageddon
//     and p04 goes to the final;
//   - semifinal p02 v p03: p02 wins every game, 6-0 (W4: decided), no tie;
//   - final (W11): White wins every game, 6-6 after twelve; then the four
//     tiebreak games in 1+2, the home player White in the first and
//     alternating (a rematch swaps colours), White winning each: 2-2; then
//     the armageddon, home bid 150 s (120+0 on Lichess), away 170 s: home
//     is White and wins it. The home finalist is champion.
func TestLichessKnockoutTies(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("acwc-2023"))
		f.Name, f.Stages = "acwc-ko", f.Stages[2:]
		f.Stages[0].Seeding, f.Stages[0].BreakWeeksBefore = "standings", 0
		f.Stages[0].ThirdPlace, f.Stages[0].ThirdPlaceMatch = false, nil
		f.MinEntrants, f.Calendar.Negotiation = 4, nil
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Name: "ACWC 2023", Format: doc.Bytes(), Start: utc(2023, 3, 21, 10, 0)}))
		names := registerPlayers(t, s, "ko", 4)
		for _, n := range names {
			must(s.Approve(ctx, td, "ko", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "ko"))
		r := newLichessRig(t, s, c, names...)
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		a, b := semis[0], semis[1]
		if a.Home != "p01" || a.Away != "p04" || b.Home != "p02" || b.Away != "p03" {
			t.Fatalf("semifinals %s v %s, %s v %s", a.Home, a.Away, b.Home, b.Away)
		}
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2023, 3, 21, 12, 0)
		sealBids(t, s, "ko", a, 100, 120)
		runJobs(t, s, c)
		r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			switch {
			case strings.HasSuffix(p.Name, "armageddon"):
				return lichesstest.Drawn
			case p.White == b.Away:
				return lichesstest.BlackWins
			}
			return lichesstest.WhiteWins
		})
		if n := len(challengesNamed(r, "")); n != 10+6+1 {
			t.Fatalf("%d challenges in the semifinals, want 10 + 6 + the armageddon", n)
		}
		arm := challengesNamed(r, "armageddon")
		if len(arm) != 1 {
			t.Fatalf("%d armageddon challenges", len(arm))
		}
		if q := arm[0].Form; q.Get("users") != "p01,p04" || q.Get("clock.limit") != "90" || q.Get("clock.increment") != "0" ||
			q.Get("variant") != "antichess" || q.Get("rated") != "true" || q.Get("name") != "ACWC 2023 · round 1 · armageddon" {
			t.Fatalf("armageddon challenge %v", q)
		}
		im := must(s.ImportedSheet(ctx, td, "ko", a.ID))
		if !im.Complete || im.Report == "" || tieOf(t, im) != `{"armageddon":{"home_bid":100,"away_bid":120,"white":"home","result":"="}}` {
			t.Fatalf("semifinal import: %s %+v", im.Sheet, im.Findings)
		}
		if !slices.ContainsFunc(im.Games, func(g lichess.SheetGame) bool { return g.Tie && g.Counted && g.Result == "=" }) {
			t.Fatalf("the armageddon is not among the imported games: %+v", im.Games)
		}
		c.t = c.t.Add(24 * time.Hour)
		runJobs(t, s, c) // the confirmation window
		for _, m := range must(s.Matches(ctx, "ko", "")) {
			want := map[string]string{a.ID: "away_win", b.ID: "home_win"}[m.ID]
			if m.Status != arbiter.MatchFinal || m.Result.Result != want {
				t.Fatalf("semifinal %s: %s %+v, want %s", m.ID, m.Status, m.Result, want)
			}
		}
		if m := must(s.Matches(ctx, "ko", ""))[0]; m.Result.DecidedBy != "armageddon" {
			t.Fatalf("semifinal 1 decided by %q", m.Result.DecidedBy)
		}
		c.t = must(s.Rounds(ctx, "ko"))[0].End
		must(s.CloseRound(ctx, td, "ko"))
		final := pairOK(s.PairRound(ctx, td, "ko"))[0]
		if !sameSet([]string{final.Home, final.Away}, []string{"p02", "p04"}) {
			t.Fatalf("final %s v %s: the armageddon's winner p04 should be in it", final.Home, final.Away)
		}
		must(s.PublishRound(ctx, td, "ko"))
		c.t = must(s.Rounds(ctx, "ko"))[1].Start.Add(time.Hour)
		sealBids(t, s, "ko", final, 150, 170)
		before := len(challengesAsked(r.f))
		runJobs(t, s, c)
		r.play(t, s, c, func(lichesstest.Pending) lichesstest.Result { return lichesstest.WhiteWins })
		asked := challengesAsked(r.f)[before:]
		if len(asked) != 12+4+1 {
			t.Fatalf("%d challenges in the final, want 12 + 4 tiebreak games + the armageddon", len(asked))
		}
		h, w := final.Home, final.Away
		var ties []string
		for _, q := range asked[12:16] {
			ties = append(ties, q.Form.Get("name")+" "+q.Form.Get("users")+" "+q.Form.Get("clock.limit")+"+"+q.Form.Get("clock.increment"))
		}
		want := []string{
			"ACWC 2023 · round 2 · tiebreak game 1 " + h + "," + w + " 60+2",
			"ACWC 2023 · round 2 · tiebreak game 2 " + w + "," + h + " 60+2",
			"ACWC 2023 · round 2 · tiebreak game 3 " + h + "," + w + " 60+2",
			"ACWC 2023 · round 2 · tiebreak game 4 " + w + "," + h + " 60+2",
		}
		if !slices.Equal(ties, want) {
			t.Fatalf("tiebreak games\n%s\nwant\n%s", strings.Join(ties, "\n"), strings.Join(want, "\n"))
		}
		if q := asked[16].Form; q.Get("name") != "ACWC 2023 · round 2 · armageddon" || q.Get("users") != h+","+w || q.Get("clock.limit") != "120" {
			t.Fatalf("final's armageddon %v", q)
		}
		im = must(s.ImportedSheet(ctx, td, "ko", final.ID))
		if !im.Complete || tieOf(t, im) != `{"games":["1","0","1","0"],"armageddon":{"home_bid":150,"away_bid":170,"white":"home","result":"1"}}` {
			t.Fatalf("final import: %s %+v", im.Sheet, im.Findings)
		}
		m := must(s.Matches(ctx, "ko", ""))[2]
		if m.Status != arbiter.MatchReported || m.Result.Result != "home_win" || m.Result.DecidedBy != "armageddon" {
			t.Fatalf("final: %s %+v", m.Status, m.Result)
		}
		mv := must(s.MatchView(ctx, nil, "ko", final.ID))
		if n := len(mv.Games); n != 17 || mv.Games[16].Tie != TieArmageddon || mv.Games[12].Tie != TieGame || mv.Games[12].Number != 1 {
			t.Fatalf("the final's games on its page: %d %+v", n, mv.Games[12:])
		}
	})
}

// TestLichessCupTie runs the antichess cup's knockout (A20) through the
// fake Lichess: the preset's knockout stage alone with 4 teams (3 boards,
// A9), each board playing 2 games of 0+2 (6 points a win) to keep it
// short. Semifinal team-01 v team-04: White wins every game, so each
// board is 1-1 and the match 18-18. The captains met on board 1 and drew
// it: no advantage point. The captains play the 4 games of 3+0 (cap01
// White in the first, alternating), White winning each: 2-2, so the
// armageddon: cap01 bid 60 s, cap04 130 s, so cap01 plays White, created
// with 60+0, and loses it. team-04 wins the tie; the sheet from Lichess
// carries the captains' board, the four games and the armageddon. The
// other semifinal (home wins every game) has no tie.
func TestLichessCupTie(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("antichess-team-cup"))
		f.Name, f.Stages = "cup-ko", f.Stages[1:]
		f.MinEntrants, f.Calendar.Negotiation = 4, nil
		ko := &f.Stages[0]
		ko.ThirdPlace, ko.ThirdPlaceMatch, ko.Final = false, nil, nil
		win, draw := arbiter.P(6), arbiter.P(3)
		ko.Match.Parts = []format.Part{{TC: format.TimeControl{IncrementSeconds: 2}, Games: 2, Win: &win, Draw: &draw}}
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "cup", Name: "Cup", Format: doc.Bytes(), Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "cup", 4, 10, false)
		must(s.CloseRegistration(ctx, td, "cup"))
		players := submitCupBoards(t, s, "cup", 4)
		r := newLichessRig(t, s, c, players...)
		semis := pairOK(s.PairRound(ctx, td, "cup"))
		a, b := semis[0], semis[1]
		if a.Home != "team-01" || a.Away != "team-04" || a.HomeCaptain != "cap01" || a.AwayCaptain != "cap04" || a.HomeBoards[0] != "cap01" || a.AwayBoards[0] != "cap04" {
			t.Fatalf("semifinal %+v", a)
		}
		must(s.PublishRound(ctx, td, "cup"))
		c.t = utc(2025, 1, 7, 12, 0)
		sealBidsAs(t, s, "cup", a, [2]string{"cap01", "cap04"}, 60, 130)
		runJobs(t, s, c)
		homeB := map[string]bool{}
		for _, p := range b.HomeBoards {
			homeB[p] = true
		}
		r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			switch {
			case strings.HasSuffix(p.Name, "armageddon"):
				return lichesstest.BlackWins
			case homeB[p.White]:
				return lichesstest.WhiteWins
			case homeB[p.Black]:
				return lichesstest.BlackWins
			}
			return lichesstest.WhiteWins
		})
		var ties []string
		for _, q := range challengesNamed(r, "") {
			if n := q.Form.Get("name"); strings.Contains(n, "tiebreak") || strings.Contains(n, "armageddon") {
				ties = append(ties, n+" "+q.Form.Get("users")+" "+q.Form.Get("clock.limit")+"+"+q.Form.Get("clock.increment")+" "+q.Form.Get("variant"))
			}
		}
		want := []string{
			"Cup · round 1 · tiebreak game 1 cap01,cap04 180+0 antichess",
			"Cup · round 1 · tiebreak game 2 cap04,cap01 180+0 antichess",
			"Cup · round 1 · tiebreak game 3 cap01,cap04 180+0 antichess",
			"Cup · round 1 · tiebreak game 4 cap04,cap01 180+0 antichess",
			"Cup · round 1 · armageddon cap01,cap04 60+0 antichess",
		}
		if !slices.Equal(ties, want) {
			t.Fatalf("tie games\n%s\nwant\n%s", strings.Join(ties, "\n"), strings.Join(want, "\n"))
		}
		if n := len(challengesAsked(r.f)); n != 2*3*2+5 {
			t.Fatalf("%d challenges, want 12 games on the boards and the 5 of the tie", n)
		}
		im := must(s.ImportedSheet(ctx, td, "cup", a.ID))
		if !im.Complete || tieOf(t, im) != `{"games":["1","0","1","0"],"armageddon":{"home_bid":60,"away_bid":130,"white":"home","result":"0"}}` {
			t.Fatalf("semifinal import: %s %+v", im.Sheet, im.Findings)
		}
		for _, m := range must(s.Matches(ctx, "cup", "")) {
			want := map[string]string{a.ID: "away_win", b.ID: "home_win"}[m.ID]
			if m.Status != arbiter.MatchReported || m.Result.Result != want {
				t.Fatalf("semifinal %s: %s %+v, want %s", m.ID, m.Status, m.Result, want)
			}
			if m.ID == a.ID && (m.Result.DecidedBy != "armageddon" || m.Result.Home.Points != arbiter.P(18)) {
				t.Fatalf("semifinal 1: %+v", m.Result)
			}
		}
		rep := must(s.Reports(ctx, arbiter.NamedUser(td.Name), "cup", a.ID))
		if len(rep) != 1 || rep[0].Sheet.Tie == nil || rep[0].Sheet.Tie.CaptainsBoard != 1 {
			t.Fatalf("the report from Lichess: %+v", rep)
		}
	})
}
