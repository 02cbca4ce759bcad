package dutch

import (
	"sort"

	"arbiter"
)

// compactor narrows the edge weights of one bracket-local problem. The
// per-scoregroup fields (C7, C8, C18-C21) hold one slot per scoregroup of
// the round, but the edges of a bracket only touch the slots of the scores
// of its own players; the other slots are zero in every weight of the
// problem and are dropped. Every field keeps its width and order, so sums
// over perfect matchings compare exactly as with the full layout, with
// fewer words per slack.
type compactor struct {
	room  int    // width of the ordering room at the bottom
	segs  []seg  // kept bit ranges, ascending
	gaps  []seg  // dropped bit ranges (dst unused)
	words int    // words of a compact weight
	gap   weight // mask of the dropped bits
	tmp   weight
	one   weight // 1 at the bottom of the fields, compact
	// lay builds compact weights directly (edgeWeightLay): the same
	// fields, each per-scoregroup field holding the kept slots only.
	lay layout
}

type seg struct{ src, n, dst int }

// newCompactor keeps the slots of the given scores.
func newCompactor(l *layout, fullWords int, keep map[arbiter.Points]bool) *compactor {
	c := &compactor{room: 3*l.sgBits + 1}
	// Slots of a per-scoregroup field, ascending by offset.
	type slot struct {
		off, n int
		keep   bool
	}
	slots := make([]slot, 0, len(l.shifts))
	for s, off := range l.shifts {
		slots = append(slots, slot{off: off, keep: keep[s]})
	}
	sort.Slice(slots, func(a, b int) bool { return slots[a].off < slots[b].off })
	for i := range slots {
		end := l.sgShift
		if i+1 < len(slots) {
			end = slots[i+1].off
		}
		slots[i].n = end - slots[i].off
	}
	// The compact layout: the kept slots side by side, in the same order.
	c.lay = layout{sgBits: l.sgBits, shifts: map[arbiter.Points]int{}, played: l.played}
	for s, off := range l.shifts {
		if !keep[s] {
			continue
		}
		at := 0
		for _, sl := range slots {
			if sl.off < off && sl.keep {
				at += sl.n
			}
		}
		c.lay.shifts[s] = at
	}
	for _, sl := range slots {
		if sl.keep {
			c.lay.sgShift += sl.n
		}
	}
	// At most six per-scoregroup fields, each a seg or gap per slot,
	// between eight fixed fields: sized once, not grown.
	c.segs = make([]seg, 0, 6*len(slots)+8)
	c.gaps = make([]seg, 0, 6*len(slots))
	src, dst := 0, 0
	fixed := func(n int) {
		if n == 0 {
			return
		}
		if k := len(c.segs); k > 0 && c.segs[k-1].src+c.segs[k-1].n == src {
			c.segs[k-1].n += n
		} else {
			c.segs = append(c.segs, seg{src, n, dst})
		}
		src += n
		dst += n
	}
	shift := func() {
		for _, s := range slots {
			if s.keep {
				fixed(s.n)
				continue
			}
			if s.n > 0 {
				c.gaps = append(c.gaps, seg{src, s.n, -1})
			}
			src += s.n
		}
	}
	// From the least significant end (see edgeWeightInto).
	fixed(c.room)
	if l.played > 1 {
		shift()
		shift()
	}
	if l.played >= 1 {
		shift()
		shift()
	}
	if l.played > 1 {
		fixed(2 * l.sgBits)
	}
	if l.played >= 1 {
		fixed(2 * l.sgBits)
	}
	fixed(4*l.sgBits + 2*l.sgBits)
	shift()
	fixed(l.sgBits)
	shift()
	fixed(l.sgBits)
	// The completion field (2 bits) and the headroom above it, cut to the
	// compact width.
	c.words = (dst+2+4)/64 + 1
	fixed(min(fullWords*64-src, c.words*64-dst))
	c.tmp = make(weight, fullWords)
	c.gap = make(weight, fullWords)
	for _, g := range c.gaps {
		for o := 0; o < g.n; o += 64 {
			n := min(64, g.n-o)
			orBits(c.gap, g.src+o, 1<<uint(n)-1)
		}
	}
	c.one = make(weight, c.words)
	c.one.addAt(1, c.room)
	c.lay.words = c.words
	return c
}

// apply writes the compact form of w into dst (len c.words). w is a
// weight of the problem: a field vector F with an empty room plus a small
// signed ordering term; a negative term borrows from F, which is undone
// around the copy when the borrow ran through dropped bits.
func (c *compactor) apply(dst, w weight) {
	src := w
	borrow := false
	for i, m := range c.gap {
		if w[i]&m != 0 {
			borrow = true
			break
		}
	}
	if borrow {
		copy(c.tmp, w)
		c.tmp.addAt(1, c.room)
		src = c.tmp
	}
	clear(dst)
	for _, s := range c.segs {
		for o := 0; o < s.n; o += 64 {
			n := min(64, s.n-o)
			orBits(dst, s.dst+o, getBits(src, s.src+o, n))
		}
	}
	if borrow {
		dst.sub(c.one)
	}
}

// getBits returns the n <= 64 bits of w from bit pos.
func getBits(w weight, pos, n int) uint64 {
	i, b := pos/64, uint(pos%64)
	if i >= len(w) {
		return 0
	}
	v := w[i] >> b
	if b != 0 && i+1 < len(w) {
		v |= w[i+1] << (64 - b)
	}
	if n < 64 {
		v &= 1<<uint(n) - 1
	}
	return v
}

// orBits ors v in at bit pos (bits beyond w are dropped).
func orBits(w weight, pos int, v uint64) {
	i, b := pos/64, uint(pos%64)
	if i >= len(w) {
		return
	}
	w[i] |= v << b
	if b != 0 && i+1 < len(w) {
		w[i+1] |= v >> (64 - b)
	}
}
