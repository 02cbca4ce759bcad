package matching

// Re-pairing a set of vertices under a constraint without a solve.
//
// The Dutch engine's remainder step asks for an optimum in which every
// player of S1 is paired with a player of S2. The optimum it has pairs
// S1 with S1 and S2 with S2 as often as not; with edge terms that favour
// S1-S2 pairs a solve releases half the bracket and explores the whole
// graph again. A pairing of the same players along tight edges, outside
// every blossom, weighs as much as theirs (see Repair), so when one that
// meets the constraint is found by augmenting paths over the tight edges
// of the set, the exchange solve is not needed.

// Repair re-pairs the vertices of set, all of them, along tight edges
// accepted by ok, and returns the new partner of each (in set's order).
// The vertices are paired among themselves now, or free (a finalize's
// release); the pairs ok rejects are broken and every free vertex is
// paired by augmenting paths, searched without shrinking blossoms (so a
// repair may be missed: false). The blossoms around the vertices must be
// of zero dual (they are dissolved), or of positive dual with all their
// vertices in set and zero-dual blossoms inside (kept: an edge inside
// weighs with twice the dual, and one vertex is paired outside, with the
// partner of the base); a vertex in another blossom of positive dual must
// be its base, paired with a kept blossom (it stays paired into it). It
// needs feasible duals (no change pending since the last solve) and
// reports false after budget steps (a step looks at one pair). When it
// reports false the matching is unchanged, though blossoms of zero dual
// around the vertices may have been dissolved (which changes no slack).
//
// Once re-paired, a kept blossom whose pairs changed no longer matches
// its structure: it is dissolved as a release does (its dual onto its vertices, the pair
// leaving it unpaired, the blossoms inside dissolved), and a Solve
// completes the matching. The returned partners include that pair.
//
// Why the re-paired vertices weigh as much as before: every new pair is
// tight and every kept blossom B full, so twice their weight is the sum of
// the duals of set plus twice the dual of each kept B times (|B|-1)/2,
// which bounds any pairing of set.
func (s *Incremental) Repair(set []int, ok func(a, b int) bool, budget int) ([]int, bool) {
	if !s.started || len(s.dirties) > 0 {
		return nil, false
	}
	idx := make(map[int]int, len(set))
	for i, v := range set {
		if s.dead[v] {
			return nil, false
		}
		idx[v] = i
	}
	topOf := func(v int) int {
		b := s.inblossom[v]
		for s.bparent[b] != -1 {
			b = s.bparent[b]
		}
		return b
	}
	// Blossoms of zero dual go; the others are kept or anchor a vertex.
	for _, v := range set {
		for s.inblossom[v] != v && isZero(s.d(topOf(v))) {
			s.dissolve(topOf(v))
		}
	}
	inner := func(b int) bool { // a blossom inside b has a non-zero dual
		var walk func(x int) bool
		walk = func(x int) bool {
			for _, ch := range s.bchilds[x] {
				if ch >= s.n && (!isZero(s.d(ch)) || walk(ch)) {
					return true
				}
			}
			return false
		}
		return walk(b)
	}
	keptIn := make([]int, len(set)) // the kept blossom holding set[i], -1
	cOf := map[int]int{}            // kept blossom -> partner of its base
	for i := range keptIn {
		keptIn[i] = -1
	}
	for i, v := range set {
		if s.inblossom[v] == v || keptIn[i] >= 0 {
			continue
		}
		b := topOf(v)
		all := true
		s.leaves(b, func(x int) {
			if _, in := idx[x]; !in {
				all = false
			}
		})
		m := s.mate[s.bbase[b]]
		if !all || m < 0 || inner(b) {
			continue // maybe an anchor (below)
		}
		c := s.endpoint(m)
		if _, in := idx[c]; !in {
			return nil, false
		}
		cOf[b] = c
		s.leaves(b, func(x int) { keptIn[idx[x]] = b })
	}
	anchor := make([]int, len(set)) // the kept blossom set[i] stays paired into, -1
	for i, v := range set {
		anchor[i] = -1
		if s.inblossom[v] == v || keptIn[i] >= 0 {
			continue
		}
		t := topOf(v)
		if s.bbase[t] != v || s.mate[v] < 0 {
			return nil, false
		}
		j, in := idx[s.endpoint(s.mate[v])]
		if !in || keptIn[j] < 0 || cOf[keptIn[j]] != v {
			return nil, false
		}
		anchor[i] = keptIn[j]
	}
	// allowed: the pair may be in the repaired matching, tightness aside.
	allowed := func(i, j int) bool {
		if anchor[i] >= 0 || anchor[j] >= 0 {
			return (anchor[i] < 0 || keptIn[j] == anchor[i]) && (anchor[j] < 0 || keptIn[i] == anchor[j]) && ok(set[i], set[j])
		}
		bi, bj := keptIn[i], keptIn[j]
		if bi != bj && ((bi >= 0 && set[j] != cOf[bi]) || (bj >= 0 && set[i] != cOf[bj])) {
			return false
		}
		return ok(set[i], set[j])
	}
	slack := make([]uint64, s.words)
	tightPair := func(i, j int) bool {
		u, v := set[i], set[j]
		if !s.ex[u*s.n+v] {
			return false
		}
		slackOf(slack, s.d(u), s.d(v), s.wc(s.cell(u, v)))
		if keptIn[i] >= 0 && keptIn[i] == keptIn[j] {
			z := s.d(keptIn[i])
			add(slack, slack, z)
			add(slack, slack, z)
		}
		return isZero(slack)
	}
	mate := make([]int, len(set)) // index in set, -1 free
	var free []int
	for i, v := range set {
		mate[i] = -1
		if s.mate[v] < 0 {
			free = append(free, i)
			continue
		}
		j, in := idx[s.endpoint(s.mate[v])]
		if !in {
			return nil, false
		}
		mate[i] = j
	}
	for i, j := range mate {
		if j > i && !allowed(i, j) {
			mate[i], mate[j] = -1, -1
			free = append(free, i, j)
		}
	}
	if len(free) == 0 {
		return s.repaired(set, mate, keptIn, cOf), true
	}
	// 0 unknown, 1 tight and accepted, 2 not.
	memo := make([]int8, len(set)*len(set))
	edge := func(i, j int) bool {
		k := i*len(set) + j
		if memo[k] == 0 {
			memo[k] = 2
			if allowed(i, j) && tightPair(i, j) {
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
			return nil, false
		}
	}
	return s.repaired(set, mate, keptIn, cOf), true
}

// repaired pairs the vertices of set as mate says (indexes in set) and
// returns their partners; each kept blossom (cOf; keptIn: the one holding
// each vertex) whose pairs changed is then dissolved as a release does
// (see Repair).
func (s *Incremental) repaired(set, mate, keptIn []int, cOf map[int]int) []int {
	changed := map[int]bool{}
	for i, j := range mate {
		if b := keptIn[i]; b >= 0 && (s.mate[set[i]] < 0 || s.endpoint(s.mate[set[i]]) != set[j]) {
			changed[b] = true
		}
	}
	r := make([]int, len(set))
	for i, j := range mate {
		r[i] = set[j]
		if j > i {
			s.pair(set[i], set[j])
		}
	}
	// The base of a kept blossom is now the vertex paired with c (the
	// pair leaving it), all set before any is dissolved (two kept
	// blossoms may be paired with each other).
	for b := range changed {
		s.bbase[b] = s.endpoint(s.mate[cOf[b]])
	}
	for b := range changed {
		var leaves []int
		s.leaves(b, func(v int) { leaves = append(leaves, v) })
		s.dissolve(b)
		for _, v := range leaves {
			for s.inblossom[v] != v {
				t := s.inblossom[v]
				for s.bparent[t] != -1 {
					t = s.bparent[t]
				}
				s.dissolve(t) // zero dual
			}
		}
	}
	return r
}
