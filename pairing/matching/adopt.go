package matching

// Adopt starts a graph from the optimum of another one over mostly the
// same vertices and edges (the Dutch engine's local graph rebuilt with more
// proxy vertices), instead of a fresh solve. from[v] is v's counterpart in
// old, or -1 for a new vertex. Every counterpart keeps its dual, with the
// duals of old's blossoms moved onto their vertices (which keeps every
// slack non-negative); a new vertex gets its least feasible dual against
// the others (new vertices in order); pairs of old that are still tight
// here stay matched. s must have all its edges set and not be solved yet;
// the next Solve runs stages only for the vertices left free. old's
// weights must be s's wherever both ends have counterparts.
func (s *Incremental) Adopt(old *Incremental, from []int) {
	W := s.words
	y := make([]uint64, old.n*W)
	for _, v := range old.live {
		yv := y[v*W : (v+1)*W]
		copy(yv, old.d(v))
		for b := old.bparent[v]; b != -1; b = old.bparent[b] {
			add(yv, yv, old.d(b))
		}
	}
	isNew := make([]bool, s.n)
	for _, v := range s.live {
		if o := from[v]; o >= 0 && !old.dead[o] {
			copy(s.d(v), y[o*W:(o+1)*W])
		} else {
			isNew[v] = true
		}
	}
	set := make([]bool, s.n)
	need := make([]uint64, W)
	for _, v := range s.live {
		if !isNew[v] {
			set[v] = true
			continue
		}
		first := true
		for _, u := range s.live {
			if u == v || !set[u] || !s.ex[v*s.n+u] {
				continue
			}
			c := s.wc(s.cell(v, u))
			add(need, c, c)
			sub(need, need, s.d(u))
			if first || cmp(need, s.d(v)) > 0 {
				copy(s.d(v), need)
			}
			first = false
		}
		if first {
			clear(s.d(v))
		}
		set[v] = true
	}
	back := make([]int, old.n)
	for i := range back {
		back[i] = -1
	}
	for _, v := range s.live {
		if o := from[v]; o >= 0 && !old.dead[o] {
			back[o] = v
		}
	}
	for _, v := range s.live {
		o := from[v]
		if o < 0 || old.dead[o] || s.mate[v] >= 0 || old.mate[o] < 0 {
			continue
		}
		u := back[old.endpoint(old.mate[o])]
		if u >= 0 && s.mate[u] < 0 && s.tight(v, u) {
			s.pair(v, u)
		}
	}
	s.started = true
	for _, v := range s.dirties {
		s.dirty[v] = false
	}
	s.dirties = s.dirties[:0]
}

// Vertices returns the number of vertices of the graph.
func (s *Incremental) Vertices() int { return s.n }
