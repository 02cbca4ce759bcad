package trf

import (
	"sort"

	"arbiter"
)

// NextRound describes the round a pairing engine is asked to pair.
type NextRound struct {
	// Played is the number of rounds with results: the last round in which
	// some player has a game (opponent) with a result.
	Played int
	// Round is the round to pair, Played+1.
	Round int
	// Byes maps the players who must not be paired in Round to their
	// pre-assigned code: 'H', 'F', 'Z' (or '+', '-', 'U' if the file says
	// so) from the round column ("0000 - H"), 240 records for Round, and
	// XXZ ('Z').
	Byes map[int]byte
	// Unavailable lists the keys of Byes in increasing order.
	Unavailable []int
	// Paired lists games already entered for Round (opponent and colour,
	// no result), White first; such players are not to be paired again.
	Paired [][2]int
	// Forbidden lists the groups of players that may not meet in Round
	// (XXP, and 260 records whose range covers Round).
	Forbidden [][]int
}

// NextRound computes the pairing engine's view of the file: rounds played,
// the round to pair, and who must not be paired in it.
func (f *File) NextRound() NextRound {
	n := NextRound{Played: f.RoundsPlayed()}
	n.Round = n.Played + 1
	n.Byes = map[int]byte{}
	seen := map[[2]int]bool{}
	for i := range f.Players {
		p := &f.Players[i]
		r := p.Round(n.Round)
		switch {
		case r.Opponent != 0 && r.Result == ' ':
			w, b := p.ID, r.Opponent
			if r.Colour == 'b' {
				w, b = b, w
			}
			if k := [2]int{min(w, b), max(w, b)}; !seen[k] {
				seen[k] = true
				n.Paired = append(n.Paired, [2]int{w, b})
			}
		case r.Opponent == 0 && r.Result != ' ':
			n.Byes[p.ID] = r.Result
		}
	}
	for _, b := range f.Byes {
		if b.Round == n.Round {
			for _, id := range b.IDs {
				n.Byes[id] = b.Type
			}
		}
	}
	for _, id := range f.Absent {
		if _, ok := n.Byes[id]; !ok {
			n.Byes[id] = 'Z'
		}
	}
	for id := range n.Byes {
		n.Unavailable = append(n.Unavailable, id)
	}
	sort.Ints(n.Unavailable)
	for _, fp := range f.ForbiddenPairs {
		if fp.Applies(n.Round) {
			n.Forbidden = append(n.Forbidden, fp.IDs)
		}
	}
	return n
}

// RoundsPlayed returns the last round in which some player has a game
// against an opponent with a result (played or forfeited). Byes do not
// count: the round to pair may already hold pre-assigned byes ("0000 - H")
// and, once paired, its PAB ("0000 - U") and games without results.
func (f *File) RoundsPlayed() int {
	played := 0
	for i := range f.Players {
		rs := f.Players[i].Rounds
		for r := len(rs); r > played; r-- {
			x := rs[r-1]
			if x.Opponent != 0 && x.Result != ' ' {
				played = r
				break
			}
		}
	}
	return played
}

// InferredInitialColour returns InitialColour, or when the file does not
// give it, the colour that the best-ranked player who played (or forfeited)
// a game in round 1 received: in round 1 the top player of the first half
// gets the initial colour (C.04.3; the pairing number is the effective one
// among present players, so absent top seeds do not matter). 0 when round
// 1 has no game.
func (f *File) InferredInitialColour() byte {
	if f.InitialColour != 0 {
		return f.InitialColour
	}
	best, colour := 0, byte(0)
	for i := range f.Players {
		p := &f.Players[i]
		r := p.Round(1)
		if r.Opponent != 0 && (r.Colour == 'w' || r.Colour == 'b') && (best == 0 || p.ID < best) {
			best, colour = p.ID, r.Colour
		}
	}
	return colour
}

// Acceleration returns the fictitious points added to participant id's
// score when pairing round r: its XXA value for r plus the game points of
// every 250 record covering id and r.
func (f *File) Acceleration(id, r int) arbiter.Points {
	var sum arbiter.Points
	for _, a := range f.Accelerations {
		if a.Player == id && r >= 1 && r <= len(a.Points) {
			sum += a.Points[r-1]
		}
	}
	for _, a := range f.AccelerationRanges {
		if id >= a.FirstID && id <= a.LastID && r >= a.FirstRound && r <= a.LastRound {
			sum += a.GamePoints
		}
	}
	return sum
}
