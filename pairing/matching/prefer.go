package matching

// Deciding a preferred partner without a solve.
//
// The Dutch engine fixes pairs one at a time: "the highest-ranked candidate
// of v that still allows an optimal matching". Every optimal matching
// satisfies complementary slackness with every optimal dual solution, so
// after a solve an edge with positive slack is in no optimal matching, and
// the first tight candidate is the only one that can be the answer. When v
// is already matched to it, or a swap along a 4-cycle of tight edges
// matches v to it, the current matching (or the swapped one) is optimal
// and contains the pair: no primal-dual stage is needed. Prefer answers
// only in those cases, so its answer is always the one a solve with the
// candidates' preferences added to the weights would give.

// Solved reports that the current matching is optimal with the current
// duals: nothing is pending and every live vertex is matched (a Fix may
// have left vertices free: the blossoms around the fixed pair dissolved).
func (s *Incremental) Solved() bool {
	if !s.started || len(s.dirties) > 0 {
		return false
	}
	for _, v := range s.live {
		if s.mate[v] < 0 {
			return false
		}
	}
	return true
}

// tight reports whether edge {v, u} is present with zero slack, the duals
// of the blossoms holding both ends included (twice each: dissolving a
// blossom adds its dual to both ends and keeps the slack).
func (s *Incremental) tight(v, u int) bool {
	if !s.ex[v*s.n+u] {
		return false
	}
	slackOf(s.t2, s.d(v), s.d(u), s.wc(s.cell(v, u)))
	if s.inblossom[v] == s.inblossom[u] {
		for b := s.bparent[v]; b != -1; b = s.bparent[b] {
			if s.holds(b, u) {
				add(s.t2, s.t2, s.d(b))
				add(s.t2, s.t2, s.d(b))
			}
		}
	}
	return isZero(s.t2)
}

// holds reports whether blossom b contains vertex u.
func (s *Incremental) holds(b, u int) bool {
	for x := u; x != -1; x = s.bparent[x] {
		if x == b {
			return true
		}
	}
	return false
}

// Prefer returns the first candidate (in preference order; every
// candidate's edge to v present and live) that is v's partner in some
// optimal matching, when that can be decided from the current optimum,
// and rematches v to it; ok is false when a solve is needed. A swap is
// made only between top-level vertices (outside any blossom: the blossoms
// and their fullness do not change) and when swapOK accepts the two former
// partners as a new pair.
func (s *Incremental) Prefer(v int, cands []int, swapOK func(a, b int) bool) (int, bool) {
	if !s.Solved() {
		return -1, false
	}
	a := s.endpoint(s.mate[v])
	for _, u := range cands {
		if !s.tight(v, u) {
			continue
		}
		if u == a {
			return u, true
		}
		b := s.endpoint(s.mate[u])
		if s.inblossom[v] != v || s.inblossom[u] != u || s.inblossom[a] != a || s.inblossom[b] != b || !swapOK(a, b) {
			return -1, false
		}
		if !s.tight(a, b) {
			return -1, false
		}
		s.pair(v, u)
		s.pair(a, b)
		return u, true
	}
	return -1, false
}
