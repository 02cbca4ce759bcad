package web

import (
	"testing"

	"arbiter"
)

// TestResultFor reads results from either side: the symbol, the word,
// the score with the side's own points first, and the note of a result
// not played over the board (worded neutrally: Outcome.Decision is the
// home side's).
func TestResultFor(t *testing.T) {
	t.Parallel()
	side := func(mp, pts float64) arbiter.SideScore {
		return arbiter.SideScore{MatchPoints: arbiter.P(mp), Points: arbiter.P(pts)}
	}
	final := func(o arbiter.Outcome) arbiter.Match {
		return arbiter.Match{ID: "m", Home: "h", Away: "a", Status: arbiter.MatchFinal, Result: &o}
	}
	for _, c := range []struct {
		name string
		m    arbiter.Match
		id   string
		want sideResult
	}{
		{"home win, home", final(arbiter.Outcome{Result: "home_win", Decision: "played", Home: side(1, 6), Away: side(0, 4)}), "h",
			sideResult{Sym: "1", Word: "won", Score: "6–4"}},
		{"home win, away", final(arbiter.Outcome{Result: "home_win", Decision: "played", Home: side(1, 6), Away: side(0, 4)}), "a",
			sideResult{Sym: "0", Word: "lost", Score: "4–6"}},
		{"draw", final(arbiter.Outcome{Result: "draw", Decision: "played", Home: side(0.5, 5), Away: side(0.5, 5)}), "a",
			sideResult{Sym: "½", Word: "drew", Score: "5–5"}},
		{"away forfeit win", final(arbiter.Outcome{Result: "away_win", Decision: "forfeit_loss", Home: side(0, 0), Away: side(1, 576)}), "a",
			sideResult{Sym: "+", Word: "won", Score: "576–0", Note: "by forfeit"}},
		{"double forfeit", final(arbiter.Outcome{Result: "double_loss", Decision: "double_forfeit"}), "h",
			sideResult{Sym: "−", Word: "lost", Score: "0–0", Note: "double forfeit"}},
		{"armageddon", final(arbiter.Outcome{Result: "away_win", Decision: "played", DecidedBy: "armageddon", Home: side(0, 5), Away: side(1, 5)}), "a",
			sideResult{Sym: "1", Word: "won", Score: "5–5", Note: "after armageddon"}},
		{"reported", arbiter.Match{Home: "h", Away: "a", Status: arbiter.MatchReported, Result: &arbiter.Outcome{Result: "home_win"}}, "h",
			sideResult{Word: "reported"}},
		{"disregarded", arbiter.Match{Home: "h", Away: "a", Status: arbiter.MatchFinal, Decision: "disregarded"}, "a",
			sideResult{Word: "disregarded", Note: "disregarded (withdrawal)"}},
	} {
		if got := resultFor(c.m, c.id); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	bye := arbiter.Match{Home: "h", Status: arbiter.MatchFinal, Result: &arbiter.Outcome{Result: "home_win", Decision: "pairing_bye", Home: side(1, 0)}}
	if got := resultFor(bye, "h"); got != (sideResult{Sym: "+", Word: "won", Note: "pairing bye"}) {
		t.Errorf("bye %+v", got)
	}
	if got := matchLine(bye, "H", ""); got != "H won (pairing bye)" {
		t.Errorf("bye line %q", got)
	}
}
