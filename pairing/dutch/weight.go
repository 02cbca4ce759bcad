package dutch

import (
	"math/bits"

	"arbiter"
)

// weight is a multi-word unsigned edge weight under construction. The Dutch
// criteria are encoded as fields of a single integer, most important first:
// the matching maximises the sum, so a higher field always dominates every
// lower one. Each field is wide enough to hold its sum over all pairs.
type weight []uint64

// shl shifts left by k bits.
func (w weight) shl(k int) {
	if k == 0 {
		return
	}
	ws, bs := k/64, uint(k%64)
	for i := len(w) - 1; i >= 0; i-- {
		var v uint64
		if i-ws >= 0 {
			v = w[i-ws] << bs
			if bs != 0 && i-ws-1 >= 0 {
				v |= w[i-ws-1] >> (64 - bs)
			}
		}
		w[i] = v
	}
}

// addAt adds v << bit.
func (w weight) addAt(v uint64, bit int) {
	if v == 0 {
		return
	}
	i, b := bit/64, uint(bit%64)
	lo, hi := v<<b, uint64(0)
	if b != 0 {
		hi = v >> (64 - b)
	}
	var c uint64
	w[i], c = bits.Add64(w[i], lo, 0)
	for j := i + 1; j < len(w) && (c != 0 || hi != 0); j++ {
		w[j], c = bits.Add64(w[j], hi, c)
		hi = 0
	}
}

// addSigned adds a small signed value (two's complement wrap-around).
func (w weight) addSigned(v int64) {
	ext := uint64(0)
	if v < 0 {
		ext = ^uint64(0)
	}
	var c uint64
	w[0], c = bits.Add64(w[0], uint64(v), 0)
	for j := 1; j < len(w); j++ {
		w[j], c = bits.Add64(w[j], ext, c)
	}
}

// add sets w = w + o.
func (w weight) add(o weight) {
	var c uint64
	for i := range w {
		w[i], c = bits.Add64(w[i], o[i], c)
	}
}

// sub sets w = w - o.
func (w weight) sub(o weight) {
	var c uint64
	for i := range w {
		w[i], c = bits.Sub64(w[i], o[i], c)
	}
}

func (w weight) isZero() bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}

func (w weight) clone() weight { return append(weight(nil), w...) }

// copyOf copies o into w and returns w.
func (w weight) copyOf(o weight) weight {
	copy(w, o)
	return w
}

// layout describes the field widths of the edge weight for one round.
type layout struct {
	sgBits  int                    // bits to count players of the largest scoregroup
	sgShift int                    // total width of a per-scoregroup field
	shifts  map[arbiter.Points]int // offset of each score inside a per-scoregroup field
	played  int
	words   int
}

func bitsFor(n int) int { return bits.Len(uint(n)) }

// totalBits is the width of a full edge weight (see edgeWeight).
func (l *layout) totalBits() int {
	b := 2 + l.sgBits + l.sgShift + l.sgBits + l.sgShift + 2*l.sgBits + 4*l.sgBits
	if l.played >= 1 {
		b += 2*l.sgBits + 2*l.sgShift
	}
	if l.played > 1 {
		b += 2*l.sgBits + 2*l.sgShift
	}
	return b + 3*l.sgBits + 1
}

// builder assembles a weight field by field, most significant first, with
// the same result as shl/addAt on a weight but without shifting the whole
// value for every field: each addition is recorded with its position
// relative to the current end and placed once the total shift is known.
type builder struct {
	shift int
	n     int
	vals  [48]uint64
	pos   [48]int
}

func (b *builder) shl(k int) { b.shift += k }

func (b *builder) addAt(v uint64, bit int) {
	if v == 0 {
		return
	}
	b.vals[b.n], b.pos[b.n] = v, bit-b.shift
	b.n++
}

// into writes the weight into w.
func (b *builder) into(w weight) {
	clear(w)
	for i := range b.n {
		w.addAt(b.vals[i], b.pos[i]+b.shift)
	}
}
