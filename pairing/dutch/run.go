package dutch

import (
	"slices"
	"sort"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/matching"
)

// graph is the matching problem the bracket loop works on: the reference
// formulation over all remaining players (globalGraph) or the bracket-local
// one (localGraph). Vertices are positions in the sorted order.
type graph interface {
	// begin starts a bracket: vi are the bracket's vertices followed by the
	// next scoregroup (vertices groupStart..next-1); the vertices from next
	// on are the lower brackets. It returns the layout of the weights set
	// in the bracket (e.lay, or the bracket's compact layout).
	begin(vi []int, groupStart, next int) *layout
	set(a, b int, w weight)
	// solve returns the current optimum: mate[v] is v's partner, or v
	// itself for the PAB.
	solve() ([]int, bool)
	// prefer returns the first of cands (vertices in preference order,
	// every edge to v present with its bracket weight) that is v's partner
	// in some optimal matching, when the current optimum decides it without
	// a solve, and rematches v to it (v's former partner with the
	// candidate's, both players); see matching.Incremental.Prefer.
	prefer(v int, cands []int) (int, bool)
	// solved reports that the last solve's optimum still stands (nothing
	// changed since, or only what keeps it optimal and perfect).
	solved() bool
	// repair: matching.Incremental.Repair on players (all in the graph);
	// it returns the new partner of each.
	repair(set []int, ok func(a, b int) bool) ([]int, bool)
	finalize(a, b int)
}

// solveMates solves g and returns the mates of the n players (the PAB, or
// a player matched to the dummy vertex, is its own mate).
func solveMates(g *matching.Incremental, n int) ([]int, bool) {
	ok := g.Solve()
	m := g.Mate()[:n]
	for v := range m {
		if m[v] < 0 || m[v] >= n {
			m[v] = v
		}
	}
	return m, ok
}

func (e *engine) set(a, b int, w weight) { e.g.Set(a, b, w, !w.isZero()) }

// globalGraph is the matching over all remaining players.
type globalGraph struct {
	g   *matching.Incremental
	n   int
	lay *layout
}

func (g *globalGraph) begin([]int, int, int) *layout { return g.lay }
func (g *globalGraph) set(a, b int, w weight)        { g.g.Set(a, b, w, !w.isZero()) }
func (g *globalGraph) finalize(a, b int)             { g.g.Fix(a, b) }
func (g *globalGraph) solve() ([]int, bool)          { return solveMates(g.g, g.n) }
func (g *globalGraph) solved() bool                  { return g.g.Solved() }
func (g *globalGraph) repair(set []int, ok func(a, b int) bool) ([]int, bool) {
	for _, v := range set {
		if v >= g.n {
			return nil, false
		}
	}
	return g.g.Repair(set, ok, repairBudget(len(set)))
}

// repairBudget bounds the search of a repair over n vertices: a few looks
// at every pair, well below the cost of the solve it saves.
func repairBudget(n int) int { return 4 * n * n }

func (g *globalGraph) prefer(v int, cands []int) (int, bool) {
	return g.g.Prefer(v, cands, func(a, b int) bool { return a < g.n && b < g.n })
}

// prepare derives the forbidden pairs (configured groups in force and every
// played opponent), the players to pair in pairing order and the topscorer
// threshold.
func (e *engine) prepare() {
	t := e.t
	// Forbidden pairs: configured groups and every played opponent.
	// A slice per player, scanned by compatible: a player has met a few
	// opponents, and a map lookup was 8% of the CPU time at 9999 players.
	e.forb = make([][]int32, len(t.Players))
	round := e.played + 1
	for _, fg := range t.Forbidden {
		if round < fg.FirstRound || (fg.LastRound > 0 && round > fg.LastRound) {
			continue
		}
		for _, a := range fg.Players {
			for _, b := range fg.Players {
				e.forb[a] = append(e.forb[a], int32(b))
			}
		}
	}
	for _, p := range e.byIdx {
		for _, g := range p.games {
			if g.Played && g.Opponent >= 0 {
				e.forb[p.idx] = append(e.forb[p.idx], int32(g.Opponent))
			}
		}
		if !t.Players[p.idx].Absent {
			e.sorted = append(e.sorted, p)
		}
	}
	for i, f := range e.forb {
		slices.Sort(f)
		e.forb[i] = slices.Compact(f)
	}
	maxWD := max(t.Points.Win, t.Points.Draw)
	// Topscorer threshold in tenths as the reference computes it.
	e.thresh = arbiter.Points((int64(e.played)*int64(maxWD/10))>>1) * 10
	sort.SliceStable(e.sorted, func(a, b int) bool {
		sa, sb := e.accScore(e.sorted[a], 0), e.accScore(e.sorted[b], 0)
		if sa != sb {
			return sa > sb
		}
		return e.sorted[a].rank < e.sorted[b].rank
	})
}

func (e *engine) run() ([]pairing.Pair, error) {
	e.prepare()
	n := len(e.sorted)
	if n == 0 {
		return nil, nil
	}
	if pairs, ok := e.firstRound(); ok {
		return pairs, nil
	}
	sorted := e.sorted
	score := func(v int) arbiter.Points { return e.accScore(sorted[v], 0) }

	// Field widths.
	e.lay = layout{shifts: map[arbiter.Points]int{}, played: e.played}
	maxGroup, rep := 0, 0
	for i := n - 1; i >= 0; i-- {
		rep++
		if i == 0 || score(i) < score(i-1) {
			e.lay.shifts[score(i)] = e.lay.sgShift
			maxGroup = max(maxGroup, rep)
			e.lay.sgShift += bitsFor(rep)
			rep = 0
		}
	}
	e.lay.sgBits = bitsFor(maxGroup)
	e.lay.words = (e.lay.totalBits()+4)/64 + 1
	ctx := &edgeCtx{unplayedRanks: map[int]int{}}
	var byeScore arbiter.Points
	var single bool
	var err error
	if e.local {
		byeScore, single, err = e.localInit(ctx)
	} else {
		byeScore, single, err = e.globalInit(ctx)
	}
	if err != nil {
		return nil, err
	}

	matchOf := make([]int, n) // partner vertex, -1 = none
	for i := range matchOf {
		matchOf[i] = -1
	}
	var vi []int // vertices of the current bracket (MDPs first) and the next scoregroup
	next := 0
	for next < n && score(next) >= score(0) {
		vi = append(vi, next)
		next++
	}
	matched := make([]bool, n)
	sgBegin := 0    // number of MDPs in the bracket
	sgBeginVtx := 0 // first vertex of the bracket's own scoregroup
	for len(vi) > 1 || next < n {
		nsgBegin := len(vi)
		nsgBeginVtx := sgBeginVtx + (nsgBegin - sgBegin)
		groupStart := next
		for next < n && score(next) >= score(groupStart) {
			vi = append(vi, next)
			next++
		}
		lay := e.gr.begin(vi, groupStart, next)
		base := e.baseWeights(lay, vi, sgBegin, nsgBegin, ctx)
		for li := sgBegin; li < nsgBegin; li++ {
			for si := 0; si < li; si++ {
				e.gr.set(vi[li], vi[si], base.at(li, si))
			}
		}
		// The pairs with the next scoregroup are set once here and at most
		// dropped below: their weights are not kept.
		noEdge := make(weight, lay.words) // zero
		// tmp holds a weight being changed before set, which copies it.
		tmp := make(weight, lay.words)
		for li := nsgBegin; li < len(vi); li++ {
			for si := 0; si < li; si++ {
				e.gr.set(vi[li], vi[si], base.nextAt(li, si))
			}
		}
		sgb := e.lay.sgBits
		// withExchange returns tmp.
		withExchange := func(si, li, sri, remPairs int) weight {
			r := tmp
			copy(r, base.at(li, si))
			if !r.isZero() {
				a := int64(0)
				if sri < remPairs {
					a = 1
				}
				a <<= 2 * sgb
				a -= int64(sri)
				a <<= 1
				r.addSigned(a)
			}
			return r
		}
		inBracket := func(m int) bool { return m >= sgBeginVtx && m < nsgBeginVtx }

		stable, _ := e.gr.solve()

		// Choose the MDPs to pair (C6, C7), highest first.
		var mdScore arbiter.Points
		remaining, remainingMatched := 0, 0
		for pi := 0; pi < sgBegin; pi++ {
			if pi == 0 || score(vi[pi]) < mdScore {
				mdScore = score(vi[pi])
				remaining, remainingMatched = 0, 0
				for k := pi; k < len(vi) && score(vi[k]) >= mdScore; k++ {
					remaining++
					if inBracket(stable[vi[k]]) {
						remainingMatched++
					}
				}
			}
			if remainingMatched == 0 {
				continue
			}
			pv := vi[pi]
			if remaining <= remainingMatched {
				matched[pv] = true
				continue
			}
			remaining--
			if !inBracket(stable[pv]) {
				for oi := sgBegin; oi < nsgBegin; oi++ {
					w := base.at(oi, pi)
					if !w.isZero() {
						w = tmp.copyOf(w)
						w[0] |= 1
						e.gr.set(pv, vi[oi], w)
					}
				}
				stable, _ = e.gr.solve()
			}
			if inBracket(stable[pv]) {
				matched[pv] = true
				remainingMatched--
				for oi := sgBegin; oi < nsgBegin; oi++ {
					w := base.at(oi, pi)
					if !w.isZero() {
						w = tmp.copyOf(w)
						w[0] |= uint64(nsgBegin - sgBegin)
						w.addSigned(1)
						e.gr.set(pv, vi[oi], w)
					}
				}
			}
		}

		// Choose the opponents of the MDPs.
		for pi := 0; pi < sgBegin; pi++ {
			pv := vi[pi]
			if !matched[pv] {
				continue
			}
			add := int64(len(vi))
			for oi := nsgBegin - 1; oi >= sgBegin; oi-- {
				ov := vi[oi]
				if matched[ov] {
					continue
				}
				w := base.at(oi, pi)
				if !w.isZero() {
					w = tmp.copyOf(w)
					w.addSigned(add)
					e.gr.set(pv, ov, w)
					add++
				}
			}
			stable, _ = e.gr.solve()
			mv := stable[pv]
			matched[mv] = true
			e.gr.finalize(pv, mv)
		}

		// The remainder: residents not paired with an MDP.
		rem, remPairs := remainderOf(stable, vi, sgBegin, nsgBegin, sgBeginVtx)
		if !s1Higher(stable, vi, rem[:remPairs], nsgBeginVtx) && !e.repairRemainder(&stable, vi, rem, remPairs, sgBegin, nsgBegin, sgBeginVtx) {
			for _, oi := range rem {
				ov := vi[oi]
				for rj, pi := range rem {
					if oi <= pi {
						break
					}
					if base.isZero(oi, pi) {
						continue // no edge, and none in the graph (see isZero)
					}
					e.gr.set(vi[pi], ov, withExchange(pi, oi, rj, remPairs))
				}
			}
			stable, _ = e.gr.solve()
		}

		exchangeCount := 0
		if len(rem) > 0 && remPairs < len(rem) {
			firstGroupEnd := rem[remPairs]
			for _, pi := range rem {
				if pi >= firstGroupEnd {
					break
				}
				pv := vi[pi]
				if stable[pv] <= pv || stable[pv] >= nsgBeginVtx {
					exchangeCount++
				}
			}
		}

		// Exchange the lowest players of S1 where possible.
		left := exchangeCount
		pri := remPairs
		for it := remPairs; it > 0 && left > 0; {
			pri--
			it--
			pv := vi[rem[it]]
			if stable[pv] > pv && stable[pv] < nsgBeginVtx {
				for ot := it + 1; ot < len(rem); ot++ {
					w := withExchange(rem[it], rem[ot], pri, remPairs)
					if !w.isZero() {
						w.addSigned(-1)
						e.gr.set(pv, vi[rem[ot]], w)
					}
				}
				stable, _ = e.gr.solve()
			}
			exchange := stable[pv] <= pv || stable[pv] >= nsgBeginVtx
			if exchange {
				left--
			}
			for ot := it + 1; ot < len(rem); ot++ {
				if exchange {
					base.drop(rem[ot], rem[it])
				}
				e.gr.set(pv, vi[rem[ot]], withExchange(rem[it], rem[ot], pri, remPairs))
			}
		}

		// Exchange the highest players of S2 where possible.
		left = exchangeCount
		ri := remPairs
		for it := remPairs; it < len(rem) && left > 1; it++ {
			pv := vi[rem[it]]
			already := stable[pv] > pv && stable[pv] < nsgBeginVtx
			if !already {
				for ot := it + 1; ot < len(rem); ot++ {
					w := withExchange(rem[it], rem[ot], ri, remPairs)
					if !w.isZero() {
						w.addSigned(1)
						e.gr.set(pv, vi[rem[ot]], w)
					}
				}
				stable, _ = e.gr.solve()
			}
			if stable[pv] > pv && stable[pv] < nsgBeginVtx {
				left--
				for ot := 0; ot < it; ot++ {
					base.drop(rem[it], rem[ot])
					e.gr.set(pv, vi[rem[ot]], base.at(rem[it], rem[ot]))
				}
				for oi := nsgBegin; oi < len(vi); oi++ {
					e.gr.set(pv, vi[oi], noEdge)
				}
			}
			if !already {
				for ot := it + 1; ot < len(rem); ot++ {
					e.gr.set(pv, vi[rem[ot]], withExchange(rem[it], rem[ot], ri, remPairs))
				}
			}
			ri++
		}

		// Fix the exchanges and drop the ordering bits.
		for it := range rem {
			pv := vi[rem[it]]
			for ot := it + 1; ot < len(rem); ot++ {
				ov := vi[rem[ot]]
				if base.isZero(rem[ot], rem[it]) {
					continue // no edge, and none in the graph
				}
				if stable[pv] <= pv || stable[pv] >= nsgBeginVtx || (stable[ov] > ov && stable[ov] < nsgBeginVtx) {
					base.drop(rem[ot], rem[it])
				}
				e.gr.set(pv, ov, base.at(rem[ot], rem[it]))
			}
		}

		// Choose the opponent of each S1 player, highest first.
		var cands []int
		for _, pi := range rem {
			pv := vi[pi]
			if !(stable[pv] > pv && stable[pv] < nsgBeginVtx) {
				continue
			}
			cands = cands[:0]
			for _, oi := range rem {
				if ov := vi[oi]; oi > pi && !matched[ov] && !base.at(oi, pi).isZero() {
					cands = append(cands, ov)
				}
			}
			if !e.gr.solved() {
				// Re-pair the players the last finalize left free (it
				// dissolved the blossoms around the pair), so that the
				// optimum can decide.
				stable, _ = e.gr.solve()
			}
			if mv, ok := e.gr.prefer(pv, cands); ok {
				if a := stable[pv]; a != mv {
					b := stable[mv]
					stable[a], stable[b] = b, a
					stable[pv], stable[mv] = mv, pv
				}
				matched[pv], matched[mv] = true, true
				e.gr.finalize(pv, mv)
				continue
			}
			add := int64(0)
			for k := len(rem) - 1; k >= 0; k-- {
				oi := rem[k]
				ov := vi[oi]
				if oi <= pi || matched[ov] {
					continue
				}
				w := base.at(oi, pi)
				if !w.isZero() {
					w = tmp.copyOf(w)
					w.addSigned(add)
					e.gr.set(pv, ov, w)
				}
				add++
			}
			stable, _ = e.gr.solve()
			mv := stable[pv]
			matched[pv], matched[mv] = true, true
			e.gr.finalize(pv, mv)
		}

		// Next bracket: unpaired players of this one (MDPs) and the next scoregroup.
		var nvi []int
		sgBegin = 0
		single = n&1 == 1 && groupStart < n && byeScore >= score(groupStart)
		for pi, pv := range vi {
			if pi < nsgBegin && matched[pv] {
				matchOf[pv] = stable[pv]
				matchOf[stable[pv]] = pv
				continue
			}
			nvi = append(nvi, pv)
			if pi < nsgBegin {
				sgBegin++
			}
			if single && score(stable[pv]) < score(groupStart) {
				single = false
			}
		}
		ctx.singleDFIsBye = single
		vi = nvi
		sgBeginVtx = nsgBeginVtx
	}

	var pairs []pairing.Pair
	for v, p := range sorted {
		m := matchOf[v]
		if m < 0 {
			pairs = append(pairs, pairing.Pair{White: p.idx, Black: -1})
			continue
		}
		o := sorted[m]
		if p.id < o.id {
			if e.colourFor(p, o) == pairing.White {
				pairs = append(pairs, pairing.Pair{White: p.idx, Black: o.idx})
			} else {
				pairs = append(pairs, pairing.Pair{White: o.idx, Black: p.idx})
			}
		}
	}
	e.sortBoards(pairs)
	return pairs, nil
}

// s1Higher reports that the optimum stable pairs every player of S1 (the
// first remPairs players of the remainder, positions s1 of vi) in the
// bracket with a lower player. It is then optimal with the exchange terms
// too, and the solve with them can be skipped: the terms (withExchange)
// add, per pair of the remainder, B - r when its higher player, of rank r
// in the remainder, is in S1 and -r otherwise (B above any sum of ranks),
// so stable, with the remPairs pairs of the remainder all led by S1
// players (S1 has remPairs players), has the largest total term of any
// matching (fewer pairs led by S1: at least B less; as many: the ranks of
// S1 at least), and it is optimal without them. The solve could return
// another optimum, but what the loop reads of it does not depend on which:
// the exchange count (0), which players lead a pair (S1) and the partners
// the later steps choose by preference.
func s1Higher(stable, vi, s1 []int, nsgBeginVtx int) bool {
	for _, pi := range s1 {
		pv := vi[pi]
		if stable[pv] <= pv || stable[pv] >= nsgBeginVtx {
			return false
		}
	}
	return true
}

// remainderOf returns the positions in vi of the residents the optimum
// stable does not pair with an MDP, and the number of pairs among them.
func remainderOf(stable, vi []int, sgBegin, nsgBegin, sgBeginVtx int) (rem []int, remPairs int) {
	for pi := sgBegin; pi < nsgBegin; pi++ {
		pv := vi[pi]
		if stable[pv] < sgBeginVtx {
			continue
		}
		rem = append(rem, pi)
		if stable[pv] < pv {
			remPairs++
		}
	}
	return rem, remPairs
}

// repairRemainder is pairAcross, after a solve when the last finalize
// left players unpaired (the exchange solve would pair them too), as long
// as that optimum has the same remainder (stable is then that optimum).
func (e *engine) repairRemainder(stable *[]int, vi, rem []int, remPairs, sgBegin, nsgBegin, sgBeginVtx int) bool {
	if !e.gr.solved() {
		*stable, _ = e.gr.solve()
		r, p := remainderOf(*stable, vi, sgBegin, nsgBegin, sgBeginVtx)
		if p != remPairs || !slices.Equal(r, rem) {
			return false
		}
	}
	return e.pairAcross(*stable, vi, rem, remPairs)
}

// pairAcross re-pairs the players of the remainder's pairs in the optimum
// stable and their partners so that every S1 player (the first remPairs of
// rem) is paired with an S2 player, along tight edges (see
// matching.Incremental.Repair), and updates stable: then s1Higher holds.
// It reports false when it cannot (stable unchanged); either way the
// graph's pairs are part of an optimum that the next solve completes.
//
// Why the result is an optimum: stable is one (of the weights in the
// graph, the last finalized pair aside); Repair's pairs of the same
// players weigh as much as stable's. So every S1 player leads a pair of
// the remainder in an optimum, which is then optimal with the exchange
// terms too (see s1Higher).
func (e *engine) pairAcross(stable, vi, rem []int, remPairs int) bool {
	role := make(map[int]int8, len(rem)) // 1 S1, 2 S2, absent: neither
	var set []int
	for k, pi := range rem {
		v := vi[pi]
		role[v] = 2
		if k < remPairs {
			role[v] = 1
		}
		set = append(set, v)
	}
	for _, pi := range rem {
		m := stable[vi[pi]]
		if m == vi[pi] {
			return false // the PAB
		}
		if _, in := role[m]; !in {
			role[m] = 0
			set = append(set, m)
		}
	}
	ok := func(a, b int) bool {
		ra, rb := role[a], role[b]
		if ra == 1 || rb == 1 {
			return ra+rb == 3
		}
		return ra != 2 || rb != 2
	}
	mates, done := e.gr.repair(set, ok)
	if !done {
		return false
	}
	for i, v := range set {
		stable[v] = mates[i]
	}
	return true
}

// baseTable gives the base weights of a bracket's pairs (rows li,
// sgBegin <= li < nsgBegin, and columns si < li of vi). A base weight is
// a function of the two players' attributes (weightKey) once the pair is
// compatible, so the table keeps one weight per pair of keys, computed on
// first use, and a mark per pair for the pairs dropped by the exchanges:
// a weight per pair took 7 words of 8 bytes for each of the 5.8 million
// pairs of the largest bracket of round 3 of 9999 players.
type baseTable struct {
	e       *engine
	l       *layout
	c       edgeCtx // the context when the bracket began
	vi      []int
	key     []int // key index of each position below nsgBegin
	nkeys   int
	table   []uint64 // weight of (hi key, lo key), valid where have
	have    []bool
	row     []int    // row[li]: the mark of (li, 0)
	dropped []uint64 // bit per pair
	zero    weight

	// The look-ahead weights of the pairs with a player of the next
	// scoregroup, one per pair of nextKeys (nkey: of every position of vi).
	nkey   []int
	nnkeys int
	next   []uint64
	nhave  []bool
	crow   *compatRow
	pidx   []int32 // Players index of each position of vi
	abs    []int8  // the absolute colour preference of each position, -1: none
}

// compat is compatible for the players at positions si and li of vi, from
// the positions' indexes and absolute preferences (the players' records
// are read only for the topscorer case of C3).
func (b *baseTable) compat(li, si int) bool {
	r := b.crow
	r.row(b.e.sorted[b.vi[li]]) // once per lo: row keeps the last one
	if r.mark[b.pidx[si]] == r.stamp {
		return false
	}
	if b.abs[si] < 0 || b.abs[si] != b.abs[li] {
		return true
	}
	return b.e.coloursCompatible(b.e.sorted[b.vi[si]], b.e.sorted[b.vi[li]])
}

// verifyBase makes every base weight be checked against edgeWeightLay
// (tests).
var verifyBase = false

// at returns the weight of (li, si), si < li: read-only (callers clone
// before changing it).
func (b *baseTable) at(li, si int) weight {
	W := b.l.words
	if i := b.row[li] + si; b.dropped[i>>6]&(1<<(i&63)) != 0 {
		return b.zero // dropped by an exchange, or incompatible
	}
	hi, lo := b.e.sorted[b.vi[si]], b.e.sorted[b.vi[li]]
	k := b.key[si]*b.nkeys + b.key[li]
	w := weight(b.table[k*W : (k+1)*W : (k+1)*W])
	if !b.have[k] {
		b.e.fieldsLay(b.l, w, hi, lo, true, false, &b.c)
		b.have[k] = true
	}
	if verifyBase {
		d := make(weight, W)
		b.e.edgeWeightLay(b.l, d, hi, lo, true, false, &b.c)
		if cmpWeight(d, w) != 0 {
			panic("dutch: base weight differs from edgeWeightLay: weightKey misses an attribute")
		}
	}
	return w
}

// nextAt returns the weight of (li, si), si < li, li in the next
// scoregroup (the look-ahead weight, inNext): read-only. Without the
// bracket's fields it depends only on the two players' score, PAB
// candidacy and played games (nextKey).
func (b *baseTable) nextAt(li, si int) weight {
	if !b.compat(li, si) {
		return b.zero
	}
	hi, lo := b.e.sorted[b.vi[si]], b.e.sorted[b.vi[li]]
	W := b.l.words
	k := b.nkey[si]*b.nnkeys + b.nkey[li]
	w := weight(b.next[k*W : (k+1)*W : (k+1)*W])
	if !b.nhave[k] {
		b.e.fieldsLay(b.l, w, hi, lo, false, true, &b.c)
		b.nhave[k] = true
	}
	if verifyBase {
		d := make(weight, W)
		b.e.edgeWeightLay(b.l, d, hi, lo, false, true, &b.c)
		if cmpWeight(d, w) != 0 {
			panic("dutch: look-ahead weight differs from edgeWeightLay: nextKey misses an attribute")
		}
	}
	return w
}

// nextKey holds every attribute of a player that fieldsLay reads for a
// pair outside the bracket (inCur false): no colour or float field is set.
type nextKey struct {
	score        arbiter.Points
	byeCandidate bool
	playedGame   int
}

// isZero reports that (li, si) has no edge (incompatible or dropped).
// The graph's edge of such a pair is absent too: the pair was set from at
// when the bracket began, and every drop is followed by a set of the pair
// to a zero weight, so the bulk loops skip it instead of setting it again.
func (b *baseTable) isZero(li, si int) bool {
	i := b.row[li] + si
	return b.dropped[i>>6]&(1<<(i&63)) != 0
}

// drop makes (li, si) a pair without an edge (an exchange dropped it).
func (b *baseTable) drop(li, si int) {
	i := b.row[li] + si
	b.dropped[i>>6] |= 1 << (i & 63)
}

// baseWeights sets up the base weights of the bracket's pairs in layout l.
func (e *engine) baseWeights(l *layout, vi []int, sgBegin, nsgBegin int, c *edgeCtx) *baseTable {
	b := &baseTable{e: e, l: l, c: *c, vi: vi, key: make([]int, nsgBegin), row: make([]int, nsgBegin), zero: make(weight, l.words)}
	ids := map[weightKey]int{}
	for pos := range nsgBegin {
		k := e.weightKey(e.sorted[vi[pos]], c)
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		b.key[pos] = id
	}
	b.nkeys = len(ids)
	b.table = make([]uint64, b.nkeys*b.nkeys*l.words)
	b.have = make([]bool, b.nkeys*b.nkeys)
	cells := 0
	for li := sgBegin; li < nsgBegin; li++ {
		b.row[li] = cells
		cells += li
	}
	b.dropped = make([]uint64, cells/64+1)
	// The incompatible pairs are marked as dropped once: at is called a
	// few times per pair (bracket, exchanges, transpositions), and
	// compatible was 9% of the CPU at 9999 players.
	if e.crow == nil {
		e.crow = e.newCompatRow()
	}
	b.crow = e.crow
	b.pidx = make([]int32, len(vi))
	b.abs = make([]int8, len(vi))
	for pos, v := range vi {
		p := e.sorted[v]
		b.pidx[pos], b.abs[pos] = int32(p.idx), -1
		if p.absolutePref() {
			b.abs[pos] = int8(p.pref)
		}
	}
	for li := sgBegin; li < nsgBegin; li++ {
		for si := range li {
			if !b.compat(li, si) {
				b.drop(li, si)
			}
		}
	}
	nids := map[nextKey]int{}
	b.nkey = make([]int, len(vi))
	for pos := range vi {
		p := e.sorted[vi[pos]]
		k := nextKey{score: e.accScore(p, 0), byeCandidate: e.isByeCandidate(p, c.byeScore), playedGame: p.playedGame}
		id, ok := nids[k]
		if !ok {
			id = len(nids)
			nids[k] = id
		}
		b.nkey[pos] = id
	}
	b.nnkeys = len(nids)
	b.next = make([]uint64, b.nnkeys*b.nnkeys*l.words)
	b.nhave = make([]bool, b.nnkeys*b.nnkeys)
	return b
}

// weightKey holds every attribute of a player that fieldsLay reads: two
// players with the same key weigh the same against any third player.
type weightKey struct {
	score          arbiter.Points
	byeCandidate   bool
	playedGame     int
	imbalance      int
	pref, repeated pairing.Colour
	strong         bool
	float1, float2 floatDir
}

func (e *engine) weightKey(p *player, c *edgeCtx) weightKey {
	k := weightKey{score: e.accScore(p, 0), byeCandidate: e.isByeCandidate(p, c.byeScore), playedGame: p.playedGame,
		imbalance: p.imbalance, pref: p.pref, repeated: p.repeated, strong: p.strong}
	if e.played >= 1 {
		k.float1 = e.float(p, 1)
	}
	if e.played >= 2 {
		k.float2 = e.float(p, 2)
	}
	return k
}

// globalInit prepares the matching over all players (the reference
// formulation): completability weights, the PAB score and whether the PAB
// goes to the single downfloater of the top group.
func (e *engine) globalInit(ctx *edgeCtx) (arbiter.Points, bool, error) {
	sorted := e.sorted
	n := len(sorted)
	score := func(v int) arbiter.Points { return e.accScore(sorted[v], 0) }
	if n&1 == 1 {
		e.g = matching.NewIncremental(n+1, e.lay.words)
		zero := make(weight, e.lay.words)
		for v, p := range sorted {
			if e.eligibleForBye(p) {
				e.g.Set(v, n, zero, true)
			}
		}
	} else {
		e.g = matching.NewIncremental(n, e.lay.words)
	}

	// Completability weights.
	scratch := make(weight, e.lay.words) // Set copies the weight
	for pi := 0; pi < n; pi++ {
		p := sorted[pi]
		for oi := 0; oi < pi; oi++ {
			o := sorted[oi]
			if n&1 == 1 {
				w := scratch
				clear(w)
				if e.compatible(p, o) {
					w.addAt(1+b2u(!e.eligibleForBye(p))+b2u(!e.eligibleForBye(o)), 0)
					w.shl(e.lay.sgShift)
					w.addAt(uint64(e.lay.shifts[score(pi)]+e.lay.shifts[score(oi)]), 0)
					w.shl(e.lay.sgBits)
					w.addAt(b2u(score(pi) >= score(0)), 0)
				}
				e.set(pi, oi, w)
			} else {
				e.edgeWeightInto(scratch, o, p, false, false, ctx)
				e.set(pi, oi, scratch)
			}
		}
	}

	var byeScore arbiter.Points
	single := false
	{
		m, ok := solveMates(e.g, n)
		if !ok {
			return 0, false, ErrNoPairing
		}
		if n&1 == 1 {
			for v := 0; v < n; v++ {
				if m[v] == v {
					byeScore = score(v)
					break
				}
			}
			top := score(0)
			if byeScore >= top {
				single = true
				for v := 0; v < n && score(v) >= top; v++ {
					if score(m[v]) < top {
						single = false
						break
					}
				}
			}
			e.byeContext(ctx, byeScore, single)
			for pi := 0; pi < n; pi++ {
				for oi := 0; oi < pi; oi++ {
					e.edgeWeightInto(scratch, sorted[oi], sorted[pi], false, false, ctx)
					e.set(pi, oi, scratch)
				}
			}
		}
	}
	e.gr = &globalGraph{g: e.g, n: n, lay: &e.lay}
	return byeScore, single, nil
}

// byeContext records the PAB score and the ranks of the players of that
// score by played games (C9) in ctx.
func (e *engine) byeContext(ctx *edgeCtx, byeScore arbiter.Points, single bool) {
	var counts []int
	for _, p := range e.sorted {
		if e.accScore(p, 0) == byeScore {
			counts = append(counts, p.playedGame)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	for r, c := range counts {
		ctx.unplayedRanks[c] = r
	}
	ctx.byeScore, ctx.singleDFIsBye = byeScore, single
}
