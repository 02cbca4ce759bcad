package pairing

import (
	"slices"

	"arbiter"
)

// FromMatches is the state before the next round of a Swiss stage as the
// app stores it: ids are the stage's entrants in seed order (pairing
// number i+1), absent marks those not to pair (removed from the event),
// rounds holds the stage's matches round by round (an entrant missing
// from a round was absent), and win, draw and loss are the match points
// (a pairing-allocated bye is worth a win, a forfeit loss a loss).
// Forbidden groups are left to the caller.
func FromMatches(ids []string, absent []bool, rounds [][]arbiter.Match, win, draw, loss arbiter.Points, total int, initial Colour) *Tournament {
	t := &Tournament{PlayedRounds: len(rounds), TotalRounds: total, InitialColour: initial,
		Points: PointSystem{Win: win, Draw: draw, Loss: loss, ForfeitLoss: loss, PairingBye: win}}
	index := make(map[string]int, len(ids))
	games := make([]Game, len(ids)*len(rounds)) // one backing array for every history
	for i, id := range ids {
		index[id] = i
		g := games[i*len(rounds) : (i+1)*len(rounds) : (i+1)*len(rounds)]
		for ri := range g {
			g[ri] = Game{Opponent: -1} // absent unless paired
		}
		t.Players = append(t.Players, Player{ID: i + 1, Games: g, Absent: absent[i]})
	}
	for ri, r := range rounds {
		for k := range r {
			m := &r[k]
			h, okh := index[m.Home]
			if !okh {
				continue
			}
			if m.IsBye() {
				t.Players[h].Games[ri] = Game{Opponent: -1, Outcome: Win, Paired: true}
				continue
			}
			aw, oka := index[m.Away]
			if !oka {
				continue
			}
			ho, ao, played := MatchOutcomes(m.Result, win, draw)
			t.Players[h].Games[ri] = Game{Opponent: aw, Colour: White, Outcome: ho, Played: played, Paired: true}
			t.Players[aw].Games[ri] = Game{Opponent: h, Colour: Black, Outcome: ao, Played: played, Paired: true}
			if !played {
				t.Players[h].Games[ri].Colour, t.Players[aw].Games[ri].Colour = NoColour, NoColour
			}
		}
	}
	for i := range t.Players {
		for _, g := range t.Players[i].Games {
			t.Players[i].Score += t.Points.For(g)
		}
	}
	return t
}

// MatchOutcomes turns a match result into each side's outcome for the
// pairing engine; played is false for forfeits and matches without a
// result (both lose).
func MatchOutcomes(o *arbiter.Outcome, win, draw arbiter.Points) (home, away Outcome, played bool) {
	if o == nil {
		return Loss, Loss, false
	}
	class := func(p arbiter.Points) Outcome {
		switch {
		case p == win && p != draw:
			return Win
		case p == draw:
			return Draw
		}
		return Loss
	}
	return class(o.Home.MatchPoints), class(o.Away.MatchPoints), o.Decision == "played" || o.Decision == ""
}

// Boards names the entrants of a paired round (pairs of t's players, ids
// in t's order) in board order (SortBoards).
func Boards(t *Tournament, ids []string, pairs []Pair) [][2]string {
	out := make([][2]string, 0, len(pairs))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	for _, p := range pairs {
		if p.Black < 0 {
			out = append(out, [2]string{ids[p.White], ""})
			continue
		}
		out = append(out, [2]string{ids[p.White], ids[p.Black]})
	}
	SortBoards(t, index, out)
	return out
}

// SortBoards puts a round's boards (entrant IDs; "" as the second for the
// bye) in board order: the higher score on the board first, then the
// better seed (C.04.2 D); the bye last. index maps an ID to its player in
// t.
func SortBoards(t *Tournament, index map[string]int, boards [][2]string) {
	score := func(id string) arbiter.Points {
		if id == "" {
			return 0
		}
		return t.Players[index[id]].Score
	}
	seed := func(id string) int {
		if id == "" {
			return 1 << 30
		}
		return index[id]
	}
	slices.SortStableFunc(boards, func(a, b [2]string) int {
		if (a[1] == "") != (b[1] == "") {
			if a[1] == "" {
				return 1
			}
			return -1
		}
		sa, sb := max(score(a[0]), score(a[1])), max(score(b[0]), score(b[1]))
		if sa != sb {
			return int(sb - sa)
		}
		return min(seed(a[0]), seed(a[1])) - min(seed(b[0]), seed(b[1]))
	})
}
