package matching

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAdopt solves random graphs, rebuilds each with the same edges plus
// new vertices (as the Dutch engine adds proxies), starts the new graph
// from the old optimum and checks the start (feasible duals, tight pairs,
// old pairs kept) and the optimum after Solve against brute force.
func TestAdopt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	kept, withBlossoms := 0, 0
	for iter := 0; iter < 1500; iter++ {
		n := 2 * (1 + r.IntN(4))
		extra := 2 * r.IntN(2)
		N := n + extra
		w := make([][]int64, N)
		ok := make([][]bool, N)
		for i := range w {
			w[i], ok[i] = make([]int64, N), make([]bool, N)
		}
		for i := 0; i < N; i++ {
			for j := i + 1; j < N; j++ {
				if i/2 == j/2 || r.IntN(4) != 0 {
					v := int64(r.IntN(5))
					w[i][j], w[j][i] = v, v
					ok[i][j], ok[j][i] = true, true
				}
			}
		}
		old := NewIncremental(n, 2)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if ok[i][j] {
					old.Set(i, j, []uint64{uint64(w[i][j]), 0}, true)
				}
			}
		}
		if !old.Solve() {
			t.Fatalf("iter %d: old graph has no perfect matching", iter)
		}
		for b := n; b < 2*n; b++ {
			if old.bbase[b] >= 0 {
				withBlossoms++
				break
			}
		}
		oldMate := old.Mate()
		// The new graph lists the old vertices in reverse order, then the new ones.
		g := NewIncremental(N, 2)
		from := make([]int, N)
		at := func(v int) int { // new index of old vertex v
			return n - 1 - v
		}
		for i := 0; i < N; i++ {
			from[i] = -1
			if i < n {
				from[at(i)] = i
			}
		}
		idx := func(v int) int {
			if v < n {
				return at(v)
			}
			return v
		}
		for i := 0; i < N; i++ {
			for j := i + 1; j < N; j++ {
				if ok[i][j] {
					g.Set(idx(i), idx(j), []uint64{uint64(w[i][j]), 0}, true)
				}
			}
		}
		g.Adopt(old, from)
		g.checkDuals(t, fmt.Sprintf("iter %d after Adopt", iter))
		for v := 0; v < N; v++ {
			if g.mate[v] < 0 {
				continue
			}
			u := g.endpoint(g.mate[v])
			if !g.tight(v, u) {
				t.Fatalf("iter %d: adopted pair %d-%d is not tight", iter, v, u)
			}
			if v < n && from[v] >= 0 && oldMate[from[v]] >= 0 && at(oldMate[from[v]]) == u {
				kept++
			}
		}
		if !g.Solve() {
			t.Fatalf("iter %d: no perfect matching after Adopt", iter)
		}
		om := make([]int, N) // the matching in the original numbering
		for i, m := range g.Mate() {
			if m < 0 {
				t.Fatalf("iter %d: %d unmatched", iter, i)
			}
			om[idx(i)] = idx(m) // idx is its own inverse
		}
		got := perfectWeight(t, fmt.Sprintf("iter %d", iter), om, w, ok)
		if want := bestPerfect(N, w, ok, make([]bool, N), 0); got != want {
			t.Fatalf("iter %d: weight %d after Adopt, want %d", iter, got, want)
		}
	}
	if kept < 1000 || withBlossoms < 20 {
		t.Fatalf("%d old pairs kept, %d old graphs with blossoms: too few to test Adopt", kept, withBlossoms)
	}
	t.Logf("%d old pairs kept; %d old graphs had blossoms", kept, withBlossoms)
}
