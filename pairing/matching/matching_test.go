package matching

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestWideWeights checks that weights wider than 64 bits are compared as
// a whole, carries included: two edges just under 2^64 beat one edge of
// 2^64 plus one of 1, and one edge of 2^65 beats them in turn.
func TestWideWeights(t *testing.T) {
	for _, c := range []struct {
		name string
		w01  []uint64
		want int // 0's partner
	}{
		{"low words add up", []uint64{0, 1, 0}, 2}, // 2^64 + 1 < 2(2^64 - 1)
		{"high word wins", []uint64{0, 2, 0}, 1},   // 2^65 > 2(2^64 - 1)
	} {
		g := NewIncremental(4, 3)
		g.Set(0, 1, c.w01, true)
		g.Set(2, 3, []uint64{1, 0, 0}, true)
		g.Set(0, 2, []uint64{^uint64(0), 0, 0}, true) // 2^64 - 1
		g.Set(1, 3, []uint64{^uint64(0), 0, 0}, true)
		if !g.Solve() {
			t.Fatalf("%s: no perfect matching", c.name)
		}
		if mate := g.Mate(); mate[0] != c.want {
			t.Errorf("%s: mate = %v, want 0-%d", c.name, mate, c.want)
		}
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

// perfectWeight checks that mate is a perfect matching over present edges
// and returns its weight; tag names the case in a failure.
func perfectWeight(t *testing.T, tag string, mate []int, w [][]int64, ok [][]bool) int64 {
	t.Helper()
	var got int64
	for i, m := range mate {
		if m < 0 || mate[m] != i || !ok[i][m] {
			t.Fatalf("%s: bad mate %v", tag, mate)
		}
		if i < m {
			got += w[i][m]
		}
	}
	return got
}

// TestIncrementalAgainstBruteForce changes the edges of random vertices and
// checks after every re-solve that the matching is perfect and optimal.
func TestIncrementalAgainstBruteForce(t *testing.T) { randomIncremental(t, nil) }

// TestIncrementalBlocked is the same with the weights in the blocked
// triangle layout of large graphs (up to 10 vertices: two blocks of 8 on
// each side, diagonal and off-diagonal blocks).
func TestIncrementalBlocked(t *testing.T) {
	defer func(b int) { blockedFrom = b }(blockedFrom)
	blockedFrom = 0
	randomIncremental(t, nil)
	if g := NewIncremental(10, 1); !g.blocked || len(g.wid) != 3*64 {
		t.Fatalf("blocked = %v, %d cells of weights; want true, %d", g.blocked, len(g.wid), 3*64)
	}
}

// TestIncrementalCompactDict is the same with the weight dictionary
// compacted as often as possible, in both layouts (the entries no cell
// holds are dropped and every cell renumbered).
func TestIncrementalCompactDict(t *testing.T) {
	defer func(c, b int) { compactFrom, blockedFrom = c, b }(compactFrom, blockedFrom)
	compactFrom = 2
	randomIncremental(t, nil)
	blockedFrom = 0
	randomIncremental(t, nil)
	g := NewIncremental(4, 2)
	for i := range 50 {
		g.Set(1, 0, []uint64{uint64(i + 1), 7}, true)
	}
	g.Set(3, 2, []uint64{5, 0}, true)
	if n := len(g.dict) / 2; n > 4 {
		t.Errorf("%d dictionary entries after compactions; want at most 4 (zero and three weights)", n)
	}
	got := make([]uint64, 2)
	if !g.Weight(0, 1, got) || got[0] != 50 || got[1] != 7 {
		t.Errorf("weight of {0, 1} = %v; want [50 7]", got)
	}
	if !g.Weight(2, 3, got) || got[0] != 5 || got[1] != 0 {
		t.Errorf("weight of {2, 3} = %v; want [5 0]", got)
	}
}

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
			got := perfectWeight(t, fmt.Sprintf("iter %d step %d", iter, step), g.Mate(), w, ok)
			if want := bestPerfect(n, w, ok, make([]bool, n), 0); got != want {
				t.Fatalf("iter %d step %d: weight %d, want %d", iter, step, got, want)
			}
		}
	}
}

// TestEnds checks that ends inverts tri (edge endpoints are computed, not
// stored).
func TestEnds(t *testing.T) {
	for i := 1; i < 5000; i++ {
		for j := 0; j < i; j++ {
			if a, b := ends(tri(i, j)); a != i || b != j {
				t.Fatalf("ends(tri(%d, %d)) = %d, %d", i, j, a, b)
			}
		}
	}
}
