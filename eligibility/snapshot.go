// Package eligibility judges whether a Lichess account may enter an event:
// the rulebooks' eligibility clauses (A2, W1) as data, evaluated over a
// snapshot of what Lichess showed, at a time given by the caller. It does
// no I/O; what the public API cannot show (cheat-detected games, bans in
// the past, other accounts) comes back "unknown — TD must confirm".
package eligibility

import "time"

// Perf is the account's antichess rating at the snapshot.
type Perf struct {
	Games       int // rated antichess games, all time
	Rating      int
	RD          int
	Provisional bool
}

// GameCount is a count of the account's rated antichess games created in
// [From, To) (a zero From means since the account began), as counted from
// the games export (GamesOfUser with PerfType antichess, Rated true).
type GameCount struct {
	From, To time.Time
	Games    int
	// AtLeast: the count stopped at Games (a capped export, GamesQuery.Max);
	// there may be more. Such a count is only a lower bound of its window.
	AtLeast bool
}

// Snapshot is what Lichess showed about one account. Fill it with
// lichess.EligibilitySnapshot and, where a rule needs them, add game Counts.
type Snapshot struct {
	Username     string
	FetchedAt    time.Time // when the profile was read
	Closed       bool      // Lichess "disabled": the account is closed
	TosViolation bool      // Lichess marks the account (engine or booster)
	Bot          bool
	Title        string
	CreatedAt    time.Time // zero when Lichess does not show it (closed accounts)
	Antichess    *Perf     // nil: no rated antichess game (Lichess omits the perf)
	Counts       []GameCount
}

// counts returns the snapshot's counts plus the profile's total (a count
// from the beginning up to FetchedAt).
func (s *Snapshot) counts() []GameCount {
	out := append([]GameCount(nil), s.Counts...)
	if !s.Closed && !s.FetchedAt.IsZero() {
		total := 0
		if s.Antichess != nil {
			total = s.Antichess.Games
		}
		out = append(out, GameCount{To: s.FetchedAt, Games: total})
	}
	return out
}

// gameBounds bounds the number of rated antichess games created in [a, b)
// (zero a: since the beginning) from the counts: a count inside the window
// is a lower bound, one covering it an upper bound; and for a window from
// the beginning, total-minus-since-b gives a bound on either side. A count
// cut short (AtLeast) is only ever a lower bound of the games it counts.
func gameBounds(counts []GameCount, a, b time.Time) (lo, hi int, hasLo, hasHi bool) {
	setLo := func(n int) {
		if !hasLo || n > lo {
			lo, hasLo = n, true
		}
	}
	setHi := func(n int) {
		if !hasHi || n < hi {
			hi, hasHi = n, true
		}
	}
	for _, c := range counts {
		inside := !c.From.Before(a) && !c.To.After(b)
		covers := !c.From.After(a) && !c.To.Before(b)
		if inside {
			setLo(c.Games)
		}
		if covers && !c.AtLeast {
			setHi(c.Games)
		}
	}
	if !a.IsZero() {
		return
	}
	for _, t := range counts {
		if !t.From.IsZero() || t.To.Before(b) || t.AtLeast {
			continue
		}
		for _, c := range counts {
			if !c.From.Equal(b) {
				continue
			}
			// before(b) = t - games in [b, t.To). c counts [b, c.To), or
			// at least c.Games of them when cut (then only t - c.Games
			// from above holds).
			if !c.To.Before(t.To) && !c.AtLeast {
				setLo(t.Games - c.Games)
			}
			if !c.To.After(t.To) {
				setHi(t.Games - c.Games)
			}
		}
	}
	return
}
