package dutch

import (
	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/matching"
	"runtime"
)

// Bracket-local matching.
//
// In the reference formulation (globalGraph) every remaining player is a
// vertex. Below the next scoregroup (the "lower brackets" L) no edge weight
// ever changes: an edge touching L weighs c + g(u) + g(v) (completion and
// C9 fields only, g from per-player data), so over a perfect matching those
// edges add up to a constant minus g(PAB). The optimum therefore only
// depends on the pairs inside the bracket's vertices vi, on which vi
// players are left to L (the set U) and on the PAB; L matters only through
// whether U can be completed.
//
// localGraph solves a relaxation over vi alone: k interchangeable proxy
// vertices stand for L (proxy-v weighs c + g(v), proxy-proxy c, a dummy D
// for the PAB weighs 2c to an eligible vi player and 2c - g* to a proxy,
// g* being the best PAB in L), so every solution differs from the global
// weight of the same choices by one constant. When the optimum uses fewer
// than k proxies for vi players it is optimal for any k (the best matching
// of j edges is concave in j); otherwise k grows. The relaxation's optimum is
// the global optimum once U is shown completable: completer finds a perfect
// matching of L plus U (and the PAB in L when D took a proxy). When the
// certificate cannot be found the round is paired again with globalGraph, so
// results never depend on the heuristic.

// bigGraph is the size of a local graph (vertices) from which rebuild
// collects garbage before allocating it (a full matrix of ~n^2 weights).
const bigGraph = 512

// fallback aborts the bracket-local run (recovered in Pair).
type fallback struct{ why string }

// pairLocal runs the engine with bracket-local matching; why is empty
// when it succeeded, else the reason it had to give up.
func pairLocal(t *pairing.Tournament) (pairs []pairing.Pair, why string, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, is := r.(fallback)
			if !is {
				panic(r)
			}
			pairs, why, err = nil, f.why, nil
		}
	}()
	e := &engine{state: newState(t), local: true}
	defer func() {
		if l, ok := e.gr.(*localGraph); ok {
			l.release()
		}
	}()
	pairs, err = e.run()
	return pairs, "", err
}

// localInit finds the PAB score (the lowest score of a PAB-eligible player
// that leaves the others pairable) with a completion certificate, and sets
// up the bracket-local graph.
func (e *engine) localInit(ctx *edgeCtx) (arbiter.Points, bool, error) {
	sorted := e.sorted
	n := len(sorted)
	score := func(v int) arbiter.Points { return e.accScore(sorted[v], 0) }
	c := newCompleter(e, n)
	var byeScore arbiter.Points
	single := false
	if n&1 == 1 {
		found := false
		for v := n - 1; v >= 0; v-- {
			if e.eligibleForBye(sorted[v]) {
				byeScore, found = score(v), true
				break
			}
		}
		if !found {
			panic(fallback{"no player may take the PAB"})
		}
		for v := range n {
			c.zok[v] = score(v) == byeScore && e.eligibleForBye(sorted[v])
		}
		c.state[n] = 1
		c.pending = append(c.pending, n)
		if top := score(0); byeScore >= top {
			// The PAB in the top scoregroup: single unless other groups exist
			// (then the reference's choice depends on its third field).
			if score(n-1) < top {
				panic(fallback{"PAB in the top scoregroup, lower groups exist"})
			}
			single = true
		}
	}
	if !c.complete() {
		panic(fallback{"no completion found"})
	}
	if n&1 == 1 {
		e.byeContext(ctx, byeScore, single)
	}
	l := &localGraph{e: e, n: n, odd: n&1 == 1, words: e.lay.words, ctx0: *ctx, comp: c, ctx: ctx, bctx: *ctx}
	l.mdp = make([]bool, n)
	l.cw = make(weight, l.words)
	var b builder
	b.addAt(1, 0)
	b.shl(e.lay.totalBits() - 2)
	b.into(l.cw)
	l.out = make([]weight, n)
	l.elig = make([]bool, n)
	l.absorb = make([]bool, n)
	l.loc = make([]int, n)
	l.mate = make([]int, n)
	for v, p := range sorted {
		l.out[v] = make(weight, l.words)
		e.outWeightInto(l.out[v], p, &l.ctx0)
		l.elig[v] = e.eligibleForBye(p)
		l.loc[v], l.mate[v] = -1, -1
	}
	e.gr = l
	return byeScore, single, nil
}

// outWeightInto writes c + g(p): the weight of an edge between p and a
// lower-bracket player less that player's share (see edgeWeightInto: only
// the completion and C9 fields are set outside the current brackets).
func (e *engine) outWeightInto(w weight, p *player, c *edgeCtx) {
	l := &e.lay
	var b builder
	b.addAt(1+b2u(!e.isByeCandidate(p, c.byeScore)), 0)
	upper := l.sgBits + l.sgShift + l.sgBits + l.sgShift + 2*l.sgBits
	b.shl(upper)
	if c.singleDFIsBye && e.accScore(p, 0) == c.byeScore {
		b.addAt(uint64(c.unplayedRanks[p.playedGame]), 0)
	}
	b.shl(l.totalBits() - 2 - upper)
	b.into(w)
}

type localGraph struct {
	e     *engine
	n     int
	odd   bool // a dummy vertex D stands for the PAB
	words int
	ctx0  edgeCtx  // the context of the edges outside the brackets
	cw    weight   // c, one unit of the completion field
	out   []weight // c + g(v)
	elig  []bool   // v may take the PAB

	live   []int // vertices of the local problem (not finalized), ascending
	loc    []int // vertex -> index in g, -1
	vert   []int // index in g -> vertex (players only)
	k      int   // number of proxies
	g      *matching.Incremental
	next   int    // L = vertices next..n-1
	mate   []int  // partner of finalized vertices, -1
	lstar  weight // the smallest c + g among PAB-eligible players of L, nil if none
	absorb []bool // v has a compatible player in L
	comp   *completer
	cx     *compactor // the problem's narrow weights
	gs     int        // first vertex of the next scoregroup
	exact  bool       // the lower brackets are in the graph (no relaxation)

	// The pairs of the bracket's MDPs keep the weights they had in the
	// previous brackets (see carryOver).
	carry map[[2]int]weight // full weights of those pairs (a < b), absent: no edge
	mdp   []bool            // v is an MDP of the current bracket
	ctx   *edgeCtx          // run's context, which changes between brackets
	bctx  edgeCtx           // the context the current bracket's weights are built with
}

func (l *localGraph) begin(vi []int, groupStart, next int) *layout {
	e := l.e
	l.carryOver(vi)
	for v := l.next; v < next; v++ {
		l.comp.deactivate(v)
	}
	l.next = next
	l.comp.lo = next
	l.live = append(l.live[:0:0], vi...)
	keep := map[arbiter.Points]bool{}
	for _, a := range vi {
		keep[e.accScore(e.sorted[a], 0)] = true
	}
	l.cx = newCompactor(&e.lay, l.words, keep)
	if l.exact {
		for x := next; x < l.n; x++ {
			l.live = append(l.live, x)
		}
		l.k = 0
		l.gs = groupStart
		l.rebuild(false)
		return &l.cx.lay
	}
	for _, a := range vi {
		l.absorb[a] = false
		for x := next; x < l.n; x++ {
			if e.compatible(e.sorted[a], e.sorted[x]) {
				l.absorb[a] = true
				break
			}
		}
	}
	l.lstar = nil
	for x := next; x < l.n; x++ {
		if l.elig[x] && (l.lstar == nil || cmpWeight(l.out[x], l.lstar) < 0) {
			l.lstar = l.out[x]
		}
	}
	for x := next; x < l.n; x++ {
		l.comp.zok[x] = l.elig[x] && l.lstar != nil && cmpWeight(l.out[x], l.lstar) == 0
	}
	kmax := l.n - next
	l.k = min(kmax, 4+kmax&1)
	l.gs = groupStart
	l.rebuild(false)
	return &l.cx.lay
}

// carryOver computes the full weights of the pairs of the new bracket's
// MDPs (the players of vi before the previous bracket's next scoregroup),
// which keep their last weights. A pair of two MDPs of the previous
// bracket was not set there: its weight is carried on. Any other pair was
// set in the previous bracket to its base weight there (in the bracket,
// context bctx) plus a small signed ordering term, or dropped: the term is
// read back from the previous graph as the difference of its compact
// weight and the compact base weight, which is exact while the term is
// below the ordering room; a larger difference (a weight of another form)
// makes the run fall back to the global matching.
func (l *localGraph) carryOver(vi []int) {
	e := l.e
	var mdps []int
	for _, a := range vi {
		if a < l.gs {
			mdps = append(mdps, a)
		}
	}
	carry := map[[2]int]weight{}
	if len(mdps) > 1 {
		cw := make(weight, l.cx.words)
		ref := make(weight, l.cx.words)
		for j, b := range mdps {
			for _, a := range mdps[:j] {
				key := [2]int{a, b}
				if l.mdp[a] && l.mdp[b] {
					if w, ok := l.carry[key]; ok {
						carry[key] = w
					}
					continue
				}
				if !l.g.Weight(l.loc[a], l.loc[b], cw) {
					continue // no edge
				}
				e.edgeWeightLay(&l.cx.lay, ref, e.sorted[a], e.sorted[b], true, false, &l.bctx)
				cw.sub(ref)
				t, ok := smallTerm(cw, l.cx.room-2)
				if !ok {
					panic(fallback{"a carried weight is not a base weight plus an ordering term"})
				}
				full := make(weight, l.words)
				e.edgeWeightInto(full, e.sorted[a], e.sorted[b], true, false, &l.bctx)
				full.addSigned(t)
				carry[key] = full
			}
		}
	}
	l.carry = carry
	clear(l.mdp)
	for _, a := range mdps {
		l.mdp[a] = true
	}
	l.bctx = *l.ctx
}

// smallTerm returns d as an int64 when -2^bits < d < 2^bits.
func smallTerm(d weight, bits int) (int64, bool) {
	hi := uint64(0)
	if int64(d[len(d)-1]) < 0 {
		hi = ^uint64(0)
	}
	for _, x := range d[1:] {
		if x != hi {
			return 0, false
		}
	}
	t := int64(d[0])
	if (hi == 0) != (t >= 0) || t >= 1<<bits || t <= -(1<<bits) {
		return 0, false
	}
	return t, true
}

// rebuild creates the local problem over l.live with l.k proxies. With
// sameCx (the same bracket: the compactor did not change) the weights of
// the previous problem are kept (read from l.g); otherwise (begin) the
// MDPs' pairs get their carried weights and the other pairs of the bracket
// and the next scoregroup are left to run. Pairs with a lower-bracket
// player get the weights outside the brackets.
func (l *localGraph) rebuild(sameCx bool) {
	e := l.e
	srcLoc, old := l.loc, l.g
	var recycled *matching.Incremental
	if !sameCx {
		// The previous problem is not read: its arrays make the next one.
		recycled = l.g
		l.g, old = nil, nil
		if len(l.live)+l.k > bigGraph {
			// Collect the previous bracket's graph and weights now, so that
			// the next graph reuses their memory instead of the heap
			// growing to twice the live data before the next collection.
			runtime.GC()
		}
	}
	m := len(l.live)
	nv := m + l.k
	d := -1
	if l.odd {
		d = m
		nv++
	}
	loc := make([]int, l.n)
	for i := range loc {
		loc[i] = -1
	}
	for i, a := range l.live {
		loc[a] = i
	}
	var g *matching.Incremental
	if recycled != nil {
		g = matching.Renew(recycled, nv, l.cx.words)
	} else {
		g = matching.NewIncremental(nv, l.cx.words)
	}
	cw := make(weight, l.cx.words)
	for i := 1; i < m; i++ {
		a := l.live[i]
		for j := range i {
			b := l.live[j] // b < a
			if old != nil {
				if sa, sb := srcLoc[a], srcLoc[b]; sa >= 0 && sb >= 0 {
					if old.Weight(sa, sb, cw) {
						g.Set(i, j, cw, true)
					}
					continue
				}
			} else {
				if w, ok := l.carry[[2]int{b, a}]; ok {
					l.cx.apply(cw, w)
					g.Set(i, j, cw, true)
					continue
				}
				if a < l.next {
					continue // an MDP pair without an edge, or set by run
				}
			}
			e.edgeWeightLay(&l.cx.lay, cw, e.sorted[b], e.sorted[a], false, false, &l.ctx0)
			if !cw.isZero() {
				g.Set(i, j, cw, true)
			}
		}
	}
	c1 := make(weight, l.cx.words)
	l.cx.apply(c1, l.cw)
	c2 := c1.clone()
	c2.shl(1)
	q0 := m
	if l.odd {
		q0++
		for i, a := range l.live {
			if l.elig[a] {
				g.Set(i, d, c2, true)
			}
		}
		if l.lstar != nil {
			dq := c2.clone()
			dq.add(c1)
			l.cx.apply(cw, l.lstar)
			dq.sub(cw)
			for q := q0; q < nv; q++ {
				g.Set(d, q, dq, true)
			}
		}
	}
	for i, a := range l.live {
		if !l.absorb[a] || l.k == 0 {
			continue
		}
		l.cx.apply(cw, l.out[a])
		for q := q0; q < nv; q++ {
			g.Set(i, q, cw, true)
		}
	}
	for q := q0; q < nv; q++ {
		for r := q0; r < q; r++ {
			g.Set(q, r, c1, true)
		}
	}
	if !sameCx && nv > TypedFrom {
		g.SetTypes(l.types(nv, d, q0))
	}
	if sameCx && !l.exact && old != nil {
		// More proxies for the same bracket: start from the previous
		// optimum (same players, weights and old proxies) instead of a
		// fresh solve; only the new proxies start free.
		from := make([]int, nv)
		for i, a := range l.live {
			from[i] = srcLoc[a]
		}
		oq0 := len(l.vert)
		if l.odd {
			from[d] = oq0
			oq0++
		}
		for q := q0; q < nv; q++ {
			from[q] = oq0 + q - q0
			if from[q] >= old.Vertices() {
				from[q] = -1
			}
		}
		g.Adopt(old, from)
	}
	old.Release() // read for the last time above
	l.g, l.loc, l.vert = g, loc, append([]int(nil), l.live...)
}

// release hands the graph back once the round is paired.
func (l *localGraph) release() {
	l.g.Release()
	l.g = nil
}

// goExact switches to the exact problem: the lower brackets join the local
// graph (which is then the reference's graph of all remaining players).
func (l *localGraph) goExact() {
	l.exact = true
	for x := l.next; x < l.n; x++ {
		l.live = append(l.live, x)
	}
	l.k = 0
	l.rebuild(true)
}

func (l *localGraph) set(a, b int, w weight) {
	l.g.Set(l.loc[a], l.loc[b], w, !w.isZero())
}

func (l *localGraph) finalize(a, b int) {
	l.g.Fix(l.loc[a], l.loc[b])
	l.mate[a], l.mate[b] = b, a
	live := l.live[:0]
	for _, v := range l.live {
		if v != a && v != b {
			live = append(live, v)
		}
	}
	l.live = live
	l.comp.deactivate(a)
	l.comp.deactivate(b)
}

func (l *localGraph) solved() bool { return l.g.Solved() }

func (l *localGraph) repair(set []int, ok func(a, b int) bool) ([]int, bool) {
	ls := make([]int, len(set))
	for i, a := range set {
		if l.loc[a] < 0 {
			return nil, false // a lower-bracket player (paired through a proxy)
		}
		ls[i] = l.loc[a]
	}
	m := len(l.vert)
	lok := func(a, b int) bool { return a < m && b < m && ok(l.vert[a], l.vert[b]) }
	r, done := l.g.Repair(ls, lok, repairBudget(len(set)))
	if !done {
		return nil, false
	}
	for i, u := range r {
		r[i] = l.vert[u]
	}
	return r, true
}

func (l *localGraph) prefer(v int, cands []int) (int, bool) {
	lc := make([]int, len(cands))
	for i, u := range cands {
		lc[i] = l.loc[u]
	}
	m := len(l.vert)
	u, ok := l.g.Prefer(l.loc[v], lc, func(a, b int) bool { return a < m && b < m })
	if !ok {
		return -1, false
	}
	return l.vert[u], true
}

func (l *localGraph) solve() ([]int, bool) {
	var m, q0 int
	var lm []int
	for {
		m, q0 = len(l.vert), len(l.vert)
		if l.odd {
			q0++
		}
		if !l.g.Solve() {
			if l.exact {
				panic(fallback{"no perfect matching"})
			}
			l.goExact()
			return l.solve()
		}
		lm = l.g.Mate()
		kmax := l.n - l.next
		if l.exact || l.k >= kmax {
			break
		}
		spare := false
		for q := q0; q < q0+l.k; q++ {
			if lm[q] >= q0 {
				spare = true
				break
			}
		}
		if spare {
			break
		}
		l.k = min(kmax, 2*l.k+4+(kmax&1))
		l.rebuild(true)
	}
	res := make([]int, l.n)
	for v := range res {
		res[v] = v
		if l.mate[v] >= 0 {
			res[v] = l.mate[v]
		}
	}
	var us []int
	for _, a := range l.live {
		p := lm[l.loc[a]]
		switch {
		case p < 0:
			panic(fallback{"unmatched vertex"})
		case p < m:
			res[a] = l.vert[p]
		case l.odd && p == m:
			res[a] = a
		default:
			us = append(us, a)
		}
	}
	if l.exact {
		return res, true
	}
	byeInL := l.odd && lm[m] >= q0
	if !l.comp.verify(us, byeInL) {
		l.goExact()
		return l.solve()
	}
	for _, a := range us {
		res[a] = l.comp.mate[a]
	}
	return res, true
}

// completer keeps a perfect matching of the lower brackets plus the
// players U left to them (and a vertex Z = n for a PAB in L), repaired by
// augmenting paths as U and L change. It only certifies: a failure to find
// a path (it does not shrink blossoms) makes the caller fall back.
type completer struct {
	e       *engine
	n       int
	lo      int // lower brackets: lo..n-1
	mate    []int
	state   []int8 // 0 not in the problem, 1 lower bracket (or Z), 2 in U
	zok     []bool // may be matched to Z
	us      []int
	pending []int // vertices that may have become free
	mark    []uint32
	stamp   uint32
	via     []int
	queue   []int
}

func newCompleter(e *engine, n int) *completer {
	c := &completer{e: e, n: n}
	c.mate = make([]int, n+1)
	c.state = make([]int8, n+1)
	c.zok = make([]bool, n+1)
	c.mark = make([]uint32, n+1)
	c.via = make([]int, n+1)
	for v := range c.mate {
		c.mate[v] = -1
	}
	for v := range n {
		c.state[v] = 1
		c.pending = append(c.pending, v)
	}
	return c
}

func (c *completer) adj(a, b int) bool {
	if a == c.n {
		return c.state[b] == 1 && c.zok[b]
	}
	if b == c.n {
		return c.state[a] == 1 && c.zok[a]
	}
	if c.state[a] == 2 && c.state[b] == 2 {
		return false
	}
	return c.e.compatible(c.e.sorted[a], c.e.sorted[b])
}

func (c *completer) unmatch(v int) {
	if p := c.mate[v]; p >= 0 {
		c.mate[p], c.mate[v] = -1, -1
		c.pending = append(c.pending, p, v)
	}
}

func (c *completer) deactivate(v int) {
	c.unmatch(v)
	c.state[v] = 0
}

// verify makes U the set of players left to L, with or without a PAB in L,
// and reports whether a completion was found.
func (c *completer) verify(us []int, byeInL bool) bool {
	c.stamp++
	for _, u := range us {
		c.mark[u] = c.stamp
	}
	for _, u := range c.us {
		if c.mark[u] != c.stamp && c.state[u] == 2 {
			c.deactivate(u)
		}
	}
	for _, u := range us {
		if c.state[u] != 2 {
			c.unmatch(u)
			c.state[u] = 2
			c.pending = append(c.pending, u)
		}
	}
	c.us = append(c.us[:0], us...)
	z := c.n
	if byeInL {
		if c.state[z] == 0 {
			c.state[z] = 1
			c.pending = append(c.pending, z)
		} else if p := c.mate[z]; p >= 0 && !c.adj(z, p) {
			c.unmatch(z)
		}
	} else if c.state[z] != 0 {
		c.deactivate(z)
	}
	// Pairs whose edge is no longer allowed (U-U after vertices moved).
	for _, u := range us {
		if p := c.mate[u]; p >= 0 && !c.adj(u, p) {
			c.unmatch(u)
		}
	}
	return c.complete()
}

// complete matches every free vertex of the problem.
func (c *completer) complete() bool {
	c.stamp++
	var free []int
	for _, v := range c.pending {
		if c.state[v] != 0 && c.mate[v] < 0 && c.mark[v] != c.stamp {
			c.mark[v] = c.stamp
			free = append(free, v)
		}
	}
	c.pending = c.pending[:0]
	for i := len(free) - 1; i >= 0; i-- {
		r := free[i]
		if c.mate[r] >= 0 {
			continue
		}
		if !c.augment(r, free[:i]) {
			return false
		}
	}
	return true
}

// augment searches an augmenting path from the free vertex r (to one of the
// free vertices, or any free vertex met on the way).
func (c *completer) augment(r int, free []int) bool {
	c.stamp++
	st := c.stamp
	c.mark[r] = st
	c.queue = append(c.queue[:0], r)
	for qi := 0; qi < len(c.queue); qi++ {
		o := c.queue[qi]
		for _, y := range free {
			if c.mate[y] < 0 && c.state[y] != 0 && c.mark[y] != st && c.adj(o, y) {
				c.flip(o, y)
				return true
			}
		}
		try := func(y int) bool {
			if y == o || c.state[y] == 0 || c.mark[y] == st || !c.adj(o, y) {
				return false
			}
			if c.mate[y] < 0 {
				c.flip(o, y)
				return true
			}
			z := c.mate[y]
			c.mark[y], c.mark[z] = st, st
			c.via[z] = o
			c.queue = append(c.queue, z)
			return false
		}
		for y := c.lo; y < c.n; y++ {
			if try(y) {
				return true
			}
		}
		for _, y := range c.us {
			if try(y) {
				return true
			}
		}
		if try(c.n) {
			return true
		}
	}
	return false
}

// flip augments along the path ending with the edge o-y.
func (c *completer) flip(o, y int) {
	for {
		prev, next := c.mate[o], c.via[o]
		c.mate[o], c.mate[y] = y, o
		if prev < 0 {
			return
		}
		y, o = prev, next
	}
}

func cmpWeight(a, b weight) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// TypedFrom is the number of vertices above which a bracket's graph is
// solved from the duals of its type problem (matching.SetTypes). A
// variable so that tests can force it on every graph.
var TypedFrom = 200

// types gives each vertex of a new local graph its type: players with the
// same weightKey and PAB eligibility weigh the same to every third player
// they may meet (bracket, next-scoregroup, proxy and PAB weights); an MDP
// (carried weights) and the dummy are types of their own, the proxies one
// type.
func (l *localGraph) types(nv, d, q0 int) []int {
	e := l.e
	type key struct {
		weightKey
		elig bool // the edge to the PAB dummy
	}
	ids := map[key]int{}
	typ := make([]int, nv)
	for i, a := range l.live {
		if l.mdp[a] {
			typ[i] = -1
			continue
		}
		p := e.sorted[a]
		k := key{e.weightKey(p, l.ctx), l.elig[a]}
		t, ok := ids[k]
		if !ok {
			t = len(ids)
			ids[k] = t
		}
		typ[i] = t
	}
	if d >= 0 {
		typ[d] = -1
	}
	for q := q0; q < nv; q++ {
		typ[q] = len(ids)
	}
	return typ
}
