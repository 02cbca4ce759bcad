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

// bestPerfect returns the maximum weight of a perfect matching, or -1.
func bestPerfect(n int, w [][]int64, ok [][]bool, used []bool, i int) int64 {
	for i < n && used[i] {
		i++
	}
	if i >= n {
		return 0
	}
	used[i] = true
	best := int64(-1)
	for j := i + 1; j < n; j++ {
		if !used[j] && ok[i][j] {
			used[j] = true
			if r := bestPerfect(n, w, ok, used, i+1); r >= 0 && r+w[i][j] > best {
				best = r + w[i][j]
			}
			used[j] = false
		}
	}
	used[i] = false
	return best
}

// TestIncrementalAgainstBruteForce changes the edges of random vertices and
// checks after every re-solve that the matching is perfect and optimal.
func TestIncrementalAgainstBruteForce(t *testing.T) { randomIncremental(t, nil) }

// randomIncremental runs the random update sequences; hook, if set, is
// installed on every graph as its dual-adjustment callback.
func randomIncremental(t *testing.T, hook func(g *Incremental, deltaType int)) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 400; iter++ {
		n := 2 * (1 + r.IntN(5))
		w := make([][]int64, n)
		ok := make([][]bool, n)
		for i := range w {
			w[i], ok[i] = make([]int64, n), make([]bool, n)
		}
		g := NewIncremental(n, 2)
		if hook != nil {
			g.onAdjust = func(dt int) { hook(g, dt) }
		}
		setEdge := func(i, j int) {
			if r.IntN(4) == 0 {
				ok[i][j], ok[j][i] = false, false
				g.Set(i, j, []uint64{0, 0}, false)
				return
			}
			v := int64(r.IntN(30))
			w[i][j], w[j][i] = v, v
			ok[i][j], ok[j][i] = true, true
			g.Set(i, j, []uint64{uint64(v), 0}, true)
		}
		// A guaranteed perfect matching 0-1, 2-3, ... keeps the problem feasible.
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				setEdge(i, j)
			}
		}
		for i := 0; i < n; i += 2 {
			ok[i][i+1], ok[i+1][i] = true, true
			g.Set(i, i+1, []uint64{uint64(w[i][i+1]), 0}, true)
		}
		for step := 0; step < 6; step++ {
			if step > 0 {
				v := r.IntN(n)
				for u := 0; u < n; u++ {
					if u != v && r.IntN(2) == 0 {
						setEdge(v, u)
						if u/2 == v/2 { // keep the guaranteed matching
							ok[v][u], ok[u][v] = true, true
							g.Set(v, u, []uint64{uint64(w[v][u]), 0}, true)
						}
					}
				}
			}
			if !g.Solve() {
				t.Fatalf("iter %d step %d: no perfect matching found", iter, step)
			}
			mate := g.Mate()
			var got int64
			for i, m := range mate {
				if m < 0 || mate[m] != i || !ok[i][m] {
					t.Fatalf("iter %d step %d: bad mate %v", iter, step, mate)
				}
				if i < m {
					got += w[i][m]
				}
			}
			if want := bestPerfect(n, w, ok, make([]bool, n), 0); got != want {
				t.Fatalf("iter %d step %d: weight %d, want %d", iter, step, got, want)
			}
		}
	}
}
