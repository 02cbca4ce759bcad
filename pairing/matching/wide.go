package matching

import "math/bits"

// Weights and dual variables are fixed-width two's complement integers of
// Words 64-bit words (little-endian word order). The Dutch criteria need far
// more than 64 bits (one field per criterion, sized by the number of
// players), so every number in the algorithm is a slice view into a flat
// backing array; no allocation happens while solving.

func add(dst, a, b []uint64) {
	var c uint64
	for i := range dst {
		dst[i], c = bits.Add64(a[i], b[i], c)
	}
}

func sub(dst, a, b []uint64) {
	var c uint64
	for i := range dst {
		dst[i], c = bits.Sub64(a[i], b[i], c)
	}
}

// cmp compares signed values: -1, 0, +1.
func cmp(a, b []uint64) int {
	n := len(a) - 1
	sa, sb := int64(a[n]), int64(b[n])
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	for i := n - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func isZero(a []uint64) bool {
	for _, w := range a {
		if w != 0 {
			return false
		}
	}
	return true
}

func isNeg(a []uint64) bool { return int64(a[len(a)-1]) < 0 }

// sign returns -1, 0 or +1.
func sign(a []uint64) int {
	if isNeg(a) {
		return -1
	}
	if isZero(a) {
		return 0
	}
	return 1
}

// half sets dst = a >> 1 (arithmetic).
func half(dst, a []uint64) {
	n := len(a)
	for i := 0; i < n-1; i++ {
		dst[i] = a[i]>>1 | a[i+1]<<63
	}
	dst[n-1] = uint64(int64(a[n-1]) >> 1)
}

// twice sets dst = a << 1.
func twice(dst, a []uint64) {
	for i := len(a) - 1; i > 0; i-- {
		dst[i] = a[i]<<1 | a[i-1]>>63
	}
	dst[0] = a[0] << 1
}

// slackOf sets dst = a + b - 2w in one pass.
func slackOf(dst, a, b, w []uint64) {
	var c1, c2, c3 uint64
	_ = dst[len(a)-1]
	_ = b[len(a)-1]
	_ = w[len(a)-1]
	for i := range a {
		s, cc1 := bits.Add64(a[i], b[i], c1)
		s, cc2 := bits.Sub64(s, w[i], c2)
		s, cc3 := bits.Sub64(s, w[i], c3)
		dst[i] = s
		c1, c2, c3 = cc1, cc2, cc3
	}
}
