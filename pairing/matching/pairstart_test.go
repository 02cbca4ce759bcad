package matching

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPairStart runs the random incremental test with every fresh solve
// started by pairStart (optimal by brute force after every solve, duals
// feasible after every adjustment), and checks the start itself on random
// graphs with many ties and a hub: feasible even duals, tight matched
// edges, and far fewer free vertices than pairs.
func TestPairStart(t *testing.T) {
	defer func(p int) { PairStartFrom = p }(PairStartFrom)
	PairStartFrom = 0
	adjustments := 0
	randomIncremental(t, func(g *Incremental, dt int) {
		adjustments++
		g.checkDuals(t, fmt.Sprintf("adjustment %d (type %d)", adjustments, dt))
	})

	r := rand.New(rand.NewPCG(11, 13))
	free, total := 0, 0
	for iter := 0; iter < 200; iter++ {
		n := 20 + 2*r.IntN(20)
		g := NewIncremental(n, 2)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.IntN(6) == 0 {
					continue
				}
				w := uint64(r.IntN(3))
				if i == 0 { // vertex 0 is everybody's best partner
					w = 5
				}
				g.Set(i, j, []uint64{w, 0}, true)
			}
		}
		g.started = true
		g.pairStart()
		g.checkDuals(t, fmt.Sprintf("iter %d", iter))
		for _, v := range g.live {
			if g.d(v)[0]&1 != 0 {
				t.Fatalf("iter %d: odd dual at %d", iter, v)
			}
			if g.mate[v] < 0 {
				free++
				continue
			}
			if u := g.endpoint(g.mate[v]); !g.tight(v, u) {
				t.Fatalf("iter %d: matched edge %d-%d is not tight", iter, v, u)
			}
		}
		total += n
		if !g.Solve() {
			t.Fatalf("iter %d: no perfect matching after the start", iter)
		}
	}
	if free*5 > total {
		t.Fatalf("pairStart left %d of %d vertices free", free, total)
	}
	t.Logf("pairStart left %d of %d vertices free", free, total)
}
