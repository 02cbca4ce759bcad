package pairing

import (
	"slices"
	"testing"

	"arbiter"
)

// One round of four entrants: a played win, a forfeit and a bye, as the
// app stores them, become the engine's histories and scores.
func TestFromMatches(t *testing.T) {
	t.Parallel()
	win := &arbiter.Outcome{Decision: "played", Home: arbiter.SideScore{MatchPoints: 100}}
	forfeit := &arbiter.Outcome{Decision: "forfeit_win", Home: arbiter.SideScore{MatchPoints: 100}}
	ids := []string{"a", "b", "c", "d", "e"}
	rounds := [][]arbiter.Match{{
		{Home: "a", Away: "c", Result: win},
		{Home: "d", Away: "b", Result: forfeit},
		{Home: "e"},
	}}
	tr := FromMatches(ids, []bool{false, false, false, false, true}, rounds, 100, 50, 0, 5, Black)
	if tr.PlayedRounds != 1 || tr.TotalRounds != 5 || tr.InitialColour != Black {
		t.Fatalf("tournament %+v", tr)
	}
	want := []Game{
		{Opponent: 2, Colour: White, Outcome: Win, Played: true, Paired: true},
		{Opponent: 3, Outcome: Loss, Paired: true},
		{Opponent: 0, Colour: Black, Outcome: Loss, Played: true, Paired: true},
		{Opponent: 1, Outcome: Win, Paired: true},
		{Opponent: -1, Outcome: Win, Paired: true},
	}
	scores := []arbiter.Points{100, 0, 0, 100, 100}
	for i, p := range tr.Players {
		if p.Games[0] != want[i] || p.Score != scores[i] || p.ID != i+1 || p.Absent != (i == 4) {
			t.Errorf("player %s: %+v score %s, want %+v score %s", ids[i], p, p.Score, want[i], scores[i])
		}
	}
	// Boards: the higher score first, then the better seed; the bye last.
	got := Boards(tr, ids, []Pair{{White: 4, Black: -1}, {White: 2, Black: 1}, {White: 3, Black: 0}})
	if w := [][2]string{{"d", "a"}, {"c", "b"}, {"e", ""}}; !slices.Equal(got, w) {
		t.Errorf("boards %v, want %v", got, w)
	}
}
