package dutch

import (
	"math/rand/v2"
	"testing"

	"arbiter"
	"arbiter/trf"
)

// localTestEngine prepares an engine (sorted players, layout) for round 6
// of a synthetic tournament, as run does before the brackets.
func localTestEngine(t *testing.T, n int) (*engine, *edgeCtx) {
	t.Helper()
	f, err := trf.Generate(trf.GenerateOptions{Players: n, Rounds: 5, Total: 9, Seed: 7, AbsentPermille: 10, Greedy: true}, Pair)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := trf.PairingInput(f)
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{state: newState(tour), local: true}
	// Run the whole round once to initialise forb, sorted, lay and ctx.
	if _, err := e.run(); err != nil {
		t.Fatal(err)
	}
	ctx := &e.gr.(*localGraph).ctx0
	return e, ctx
}

// TestOutWeight checks that an edge outside the brackets weighs
// out(u) + out(v) - c, the decomposition the bracket-local relaxation uses.
func TestOutWeight(t *testing.T) {
	e, ctx := localTestEngine(t, 121)
	l := e.gr.(*localGraph)
	w := make(weight, e.lay.words)
	checked := 0
	for a := range e.sorted {
		for b := range a {
			if !e.compatible(e.sorted[a], e.sorted[b]) {
				continue
			}
			e.edgeWeightInto(w, e.sorted[b], e.sorted[a], false, false, ctx)
			sum := l.out[a].clone()
			sum.add(l.out[b])
			sum.sub(l.cw)
			if cmpWeight(sum, w) != 0 {
				t.Fatalf("players %d, %d: out sum %x, edge %x", a, b, sum, w)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no compatible pair")
	}
}

// TestCompactorKeepsOrder checks that dropping the slots of absent scores
// keeps the order of sums of bracket weights (with the small signed
// ordering terms the bracket procedure adds), the only property the
// matching relies on, and that the compact layout builds the compacted
// weights directly.
func TestCompactorKeepsOrder(t *testing.T) {
	e, _ := localTestEngine(t, 301)
	rng := rand.New(rand.NewPCG(1, 2))
	// A bracket: two neighbouring scoregroups.
	var scores []arbiter.Points
	for _, p := range e.sorted {
		s := e.accScore(p, 0)
		if len(scores) == 0 || scores[len(scores)-1] != s {
			scores = append(scores, s)
		}
	}
	for g := 0; g+1 < len(scores); g++ {
		var vi []int
		keep := map[arbiter.Points]bool{scores[g]: true, scores[g+1]: true}
		for v, p := range e.sorted {
			if keep[e.accScore(p, 0)] {
				vi = append(vi, v)
			}
		}
		cx := newCompactor(&e.lay, e.lay.words, keep)
		if cx.words > e.lay.words {
			t.Fatalf("compact weights wider than full ones: %d > %d", cx.words, e.lay.words)
		}
		ctx := &edgeCtx{unplayedRanks: map[int]int{}}
		var full, small []weight
		for range 200 {
			a, b := vi[rng.IntN(len(vi))], vi[rng.IntN(len(vi))]
			if a == b {
				continue
			}
			if a > b {
				a, b = b, a
			}
			inCur, inNext := rng.IntN(2) == 0, rng.IntN(2) == 0
			w := e.edgeWeight(e.sorted[a], e.sorted[b], inCur, inNext, ctx)
			if w.isZero() {
				continue
			}
			term := int64(rng.IntN(64)) - 32
			w.addSigned(term)
			c := make(weight, cx.words)
			cx.apply(c, w)
			// The compact layout builds the same weight directly.
			direct := make(weight, cx.lay.words)
			e.edgeWeightLay(&cx.lay, direct, e.sorted[a], e.sorted[b], inCur, inNext, ctx)
			direct.addSigned(term)
			if cmpWeight(direct, c) != 0 {
				t.Fatalf("scores %v, players %d, %d: compact layout %x, compacted %x", keep, a, b, direct, c)
			}
			full, small = append(full, w), append(small, c)
		}
		sum := func(ws []weight, idx []int, n int) weight {
			s := make(weight, n+1)
			for _, i := range idx {
				x := append(ws[i].clone(), 0)
				s.add(x)
			}
			return s
		}
		for range 2000 {
			var x, y []int
			for range 3 {
				x = append(x, rng.IntN(len(full)))
				y = append(y, rng.IntN(len(full)))
			}
			cf := cmpWeight(sum(full, x, e.lay.words), sum(full, y, e.lay.words))
			cc := cmpWeight(sum(small, x, cx.words), sum(small, y, cx.words))
			if cf != cc {
				t.Fatalf("scores %v: full order %d, compact order %d", keep, cf, cc)
			}
		}
	}
}

// TestSmallTerm checks the reading of a carried weight's ordering term.
func TestSmallTerm(t *testing.T) {
	neg := func(v int64) weight {
		w := make(weight, 3)
		w.addSigned(v)
		return w
	}
	for _, c := range []struct {
		d    weight
		bits int
		want int64
		ok   bool
	}{
		{weight{0, 0, 0}, 4, 0, true},
		{weight{1, 0, 0}, 4, 1, true},
		{weight{15, 0, 0}, 4, 15, true},
		{weight{16, 0, 0}, 4, 0, false},
		{neg(-1), 4, -1, true},
		{neg(-15), 4, -15, true},
		{neg(-16), 4, 0, false},
		{weight{1, 1, 0}, 4, 0, false},                   // a field above the room differs
		{weight{^uint64(0), 0, 0}, 4, 0, false},          // not sign-extended
		{weight{1, ^uint64(0), ^uint64(0)}, 4, 0, false}, // negative beyond the room
	} {
		got, ok := smallTerm(c.d, c.bits)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("smallTerm(%x, %d) = %d, %v; want %d, %v", c.d, c.bits, got, ok, c.want, c.ok)
		}
	}
}
