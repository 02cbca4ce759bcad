// Package berger generates round-robin schedules from the FIDE Berger
// tables (Handbook C.05 Annex 1): who meets whom in which round, on which
// board, and who has White. Seeds are the pairing numbers 1..n, drawn by
// lot before the event; the package does no drawing of its own.
//
// The tables are produced by a closed form instead of being stored, so any
// field size works; the tests check it against the published tables for
// 3..16 players. With an odd number of players the highest pairing number
// (n+1) is a dummy: whoever meets it has the bye that round.
package berger

import (
	"arbiter"
)

// Limits that keep a schedule's size reasonable; a round robin of more than
// a few dozen entrants is never run, but the generator stays exact beyond.
const (
	MaxEntrants = 1000
	MaxCycles   = 10
)

// Pair is one game (or team match) of a round: White (home) against Black (away),
// both 1-based seeds. The board is the pair's index in Round.Pairs plus one.
type Pair struct {
	White int `json:"white"`
	Black int `json:"black"`
}

// Round is one round of the schedule. Number counts from 1 over all cycles;
// Cycle is the cycle it belongs to (1, 2, ...) and TableRound the round of
// the Berger table it reproduces (a double round robin's first cycle plays
// the table's last two rounds in reverse order, see Schedule). Bye is the
// seed that sits out (odd fields only), 0 otherwise.
type Round struct {
	Number     int    `json:"number"`
	Cycle      int    `json:"cycle"`
	TableRound int    `json:"table_round"`
	Pairs      []Pair `json:"pairs"`
	Bye        int    `json:"bye,omitempty"`
}

// Options tune Generate.
type Options struct {
	// Cycles is how many times everyone meets everyone (1 single, 2 double
	// round robin). Zero means 1.
	Cycles int
	// KeepOrder plays every cycle in the table's round order. By default a
	// cycle followed by another has its last two rounds swapped, as C.05
	// Annex 1 recommends for double round robins.
	KeepOrder bool
}

// Schedule returns the full schedule for n entrants (seeds 1..n) over the
// given number of cycles, with the FIDE recommendation for multi-cycle
// events applied: every cycle but the last plays the table's last two
// rounds in reverse order, and even-numbered cycles reverse the colours.
func Schedule(n, cycles int) ([]Round, error) {
	return Generate(n, Options{Cycles: cycles})
}

// Generate is Schedule with options.
func Generate(n int, opt Options) ([]Round, error) {
	if n < 2 || n > MaxEntrants {
		return nil, arbiter.FieldError("entrants", "round_robin.entrants", "a round robin needs 2 to %d entrants, got %d", MaxEntrants, n)
	}
	cycles := opt.Cycles
	if cycles == 0 {
		cycles = 1
	}
	if cycles < 1 || cycles > MaxCycles {
		return nil, arbiter.FieldError("cycles", "round_robin.cycles", "cycles must be 1 to %d, got %d", MaxCycles, cycles)
	}
	size := n + n%2 // odd fields get the dummy n+1
	m := size - 1   // rounds per cycle
	order := make([]int, m)
	for i := range order {
		order[i] = i + 1
	}
	var out []Round
	for c := 1; c <= cycles; c++ {
		seq := order
		if c < cycles && !opt.KeepOrder && m >= 3 {
			// C.05 Annex 1: "reverse the order of the last two rounds of the
			// first cycle" so that no one has three games in a row with the
			// same colour where the cycles meet. Applied to every cycle
			// that another follows (a generalisation beyond two cycles).
			seq = append([]int(nil), order...)
			seq[m-2], seq[m-1] = seq[m-1], seq[m-2]
		}
		for _, tr := range seq {
			r := tableRound(size, tr, n)
			if c%2 == 0 { // second, fourth, ... cycle: colours reversed
				for i, p := range r.Pairs {
					r.Pairs[i] = Pair{White: p.Black, Black: p.White}
				}
			}
			r.Number = len(out) + 1
			r.Cycle = c
			out = append(out, r)
		}
	}
	return out, nil
}

// Table returns round r (1..size-1) of the single-cycle Berger table for an
// even size, exactly as printed, dummy included (no bye handling). It is
// exported for tests and for printing the bare table.
func Table(size, r int) ([]Pair, error) {
	if size < 2 || size%2 != 0 || size > MaxEntrants+1 {
		return nil, arbiter.FieldError("size", "round_robin.table", "a Berger table has an even size from 2 to %d, got %d", MaxEntrants+1, size)
	}
	if r < 1 || r > size-1 {
		return nil, arbiter.FieldError("round", "round_robin.table", "the table for %d has rounds 1 to %d, got %d", size, size-1, r)
	}
	return tablePairs(size, r), nil
}

// tableRound builds round tr of the table for an even size and turns the
// game against the dummy (seed n+1 when n is odd) into the bye.
func tableRound(size, tr, n int) Round {
	r := Round{TableRound: tr}
	for _, p := range tablePairs(size, tr) {
		switch {
		case p.White > n:
			r.Bye = p.Black
		case p.Black > n:
			r.Bye = p.White
		default:
			r.Pairs = append(r.Pairs, p)
		}
	}
	return r
}

// tablePairs is the closed form of the Berger table (size even, m = size-1
// rounds). The pivot, seed `size`, stays put while 1..m rotate: in round r
// the pivot meets the p with 2p ≡ r+1 (mod m) and has Black in odd rounds,
// White in even ones. The other boards pair i and j with i+j ≡ r+1 (mod m);
// going down the boards White runs p+1, p+2, ... (mod m), which is the
// player for whom the partner lies an odd number of steps ahead.
func tablePairs(size, r int) []Pair {
	m := size - 1
	if m == 1 {
		return []Pair{{White: 1, Black: 2}}
	}
	mod := func(x int) int { // 1..m
		x %= m
		if x <= 0 {
			x += m
		}
		return x
	}
	var p int
	if r%2 == 1 {
		p = (r + 1) / 2
	} else {
		p = (r + size) / 2
	}
	pairs := make([]Pair, 0, size/2)
	if r%2 == 1 {
		pairs = append(pairs, Pair{White: p, Black: size})
	} else {
		pairs = append(pairs, Pair{White: size, Black: p})
	}
	for k := 2; k <= size/2; k++ {
		w := mod(p + k - 1)
		b := mod(r + 1 - w)
		pairs = append(pairs, Pair{White: w, Black: b})
	}
	return pairs
}
