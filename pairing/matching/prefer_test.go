package matching

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPreferAgainstBruteForce solves random graphs with many ties and asks
// Prefer for a random vertex's first candidate (in a random order) that is
// its partner in some optimal matching. Whenever Prefer answers, the
// answer must be that candidate by brute force, and the rematched graph
// must hold an optimal perfect matching containing the pair (also after a
// further solve). It runs with both weight layouts.
func TestPreferAgainstBruteForce(t *testing.T) {
	defer func(b int) { blockedFrom = b }(blockedFrom)
	for _, bf := range []int{blockedFrom, 0} {
		blockedFrom = bf
		preferRandom(t)
	}
}

func preferRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	answered, swapped, inBlossom := 0, 0, 0
	for iter := 0; iter < 3000; iter++ {
		n := 2 * (2 + r.IntN(4))
		g, w, ok, _ := typedGraph(r, n, n) // few weight values: many optimal matchings
		if !g.Solve() {
			t.Fatalf("iter %d: no perfect matching", iter)
		}
		opt := bestPerfect(n, w, ok, make([]bool, n), 0)
		v := r.IntN(n)
		var cands []int
		for _, u := range r.Perm(n) {
			if u != v && ok[v][u] {
				cands = append(cands, u)
			}
		}
		before := g.Mate()
		nested := g.inblossom[v] != v
		u, answer := g.Prefer(v, cands, func(a, b int) bool { return true })
		if !answer {
			if after := g.Mate(); !slices.Equal(before, after) {
				t.Fatalf("iter %d: Prefer changed the matching without answering", iter)
			}
			continue
		}
		answered++
		if nested {
			inBlossom++
		}
		if u != before[v] {
			swapped++
		}
		want := -1
		for _, c := range cands {
			used := make([]bool, n)
			used[v], used[c] = true, true
			if rest := bestPerfect(n, w, ok, used, 0); rest >= 0 && rest+w[v][c] == opt {
				want = c
				break
			}
		}
		if u != want {
			t.Fatalf("iter %d: Prefer(%d) = %d, want %d", iter, v, u, want)
		}
		for step, m := range [][]int{g.Mate(), nil} {
			if step == 1 {
				if !g.Solve() {
					t.Fatalf("iter %d: no perfect matching after Prefer", iter)
				}
				m = g.Mate()
			}
			got := perfectWeight(t, fmt.Sprintf("iter %d step %d", iter, step), m, w, ok)
			if got != opt || m[v] != u {
				t.Fatalf("iter %d step %d: weight %d (want %d), mate of %d = %d (want %d)", iter, step, got, opt, v, m[v], u)
			}
		}
	}
	if answered < 500 || swapped < 100 || inBlossom < 20 {
		t.Fatalf("Prefer answered %d times, by a swap %d times, inside a blossom %d times: too few to test it", answered, swapped, inBlossom)
	}
	t.Logf("answered %d of 3000, %d by a swap, %d inside a blossom", answered, swapped, inBlossom)
}
