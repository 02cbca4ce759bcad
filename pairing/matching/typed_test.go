package matching

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// typedGraph builds a random graph whose weights are a function of vertex
// types (few values: many ties), with about one edge in eight missing.
func typedGraph(r *rand.Rand, n, k int) (*Incremental, [][]int64, [][]bool, []int) {
	typ := make([]int, n)
	for v := range typ {
		typ[v] = r.IntN(k)
	}
	f := make([][]int64, k)
	for a := range f {
		f[a] = make([]int64, k)
	}
	for a := range k {
		for b := a; b < k; b++ {
			f[a][b] = int64(r.IntN(6))
			f[b][a] = f[a][b]
		}
	}
	w := make([][]int64, n)
	ok := make([][]bool, n)
	for i := range w {
		w[i], ok[i] = make([]int64, n), make([]bool, n)
	}
	g := NewIncremental(n, 2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if i/2 != j/2 && r.IntN(8) == 0 {
				continue // a pair that met before; 0-1, 2-3, ... keep a perfect matching
			}
			v := f[typ[i]][typ[j]]
			w[i][j], w[j][i] = v, v
			ok[i][j], ok[j][i] = true, true
			g.Set(i, j, []uint64{uint64(v), 0}, true)
		}
	}
	return g, w, ok, typ
}

// TestTypedStartOptimal solves small typed graphs from the type duals,
// with the right types and with random wrong ones, and checks the optimum
// against brute force and the start's duals for feasibility.
func TestTypedStartOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for iter := range 1500 {
		n := 2 * (1 + r.IntN(5))
		g, w, ok, typ := typedGraph(r, n, 1+r.IntN(4))
		if iter%3 == 2 {
			for v := range typ {
				typ[v] = r.IntN(3) - 1 // wrong types, some -1
			}
		}
		if iter%3 == 2 {
			// The start alone: feasible duals, tight pairs.
			h, _, _, _ := typedGraph(rand.New(rand.NewPCG(uint64(iter), 2)), n, 3)
			h.SetTypes(typ)
			h.started = true
			if h.typedStart() {
				h.checkDuals(t, fmt.Sprintf("iter %d after typedStart", iter))
				for _, v := range h.live {
					if m := h.mate[v]; m >= 0 && !h.tight(v, h.endpoint(m)) {
						t.Fatalf("iter %d: pair at %d not tight", iter, v)
					}
				}
			}
		}
		g.SetTypes(typ)
		if !g.Solve() {
			t.Fatalf("iter %d: no perfect matching", iter)
		}
		got := perfectWeight(t, fmt.Sprintf("iter %d", iter), g.Mate(), w, ok)
		if want := bestPerfect(n, w, ok, make([]bool, n), 0); got != want {
			t.Fatalf("iter %d: weight %d, want %d", iter, got, want)
		}
	}
}

// TestTypedStartQuality checks on larger typed graphs that the type duals
// leave almost every vertex matched (the greedy start leaves up to half
// free in the Dutch engine's large brackets) and that the optimum equals
// the one found from the greedy start.
func TestTypedStartQuality(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	free, total := 0, 0
	for iter := range 40 {
		n := 60 + 2*r.IntN(60)
		seed := r.Uint64()
		g, w, _, typ := typedGraph(rand.New(rand.NewPCG(seed, 1)), n, 3+r.IntN(8))
		g.SetTypes(typ)
		g.started = true
		if !g.typedStart() {
			t.Fatalf("iter %d: no solution of the type problem", iter)
		}
		g.checkDuals(t, fmt.Sprintf("iter %d after typedStart", iter))
		for _, v := range g.live {
			if g.mate[v] < 0 {
				free++
			}
		}
		total += n
		if !g.stages() {
			t.Fatalf("iter %d: no perfect matching from the typed start", iter)
		}
		plain := NewIncremental(n, 2)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if g.ex[i*n+j] {
					plain.Set(i, j, []uint64{uint64(w[i][j]), 0}, true)
				}
			}
		}
		if !plain.Solve() {
			t.Fatalf("iter %d: no perfect matching from the greedy start", iter)
		}
		if a, b := weightOf(g.Mate(), w), weightOf(plain.Mate(), w); a != b {
			t.Fatalf("iter %d: typed start weight %d, greedy start %d", iter, a, b)
		}
	}
	if free*20 > total {
		t.Fatalf("the typed start left %d of %d vertices free", free, total)
	}
	t.Logf("the typed start left %d of %d vertices free", free, total)
}

func weightOf(mate []int, w [][]int64) int64 {
	var s int64
	for i, m := range mate {
		if i < m {
			s += w[i][m]
		}
	}
	return s
}

// TestTransportOptimal checks the type problem's solutions on random
// instances: the flow meets every count, every reduced cost is
// non-negative and every used pair is tight (so flow and potentials are
// both optimal).
func TestTransportOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const LW = 2
	solved := 0
	for iter := range 500 {
		T := 1 + r.IntN(8)
		cnt := make([]int, T)
		for a := range cnt {
			cnt[a] = 1 + r.IntN(9)
		}
		G := make([]uint64, T*T*LW)
		has := make([]bool, T*T)
		for a := range T {
			for b := a; b < T; b++ {
				if r.IntN(5) == 0 && a != b {
					continue
				}
				v := uint64(r.IntN(1000))
				G[(a*T+b)*LW], G[(b*T+a)*LW] = v, v
				has[a*T+b], has[b*T+a] = true, true
			}
		}
		x, pot, ok := transport(T, LW, cnt, G, has)
		if !ok {
			continue // no perfect fractional solution with these pairs
		}
		solved++
		p := func(v int) []uint64 { return pot[v*LW : (v+1)*LW] }
		rs := make([]int, T)
		cs := make([]int, T)
		d := make([]uint64, LW)
		for a := range T {
			for b := range T {
				if x[a*T+b] < 0 || (x[a*T+b] > 0 && !has[a*T+b]) {
					t.Fatalf("iter %d: flow %d on %d-%d", iter, x[a*T+b], a, b)
				}
				rs[a] += x[a*T+b]
				cs[b] += x[a*T+b]
				if !has[a*T+b] {
					continue
				}
				sub(d, p(1+a), p(1+T+b))
				sub(d, d, G[(a*T+b)*LW:(a*T+b+1)*LW])
				if isNeg(d) || (x[a*T+b] > 0 && !isZero(d)) {
					t.Fatalf("iter %d: pair %d-%d: reduced cost %d with flow %d", iter, a, b, int64(d[0]), x[a*T+b])
				}
			}
		}
		for a := range T {
			if rs[a] != cnt[a] || cs[a] != cnt[a] {
				t.Fatalf("iter %d: type %d: row %d, column %d, want %d", iter, a, rs[a], cs[a], cnt[a])
			}
		}
	}
	if solved < 300 {
		t.Fatalf("only %d of 500 instances solved", solved)
	}
}

// TestTypedStartTooManyTypes: a graph of more than maxTypes types is not
// started from the type problem (its cost grows with the cube of the
// types) and is still solved.
func TestTypedStartTooManyTypes(t *testing.T) {
	n := maxTypes + 2
	g, w, _, _ := typedGraph(rand.New(rand.NewPCG(51, 52)), n, 4)
	typ := make([]int, n)
	for v := range typ {
		typ[v] = v // every vertex a type of its own
	}
	g.SetTypes(typ)
	g.started = true
	if g.typedStart() {
		t.Fatalf("typedStart accepted %d types (max %d)", n, maxTypes)
	}
	g.started = false
	if !g.Solve() {
		t.Fatal("no perfect matching")
	}
	plain := NewIncremental(n, 2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if g.ex[i*n+j] {
				plain.Set(i, j, []uint64{uint64(w[i][j]), 0}, true)
			}
		}
	}
	plain.Solve()
	if a, b := weightOf(g.Mate(), w), weightOf(plain.Mate(), w); a != b {
		t.Fatalf("weight %d, want %d", a, b)
	}
}
