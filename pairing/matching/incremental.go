package matching

import (
	"math"
	"math/bits"
	"sort"
	"sync"
)

// Incremental maintains a maximum-weight perfect matching of a dense graph
// under edge-weight changes, with the optimal duals and blossoms kept between
// solves. After weights of edges at k vertices change, those vertices are
// released (unmatched, their blossoms dissolved with the blossom duals moved
// onto the vertices, their duals raised to restore feasibility) and the
// primal-dual stages run only until the matching is perfect again: O(k n^2)
// instead of O(n^3) for a fresh solve.
//
// It is the perfect-matching form of Edmonds' algorithm (no "free vertices
// have zero dual" condition), so released vertices may keep any dual value;
// only their parity is aligned so that every S-S slack stays even.
type Incremental struct {
	n, words int
	blocked  bool     // wid holds one triangle in blocks (see cell), else the full matrix
	wid      []uint32 // the doubled weight of {i, j} is dict entry wid[cell(i, j)]
	dict     []uint64 // distinct doubled weights, words each; entry 0 is zero
	dcache   []uint32 // entry of a weight by hash (intern), 0: none
	dictLive int      // entries after the last compaction
	lastID   uint32   // the entry intern returned last (0: none)
	ex       []bool   // edge {i, j} present, at cells i*n+j and j*n+i (a row is contiguous)
	dead     []bool   // vertex removed from the problem (finalized pair)
	live     []int    // vertices not dead, ascending
	dirty    []bool
	dirties  []int

	mate      []int
	label     []int
	root      []int // root blossom of the alternating tree of a labelled top-level blossom
	labelend  []int
	inblossom []int
	bparent   []int
	bchilds   [][]int
	bbase     []int
	bendps    [][]int
	bestedge  []int
	bbest     [][]int
	unused    []int
	dual      []uint64
	allow     []uint16 // edge {i, j} is allowed (tight) in the current stage when allow[i*n+j] == stage (both cells)
	stage     uint16
	queue     []int
	t1, t2    []uint64
	delta     []uint64
	started   bool
	onAdjust  func(deltaType int) // tests: called after every dual adjustment
	types     []int               // vertex types for the next fresh solve (SetTypes), nil: none

	// Top two words of the vertex duals (those of the doubled weights are
	// read from wt, wtTop), used to skip the exact multi-word slack when its
	// sign or an ordering is certain; see slackT.
	yt []top

	// addBlossom scratch: best edge towards each S-blossom.
	btBest  []int
	btT     []top
	btExact []bool
	btSlack []uint64

	// Cached slack of bestedge[b] (approximation and, once needed, the
	// exact value), valid while beEdge[b] == bestedge[b] and
	// beEpoch[b] == epoch; epoch advances whenever vertex duals may have
	// changed (every syncF). A scan compares many edges against the same
	// best edge, so this saves most multi-word slacks.
	epoch   uint64
	beEpoch []uint64
	beEdge  []int
	beT     []top
	beExact []bool
	beSlack []uint64
	beKey   []tieKey // the class key of bestedge[b], with beT (see classes.go)

	// Dual classes (classes.go).
	yid        []int32
	nextClass  int32
	ytab       []int32
	cmap       []int32
	cstamp     []uint32
	cgen       uint32
	btKey      []tieKey // addBlossom scratch: key of btBest
	tieScratch []uint64 // mustTie (tests)
}

// NewIncremental returns an edgeless graph on n vertices with weights of
// the given number of words.
func NewIncremental(n, words int) *Incremental {
	s, _ := spare.Get().(*Incremental)
	return Renew(s, n, words)
}

// Renew is NewIncremental reusing the arrays of s (nil: new ones), which
// must not be used afterwards. A caller that replaces one large graph by
// the next saves the page faults and the zeroing of fresh memory that a
// released graph leaves to chance (the pool is emptied by collections).
func Renew(s *Incremental, n, words int) *Incremental {
	if s == nil {
		s = new(Incremental)
	}
	// Every field starts as in a new value; only the arrays of a released
	// graph are reused (zeroed or filled below).
	r := *s
	*s = Incremental{n: n, words: words}
	if s.blocked = n > blockedFrom; s.blocked {
		nb := (n + 7) >> 3
		s.wid = zeroed(r.wid, nb*(nb+1)/2*64)
	} else {
		s.wid = zeroed(r.wid, n*n)
	}
	s.dict = zeroed(r.dict, words)
	s.dcache = zeroed(r.dcache, dcacheSize)
	s.dictLive = 1
	s.ex = zeroed(r.ex, n*n)
	s.dead = zeroed(r.dead, n)
	s.live = zeroed(r.live, n)
	for i := range s.live {
		s.live[i] = i
	}
	s.dirty = zeroed(r.dirty, n)
	s.mate = filled(r.mate, n, -1)
	s.label = zeroed(r.label, 2*n)
	s.root = zeroed(r.root, 2*n)
	s.labelend = filled(r.labelend, 2*n, -1)
	s.inblossom = zeroed(r.inblossom, n)
	for i := range s.inblossom {
		s.inblossom[i] = i
	}
	s.bparent = filled(r.bparent, 2*n, -1)
	s.bchilds = zeroed(r.bchilds, 2*n)
	s.bbase = filled(r.bbase, 2*n, -1)
	for i := 0; i < n; i++ {
		s.bbase[i] = i
	}
	s.bendps = zeroed(r.bendps, 2*n)
	s.bestedge = filled(r.bestedge, 2*n, -1)
	s.bbest = zeroed(r.bbest, 2*n)
	s.unused = r.unused[:0]
	for b := 2*n - 1; b >= n; b-- {
		s.unused = append(s.unused, b)
	}
	s.dual = zeroed(r.dual, 2*n*words)
	s.allow = zeroed(r.allow, n*n)
	s.yt = zeroed(r.yt, n)
	s.t1, s.t2, s.delta = zeroed(r.t1, words), zeroed(r.t2, words), zeroed(r.delta, words)
	s.beEpoch, s.beEdge = zeroed(r.beEpoch, 2*n), filled(r.beEdge, 2*n, -1)
	s.beT = zeroed(r.beT, 2*n)
	s.beExact, s.beSlack = zeroed(r.beExact, 2*n), zeroed(r.beSlack, 2*n*words)
	s.beKey = zeroed(r.beKey, 2*n)
	s.yid = zeroed(r.yid, n)
	// cgen goes on: cstamp keeps the stamps of the graph it came from.
	s.ytab, s.cmap, s.cstamp, s.cgen = r.ytab, r.cmap, r.cstamp, r.cgen
	s.btKey = zeroed(r.btKey, 2*n)
	s.dirties, s.queue = r.dirties[:0], r.queue[:0]
	if cap(r.btBest) >= 2*n && cap(r.btSlack) >= 2*n*words {
		// addBlossom's scratch, as it would make it.
		s.btBest = filled(r.btBest, 2*n, -1)
		s.btT = zeroed(r.btT, 2*n)
		s.btExact = zeroed(r.btExact, 2*n)
		s.btSlack = zeroed(r.btSlack, 2*n*words)
	}
	return s
}

// spare holds released graphs: a caller that builds many graphs (the
// Dutch engine, a few per bracket, thousands of rounds in a simulation)
// reuses their arrays instead of leaving them to the garbage collector.
var spare sync.Pool

// Release hands the graph's memory to the next NewIncremental. The graph
// and every slice read from it must not be used afterwards.
func (s *Incremental) Release() {
	if s != nil {
		spare.Put(s)
	}
}

// zeroed returns b with length n, all zero, reusing its array when large
// enough.
func zeroed[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// filled returns b with length n, every element v.
func filled(b []int, n, v int) []int {
	if cap(b) < n {
		b = make([]int, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = v
	}
	return b
}

// ends returns the endpoints i > j of edge k = tri(i, j).
func ends(k int) (int, int) {
	i := int((1 + math.Sqrt(float64(8*k+1))) / 2)
	for i*(i-1)/2 > k {
		i--
	}
	for (i+1)*i/2 <= k {
		i++
	}
	return i, k - i*(i-1)/2
}

func tri(i, j int) int {
	if i < j {
		i, j = j, i
	}
	return i*(i-1)/2 + j
}

// Weights of a graph of up to blockedFrom vertices are stored in both
// cells of a full matrix, so that the scan of a vertex's edges reads one
// contiguous row; those of a larger graph once per edge (see cell), half
// the memory for 10-25% more time (the part of a row above the diagonal
// is read at a stride). With 4-byte cells (dict) the full matrix of the
// largest brackets of 9999 players (~6300 vertices) takes 160 MB, and the
// blocked layout cost them 25-30% more CPU; it is kept for graphs whose
// full matrix would take over 200 MB (the exact graph of all players).
var blockedFrom = 7000 // a variable for the tests

// wc is the doubled weight at cell c (read-only: entries are shared and
// never change; a Set points the cell at another entry).
func (s *Incremental) wc(c int) []uint64 {
	i := int(s.wid[c]) * s.words
	return s.dict[i : i+s.words : i+s.words]
}

// Weights are held once per distinct value: a cell holds the index of its
// weight in dict (4 bytes instead of 8 per word of weight). The Dutch
// engine's weights are a function of a few player attributes plus small
// ordering terms, so a graph of millions of edges has a few hundred
// thousand distinct weights. intern finds a weight through a hash table
// without chaining (a miss only adds a duplicate entry); entries no cell
// holds any more are dropped by compactDict once dict has grown enough.
const (
	dcacheBits = 16
	dcacheSize = 1 << dcacheBits
)

// compactFrom is the least number of entries of dict before compactDict
// runs (a variable for the tests).
var compactFrom = 1 << 16

// intern returns the entry of the doubled weight w (copied).
func (s *Incremental) intern(w []uint64) uint32 {
	// The engine sets runs of equal weights (a row of pairs that differ
	// only in fields the weight does not hold): about 60% of the calls
	// at 9999 players repeat the weight of the call before, and this
	// saves them the probe of the table and the dictionary (two cache
	// misses each) and the hash.
	if id := s.lastID; id != 0 {
		i := int(id) * s.words
		if cmp(s.dict[i:i+s.words], w) == 0 {
			return id
		}
	}
	h := uint64(0x9e3779b97f4a7c15)
	zero := true
	for _, x := range w {
		h = (h ^ x) * 0xff51afd7ed558ccd
		zero = zero && x == 0
	}
	if zero {
		return 0
	}
	// The top bits: a product's low bits depend only on the low bits of
	// the words, and weights differ in their high fields.
	h >>= 64 - dcacheBits
	slot := &s.dcache[h]
	if id := *slot; id != 0 {
		i := int(id) * s.words
		if cmp(s.dict[i:i+s.words], w) == 0 {
			s.lastID = id
			return id
		}
	}
	if n := len(s.dict) / s.words; n >= compactFrom && n >= 2*s.dictLive && n >= len(s.wid)>>4 {
		s.compactDict()
		slot = &s.dcache[h]
	}
	id := uint32(len(s.dict) / s.words)
	s.dict = append(s.dict, w...)
	*slot = id
	s.lastID = id
	return id
}

// compactDict drops the entries no edge between live vertices holds (the
// cells of fixed vertices, outside the problem, are set to zero unless
// they share an entry with a live edge: a fixed vertex's row is left with
// the transposition terms of its last solve, thousands of distinct
// weights per row).
func (s *Incremental) compactDict() {
	n := len(s.dict) / s.words
	remap := make([]uint32, n)
	for a, i := range s.live {
		for _, j := range s.live[:a] {
			remap[s.wid[s.cell(i, j)]] = 1
			remap[s.wid[s.cell(j, i)]] = 1
		}
	}
	remap[0] = 0 // zero stays entry 0
	live := 1
	for id := 1; id < n; id++ {
		live += int(remap[id])
	}
	nd := make([]uint64, s.words, 2*live*s.words)
	next := uint32(1)
	for id := 1; id < n; id++ {
		if remap[id] != 0 {
			remap[id] = next
			next++
			nd = append(nd, s.dict[id*s.words:(id+1)*s.words]...)
		}
	}
	for c, id := range s.wid {
		s.wid[c] = remap[id]
	}
	s.dict = nd
	s.lastID = 0
	s.dictLive = int(next)
	clear(s.dcache)
}

// cell is the cell of {i, j} in wt: i*n+j in a full matrix; in a
// blocked one, the lower triangle of the matrix in
// blocks of 8x8 vertices, block (I, J), I >= J, at block I(I+1)/2+J, the
// cell (i, j) of a block at (i%8)*8+j%8 (a diagonal block holds both cells
// of its edges). The part of a vertex's row above the diagonal is a column
// of blocks, 8 cells per block at a short stride.
func (s *Incremental) cell(i, j int) int {
	if !s.blocked {
		return i*s.n + j
	}
	if i>>3 < j>>3 {
		i, j = j, i
	}
	I, J := i>>3, j>>3
	return (I*(I+1)/2+J)<<6 | (i&7)<<3 | j&7
}

// cellK is the cell of edge k.
func (s *Incremental) cellK(k int) int {
	i, j := ends(k)
	return s.cell(i, j)
}

func (s *Incremental) w(k int) []uint64 { return s.wc(s.cellK(k)) }

func (s *Incremental) exists(k int) bool {
	i, j := ends(k)
	return s.ex[i*s.n+j]
}

// Set sets the weight of edge {v, u} (exists: whether the edge is present;
// a present edge may weigh zero). When the current optimum stays optimal as
// far as this edge is concerned (an unmatched edge between different
// top-level blossoms whose slack stays non-negative) nothing else happens;
// otherwise v is marked for release before the next Solve.
func (s *Incremental) Set(v, u int, w []uint64, exists bool) {
	c1, c2 := s.cell(v, u), s.cell(u, v)
	nw := s.t1
	switch {
	case !exists:
		clear(nw)
	case len(w) == len(nw):
		twice(nw, w)
	default:
		clear(nw)
		copy(nw, w)
		twice(nw, nw)
	}
	if !s.started {
		// Nothing is solved yet (the first Solve starts afresh): the
		// weight is only stored. The Dutch engine fills its new bracket
		// graphs this way, millions of edges each.
		id := s.intern(nw)
		s.wid[c1], s.wid[c2] = id, id
		s.ex[v*s.n+u], s.ex[u*s.n+v] = exists, exists
		return
	}
	if exists == s.ex[v*s.n+u] && cmp(nw, s.wc(c1)) == 0 {
		return
	}
	id := s.intern(nw)
	s.wid[c1], s.wid[c2] = id, id
	s.ex[v*s.n+u], s.ex[u*s.n+v] = exists, exists
	if s.dead[v] || s.dead[u] {
		return // outside the problem
	}
	// mate[v] is 2k or 2k+1 for the matched edge k (see pair).
	matched := s.mate[v] >= 0 && s.mate[v]>>1 == tri(v, u)
	if !matched && s.inblossom[v] != s.inblossom[u] {
		if !exists {
			return
		}
		// The slack with the new weight (wc(c1), interned above).
		slackOf(s.t2, s.d(v), s.d(u), s.wc(c1))
		if !isNeg(s.t2) {
			return
		}
	}
	s.markDirty(v)
}

// freshStart sets feasible duals and a first matching along tight edges
// for a fresh solve. Each dual is lowered in turn to the least feasible
// value (one of its edges becomes tight) and the vertex is matched along a
// tight edge to a free vertex when there is one; every dual starts at the
// largest weight of its edges, so it only goes down and the matched edges
// stay tight. Hubs, the vertices that are the unique best partner of two
// or more others, are left out of the first pass (their edges ignored,
// their duals set last against the final others): otherwise the first
// hub lowered becomes every later vertex's tightest partner and the
// greedy matches almost nothing.
func (s *Incremental) freshStart() {
	W := s.words
	n := s.n
	hub := s.hubs()
	// Every dual at the largest weight of its edges to non-hubs.
	for _, v := range s.live {
		d := s.d(v)
		clear(d)
		for _, u := range s.live {
			if u == v || hub[u] {
				continue
			}
			if c := s.cell(v, u); s.ex[v*n+u] && cmp(s.wc(c), d) > 0 {
				copy(d, s.wc(c))
			}
		}
	}
	need := make([]uint64, W)
	done := make([]bool, n)
	// lower sets v's dual to its least feasible value over the edges to
	// the vertices allowed by ok and matches v along a tight edge to a
	// free vertex allowed by canMatch.
	lower := func(v int, ok, canMatch func(u int) bool) bool {
		best, bestFree := -1, false
		for _, u := range s.live {
			if u == v {
				continue
			}
			c := s.cell(v, u)
			if !s.ex[v*n+u] || !ok(u) {
				continue
			}
			add(need, s.wc(c), s.wc(c))
			sub(need, need, s.d(u))
			free := s.mate[u] < 0 && canMatch(u)
			if best == -1 {
				copy(s.t2, need)
				best, bestFree = u, free
				continue
			}
			if r := cmp(need, s.t2); r > 0 || (r == 0 && free && !bestFree) {
				copy(s.t2, need)
				best, bestFree = u, free
			}
		}
		if best == -1 {
			return false
		}
		copy(s.d(v), s.t2)
		if s.mate[v] < 0 && bestFree {
			s.pair(v, best)
		}
		return true
	}
	notHub := func(u int) bool { return !hub[u] }
	for _, v := range s.live {
		if !hub[v] {
			done[v] = lower(v, notHub, notHub)
		}
	}
	// The hubs, and the vertices with edges to hubs only, against the
	// final duals of the others (matched only to vertices already done,
	// whose duals do not change any more).
	all := func(int) bool { return true }
	isDone := func(u int) bool { return done[u] }
	for _, v := range s.live {
		if !done[v] {
			done[v] = lower(v, all, isDone)
		}
	}
}

// hubs marks the vertices that are the unique best partner of two or
// more others.
func (s *Incremental) hubs() []bool {
	n := s.n
	cnt := make([]int, n)
	for _, v := range s.live {
		best := -1
		for _, u := range s.live {
			if u == v || !s.ex[v*n+u] {
				continue
			}
			if best == -1 || cmp(s.wc(s.cell(v, u)), s.wc(s.cell(v, best))) > 0 {
				best = u
			}
		}
		if best >= 0 {
			cnt[best]++
		}
	}
	hub := make([]bool, n)
	for _, v := range s.live {
		hub[v] = cnt[v] >= 2
	}
	return hub
}

// setAllow marks edge k allowed in the current stage.
func (s *Incremental) setAllow(k int) {
	i, j := ends(k)
	s.allow[i*s.n+j], s.allow[j*s.n+i] = s.stage, s.stage
}

// pair matches v and u.
func (s *Incremental) pair(v, u int) {
	k := tri(v, u)
	if v > u {
		s.mate[v], s.mate[u] = 2*k+1, 2*k
	} else {
		s.mate[v], s.mate[u] = 2*k, 2*k+1
	}
}

func (s *Incremental) markDirty(v int) {
	if !s.dirty[v] {
		s.dirty[v] = true
		s.dirties = append(s.dirties, v)
	}
}

// Fix removes v and u from the problem, recording them as a pair.
func (s *Incremental) Fix(v, u int) {
	if s.started {
		s.release(v)
		s.release(u)
	}
	if m := s.mate[v]; m >= 0 {
		s.mate[s.endpoint(m)] = -1
	}
	if m := s.mate[u]; m >= 0 {
		s.mate[s.endpoint(m)] = -1
	}
	k := tri(v, u)
	if v > u {
		s.mate[v], s.mate[u] = 2*k+1, 2*k
	} else {
		s.mate[v], s.mate[u] = 2*k, 2*k+1
	}
	s.dead[v], s.dead[u] = true, true
	live := s.live[:0]
	for _, x := range s.live {
		if x != v && x != u {
			live = append(live, x)
		}
	}
	s.live = live
}

// Mate returns the partner of every vertex, -1 for unmatched.
func (s *Incremental) Mate() []int {
	r := make([]int, s.n)
	for v := range r {
		if s.mate[v] >= 0 {
			r[v] = s.endpoint(s.mate[v])
		} else {
			r[v] = -1
		}
	}
	return r
}

func (s *Incremental) endpoint(p int) int {
	i, j := ends(p >> 1)
	if p&1 == 0 {
		return i
	}
	return j
}

func (s *Incremental) d(v int) []uint64 { return s.dual[v*s.words : (v+1)*s.words : (v+1)*s.words] }

func (s *Incremental) slack(dst []uint64, k int) {
	i, j := ends(k)
	slackOf(dst, s.d(i), s.d(j), s.w(k))
}

func (s *Incremental) leaves(b int, f func(v int)) {
	if b < s.n {
		f(b)
		return
	}
	for _, t := range s.bchilds[b] {
		s.leaves(t, f)
	}
}

// release makes v a free top-level vertex: the blossoms containing it are
// dissolved (a blossom's dual is moved onto its vertices, which keeps its
// inner edges' slack; the matched edge leaving it is dropped when it is no
// longer tight) and v is unmatched.
func (s *Incremental) release(v int) {
	for s.inblossom[v] != v {
		b := s.inblossom[v]
		for s.bparent[b] != -1 {
			b = s.bparent[b]
		}
		s.dissolve(b)
	}
	if m := s.mate[v]; m >= 0 {
		s.mate[s.endpoint(m)] = -1
		s.mate[v] = -1
	}
}

// dissolve removes top-level blossom b.
func (s *Incremental) dissolve(b int) {
	z := s.d(b)
	if !isZero(z) {
		s.leaves(b, func(v int) { add(s.d(v), s.d(v), z) })
		base := s.bbase[b]
		if m := s.mate[base]; m >= 0 {
			s.mate[s.endpoint(m)] = -1
			s.mate[base] = -1
		}
	}
	for _, c := range s.bchilds[b] {
		s.bparent[c] = -1
		if c < s.n {
			s.inblossom[c] = c
		} else {
			s.leaves(c, func(v int) { s.inblossom[v] = c })
		}
	}
	clear(s.d(b))
	s.label[b], s.labelend[b] = 0, -1
	s.bchilds[b], s.bendps[b] = nil, nil
	s.bbase[b] = -1
	s.bbest[b] = nil
	s.bestedge[b] = -1
	s.unused = append(s.unused, b)
}

// Solve returns false when no perfect matching of the live vertices exists.
func (s *Incremental) Solve() bool {
	W := s.words
	if !s.started {
		s.started = true
		switch {
		case s.types != nil && s.typedStart():
		case len(s.live) > PairStartFrom:
			s.pairStart()
		default:
			s.freshStart()
		}
		s.types = nil
	} else {
		// Dissolve the blossoms around changed vertices.
		for _, v := range s.dirties {
			for !s.dead[v] && s.inblossom[v] != v {
				b := s.inblossom[v]
				for s.bparent[b] != -1 {
					b = s.bparent[b]
				}
				s.dissolve(b)
			}
		}
		need := make([]uint64, W)
		needMax := make([]uint64, W)
		for _, v := range s.dirties {
			if s.dead[v] {
				continue
			}
			// Feasibility: y_v >= 2w(v,u) - y_u for every present edge.
			first := true
			for _, u := range s.live {
				if u == v {
					continue
				}
				c := s.cell(v, u)
				if !s.ex[v*s.n+u] {
					continue
				}
				add(need, s.wc(c), s.wc(c))
				sub(need, need, s.d(u))
				if first || cmp(need, needMax) > 0 {
					copy(needMax, need)
				}
				first = false
			}
			// The matched edge may stay when it is still the tightest
			// constraint: then y_v = its need keeps it tight and every other
			// edge feasible, and the matching stays optimal.
			if p := s.mate[v]; p >= 0 {
				m := s.endpoint(p)
				k := tri(v, m)
				keep := false
				if s.exists(k) {
					add(need, s.w(k), s.w(k))
					sub(need, need, s.d(m))
					keep = cmp(need, needMax) == 0
				}
				if keep {
					copy(s.d(v), need)
					continue
				}
				s.mate[m] = -1
				s.mate[v] = -1
			}
			if !first {
				copy(s.d(v), needMax)
			}
		}
	}
	for _, v := range s.dirties {
		s.dirty[v] = false
	}
	s.dirties = s.dirties[:0]
	// Align parities: every free root must have an even dual.
	for v := 0; v < s.n; v++ {
		if s.dead[v] || s.mate[v] >= 0 || s.d(v)[0]&1 == 0 {
			continue
		}
		for s.inblossom[v] != v {
			b := s.inblossom[v]
			for s.bparent[b] != -1 {
				b = s.bparent[b]
			}
			z := s.d(b)
			if !isZero(z) {
				// Move one unit from the blossom dual to its vertices.
				one := make([]uint64, W)
				one[0] = 1
				s.leaves(b, func(x int) { add(s.d(x), s.d(x), one) })
				sub(z, z, one)
				break
			}
			s.dissolve(b)
		}
		if s.inblossom[v] == v && s.d(v)[0]&1 == 1 {
			one := make([]uint64, W)
			one[0] = 1
			add(s.d(v), s.d(v), one)
		}
	}
	s.greedyTight()
	return s.stages()
}

// greedyFrom is the least number of free top-level vertices for which
// Solve pairs them greedily before the stages (a variable for the tests).
var greedyFrom = 64

// greedyTight matches free top-level vertices along tight edges to free
// top-level vertices (exact zero slack): the duals stay feasible and every
// matched edge tight, so the stages start from a larger matching.
func (s *Incremental) greedyTight() {
	var free []int
	for _, v := range s.live {
		if s.mate[v] < 0 && s.inblossom[v] == v {
			free = append(free, v)
		}
	}
	if len(free) < greedyFrom {
		return
	}
	for _, v := range free {
		if s.mate[v] >= 0 {
			continue
		}
		for _, u := range free {
			if u == v || s.mate[u] >= 0 || !s.ex[v*s.n+u] {
				continue
			}
			slackOf(s.t2, s.d(v), s.d(u), s.wc(s.cell(v, u)))
			if isZero(s.t2) {
				s.pair(v, u)
				break
			}
		}
	}
}

func (s *Incremental) assignLabel(w, t, p int) {
	b := s.inblossom[w]
	s.label[w], s.label[b] = t, t
	s.labelend[w], s.labelend[b] = p, p
	s.bestedge[w], s.bestedge[b] = -1, -1
	if p == -1 {
		s.root[b] = b
	} else {
		s.root[b] = s.root[s.inblossom[s.endpoint(p)]]
	}
	if t == 1 {
		s.leaves(b, func(v int) { s.queue = append(s.queue, v) })
	} else if t == 2 {
		base := s.bbase[b]
		s.assignLabel(s.endpoint(s.mate[base]), 1, s.mate[base]^1)
	}
}

func (s *Incremental) scanBlossom(v, w int) int {
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
			v = s.endpoint(s.labelend[b])
			b = s.inblossom[v]
			v = s.endpoint(s.labelend[b])
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

func (s *Incremental) addBlossom(base, k int) {
	v, w := ends(k)
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
		v = s.endpoint(s.labelend[bv])
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
		w = s.endpoint(s.labelend[bw])
		bw = s.inblossom[w]
	}
	s.bchilds[b], s.bendps[b] = path, endps
	s.label[b] = 1
	s.labelend[b] = s.labelend[bb]
	s.root[b] = s.root[bb]
	clear(s.d(b))
	s.leaves(b, func(v int) {
		if s.label[s.inblossom[v]] == 2 {
			s.queue = append(s.queue, v)
		}
		s.inblossom[v] = b
	})
	if s.btBest == nil {
		s.btBest = fill(2*s.n, -1)
		s.btT = make([]top, 2*s.n)
		s.btExact = make([]bool, 2*s.n)
		s.btSlack = make([]uint64, 2*s.n*s.words)
	}
	var touched []int
	for _, bv := range path {
		if s.bbest[bv] == nil {
			s.leaves(bv, func(v int) {
				// v's row, read once: the edges towards other S-blossoms.
				ex := s.ex[v*s.n : (v+1)*s.n : (v+1)*s.n]
				for _, u := range s.live {
					if !ex[u] || u == v {
						continue
					}
					if bj := s.inblossom[u]; bj != b && s.label[bj] == 1 {
						s.consider(bj, tri(v, u), v, u, &touched)
					}
				}
			})
		} else {
			for _, k := range s.bbest[bv] {
				i, j := ends(k)
				if s.inblossom[j] == b {
					i, j = j, i
				}
				if s.dead[j] || !s.ex[i*s.n+j] {
					continue
				}
				if bj := s.inblossom[j]; bj != b && s.label[bj] == 1 {
					s.consider(bj, k, i, j, &touched)
				}
			}
		}
		s.bbest[bv] = nil
		s.bestedge[bv] = -1
	}
	sort.Ints(touched)
	best := make([]int, 0, len(touched))
	top := -1 // the touched blossom with the least slack (the first of equals)
	for _, bj := range touched {
		best = append(best, s.btBest[bj])
		if top == -1 || s.btLess(bj, top) {
			top = bj
		}
	}
	s.bbest[b] = best
	s.bestedge[b] = -1
	if top != -1 {
		s.bestedge[b] = s.btBest[top]
	}
	for _, bj := range touched {
		s.btBest[bj] = -1
	}
}

// consider offers edge k = {i, j} (i inside the new blossom, j in the
// S-blossom bj) as the new blossom's best edge towards bj: addBlossom's
// scratch btBest, btT (top of the slack), btKey (class key), btSlack
// (exact slack, when btExact).
func (s *Incremental) consider(bj, k, i, j int, touched *[]int) {
	W := s.words
	c := s.cell(i, j)
	f := s.slackT(i, j, c)
	if s.btBest[bj] == -1 {
		s.btBest[bj], s.btT[bj], s.btExact[bj] = k, f, false
		s.btKey[bj] = s.tieKey(i, j, c)
		*touched = append(*touched, bj)
		return
	}
	if surelyLess(f, s.btT[bj]) {
		s.btBest[bj], s.btT[bj], s.btExact[bj] = k, f, false
		s.btKey[bj] = s.tieKey(i, j, c)
		return
	}
	if surelyLess(s.btT[bj], f) {
		return
	}
	key := s.tieKey(i, j, c)
	if key == s.btKey[bj] {
		if CheckTies {
			s.mustTie(i, j, s.btBest[bj])
		}
		return // the same slack: ties keep the current one
	}
	bs := s.btSlack[bj*W : (bj+1)*W]
	if !s.btExact[bj] {
		s.slack(bs, s.btBest[bj])
		s.btExact[bj] = true
	}
	cur := s.t1
	slackOf(cur, s.d(i), s.d(j), s.wc(c))
	if cmp(cur, bs) < 0 {
		s.btBest[bj], s.btT[bj], s.btKey[bj] = k, f, key
		copy(bs, cur)
	}
}

// btLess reports that the best edge of addBlossom's scratch towards x has
// a smaller slack than the one towards y.
func (s *Incremental) btLess(x, y int) bool {
	if surelyLess(s.btT[x], s.btT[y]) {
		return true
	}
	if surelyLess(s.btT[y], s.btT[x]) || s.btKey[x] == s.btKey[y] {
		return false
	}
	W := s.words
	for _, z := range [2]int{x, y} {
		if !s.btExact[z] {
			s.slack(s.btSlack[z*W:(z+1)*W], s.btBest[z])
			s.btExact[z] = true
		}
	}
	return cmp(s.btSlack[x*W:(x+1)*W], s.btSlack[y*W:(y+1)*W]) < 0
}

func (s *Incremental) expandBlossom(b int, endstage bool) {
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
		defer func(r int) {
			// The relabelled children belong to the expanded blossom's tree.
			for _, c := range childs {
				if s.label[c] != 0 {
					s.root[c] = r
				}
			}
		}(s.root[b])
		entry := s.inblossom[s.endpoint(s.labelend[b]^1)]
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
			s.label[s.endpoint(p^1)] = 0
			s.label[s.endpoint(at(endps, j-trick)^trick^1)] = 0
			s.assignLabel(s.endpoint(p^1), 2, p)
			s.setAllow(at(endps, j-trick) / 2)
			j += jstep
			p = at(endps, j-trick) ^ trick
			s.setAllow(p / 2)
			j += jstep
		}
		bv := at(childs, j)
		s.label[s.endpoint(p^1)], s.label[bv] = 2, 2
		s.labelend[s.endpoint(p^1)], s.labelend[bv] = p, p
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
				s.label[s.endpoint(s.mate[s.bbase[bv]])] = 0
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
	clear(s.d(b))
	s.unused = append(s.unused, b)
}

func (s *Incremental) augmentBlossom(b, v int) {
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
			s.augmentBlossom(t, s.endpoint(p))
		}
		j += jstep
		t = at(childs, j)
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint(p^1))
		}
		s.mate[s.endpoint(p)] = p ^ 1
		s.mate[s.endpoint(p^1)] = p
	}
	s.bchilds[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	s.bendps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	s.bbase[b] = s.bbase[s.bchilds[b][0]]
}

func (s *Incremental) augmentMatching(k int) {
	v, w := ends(k)
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
			t := s.endpoint(s.labelend[bs])
			bt := s.inblossom[t]
			st = s.endpoint(s.labelend[bt])
			j := s.endpoint(s.labelend[bt] ^ 1)
			if bt >= s.n {
				s.augmentBlossom(bt, j)
			}
			s.mate[j] = s.labelend[bt]
			p = s.labelend[bt] ^ 1
		}
	}
}

// stages runs primal-dual stages until the matching is perfect (true) or no
// augmenting path exists (false).
func (s *Incremental) stages() bool {
	n := s.n
	kslack := make([]uint64, s.words)
	dd := make([]uint64, s.words)
	for {
		free := false
		for v := 0; v < n; v++ {
			if !s.dead[v] && s.mate[v] == -1 {
				free = true
				break
			}
		}
		if !free {
			return true
		}
		for i := range s.label {
			s.label[i] = 0
			s.bestedge[i] = -1
		}
		for i := n; i < 2*n; i++ {
			s.bbest[i] = nil
		}
		s.stage++
		if s.stage == 0 {
			clear(s.allow)
			s.stage = 1
		}
		s.queue = s.queue[:0]
		s.syncF()
		s.classify()
		for v := 0; v < n; v++ {
			if !s.dead[v] && s.mate[v] == -1 && s.label[s.inblossom[v]] == 0 {
				s.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(s.queue) > 0 {
				v := s.queue[len(s.queue)-1]
				s.queue = s.queue[:len(s.queue)-1]
				if s.label[s.inblossom[v]] != 1 {
					continue // its tree was used by an augmentation
				}
				if s.scan(v, kslack) {
					augmented = true
				}
			}
			if augmented {
				break
			}
			deltatype, deltaedge, deltablossom := -1, -1, -1
			for v := 0; v < n; v++ {
				if !s.dead[v] && s.label[s.inblossom[v]] == 0 && s.bestedge[v] != -1 {
					s.slack(dd, s.bestedge[v])
					if deltatype == -1 || cmp(dd, s.delta) < 0 {
						copy(s.delta, dd)
						deltatype, deltaedge = 2, s.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if s.bparent[b] == -1 && s.label[b] == 1 && s.bestedge[b] != -1 {
					s.slack(kslack, s.bestedge[b])
					half(dd, kslack)
					if deltatype == -1 || cmp(dd, s.delta) < 0 {
						copy(s.delta, dd)
						deltatype, deltaedge = 3, s.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if s.bbase[b] >= 0 && s.bparent[b] == -1 && s.label[b] == 2 && (deltatype == -1 || cmp(s.d(b), s.delta) < 0) {
					copy(s.delta, s.d(b))
					deltatype, deltablossom = 4, b
				}
			}
			if deltatype == -1 {
				return false
			}
			for v := 0; v < n; v++ {
				if s.dead[v] {
					continue
				}
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
			s.syncF()
			s.reclassify()
			if s.onAdjust != nil {
				s.onAdjust(deltatype)
			}
			switch deltatype {
			case 2:
				s.setAllow(deltaedge)
				i, j := ends(deltaedge)
				if s.label[s.inblossom[i]] == 0 {
					i = j
				}
				s.queue = append(s.queue, i)
			case 3:
				s.setAllow(deltaedge)
				i, _ := ends(deltaedge)
				s.queue = append(s.queue, i)
			case 4:
				s.expandBlossom(deltablossom, false)
			}
		}
		for b := n; b < 2*n; b++ {
			if s.bparent[b] == -1 && s.bbase[b] >= 0 && s.label[b] == 1 && isZero(s.d(b)) {
				s.expandBlossom(b, true)
			}
		}
	}
}

// scan looks at the edges of the S-vertex v: a tight edge labels its other
// end T, forms a blossom or augments (then the two trees are dropped and
// scan reports true); any other edge may become the best edge of v's
// blossom (towards another S-blossom) or of an unlabelled w. kslack is
// scratch.
func (s *Incremental) scan(v int, kslack []uint64) bool {
	n := s.n
	row := v * n
	ex := s.ex[row : row+n : row+n]
	allow := s.allow[row : row+n : row+n]
	bv := s.inblossom[v]
	yv := s.yt[v]
	for _, w := range s.live {
		if !ex[w] || w == v {
			continue
		}
		bw := s.inblossom[w]
		if bw == bv {
			continue
		}
		lb := s.label[bw]
		if lb == 2 && s.label[w] != 0 {
			// A T-vertex already reached: whether tight or not, the
			// edge neither grows the forest nor bounds a dual change
			// (its slack does not change while v is S and w is T, and
			// should w become S it is scanned before the next change).
			// Most of a large forest's vertices are such ends.
			continue
		}
		c := s.cell(v, w)
		exact := false
		var f top
		if allow[w] != s.stage {
			f = slackTop(yv, s.yt[w], s.wtTop(c))
			if !surelyPositive(f) {
				slackOf(kslack, s.d(v), s.d(w), s.wc(c))
				exact = true
				if sign(kslack) <= 0 {
					allow[w], s.allow[w*n+v] = s.stage, s.stage
				}
			}
		}
		// k = tri(v, w); p = remote(v, w), the endpoint at w.
		var k, p int
		if w < v {
			k = v*(v-1)/2 + w
			p = 2*k + 1
		} else {
			k = w*(w-1)/2 + v
			p = 2 * k
		}
		switch {
		case allow[w] == s.stage:
			switch {
			case lb == 0:
				s.assignLabel(w, 2, p^1)
			case lb == 1:
				base := s.scanBlossom(v, w)
				if base < 0 {
					// Augment, drop the two trees and keep growing
					// the others on tight edges: no dual change
					// happens after this in the stage, so the stale
					// labels are harmless.
					ra, rb := s.root[bv], s.root[bw]
					s.augmentMatching(k)
					s.clearTrees(ra, rb)
					return true
				}
				s.addBlossom(base, k)
				bv = s.inblossom[v]
			case s.label[w] == 0:
				s.label[w] = 2
				s.labelend[w] = p ^ 1
			}
		case lb == 1:
			s.offerBest(bv, k, f, exact, kslack, v, w)
		case s.label[w] == 0:
			s.offerBest(w, k, f, exact, kslack, v, w)
		}
	}
	return false
}

// top is the two most significant words of a multi-word signed value
// (the whole value, sign-extended, when it has one word).
type top struct{ lo, hi uint64 }

func topOf(x []uint64) top {
	n := len(x)
	if n == 1 {
		return top{x[0], uint64(int64(x[0]) >> 63)}
	}
	return top{x[n-2], x[n-1]}
}

// wtTop is the top of the doubled weight of edge c, read from wt.
func (s *Incremental) wtTop(c int) top {
	if s.words == 1 {
		x := s.dict[s.wid[c]]
		return top{x, uint64(int64(x) >> 63)}
	}
	i := (int(s.wid[c])+1)*s.words - 2
	return top{s.dict[i], s.dict[i+1]}
}

func (s *Incremental) syncF() {
	s.epoch++
	for _, v := range s.live {
		s.yt[v] = topOf(s.d(v))
	}
}

// slackT estimates the slack of edge k = {v, w} from the top two words of
// the duals and the weight: T = the top 128 bits of y_v + y_w - 2w, exact
// modulo 2^128 (the headroom bits keep it in range). With L the width of the
// dropped words, each operand's dropped part lies in [0, 2^L), so the exact
// slack S satisfies (T-2)·2^L < S < (T+2)·2^L.
func (s *Incremental) slackT(v, w, cell int) top {
	return slackTop(s.yt[v], s.yt[w], s.wtTop(cell))
}

// slackTop is slackT from the tops of the two duals and the weight.
func slackTop(a, b, c top) top {
	lo, c1 := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c1)
	lo, c2 := bits.Sub64(lo, c.lo, 0)
	hi, _ = bits.Sub64(hi, c.hi, c2)
	lo, c3 := bits.Sub64(lo, c.lo, 0)
	hi, _ = bits.Sub64(hi, c.hi, c3)
	return top{lo, hi}
}

// less compares signed 128-bit values.
func (a top) less(b top) bool {
	if a.hi != b.hi {
		return int64(a.hi) < int64(b.hi)
	}
	return a.lo < b.lo
}

// surelyLess reports that the slack estimated by a is certainly smaller than
// the one estimated by b: a+2 <= b-2.
func surelyLess(a, b top) bool {
	lo, c := bits.Add64(a.lo, 3, 0)
	return top{lo, a.hi + c}.less(b)
}

// surelyPositive reports that the slack estimated by t is certainly > 0.
func surelyPositive(t top) bool { return !t.less(top{2, 0}) }

// offerBest makes edge k = {v, w} (v being scanned) the best edge of b when its slack is smaller than
// the current best's (ties keep the current one). f estimates k's
// slack; kslack holds it exactly when exact.
func (s *Incremental) offerBest(b, k int, f top, exact bool, kslack []uint64, v, w int) {
	W := s.words
	cs := s.beSlack[b*W : (b+1)*W : (b+1)*W]
	j := s.bestedge[b]
	if j != -1 {
		if s.beEdge[b] != j || s.beEpoch[b] != s.epoch {
			ji, jj := ends(j)
			g := s.slackT(ji, jj, s.cell(ji, jj))
			s.beEdge[b], s.beEpoch[b], s.beT[b], s.beExact[b] = j, s.epoch, g, false
			s.beKey[b] = s.tieKey(ji, jj, s.cell(ji, jj))
		}
		g := s.beT[b]
		if surelyLess(g, f) {
			return
		}
		key := s.tieKey(v, w, s.cell(v, w))
		if key == s.beKey[b] {
			if CheckTies {
				s.mustTie(v, w, j)
			}
			return // the same slack: ties keep the current one
		}
		if !surelyLess(f, g) {
			if !exact {
				slackOf(kslack, s.d(v), s.d(w), s.wc(s.cell(v, w)))
				exact = true
			}
			if !s.beExact[b] {
				s.slack(cs, j)
				s.beExact[b] = true
			}
			if cmp(kslack, cs) >= 0 {
				return
			}
		}
	}
	s.bestedge[b] = k
	s.beEdge[b], s.beEpoch[b], s.beT[b], s.beExact[b] = k, s.epoch, f, exact
	s.beKey[b] = s.tieKey(v, w, s.cell(v, w))
	if exact {
		copy(cs, kslack)
	}
}

// clearTrees unlabels the alternating trees rooted at ra and rb.
func (s *Incremental) clearTrees(ra, rb int) {
	var tops []int
	for _, v := range s.live {
		b := s.inblossom[v]
		if s.label[b] != 0 && (s.root[b] == ra || s.root[b] == rb) {
			s.label[v] = 0
			if b != v {
				tops = append(tops, b)
			}
		}
	}
	for _, b := range tops {
		s.label[b] = 0
	}
}

// Weight writes the weight of edge {v, u} into dst (len(dst) == the
// graph's words) and reports whether the edge is present. The weights of
// the edges of a fixed vertex (Fix) may read as zero.
func (s *Incremental) Weight(v, u int, dst []uint64) bool {
	c := s.cell(v, u)
	if !s.ex[v*s.n+u] {
		clear(dst)
		return false
	}
	w := s.wc(c) // doubled, with headroom
	for i := range dst {
		dst[i] = w[i] >> 1
		if i+1 < len(w) {
			dst[i] |= w[i+1] << 63
		}
	}
	return true
}
