package matching

// Starting a fresh solve from the duals of the problem over vertex types.
//
// In the Dutch engine's large bracket graphs most vertices are
// interchangeable except for the few edges that are missing (players who
// met before): a player's weight to any other is determined by a handful
// of attributes (score, colour preference, floats, ...). The optimal duals
// of the fractional matching problem over those types, one dual per type,
// are close to the optimal duals of the real problem, whereas the greedy
// starts leave the duals of a clearing "market" (more players wanting
// White than Black, say) far from them, and then the stages restart the
// alternating forest up to a hundred times. The type problem is a
// transportation problem (the bipartite double cover of the fractional
// b-matching) of a few hundred nodes, solved exactly with successive
// shortest paths in the graph's wide arithmetic.

// maxTypes bounds the type problem: its solution costs about T^3 wide
// operations (0.4 s for the 147 types of the largest brackets of a
// 9999-player round 10), and with types this many they would hardly
// group the vertices.
const maxTypes = 300

// SetTypes gives the vertices' types for the next fresh solve: vertices of
// the same non-negative type must have the same weight to every third
// vertex to which both have an edge; -1 is a type of its own. The types
// only steer the start: any types give the same optimum.
func (s *Incremental) SetTypes(typ []int) { s.types = append([]int(nil), typ...) }

// typedStart sets the duals of every live vertex to its type's dual in an
// optimal solution of the type problem and matches along tight edges,
// first within the pair counts of the type solution. A type pair weighs
// the largest weight between its types, so the duals are feasible whatever
// the types (right types only make them close to optimal). It reports
// false, changing nothing, when the type problem has no solution (or its
// solution fails the check of every type pair).
func (s *Incremental) typedStart() bool {
	n, W := s.n, s.words
	id := make([]int, n)
	ids := map[int]int{}
	T := 0
	for _, v := range s.live {
		t := s.types[v]
		if t < 0 {
			id[v] = T
			T++
			continue
		}
		k, ok := ids[t]
		if !ok {
			k = T
			ids[t] = k
			T++
		}
		id[v] = k
	}
	if T > maxTypes {
		return false
	}
	cnt := make([]int, T)
	for _, v := range s.live {
		cnt[id[v]]++
	}
	// G(a, b): twice the largest doubled weight between the types, in LW
	// words (one more than the weights: potentials add up path lengths).
	LW := W + 1
	G := make([]uint64, T*T*LW)
	has := make([]bool, T*T)
	g := func(a, b int) []uint64 { i := (a*T + b) * LW; return G[i : i+LW : i+LW] }
	tmp := make([]uint64, LW)
	// from[a*T+b]: the dictionary entry G(a, b) was last taken from. A
	// type pair's edges mostly share one entry (vertices of a type weigh
	// the same), so most cells are that entry again and skip the wide
	// comparison (an entry never changes while the graph is not solved).
	from := make([]uint32, T*T)
	for i, v := range s.live {
		a := id[v]
		for _, u := range s.live[i+1:] {
			if !s.ex[v*n+u] {
				continue
			}
			c := s.cell(v, u)
			b := id[u]
			if e := s.wid[c]; has[a*T+b] && e == from[a*T+b] {
				continue
			}
			widen(tmp, s.wc(c))
			add(tmp, tmp, tmp)
			if !has[a*T+b] || cmp(tmp, g(a, b)) > 0 {
				copy(g(a, b), tmp)
				copy(g(b, a), tmp)
				has[a*T+b], has[b*T+a] = true, true
				from[a*T+b], from[b*T+a] = s.wid[c], s.wid[c]
			}
		}
	}
	x, pot, ok := transport(T, LW, cnt, G, has)
	if !ok {
		return false
	}
	// Y(t) = ceil((pot(row t) - pot(col t)) / 2).
	Y := make([]uint64, T*W)
	one := make([]uint64, LW)
	one[0] = 1
	for t := range T {
		sub(tmp, pot[(1+t)*LW:(2+t)*LW], pot[(1+T+t)*LW:(2+T+t)*LW])
		add(tmp, tmp, one)
		half(tmp, tmp)
		if !fits(tmp, W) {
			return false
		}
		copy(Y[t*W:(t+1)*W], tmp[:W])
	}
	// Every type pair's largest weight is covered (so every edge is): a
	// check of the type problem's solution, cheap next to the graph.
	yw := make([]uint64, LW)
	for a := range T {
		for b := a; b < T; b++ {
			if !has[a*T+b] {
				continue
			}
			widen(tmp, Y[a*W:(a+1)*W])
			widen(yw, Y[b*W:(b+1)*W])
			add(tmp, tmp, yw)
			if cmp(tmp, g(a, b)) < 0 {
				return false
			}
		}
	}
	for _, v := range s.live {
		copy(s.d(v), Y[id[v]*W:(id[v]+1)*W])
	}
	// Match along tight edges, first within the type solution's pairs.
	quota := make([]int, T*T)
	for a := range T {
		for b := range T {
			if a == b {
				quota[a*T+a] = x[a*T+a] / 2
			} else {
				quota[a*T+b] = (x[a*T+b] + x[b*T+a]) / 2
			}
		}
	}
	for pass := range 2 {
		for _, v := range s.live {
			if s.mate[v] >= 0 {
				continue
			}
			for _, u := range s.live {
				if u == v || s.mate[u] >= 0 || (pass == 0 && quota[id[v]*T+id[u]] == 0) || !s.tight(v, u) {
					continue
				}
				s.pair(v, u)
				quota[id[v]*T+id[u]]--
				if id[v] != id[u] {
					quota[id[u]*T+id[v]]--
				}
				break
			}
		}
	}
	return true
}

// widen sign-extends a into dst (len(dst) > len(a)).
func widen(dst, a []uint64) {
	copy(dst, a)
	ext := uint64(0)
	if isNeg(a) {
		ext = ^uint64(0)
	}
	for i := len(a); i < len(dst); i++ {
		dst[i] = ext
	}
}

// fits reports whether the signed value a fits in w words.
func fits(a []uint64, w int) bool {
	ext := uint64(0)
	if int64(a[w-1]) < 0 {
		ext = ^uint64(0)
	}
	for _, x := range a[w:] {
		if x != ext {
			return false
		}
	}
	return true
}

// transport solves max sum x[a][b] G(a,b) over x >= 0 (only where has),
// every row a and every column b summing to cnt, by successive shortest
// paths with potentials (min-cost flow source -> rows -> columns -> sink,
// row-column costs -G). It returns the flow and the potentials (node 0 the
// source, 1..T the rows, T+1..2T the columns, 2T+1 the sink), which make
// every residual reduced cost non-negative: pot(row a) - pot(col b) >=
// G(a,b) wherever has. ok is false when no such x exists.
func transport(T, LW int, cnt []int, G []uint64, has []bool) (x []int, pot []uint64, ok bool) {
	V := 2*T + 2
	src, sink := 0, 2*T+1
	row := func(a int) int { return 1 + a }
	col := func(b int) int { return 1 + T + b }
	x = make([]int, T*T)
	fs := make([]int, T) // source -> row a
	ft := make([]int, T) // col b -> sink
	pot = make([]uint64, V*LW)
	p := func(v int) []uint64 { return pot[v*LW : (v+1)*LW : (v+1)*LW] }
	g := func(a, b int) []uint64 { i := (a*T + b) * LW; return G[i : i+LW : i+LW] }
	neg := make([]uint64, LW)
	// Columns at -max G so that every row -> column cost is reduced >= 0.
	for b := range T {
		first := true
		for a := range T {
			if has[a*T+b] && (first || cmp(g(a, b), neg) > 0) {
				copy(neg, g(a, b))
				first = false
			}
		}
		if !first {
			sub(p(col(b)), p(col(b)), neg)
		}
	}
	copy(p(sink), p(col(0)))
	for b := 1; b < T; b++ {
		if cmp(p(col(b)), p(sink)) < 0 {
			copy(p(sink), p(col(b)))
		}
	}
	total := 0
	for _, c := range cnt {
		total += c
	}
	dist := make([]uint64, V*LW)
	d := func(v int) []uint64 { return dist[v*LW : (v+1)*LW : (v+1)*LW] }
	reached := make([]bool, V)
	done := make([]bool, V)
	prev := make([]int, V)
	rc := make([]uint64, LW)
	cand := make([]uint64, LW)
	// relax offers u -> v with cost c (nil: zero) to v.
	relax := func(u, v int, c []uint64) {
		if done[v] {
			return
		}
		if c != nil {
			copy(rc, c)
		} else {
			clear(rc)
		}
		add(rc, rc, p(u))
		sub(rc, rc, p(v))
		add(cand, d(u), rc)
		if !reached[v] || cmp(cand, d(v)) < 0 {
			copy(d(v), cand)
			reached[v] = true
			prev[v] = u
		}
	}
	cost := make([]uint64, LW)
	for flow := 0; flow < total; {
		clear(reached)
		clear(done)
		reached[src] = true
		clear(d(src))
		for {
			u := -1
			for v := range V {
				if reached[v] && !done[v] && (u == -1 || cmp(d(v), d(u)) < 0) {
					u = v
				}
			}
			if u == -1 {
				break
			}
			done[u] = true
			switch {
			case u == src:
				for a := range T {
					if fs[a] < cnt[a] {
						relax(u, row(a), nil)
					}
				}
			case u == sink:
				for b := range T {
					if ft[b] > 0 {
						relax(u, col(b), nil)
					}
				}
			case u <= T: // row a
				a := u - 1
				if fs[a] > 0 {
					relax(u, src, nil)
				}
				for b := range T {
					if has[a*T+b] {
						clear(cost)
						sub(cost, cost, g(a, b))
						relax(u, col(b), cost)
					}
				}
			default: // column b
				b := u - 1 - T
				if ft[b] < cnt[b] {
					relax(u, sink, nil)
				}
				for a := range T {
					if x[a*T+b] > 0 {
						relax(u, row(a), g(a, b))
					}
				}
			}
		}
		if !reached[sink] {
			return nil, nil, false
		}
		var maxd []uint64
		for v := range V {
			if reached[v] && (maxd == nil || cmp(d(v), maxd) > 0) {
				maxd = d(v)
			}
		}
		for v := range V {
			if reached[v] {
				add(p(v), p(v), d(v))
			} else {
				add(p(v), p(v), maxd)
			}
		}
		// Augment by the bottleneck of the path.
		amt := total - flow
		for v := sink; v != src; v = prev[v] {
			u := prev[v]
			switch {
			case u == src:
				amt = min(amt, cnt[v-1]-fs[v-1])
			case v == sink:
				amt = min(amt, cnt[u-1-T]-ft[u-1-T])
			case u == sink:
				amt = min(amt, ft[v-1-T])
			case v == src:
				amt = min(amt, fs[u-1])
			case u > T && v <= T: // column -> row: undo flow
				amt = min(amt, x[(v-1)*T+(u-1-T)])
			}
		}
		for v := sink; v != src; v = prev[v] {
			u := prev[v]
			switch {
			case u == src:
				fs[v-1] += amt
			case v == sink:
				ft[u-1-T] += amt
			case u == sink:
				ft[v-1-T] -= amt
			case v == src:
				fs[u-1] -= amt
			case u <= T && v > T:
				x[(u-1)*T+(v-1-T)] += amt
			default:
				x[(v-1)*T+(u-1-T)] -= amt
			}
		}
		flow += amt
	}
	return x, pot, true
}
