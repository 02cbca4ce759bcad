package matching

// Dual classes: exact ties without the exact slack.
//
// In the Dutch engine's large graphs most vertices share their dual with
// many others (vertices of a type start equal and move together), and most
// edges between two classes share a weight, so the best-edge bookkeeping of
// a stage (offerBest, addBlossom) compares edges whose slacks are exactly
// equal: at 9999 players about 57 million of the 98 million comparisons
// that the top words could not decide in a round. Two edges whose ends have
// the same dual classes and whose cells hold the same dictionary entry have
// the same slack; that is checked with three integer comparisons instead of
// two wide slacks. The classes are sound, not complete: equal class implies
// equal dual; equal duals may sit in different classes (then the slacks
// are computed as before).

// classify gives every live vertex the class of its dual (stage start).
func (s *Incremental) classify() {
	size := 1
	for size < 2*len(s.live) {
		size <<= 1
	}
	if cap(s.ytab) < size {
		s.ytab = make([]int32, size)
	}
	tab := s.ytab[:size]
	clear(tab)
	mask := size - 1
	s.nextClass = 0
	for _, v := range s.live {
		d := s.d(v)
		h := uint64(0x9e3779b97f4a7c15)
		for _, x := range d {
			h = (h ^ x) * 0xff51afd7ed558ccd
		}
		for i := int(h>>32) & mask; ; i = (i + 1) & mask {
			u := int(tab[i]) - 1
			if u < 0 {
				tab[i] = int32(v + 1)
				s.yid[v] = s.nextClass
				s.nextClass++
				break
			}
			if cmp(s.d(u), d) == 0 {
				s.yid[v] = s.yid[u]
				break
			}
		}
	}
}

// reclassify follows a dual change by delta: the vertices of a class that
// moved the same way (S down, T up) form a new class.
func (s *Incremental) reclassify() {
	if int(s.nextClass) > 4*len(s.live)+64 {
		s.classify() // keep the class numbers small
		return
	}
	need := 2 * int(s.nextClass)
	if len(s.cmap) < need {
		s.cmap = make([]int32, 2*need)
		s.cstamp = make([]uint32, 2*need)
	}
	s.cgen++
	for _, v := range s.live {
		l := s.label[s.inblossom[v]]
		if l != 1 && l != 2 {
			continue
		}
		k := 2*int(s.yid[v]) + int(l-1)
		if s.cstamp[k] != s.cgen {
			s.cstamp[k] = s.cgen
			s.cmap[k] = s.nextClass
			s.nextClass++
		}
		s.yid[v] = s.cmap[k]
	}
}

// tieKey is what makes two edges' slacks equal: the classes of their ends
// (ordered) and their weight's entry.
type tieKey struct {
	a, b int32
	w    uint32
}

func (s *Incremental) tieKey(v, w, cell int) tieKey {
	a, b := s.yid[v], s.yid[w]
	if a > b {
		a, b = b, a
	}
	return tieKey{a, b, s.wid[cell]}
}

// CheckTies makes every tie found by class keys be checked against the
// exact slacks: a panic if they differ (tests set it, here and in the
// Dutch engine's).
var CheckTies = false

// mustTie panics unless edge {v, w} and edge k have the same slack.
func (s *Incremental) mustTie(v, w, k int) {
	if len(s.tieScratch) != 2*s.words {
		s.tieScratch = make([]uint64, 2*s.words)
	}
	a, b := s.tieScratch[:s.words], s.tieScratch[s.words:]
	slackOf(a, s.d(v), s.d(w), s.wc(s.cell(v, w)))
	s.slack(b, k)
	if cmp(a, b) != 0 {
		panic("matching: edges with the same class key have different slacks")
	}
}
