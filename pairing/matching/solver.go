package matching

// solver is a primal-dual maximum-weight matching (Edmonds' blossom
// algorithm in the formulation of Galil, "Efficient algorithms for finding
// maximum matching in graphs", 1986): one augmentation per stage, O(n^2) per
// stage. Vertex duals are kept in units of half the weight so that all
// arithmetic is integral (weights are doubled on input).
type solver struct {
	n, words  int
	edges     [][2]int
	wt        []uint64 // doubled weight of edge k at k*words
	endpoint  []int
	neighbend [][]int
	mate      []int
	label     []int
	labelend  []int
	inblossom []int
	bparent   []int
	bchilds   [][]int
	bbase     []int
	bendps    [][]int
	bestedge  []int
	bbest     [][]int
	unused    []int
	dual      []uint64 // 2n values
	allow     []bool
	queue     []int
	t1, t2    []uint64 // scratch
	delta     []uint64
}

func newSolver(g *Graph, active []int) *solver {
	n, W := len(active), g.words
	s := &solver{n: n, words: W}
	maxw := make([]uint64, W)
	for a := 1; a < n; a++ {
		for b := 0; b < a; b++ {
			w := g.at(active[a], active[b])
			if isZero(w) {
				continue
			}
			s.edges = append(s.edges, [2]int{active[a], active[b]})
			o := len(s.wt)
			s.wt = append(s.wt, make([]uint64, W)...)
			twice(s.wt[o:o+W], w)
			if cmp(s.wt[o:o+W], maxw) > 0 {
				copy(maxw, s.wt[o:o+W])
			}
		}
	}
	// Map graph vertices to local indexes.
	local := make(map[int]int, n)
	for i, v := range active {
		local[v] = i
	}
	s.endpoint = make([]int, 2*len(s.edges))
	s.neighbend = make([][]int, n)
	for k := range s.edges {
		i, j := local[s.edges[k][0]], local[s.edges[k][1]]
		s.edges[k] = [2]int{i, j}
		s.endpoint[2*k], s.endpoint[2*k+1] = i, j
		s.neighbend[i] = append(s.neighbend[i], 2*k+1)
		s.neighbend[j] = append(s.neighbend[j], 2*k)
	}
	s.mate = fill(n, -1)
	s.label = make([]int, 2*n)
	s.labelend = fill(2*n, -1)
	s.inblossom = make([]int, n)
	for i := range s.inblossom {
		s.inblossom[i] = i
	}
	s.bparent = fill(2*n, -1)
	s.bchilds = make([][]int, 2*n)
	s.bbase = fill(2*n, -1)
	for i := 0; i < n; i++ {
		s.bbase[i] = i
	}
	s.bendps = make([][]int, 2*n)
	s.bestedge = fill(2*n, -1)
	s.bbest = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		s.unused = append(s.unused, b)
	}
	s.dual = make([]uint64, 2*n*W)
	for v := 0; v < n; v++ {
		copy(s.d(v), maxw)
	}
	s.allow = make([]bool, len(s.edges))
	s.t1, s.t2, s.delta = make([]uint64, W), make([]uint64, W), make([]uint64, W)
	return s
}

func fill(n, v int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = v
	}
	return r
}

func (s *solver) d(v int) []uint64 { return s.dual[v*s.words : (v+1)*s.words : (v+1)*s.words] }

// slack writes dual(i)+dual(j)-2w(k) into dst.
func (s *solver) slack(dst []uint64, k int) {
	i, j := s.edges[k][0], s.edges[k][1]
	add(dst, s.d(i), s.d(j))
	W := s.words
	sub(dst, dst, s.wt[k*W:(k+1)*W])
	sub(dst, dst, s.wt[k*W:(k+1)*W])
}

// slackLess reports slack(a) < slack(b).
func (s *solver) slackLess(a, b int) bool {
	s.slack(s.t1, a)
	s.slack(s.t2, b)
	return cmp(s.t1, s.t2) < 0
}

func (s *solver) leaves(b int, f func(v int)) {
	if b < s.n {
		f(b)
		return
	}
	for _, t := range s.bchilds[b] {
		s.leaves(t, f)
	}
}

func (s *solver) assignLabel(w, t, p int) {
	b := s.inblossom[w]
	s.label[w], s.label[b] = t, t
	s.labelend[w], s.labelend[b] = p, p
	s.bestedge[w], s.bestedge[b] = -1, -1
	if t == 1 {
		s.leaves(b, func(v int) { s.queue = append(s.queue, v) })
	} else if t == 2 {
		base := s.bbase[b]
		s.assignLabel(s.endpoint[s.mate[base]], 1, s.mate[base]^1)
	}
}

func (s *solver) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := s.inblossom[v]
		if s.label[b]&4 != 0 {
			base = s.bbase[b]
			break
		}
		path = append(path, b)
		s.label[b] = 5
		if s.labelend[b] == -1 {
			v = -1
		} else {
			v = s.endpoint[s.labelend[b]]
			b = s.inblossom[v]
			v = s.endpoint[s.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		s.label[b] = 1
	}
	return base
}

func (s *solver) addBlossom(base, k int) {
	v, w := s.edges[k][0], s.edges[k][1]
	bb, bv, bw := s.inblossom[base], s.inblossom[v], s.inblossom[w]
	b := s.unused[len(s.unused)-1]
	s.unused = s.unused[:len(s.unused)-1]
	s.bbase[b] = base
	s.bparent[b] = -1
	s.bparent[bb] = b
	var path, endps []int
	for bv != bb {
		s.bparent[bv] = b
		path = append(path, bv)
		endps = append(endps, s.labelend[bv])
		v = s.endpoint[s.labelend[bv]]
		bv = s.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		s.bparent[bw] = b
		path = append(path, bw)
		endps = append(endps, s.labelend[bw]^1)
		w = s.endpoint[s.labelend[bw]]
		bw = s.inblossom[w]
	}
	s.bchilds[b], s.bendps[b] = path, endps
	s.label[b] = 1
	s.labelend[b] = s.labelend[bb]
	clear(s.d(b))
	s.leaves(b, func(v int) {
		if s.label[s.inblossom[v]] == 2 {
			s.queue = append(s.queue, v)
		}
		s.inblossom[v] = b
	})
	bestto := fill(2*s.n, -1)
	consider := func(k int) {
		i, j := s.edges[k][0], s.edges[k][1]
		if s.inblossom[j] == b {
			i, j = j, i
		}
		_ = i
		bj := s.inblossom[j]
		if bj != b && s.label[bj] == 1 && (bestto[bj] == -1 || s.slackLess(k, bestto[bj])) {
			bestto[bj] = k
		}
	}
	for _, bv := range path {
		if s.bbest[bv] == nil {
			s.leaves(bv, func(v int) {
				for _, p := range s.neighbend[v] {
					consider(p / 2)
				}
			})
		} else {
			for _, k := range s.bbest[bv] {
				consider(k)
			}
		}
		s.bbest[bv] = nil
		s.bestedge[bv] = -1
	}
	var best []int
	for _, k := range bestto {
		if k != -1 {
			best = append(best, k)
		}
	}
	if best == nil {
		best = []int{}
	}
	s.bbest[b] = best
	s.bestedge[b] = -1
	for _, k := range best {
		if s.bestedge[b] == -1 || s.slackLess(k, s.bestedge[b]) {
			s.bestedge[b] = k
		}
	}
}

func reverse(a []int) {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
}

func index(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	panic("matching: blossom child not found")
}

// at indexes with Python-style negative indexes.
func at(a []int, i int) int {
	if i < 0 {
		i += len(a)
	}
	return a[i]
}

func (s *solver) expandBlossom(b int, endstage bool) {
	for _, c := range s.bchilds[b] {
		s.bparent[c] = -1
		if c < s.n {
			s.inblossom[c] = c
		} else if endstage && isZero(s.d(c)) {
			s.expandBlossom(c, endstage)
		} else {
			s.leaves(c, func(v int) { s.inblossom[v] = c })
		}
	}
	if !endstage && s.label[b] == 2 {
		childs, endps := s.bchilds[b], s.bendps[b]
		entry := s.inblossom[s.endpoint[s.labelend[b]^1]]
		j := index(childs, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= len(childs)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := s.labelend[b]
		for j != 0 {
			s.label[s.endpoint[p^1]] = 0
			s.label[s.endpoint[at(endps, j-trick)^trick^1]] = 0
			s.assignLabel(s.endpoint[p^1], 2, p)
			s.allow[at(endps, j-trick)/2] = true
			j += jstep
			p = at(endps, j-trick) ^ trick
			s.allow[p/2] = true
			j += jstep
		}
		bv := at(childs, j)
		s.label[s.endpoint[p^1]], s.label[bv] = 2, 2
		s.labelend[s.endpoint[p^1]], s.labelend[bv] = p, p
		s.bestedge[bv] = -1
		j += jstep
		for at(childs, j) != entry {
			bv := at(childs, j)
			if s.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			s.leaves(bv, func(v int) {
				if found == -1 && s.label[v] != 0 {
					found = v
				}
			})
			if found != -1 {
				v := found
				s.label[v] = 0
				s.label[s.endpoint[s.mate[s.bbase[bv]]]] = 0
				s.assignLabel(v, 2, s.labelend[v])
			}
			j += jstep
		}
	}
	s.label[b], s.labelend[b] = -1, -1
	s.bchilds[b], s.bendps[b] = nil, nil
	s.bbase[b] = -1
	s.bbest[b] = nil
	s.bestedge[b] = -1
	s.unused = append(s.unused, b)
}

func (s *solver) augmentBlossom(b, v int) {
	t := v
	for s.bparent[t] != b {
		t = s.bparent[t]
	}
	if t >= s.n {
		s.augmentBlossom(t, v)
	}
	childs, endps := s.bchilds[b], s.bendps[b]
	i := index(childs, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p])
		}
		j += jstep
		t = at(childs, j)
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p^1])
		}
		s.mate[s.endpoint[p]] = p ^ 1
		s.mate[s.endpoint[p^1]] = p
	}
	s.bchilds[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	s.bendps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	s.bbase[b] = s.bbase[s.bchilds[b][0]]
}

func (s *solver) augmentMatching(k int) {
	v, w := s.edges[k][0], s.edges[k][1]
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		st, p := sp[0], sp[1]
		for {
			bs := s.inblossom[st]
			if bs >= s.n {
				s.augmentBlossom(bs, st)
			}
			s.mate[st] = p
			if s.labelend[bs] == -1 {
				break
			}
			t := s.endpoint[s.labelend[bs]]
			bt := s.inblossom[t]
			st = s.endpoint[s.labelend[bt]]
			j := s.endpoint[s.labelend[bt]^1]
			if bt >= s.n {
				s.augmentBlossom(bt, j)
			}
			s.mate[j] = s.labelend[bt]
			p = s.labelend[bt] ^ 1
		}
	}
}

func (s *solver) solve() {
	n := s.n
	kslack := make([]uint64, s.words)
	dd := make([]uint64, s.words)
	for range n {
		for i := range s.label {
			s.label[i] = 0
			s.bestedge[i] = -1
		}
		for i := n; i < 2*n; i++ {
			s.bbest[i] = nil
		}
		clear(s.allow)
		s.queue = s.queue[:0]
		for v := 0; v < n; v++ {
			if s.mate[v] == -1 && s.label[s.inblossom[v]] == 0 {
				s.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(s.queue) > 0 && !augmented {
				v := s.queue[len(s.queue)-1]
				s.queue = s.queue[:len(s.queue)-1]
				for _, p := range s.neighbend[v] {
					k := p / 2
					w := s.endpoint[p]
					if s.inblossom[v] == s.inblossom[w] {
						continue
					}
					if !s.allow[k] {
						s.slack(kslack, k)
						if sign(kslack) <= 0 {
							s.allow[k] = true
						}
					}
					if s.allow[k] {
						if s.label[s.inblossom[w]] == 0 {
							s.assignLabel(w, 2, p^1)
						} else if s.label[s.inblossom[w]] == 1 {
							base := s.scanBlossom(v, w)
							if base >= 0 {
								s.addBlossom(base, k)
							} else {
								s.augmentMatching(k)
								augmented = true
								break
							}
						} else if s.label[w] == 0 {
							s.label[w] = 2
							s.labelend[w] = p ^ 1
						}
					} else if s.label[s.inblossom[w]] == 1 {
						b := s.inblossom[v]
						if s.bestedge[b] == -1 || s.lessThanSlack(kslack, s.bestedge[b]) {
							s.bestedge[b] = k
						}
					} else if s.label[w] == 0 {
						if s.bestedge[w] == -1 || s.lessThanSlack(kslack, s.bestedge[w]) {
							s.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			// Choose the dual adjustment.
			deltatype, deltaedge, deltablossom := 1, -1, -1
			copy(s.delta, s.d(0))
			for v := 1; v < n; v++ {
				if cmp(s.d(v), s.delta) < 0 {
					copy(s.delta, s.d(v))
				}
			}
			for v := 0; v < n; v++ {
				if s.label[s.inblossom[v]] == 0 && s.bestedge[v] != -1 {
					s.slack(dd, s.bestedge[v])
					if cmp(dd, s.delta) < 0 {
						copy(s.delta, dd)
						deltatype, deltaedge = 2, s.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if s.bparent[b] == -1 && s.label[b] == 1 && s.bestedge[b] != -1 {
					s.slack(kslack, s.bestedge[b])
					half(dd, kslack)
					if cmp(dd, s.delta) < 0 {
						copy(s.delta, dd)
						deltatype, deltaedge = 3, s.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if s.bbase[b] >= 0 && s.bparent[b] == -1 && s.label[b] == 2 && cmp(s.d(b), s.delta) < 0 {
					copy(s.delta, s.d(b))
					deltatype, deltablossom = 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch s.label[s.inblossom[v]] {
				case 1:
					sub(s.d(v), s.d(v), s.delta)
				case 2:
					add(s.d(v), s.d(v), s.delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if s.bbase[b] >= 0 && s.bparent[b] == -1 {
					switch s.label[b] {
					case 1:
						add(s.d(b), s.d(b), s.delta)
					case 2:
						sub(s.d(b), s.d(b), s.delta)
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				s.allow[deltaedge] = true
				i, j := s.edges[deltaedge][0], s.edges[deltaedge][1]
				if s.label[s.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				s.queue = append(s.queue, i)
			case 3:
				s.allow[deltaedge] = true
				s.queue = append(s.queue, s.edges[deltaedge][0])
			case 4:
				s.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if s.bparent[b] == -1 && s.bbase[b] >= 0 && s.label[b] == 1 && isZero(s.d(b)) {
				s.expandBlossom(b, true)
			}
		}
	}
}

// lessThanSlack reports x < slack(k).
func (s *solver) lessThanSlack(x []uint64, k int) bool {
	s.slack(s.t2, k)
	return cmp(x, s.t2) < 0
}
