package matching

// Re-pairing a set of vertices under a constraint without a solve.
//
// The Dutch engine's remainder step asks for an optimum in which every
// player of S1 is paired with a player of S2. The optimum it has pairs
// S1 with S1 and S2 with S2 as often as not; with edge terms that favour
// S1-S2 pairs a solve releases half the bracket and explores the whole
// graph again. Any perfect matching along tight edges between vertices
// outside every blossom, the rest of the optimum kept, is optimal too
// (complementary slackness: every matched edge tight, the blossoms
// untouched), so when one that meets the constraint is found by
// augmenting paths over the tight edges of the set, no solve is needed.

// Repair re-pairs the vertices of set, which the current optimum pairs
// among themselves, along tight edges accepted by ok, and reports whether
// it could: the pairs ok rejects are broken and their vertices re-paired
// by augmenting paths (searched without shrinking blossoms, so a repair
// may be missed: then it reports false). It changes nothing and reports
// false when the graph is not solved, a vertex is dead, inside a blossom
// or paired outside set, or after budget steps (a step looks at one pair).
func (s *Incremental) Repair(set []int, ok func(a, b int) bool, budget int) bool {
	if !s.Solved() {
		return false
	}
	idx := make(map[int]int, len(set))
	for i, v := range set {
		idx[v] = i
	}
	// A blossom of zero dual adds nothing to any slack: those around the
	// vertices are dissolved (their pairs stay). One of positive dual
	// would have to keep its pairs inside: the repair gives up.
	for _, v := range set {
		for !s.dead[v] && s.inblossom[v] != v {
			b := s.inblossom[v]
			for s.bparent[b] != -1 {
				b = s.bparent[b]
			}
			if !isZero(s.d(b)) {
				return false
			}
			s.dissolve(b)
		}
	}
	mate := make([]int, len(set)) // index in set, -1 free
	for i, v := range set {
		if s.dead[v] || s.inblossom[v] != v || s.mate[v] < 0 {
			return false
		}
		j, in := idx[s.endpoint(s.mate[v])]
		if !in {
			return false
		}
		mate[i] = j
	}
	var free []int
	for i, j := range mate {
		if j > i && !ok(set[i], set[j]) {
			mate[i], mate[j] = -1, -1
			free = append(free, i, j)
		}
	}
	if len(free) == 0 {
		return true
	}
	// 0 unknown, 1 tight and accepted, 2 not.
	memo := make([]int8, len(set)*len(set))
	edge := func(i, j int) bool {
		k := i*len(set) + j
		if memo[k] == 0 {
			memo[k] = 2
			if ok(set[i], set[j]) && s.tight(set[i], set[j]) {
				memo[k] = 1
			}
			memo[j*len(set)+i] = memo[k]
		}
		return memo[k] == 1
	}
	// An alternating path from a free vertex: outer vertices (the root,
	// then the mates of the inner ones) look first for a free vertex, then
	// for an inner one, along an accepted tight edge. Each vertex is used
	// once per search, which keeps the path simple (blossoms are not
	// shrunk).
	mark := make([]int, len(set))
	stamp := 0
	var search func(i int) bool
	search = func(i int) bool {
		mark[i] = stamp
		for _, j := range free {
			if budget--; budget < 0 {
				return false
			}
			if mate[j] < 0 && mark[j] != stamp && edge(i, j) {
				mate[i], mate[j] = j, i
				return true
			}
		}
		for j := range set {
			if budget--; budget < 0 {
				return false
			}
			k := mate[j]
			if k < 0 || mark[j] == stamp || mark[k] == stamp || !edge(i, j) {
				continue
			}
			mark[j] = stamp
			if search(k) {
				mate[i], mate[j] = j, i
				return true
			}
		}
		return false
	}
	for _, i := range free {
		if mate[i] >= 0 {
			continue
		}
		stamp++
		if !search(i) || budget < 0 {
			return false
		}
	}
	for i, j := range mate {
		if j > i {
			s.pair(set[i], set[j])
		}
	}
	return true
}
