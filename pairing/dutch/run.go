package dutch

import (
	"sort"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/matching"
)

// solve returns the current maximum-weight matching: mate[v] is v's partner
// or v itself when unmatched (the PAB). For an odd number of players a dummy
// vertex joined to every player eligible for the bye by zero-weight edges
// turns the problem into a perfect matching; the criteria weights make every
// optimum pair all players (C4), so both problems have the same optima.
func (e *engine) solve() ([]int, bool) {
	n := len(e.sorted)
	ok := e.g.Solve()
	m := e.g.Mate()[:n]
	for v := range m {
		if m[v] < 0 || m[v] >= n {
			m[v] = v
		}
	}
	return m, ok
}

func (e *engine) finalize(a, b int) { e.g.Fix(a, b) }

func (e *engine) set(a, b int, w weight) { e.g.Set(a, b, w, !w.isZero()) }

func (e *engine) run() ([]pairing.Pair, error) {
	t := e.t
	// Forbidden pairs: configured groups and every played opponent.
	e.forb = make([]map[int]bool, len(t.Players))
	for i := range e.forb {
		e.forb[i] = map[int]bool{}
	}
	round := e.played + 1
	for _, fg := range t.Forbidden {
		if round < fg.FirstRound || (fg.LastRound > 0 && round > fg.LastRound) {
			continue
		}
		for _, a := range fg.Players {
			for _, b := range fg.Players {
				e.forb[a][b] = true
			}
		}
	}
	for _, p := range e.byIdx {
		for _, g := range p.games {
			if g.Played && g.Opponent >= 0 {
				e.forb[p.idx][g.Opponent] = true
			}
		}
		if !t.Players[p.idx].Absent {
			e.sorted = append(e.sorted, p)
		}
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
	n := len(e.sorted)
	if n == 0 {
		return nil, nil
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
	ctx := &edgeCtx{unplayedRanks: map[int]int{}}

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
		m, ok := e.solve()
		if !ok {
			return nil, ErrNoPairing
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
			var counts []int
			for _, p := range sorted {
				if e.accScore(p, 0) == byeScore {
					counts = append(counts, p.playedGame)
				}
			}
			sort.Sort(sort.Reverse(sort.IntSlice(counts)))
			for r, c := range counts {
				ctx.unplayedRanks[c] = r
			}
			ctx.byeScore, ctx.singleDFIsBye = byeScore, single
			for pi := 0; pi < n; pi++ {
				for oi := 0; oi < pi; oi++ {
					e.edgeWeightInto(scratch, sorted[oi], sorted[pi], false, false, ctx)
					e.set(pi, oi, scratch)
				}
			}
		}
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
		base := e.baseWeights(vi, sgBegin, nsgBegin, ctx)
		for li := sgBegin; li < len(vi); li++ {
			for si := 0; si < li; si++ {
				e.set(vi[li], vi[si], base[li][si])
			}
		}
		sgb := e.lay.sgBits
		withExchange := func(si, li, sri, remPairs int) weight {
			r := base[li][si].clone()
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

		stable, _ := e.solve()

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
					w := base[oi][pi]
					if !w.isZero() {
						w = w.clone()
						w[0] |= 1
						e.set(pv, vi[oi], w)
					}
				}
				stable, _ = e.solve()
			}
			if inBracket(stable[pv]) {
				matched[pv] = true
				remainingMatched--
				for oi := sgBegin; oi < nsgBegin; oi++ {
					w := base[oi][pi]
					if !w.isZero() {
						w = w.clone()
						w[0] |= uint64(nsgBegin - sgBegin)
						w.addSigned(1)
						e.set(pv, vi[oi], w)
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
				w := base[oi][pi]
				if !w.isZero() {
					w = w.clone()
					w.addSigned(add)
					e.set(pv, ov, w)
					add++
				}
			}
			stable, _ = e.solve()
			mv := stable[pv]
			matched[mv] = true
			e.finalize(pv, mv)
		}

		// The remainder: residents not paired with an MDP.
		var rem []int
		remPairs := 0
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
		for _, oi := range rem {
			ov := vi[oi]
			for rj, pi := range rem {
				if oi <= pi {
					break
				}
				e.set(vi[pi], ov, withExchange(pi, oi, rj, remPairs))
			}
		}
		stable, _ = e.solve()

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
						e.set(pv, vi[rem[ot]], w)
					}
				}
				stable, _ = e.solve()
			}
			exchange := stable[pv] <= pv || stable[pv] >= nsgBeginVtx
			if exchange {
				left--
			}
			for ot := it + 1; ot < len(rem); ot++ {
				if exchange {
					clear(base[rem[ot]][rem[it]])
				}
				e.set(pv, vi[rem[ot]], withExchange(rem[it], rem[ot], pri, remPairs))
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
						e.set(pv, vi[rem[ot]], w)
					}
				}
				stable, _ = e.solve()
			}
			if stable[pv] > pv && stable[pv] < nsgBeginVtx {
				left--
				for ot := 0; ot < it; ot++ {
					clear(base[rem[it]][rem[ot]])
					e.set(pv, vi[rem[ot]], base[rem[it]][rem[ot]])
				}
				for oi := nsgBegin; oi < len(vi); oi++ {
					clear(base[oi][rem[it]])
					e.set(pv, vi[oi], base[oi][rem[it]])
				}
			}
			if !already {
				for ot := it + 1; ot < len(rem); ot++ {
					e.set(pv, vi[rem[ot]], withExchange(rem[it], rem[ot], ri, remPairs))
				}
			}
			ri++
		}

		// Fix the exchanges and drop the ordering bits.
		for it := range rem {
			pv := vi[rem[it]]
			for ot := it + 1; ot < len(rem); ot++ {
				ov := vi[rem[ot]]
				if stable[pv] <= pv || stable[pv] >= nsgBeginVtx || (stable[ov] > ov && stable[ov] < nsgBeginVtx) {
					clear(base[rem[ot]][rem[it]])
				}
				e.set(pv, ov, base[rem[ot]][rem[it]])
			}
		}

		// Choose the opponent of each S1 player, highest first.
		for _, pi := range rem {
			pv := vi[pi]
			if !(stable[pv] > pv && stable[pv] < nsgBeginVtx) {
				continue
			}
			add := int64(0)
			for k := len(rem) - 1; k >= 0; k-- {
				oi := rem[k]
				ov := vi[oi]
				if oi <= pi || matched[ov] {
					continue
				}
				w := base[oi][pi]
				if !w.isZero() {
					w = w.clone()
					w.addSigned(add)
					e.set(pv, ov, w)
				}
				add++
			}
			stable, _ = e.solve()
			mv := stable[pv]
			matched[pv], matched[mv] = true, true
			e.finalize(pv, mv)
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

// baseWeights computes the edge weights inside the bracket and towards the
// next scoregroup: base[larger][smaller] over positions in vi.
func (e *engine) baseWeights(vi []int, sgBegin, nsgBegin int, c *edgeCtx) [][]weight {
	base := make([][]weight, len(vi))
	for li := sgBegin; li < len(vi); li++ {
		base[li] = make([]weight, li)
		for si := 0; si < li; si++ {
			base[li][si] = e.edgeWeight(e.sorted[vi[si]], e.sorted[vi[li]], li < nsgBegin, li >= nsgBegin, c)
		}
	}
	return base
}
