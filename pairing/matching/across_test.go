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
// subset. When Repair reports true, its partners meet the constraint,
// every vertex outside the set keeps its partner or is left free by a
// dissolved blossom, the graph's pairs are Repair's (or left free by a
// dissolved blossom), and Repair's partners with the others' weigh the
// optimum (by brute force); a solve then finds the optimum again. When it
// reports false the graph's pairs are pairs of the optimum. It must
// re-pair some graphs.
func TestRepairAgainstBruteForce(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 5))
	repaired, changed, inPositive := 0, 0, 0
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
		positive := false // a vertex of the set inside a blossom of positive dual
		for _, v := range set {
			for b := g.bparent[v]; b != -1; b = g.bparent[b] {
				positive = positive || !isZero(g.d(b))
			}
		}
		mates, done := g.Repair(set, accept, 1000)
		m := g.Mate()
		if !done {
			for v := range n {
				if m[v] >= 0 && m[v] != before[v] {
					t.Fatalf("%s: Repair re-paired %d without succeeding", tag, v)
				}
			}
			continue
		}
		repaired++
		if positive {
			inPositive++
		}
		for i, v := range set {
			if m[v] >= 0 && mates[i] != m[v] {
				t.Fatalf("%s: Repair says %d-%d, the graph %d-%d", tag, v, mates[i], v, m[v])
			}
			if !accept(v, mates[i]) {
				t.Fatalf("%s: pair %d-%d rejected by the constraint", tag, v, mates[i])
			}
			m[v] = mates[i]
		}
		for v := range n {
			if !in[v] && m[v] >= 0 && m[v] != before[v] {
				t.Fatalf("%s: vertex %d outside the set re-paired", tag, v)
			}
			if m[v] < 0 {
				m[v] = before[v] // freed by a dissolved blossom outside the set
			}
		}
		if !slices.Equal(before, m) {
			changed++
		}
		if got := perfectWeight(t, tag, m, w, ok); got != opt {
			t.Fatalf("%s: weight %d after Repair, completed as before, want %d", tag, got, opt)
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
	if inPositive < 10 {
		t.Fatalf("only %d repairs with vertices inside blossoms of positive dual", inPositive)
	}
	t.Logf("%d repaired, %d re-paired, %d with vertices inside blossoms of positive dual", repaired, changed, inPositive)
}
