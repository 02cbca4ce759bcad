package matching

// PairStartFrom is the number of live vertices above which a fresh solve
// without types (SetTypes) starts with pairStart instead of freshStart:
// since the type start, the Dutch engine's exact graphs after a failed
// completion and the global fallback. Measured before the type start, on
// the benchmark tournaments: in the ~3000-3700-vertex graphs of 9999
// players pairStart left 64-94 vertices free where freshStart left
// 1260-1918, and the fresh solves scanned 6-7 times fewer vertices; in the
// ~1000-vertex graphs of 3000 players it left large blossoms in the
// optimum that made the later steps of the bracket slower (the whole round
// 3.2 s -> 14 s). A variable so that tests can force either start.
var PairStartFrom = 2000

// pairStart sets feasible duals and a first matching for a fresh solve by
// lowering pairs. Every dual starts at the largest weight of its edges to
// non-hubs (see hubs), which is feasible (y_v + y_u >= 2w(v,u)), and
// need[v] bounds from above the least value v's dual may take given the
// others. A free v is matched to the free u with the most room
// 2w(v,u) - need[v] - need[u] >= 0 and the room is split evenly between
// their duals, so the edge is tight and neither dual drops far enough to
// make that vertex every later vertex's tightest partner (lowering one
// vertex at a time to its least value, as freshStart does, leaves about
// half of the large graphs' vertices free). Duals stay even. The hubs
// come last, at their least feasible duals against the others, matched
// along a tight edge to a free vertex.
func (s *Incremental) pairStart() {
	W, n := s.words, s.n
	hub := s.hubs()
	need := make([]uint64, n*W)
	has := make([]bool, n)
	nd := func(v int) []uint64 { return need[v*W : (v+1)*W : (v+1)*W] }
	for _, v := range s.live {
		d := s.d(v)
		clear(d)
		for _, u := range s.live {
			if u != v && !hub[u] && s.ex[v*n+u] {
				if c := s.wc(s.cell(v, u)); cmp(c, d) > 0 {
					copy(d, c)
				}
			}
		}
	}
	t := make([]uint64, W)
	raise := func(x, v int) { // need[x] >= 2w(x,v) - y_v
		c := s.wc(s.cell(x, v))
		add(t, c, c)
		sub(t, t, s.d(v))
		if !has[x] || cmp(t, nd(x)) > 0 {
			copy(nd(x), t)
			has[x] = true
		}
	}
	for _, v := range s.live {
		for _, u := range s.live {
			if u != v && !hub[u] && s.ex[v*n+u] {
				raise(v, u)
			}
		}
	}
	room := make([]uint64, W)
	best := make([]uint64, W)
	for _, v := range s.live {
		if s.mate[v] >= 0 || hub[v] {
			continue
		}
		b := -1
		for _, u := range s.live {
			if u == v || hub[u] || s.mate[u] >= 0 || !s.ex[v*n+u] {
				continue
			}
			c := s.wc(s.cell(v, u))
			add(room, c, c)
			sub(room, room, nd(v))
			sub(room, room, nd(u))
			if isNeg(room) {
				continue
			}
			if b == -1 || cmp(room, best) > 0 {
				b = u
				copy(best, room)
			}
		}
		if b == -1 {
			continue
		}
		// y_v = need[v] + half the room (even), y_u = 2w - y_v >= need[u].
		half(best, best)
		best[0] &^= 1
		add(s.d(v), nd(v), best)
		c := s.wc(s.cell(v, b))
		add(t, c, c)
		sub(s.d(b), t, s.d(v))
		s.pair(v, b)
		for _, x := range s.live {
			if x != v && s.ex[x*n+v] {
				raise(x, v)
			}
			if x != b && s.ex[x*n+b] {
				raise(x, b)
			}
		}
	}
	for _, v := range s.live {
		if !hub[v] {
			continue
		}
		b, bFree := -1, false
		for _, u := range s.live {
			if u == v || !s.ex[v*n+u] {
				continue
			}
			c := s.wc(s.cell(v, u))
			add(t, c, c)
			sub(t, t, s.d(u))
			free := !hub[u] && s.mate[u] < 0
			if r := cmp(t, best); b == -1 || r > 0 || (r == 0 && free && !bFree) {
				b, bFree = u, free
				copy(best, t)
			}
		}
		if b == -1 {
			continue
		}
		copy(s.d(v), best)
		if bFree {
			s.pair(v, b)
		}
	}
}
