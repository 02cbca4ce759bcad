package knockout

import (
	"slices"

	"arbiter"
)

// Withdraw removes a seed (withdrawal or disqualification) before their next
// match and lets the players below move up (ACWC W17: "the other players
// below them ... move up one position"):
//
//   - If the seed reached that match by winning a played match, the player
//     they beat moves up into their place. The place that player held in
//     the third-place match (if any, and not yet played) goes to the first
//     unused reserve.
//   - Otherwise (a first-round seed, a seed who got a bye, a player in the
//     third-place match) the first unused reserve takes the place.
//   - With no one to move up, the opponent advances without play.
//
// reserves are the seeds below the bracket's field in the previous stage's
// ranking (e.g. the qualifiers' ranks Entrants+1, Entrants+2, ...), best
// first; those already withdrawn or already in the bracket are skipped.
// Before a stage starts, prefer re-seeding: MoveUp on the ranking, then New.
func (b *Bracket) Withdraw(seed int, reserves []int) error {
	if slices.Contains(b.Withdrawn, seed) {
		return arbiter.Errorf(arbiter.ECONFLICT, "seed %d has already withdrawn", seed)
	}
	m, home := b.nextMatchOf(seed)
	if m == nil {
		if b.inBracket(seed) {
			return arbiter.Errorf(arbiter.ECONFLICT, "seed %d has no match left to play", seed)
		}
		return arbiter.Errorf(arbiter.ENOTFOUND, "seed %d is not in the bracket", seed)
	}
	for i, r := range reserves {
		if r < 1 {
			return arbiter.FieldError("reserves["+itoa(i)+"]", "knockout.reserves", "a reserve is a seed >= 1, got %d", r)
		}
	}
	b.Withdrawn = append(b.Withdrawn, seed)
	src := m.Away
	if home {
		src = m.Home
	}
	up := 0
	if src.Kind == FromWinner {
		f := b.Match(src.Match)
		if l := f.Loser(); l != 0 && !slices.Contains(b.Withdrawn, l) {
			lm := b.Match(f.NextLoser)
			if lm == nil || lm.Winner == 0 || lm.Walkover {
				up = l
				if lm != nil { // the loser leaves the third-place match
					b.setSide(lm, FromLoser, f.ID, b.nextReserve(reserves))
				}
			}
		}
	}
	if up == 0 {
		up = b.nextReserve(reserves)
	}
	if home {
		m.HomeSeed = up
	} else {
		m.AwaySeed = up
	}
	b.resettle(m)
	return nil
}

// setSide puts seed on the side of m fed by (kind, from) and re-decides m.
func (b *Bracket) setSide(m *Match, kind, from string, seed int) {
	if m.Home.Kind == kind && m.Home.Match == from {
		m.HomeSeed = seed
	} else {
		m.AwaySeed = seed
	}
	b.resettle(m)
}

// nextMatchOf finds the undecided match a seed stands in; home tells the side.
func (b *Bracket) nextMatchOf(seed int) (*Match, bool) {
	for r := range b.Rounds {
		for i := range b.Rounds[r].Matches {
			m := &b.Rounds[r].Matches[i]
			if m.Winner != 0 {
				continue
			}
			if m.HomeSeed == seed {
				return m, true
			}
			if m.AwaySeed == seed {
				return m, false
			}
		}
	}
	return nil, false
}

func (b *Bracket) inBracket(seed int) bool {
	for _, rd := range b.Rounds {
		for _, m := range rd.Matches {
			if m.HomeSeed == seed || m.AwaySeed == seed || m.Home.Seed == seed || m.Away.Seed == seed {
				return true
			}
		}
	}
	return false
}

// nextReserve returns the first reserve neither withdrawn nor in the bracket (0 if none).
func (b *Bracket) nextReserve(reserves []int) int {
	for _, r := range reserves {
		if !slices.Contains(b.Withdrawn, r) && !b.inBracket(r) {
			return r
		}
	}
	return 0
}

// MoveUp returns the ranking without the removed entrants, everyone below a
// removed entrant moving up one place per removal (ACWC W17). The input is
// not modified.
func MoveUp[T any](ranking []T, removed func(T) bool) []T {
	out := make([]T, 0, len(ranking))
	for _, e := range ranking {
		if !removed(e) {
			out = append(out, e)
		}
	}
	return out
}
