package matching

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRepairAgainstBruteForce solves random graphs with many ties, then
// asks Repair to re-pair a random set of vertices (closed under the
// optimum's pairs) so that no pair joins two vertices of a random "red"
// subset. When Repair reports true the matching must be perfect, keep
// every pair outside the set, meet the constraint and have the optimal
// weight (by brute force), also after a further solve; when it reports
// false the matching must be unchanged. It must succeed at least
// sometimes (the constraint is often met by another optimum).
func TestRepairAgainstBruteForce(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 5))
	repaired, changed := 0, 0
	for iter := 0; iter < 3000; iter++ {
		n := 2 * (2 + r.IntN(4))
		g, w, ok, _ := typedGraph(r, n, 2+r.IntN(3))
		if !g.Solve() {
			t.Fatalf("iter %d: no perfect matching", iter)
		}
		opt := bestPerfect(n, w, ok, make([]bool, n), 0)
		before := g.Mate()
		in := make([]bool, n)
		var set []int
		for v := range n {
			if !in[v] && r.IntN(3) > 0 {
				in[v], in[before[v]] = true, true
				set = append(set, v, before[v])
			}
		}
		red := make([]bool, n)
		for v := range red {
			red[v] = r.IntN(2) == 0
		}
		accept := func(a, b int) bool { return !red[a] || !red[b] }
		tag := fmt.Sprintf("iter %d", iter)
		if !g.Repair(set, accept, 1000) {
			if after := g.Mate(); !slices.Equal(before, after) {
				t.Fatalf("%s: Repair changed the matching without succeeding", tag)
			}
			continue
		}
		repaired++
		m := g.Mate()
		if !slices.Equal(before, m) {
			changed++
		}
		for v := range n {
			if !in[v] && m[v] != before[v] {
				t.Fatalf("%s: vertex %d outside the set re-paired", tag, v)
			}
			if in[v] && !accept(v, m[v]) {
				t.Fatalf("%s: pair %d-%d rejected by the constraint", tag, v, m[v])
			}
		}
		if got := perfectWeight(t, tag, m, w, ok); got != opt {
			t.Fatalf("%s: weight %d after Repair, want %d", tag, got, opt)
		}
		if !g.Solved() {
			t.Fatalf("%s: not solved after Repair", tag)
		}
		if !g.Solve() {
			t.Fatalf("%s: no perfect matching after Repair", tag)
		}
		if got := perfectWeight(t, tag+" solved again", g.Mate(), w, ok); got != opt {
			t.Fatalf("%s: weight %d after a further solve, want %d", tag, got, opt)
		}
	}
	if changed < 100 {
		t.Fatalf("Repair re-paired only %d graphs (%d repaired)", changed, repaired)
	}
	t.Logf("%d repaired, %d re-paired", repaired, changed)
}
