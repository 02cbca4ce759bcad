package matching

import (
	"math/rand/v2"
	"testing"
)

// bruteForce returns the maximum total weight (single word) over all matchings.
func bruteForce(n int, w [][]uint64, used []bool, i int) uint64 {
	for i < n && used[i] {
		i++
	}
	if i >= n {
		return 0
	}
	used[i] = true
	best := bruteForce(n, w, used, i+1) // i unmatched
	for j := i + 1; j < n; j++ {
		if !used[j] && w[i][j] != 0 {
			used[j] = true
			if v := w[i][j] + bruteForce(n, w, used, i+1); v > best {
				best = v
			}
			used[j] = false
		}
	}
	used[i] = false
	return best
}

func TestMaxWeightAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(9)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		g := New(n, 2)
		maxW := uint64(1 + r.IntN(20))
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.IntN(3) > 0 {
					v := uint64(r.IntN(int(maxW)))
					w[i][j], w[j][i] = v, v
					g.Set(i, j, []uint64{v})
				}
			}
		}
		active := make([]int, n)
		for i := range active {
			active[i] = i
		}
		mate := g.MaxWeight(active)
		var got uint64
		for i, m := range mate {
			if m >= 0 {
				if mate[m] != i || w[i][m] == 0 {
					t.Fatalf("iter %d: inconsistent mate %v", iter, mate)
				}
				if i < m {
					got += w[i][m]
				}
			}
		}
		if want := bruteForce(n, w, make([]bool, n), 0); got != want {
			t.Fatalf("iter %d: weight %d, want %d (n=%d, w=%v)", iter, got, want, n, w)
		}
	}
}

// TestWideWeights checks that weights above 64 bits are compared as a whole:
// one edge worth 2^64 beats two edges worth 2^63+1... each.
func TestWideWeights(t *testing.T) {
	g := New(4, 3)
	g.Set(0, 1, []uint64{0, 1})       // 2^64
	g.Set(0, 2, []uint64{1 << 62, 0}) // 2^62
	g.Set(1, 3, []uint64{1 << 62, 0})
	mate := g.MaxWeight([]int{0, 1, 2, 3})
	if mate[0] != 1 {
		t.Fatalf("mate = %v, want 0-1", mate)
	}
}
