package standings

import (
	"math/rand/v2"
	"slices"
	"strconv"

	"arbiter"
)

// genSwiss builds a synthetic individual Swiss: players sorted by score are
// paired top-down each round (repeats allowed; only the input shape
// matters), an odd player out gets the PAB, and a few rounds are forfeits,
// double forfeits, half-point byes or absences.
func genSwiss(rng *rand.Rand, n, rounds int) Input {
	in := Input{Entrants: make([]Entrant, n), Rounds: make([][]Result, rounds)}
	score := make([]arbiter.Points, n)
	for i := range in.Entrants {
		in.Entrants[i] = Entrant{ID: "p" + strconv.Itoa(i+1), Rating: 1000 + rng.IntN(1500), Seed: i + 1}
	}
	order := make([]int, n)
	for r := range rounds {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return int(score[b] - score[a]) })
		var active []int
		for _, i := range order {
			switch x := rng.IntN(100); {
			case x < 2:
				in.Rounds[r] = append(in.Rounds[r], Result{A: Side{ID: in.Entrants[i].ID, MatchPoints: 50, Secondary: 50}, Decision: HalfBye})
				score[i] += 50
			case x < 3:
				// absent: no result at all
			default:
				active = append(active, i)
			}
		}
		if len(active)%2 == 1 {
			last := active[len(active)-1]
			active = active[:len(active)-1]
			in.Rounds[r] = append(in.Rounds[r], Result{A: Side{ID: in.Entrants[last].ID, MatchPoints: 100, Secondary: 100}, Decision: PairingBye})
			score[last] += 100
		}
		for k := 0; k < len(active); k += 2 {
			a, b := active[k], active[k+1]
			res := Result{A: Side{ID: in.Entrants[a].ID, Colour: White}, B: Side{ID: in.Entrants[b].ID, Colour: Black}}
			var pa, pb arbiter.Points
			switch x := rng.IntN(100); {
			case x < 3:
				res.Decision, pa = ForfeitWin, 100
			case x < 4:
				res.Decision = DoubleForfeit
			case x < 40:
				pa = 100
				res.A.GamesWon = 1
			case x < 65:
				pa, pb = 50, 50
			default:
				pb = 100
				res.B.GamesWon = 1
			}
			res.A.MatchPoints, res.A.Secondary = pa, pa
			res.B.MatchPoints, res.B.Secondary = pb, pb
			score[a] += pa
			score[b] += pb
			in.Rounds[r] = append(in.Rounds[r], res)
		}
	}
	return in
}

// shuffled returns a copy of in with entrants, results and sides permuted.
func shuffled(rng *rand.Rand, in Input) Input {
	out := Input{Scoring: in.Scoring, Entrants: slices.Clone(in.Entrants), Rounds: make([][]Result, len(in.Rounds))}
	rng.Shuffle(len(out.Entrants), func(i, j int) { out.Entrants[i], out.Entrants[j] = out.Entrants[j], out.Entrants[i] })
	for r, rs := range in.Rounds {
		cp := slices.Clone(rs)
		for k, x := range cp {
			if x.B.ID != "" && rng.IntN(2) == 0 {
				x.A, x.B = x.B, x.A
				switch x.Decision {
				case ForfeitWin:
					x.Decision = ForfeitLoss
				case ForfeitLoss:
					x.Decision = ForfeitWin
				}
				cp[k] = x
			}
		}
		rng.Shuffle(len(cp), func(i, j int) { cp[i], cp[j] = cp[j], cp[i] })
		out.Rounds[r] = cp
	}
	return out
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }
