package trf

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"arbiter"
	"arbiter/pairing"
)

// GenerateOptions describes a synthetic tournament for tests and benchmarks.
type GenerateOptions struct {
	Players int
	Rounds  int    // rounds to play
	Total   int    // rounds announced (XXR); at least Rounds+1 so that the next round can be paired
	Seed    uint64 // the same seed gives the same tournament
	// AbsentPermille is the chance (per thousand) that a player misses a
	// round (written as "0000 - Z" before the round is paired).
	AbsentPermille int
	// Greedy pairs the history with a fast greedy pairing (score order,
	// first opponent not met yet) instead of the engine: O(n^2) per round,
	// for building large benchmark inputs quickly.
	Greedy bool
}

// Generate plays a tournament with the pairing engine pair (dutch.Pair) and
// random results (deterministic by seed): White wins 40%, draws 25%, Black
// wins 30%, forfeits 5%. It returns the TRF after opts.Rounds rounds. It
// lives here, not beside the engine, so that engines never import a file
// format.
func Generate(opts GenerateOptions, pair func(*pairing.Tournament) ([]pairing.Pair, error)) (*File, error) {
	if opts.Players < 2 || opts.Players > 9999 {
		return nil, arbiter.FieldError("players", "generator", "between 2 and 9999 players, got %d", opts.Players)
	}
	if opts.Total <= opts.Rounds {
		opts.Total = opts.Rounds + 1
	}
	r := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	f := &File{
		Version:       2016,
		Name:          fmt.Sprintf("synthetic n=%d rounds=%d seed=%d", opts.Players, opts.Rounds, opts.Seed),
		TotalRounds:   opts.Total,
		InitialColour: 'w',
		PointSystem:   DefaultPointSystem(),
	}
	for i := 1; i <= opts.Players; i++ {
		f.Players = append(f.Players, Player{
			ID:     i,
			Name:   fmt.Sprintf("Player%04d, Test", i),
			Rating: 2700 - (1500*(i-1))/opts.Players,
		})
	}
	ps := f.PointSystem
	for round := 1; round <= opts.Rounds; round++ {
		for i := range f.Players {
			p := &f.Players[i]
			for len(p.Rounds) < round-1 {
				p.Rounds = append(p.Rounds, Round{Colour: '-', Result: 'Z'})
			}
			if round > 1 && r.IntN(1000) < opts.AbsentPermille {
				p.Rounds = append(p.Rounds, Round{Colour: '-', Result: 'Z'})
			}
		}
		t, err := PairingInput(f)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		var pairs []pairing.Pair
		if opts.Greedy {
			pairs = greedyPairs(t)
		} else if pairs, err = pair(t); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		for _, pr := range pairs {
			w := &f.Players[pr.White]
			if pr.Black < 0 {
				w.Rounds = append(w.Rounds, Round{Colour: '-', Result: 'U'})
				w.Points += ps.PAB
				continue
			}
			b := &f.Players[pr.Black]
			wr, br := byte('1'), byte('0')
			switch x := r.IntN(100); {
			case x < 40:
			case x < 65:
				wr, br = '=', '='
			case x < 95:
				wr, br = '0', '1'
			case x < 98:
				wr, br = '+', '-'
			default:
				wr, br = '-', '+'
			}
			w.Rounds = append(w.Rounds, Round{Opponent: b.ID, Colour: 'w', Result: wr})
			b.Rounds = append(b.Rounds, Round{Opponent: w.ID, Colour: 'b', Result: br})
			w.Points += resultPoints(ps, wr)
			b.Points += resultPoints(ps, br)
		}
	}
	return f, nil
}

func resultPoints(ps PointSystem, c byte) arbiter.Points {
	switch c {
	case '1':
		return ps.Win
	case '=':
		return ps.Draw
	case '+':
		return ps.ForfeitWin
	case '-':
		return ps.ForfeitLoss
	}
	return ps.Loss
}

// greedyPairs pairs players in score order with the first player below not
// met yet (a rematch only when nobody else is left); the odd one out gets the
// PAB. White goes to the player with fewer whites.
func greedyPairs(t *pairing.Tournament) []pairing.Pair {
	var order []int
	for i, p := range t.Players {
		if !p.Absent {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Players[order[a]].Score > t.Players[order[b]].Score })
	met := func(a, b int) bool {
		for _, g := range t.Players[a].Games {
			if g.Opponent == b {
				return true
			}
		}
		return false
	}
	whites := func(a int) int {
		n := 0
		for _, g := range t.Players[a].Games {
			if g.Played && g.Colour == pairing.White {
				n++
			}
		}
		return n
	}
	used := make([]bool, len(order))
	var pairs []pairing.Pair
	for i := range order {
		if used[i] {
			continue
		}
		j := -1
		for k := i + 1; k < len(order); k++ {
			if !used[k] && (j < 0 || !met(order[i], order[k])) {
				if j < 0 {
					j = k
				}
				if !met(order[i], order[k]) {
					j = k
					break
				}
			}
		}
		used[i] = true
		if j < 0 {
			pairs = append(pairs, pairing.Pair{White: order[i], Black: -1})
			continue
		}
		used[j] = true
		a, b := order[i], order[j]
		if whites(a) > whites(b) {
			a, b = b, a
		}
		pairs = append(pairs, pairing.Pair{White: a, Black: b})
	}
	return pairs
}
