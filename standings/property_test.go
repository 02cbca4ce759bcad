package standings

import (
	"math/rand/v2"
	"testing"

	"arbiter"

	"github.com/google/go-cmp/cmp"
)

// The order must not depend on the order of the input (entrants, results
// within a round, which side is A), and every tie must be either broken
// or marked shared.
func TestOrderIndependentOfInputOrder(t *testing.T) {
	lists := [][]string{
		{"BH/C1", "BH", "SB", "PS", "WIN", "DE"},
		{"DE", "SB/M1", "ARO", "TPR", "AOB", "FB"},
		{"head_to_head", "wins_vs_tied", "median_buchholz", "cumulative"},
		{}, // only the final fallback
	}
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		in := genSwiss(rng, 5+rng.IntN(40), 1+rng.IntN(9))
		for _, ids := range lists {
			tbs, err := ParseTiebreaks(ids)
			if err != nil {
				t.Fatal(err)
			}
			for _, ed := range []string{Edition2024, Edition2026} {
				want, err := Compute(in, tbs, Options{Edition: ed})
				if err != nil {
					t.Fatal(err)
				}
				checkTotalOrder(t, want)
				for k := 0; k < 3; k++ {
					got, err := Compute(shuffled(rng, in), tbs, Options{Edition: ed})
					if err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("seed %d %v %s: table depends on input order (-want +got):\n%s", seed, ids, ed, d)
					}
				}
			}
		}
	}
}

// checkTotalOrder: ranks are 1, then the row position + 1 of the first of
// each tied run; Shared is set exactly on runs of more than one row; scores
// never increase; within a shared run the scores are equal.
func checkTotalOrder(t *testing.T, tbl Table) {
	t.Helper()
	for k, r := range tbl.Rows {
		if k == 0 {
			if r.Rank != 1 {
				t.Fatalf("first rank %d", r.Rank)
			}
			continue
		}
		prev := tbl.Rows[k-1]
		if r.Score > prev.Score {
			t.Fatalf("row %d score %v above previous %v", k, r.Score, prev.Score)
		}
		switch {
		case r.Rank == prev.Rank:
			if !r.Shared || !prev.Shared || r.Score != prev.Score {
				t.Fatalf("rows %d and %d share rank %d without Shared or with different scores", k-1, k, r.Rank)
			}
		case r.Rank != k+1:
			t.Fatalf("row %d has rank %d, want %d", k, r.Rank, k+1)
		}
		if r.Shared && (k+1 >= len(tbl.Rows) || tbl.Rows[k+1].Rank != r.Rank) && prev.Rank != r.Rank {
			t.Fatalf("row %d marked shared alone", k)
		}
	}
}

// With only value tiebreaks, two neighbours that do not share a rank must
// differ in the score or in some tiebreak value, and shared neighbours must
// agree on all of them.
func TestTiesBrokenOrShared(t *testing.T) {
	tbs, _ := ParseTiebreaks([]string{"BH/C1", "BH", "SB", "PS", "WIN"})
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		in := genSwiss(rng, 10+rng.IntN(60), 3+rng.IntN(6))
		tbl, err := Compute(in, tbs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(tbl.Rows); k++ {
			a, b := tbl.Rows[k-1], tbl.Rows[k]
			same := a.Score == b.Score && cmp.Equal(a.Values, b.Values)
			if same != (a.Rank == b.Rank) {
				t.Fatalf("seed %d rows %d,%d: equal values %v but ranks %d,%d", seed, k-1, k, same, a.Rank, b.Rank)
			}
			if !same {
				// lexicographically decreasing
				less := a.Score < b.Score
				if a.Score == b.Score {
					for v := range a.Values {
						if a.Values[v] != b.Values[v] {
							less = a.Values[v] < b.Values[v]
							break
						}
					}
				}
				if less {
					t.Fatalf("seed %d rows %d,%d out of order: %v %v / %v %v", seed, k-1, k, a.Score, a.Values, b.Score, b.Values)
				}
			}
		}
	}
}

// Every tiebreak on odd inputs (single-sided forfeits and full draws,
// round robin or Swiss, either edition) computes without panicking and
// gives a total order.
func TestAllTiebreaksOnOddInputs(t *testing.T) {
	var all []string
	for id, sp := range specs {
		switch {
		case sp.param == 2:
			all = append(all, id+":k")
		case sp.cuts && !sp.low:
			all = append(all, id+"/m1", id+"/c2")
		case sp.cuts:
			all = append(all, id+"/c1")
		default:
			all = append(all, id)
		}
	}
	tbs, err := ParseTiebreaks(all)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		in := genSwiss(rng, 3+rng.IntN(20), 1+rng.IntN(6))
		for _, rs := range in.Rounds {
			for k := range rs {
				switch rng.IntN(10) {
				case 0:
					rs[k].B = Side{}
					rs[k].Decision = ForfeitWin
				case 1:
					if rs[k].B.ID != "" {
						rs[k].Decision = FullDraw
					}
				}
			}
		}
		in.Entrants[0].Values = map[string]arbiter.Points{"k": 5}
		for _, rr := range []bool{false, true} {
			for _, ed := range []string{Edition2024, Edition2026} {
				tbl, err := Compute(in, tbs, Options{Edition: ed, RoundRobin: rr, TotalRounds: 9})
				if err != nil {
					t.Fatal(err)
				}
				checkTotalOrder(t, tbl)
			}
		}
	}
}
