package dutch

import "arbiter/pairing"

// firstRoundShortcut enables firstRound (tests turn it off to compare with
// the matching).
var firstRoundShortcut = true

// firstRound pairs a round in which nobody has a history and every player
// to pair has the same (accelerated) score, without a matching: typically
// round 1 without acceleration, whose one homogeneous bracket of 9999
// players made a local graph of 50 million edges. It reports false, and
// the round is paired by the matching, in any other case (a later round,
// two scores, a player to pair in a forbidden group this round).
//
// Why the result is the engine's (C.04.3 2026): with no games there are no
// rematches, no colour preferences (so C3 cannot apply and C10-C13 are met
// by any pairing), no floats (C14-C21), every player may get the PAB (C2)
// with the same score and no unplayed games (C5, C9). The bracket is
// homogeneous: S1 is the first n/2 players, S2 the rest (Art. 3), and the
// first candidate, S1[i] against S2[i] with the last of S2 left over for
// the PAB when n is odd, meets every criterion, so it is the pairing (the
// first candidate that complies with every criterion is taken). Colours
// and board order are the engine's own (colourFor, sortBoards).
// TestFirstRoundMatchesMatching checks it against the matching.
func (e *engine) firstRound() ([]pairing.Pair, bool) {
	if !firstRoundShortcut || e.played != 0 {
		return nil, false
	}
	sorted := e.sorted
	n := len(sorted)
	if n < 2 {
		return nil, false
	}
	score := e.accScore(sorted[0], 0)
	for _, p := range sorted {
		if len(p.games) != 0 || e.accScore(p, 0) != score || !e.eligibleForBye(p) {
			return nil, false
		}
	}
	for _, p := range sorted {
		if len(e.forb[p.idx]) > 0 { // in a forbidden group this round
			return nil, false
		}
	}
	half := n / 2
	pairs := make([]pairing.Pair, 0, half+1)
	for i := range half {
		p, o := sorted[i], sorted[i+half]
		if e.colourFor(p, o) == pairing.White {
			pairs = append(pairs, pairing.Pair{White: p.idx, Black: o.idx})
		} else {
			pairs = append(pairs, pairing.Pair{White: o.idx, Black: p.idx})
		}
	}
	if n&1 == 1 {
		pairs = append(pairs, pairing.Pair{White: sorted[n-1].idx, Black: -1})
	}
	e.sortBoards(pairs)
	return pairs, true
}
