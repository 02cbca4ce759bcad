package app

import (
	"strings"
	"testing"
	"time"

	"arbiter/score"
)

func TestSheetForfeits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		sheet      score.Sheet
		home, away int
	}{
		{"played", score.Sheet{Parts: []score.PartSheet{{Results: score.Results{"1", "0", "="}}}}, 0, 0},
		// "+" is a forfeit win for home: away forfeited; "--" both; "=F" nobody.
		{"games", score.Sheet{Parts: []score.PartSheet{{Results: score.Results{"+", "-", "--", "=F", "1"}}}}, 2, 2},
		{"part to home", score.Sheet{Sets: []score.PartSheet{{Forfeit: "home"}, {Results: score.Results{"1"}}}}, 0, 1},
		{"full draw part", score.Sheet{Sets: []score.PartSheet{{Forfeit: "full_draw"}}}, 0, 0},
		{"board double, game lost by home", score.Sheet{Boards: []score.BoardSheet{{Forfeit: "double"}, {Parts: []score.PartSheet{{Results: score.Results{"-"}}}}}}, 2, 1},
	} {
		if h, a := sheetForfeits(&c.sheet); h != c.home || a != c.away {
			t.Errorf("%s: %d-%d, want %d-%d", c.name, h, a, c.home, c.away)
		}
	}
}

// TestGameForfeitsCount: W16 counts forfeits inside played matches and
// W14's "both failed to make three offers: both count a forfeited game".
// Round 1: board 1's home player forfeits one game; board 2's players make
// no offers (a W14 draw, one forfeit each); the rest draw 5-5 without
// forfeits. Round 2: board 1's home player and board 2's away player each
// forfeit one game: they have forfeited in two matches, nobody else has.
func TestGameForfeitsCount(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = utc(2023, 3, 25, 0, 0) // after the offer deadline
		sheet := func(res string) ResultInput {
			return ResultInput{Sheet: []byte(`{"parts": [{"tc": "1+2", "results": "` + res + `"}]}`)}
		}
		must(s.OverrideResult(ctx, td, "wc", ms[0].ID, sheet("- 1 1 1 1 1 1"), "from Lichess: game 1 not started by home", 0))
		must2(s.Negotiate(ctx, td, "wc", ms[1].ID, NegotiationStep{Kind: NegExpire}))
		for _, m := range ms[2:] {
			must(s.OverrideResult(ctx, td, "wc", m.ID, ResultInput{Summary: "5-5"}, "from Lichess", 0))
		}
		c.t = ev.Calendar[0].End
		if rd := must(s.CloseRound(ctx, td, "wc")); len(rd.Notes) != 0 {
			t.Fatalf("after one forfeit each: %v", rd.Notes)
		}
		a, b := ms[0].Home, ms[1].Away
		ms2 := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = ev.Calendar[1].Start.Add(48 * time.Hour)
		for _, m := range ms2 {
			toks := []string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "="}
			if m.Home == a || m.Home == b {
				toks[0] = "-"
			}
			if m.Away == a || m.Away == b {
				toks[1] = "+"
			}
			must(s.OverrideResult(ctx, td, "wc", m.ID, sheet(strings.Join(toks, " ")), "from Lichess", 0))
		}
		c.t = ev.Calendar[1].End
		rd := must(s.CloseRound(ctx, td, "wc"))
		if len(rd.Notes) != 2 {
			t.Fatalf("notes %v, want %s and %s", rd.Notes, a, b)
		}
		for _, n := range rd.Notes {
			if !(strings.HasPrefix(n, a+" ") || strings.HasPrefix(n, b+" ")) || !strings.Contains(n, "W16 disqualifies") {
				t.Fatalf("note %q, want %s and %s under W16", n, a, b)
			}
		}
	})
}
