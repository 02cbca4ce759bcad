package dutch

import (
	"slices"
	"testing"
)

func TestWeightArithmetic(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(w weight)
		want weight
	}{
		{"shl inside a word", func(w weight) { w[0] = 3; w.shl(4) }, weight{48, 0, 0}},
		{"shl across words", func(w weight) { w[0] = 1 << 63; w.shl(1) }, weight{0, 1, 0}},
		{"shl by whole words", func(w weight) { w[0] = 5; w.shl(128) }, weight{0, 0, 5}},
		{"addAt with carry", func(w weight) { w[0] = ^uint64(0); w.addAt(1, 0) }, weight{0, 1, 0}},
		{"addAt straddling a word", func(w weight) { w.addAt(3, 63) }, weight{1 << 63, 1, 0}},
		{"addSigned negative borrows", func(w weight) { w[1] = 1; w.addSigned(-2) }, weight{^uint64(0) - 1, 0, 0}},
		{"addSigned positive", func(w weight) { w.addSigned(7) }, weight{7, 0, 0}},
	} {
		w := make(weight, 3)
		tc.do(w)
		if !slices.Equal(w, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, w, tc.want)
		}
	}
}

// The field widths add up as documented (docs/pairing.md): with two played
// rounds every float field is present.
func TestLayoutBits(t *testing.T) {
	l := layout{sgBits: 3, sgShift: 10, played: 2}
	// 2 + 3+10 + 3+10 + 6 + 12 + (6+20) + (6+20) + 9+1
	if got, want := l.totalBits(), 2+13+13+6+12+26+26+10; got != want {
		t.Fatalf("totalBits = %d, want %d", got, want)
	}
}

// The builder places every field where shl/addAt on the weight would.
func TestBuilderMatchesShifts(t *testing.T) {
	type op struct {
		shl   int
		v     uint64
		bit   int
		isShl bool
	}
	ops := []op{
		{v: 3, bit: 0}, {isShl: true, shl: 7}, {v: 1, bit: 5}, {isShl: true, shl: 70},
		{v: ^uint64(0), bit: 3}, {v: 9, bit: 60}, {isShl: true, shl: 1}, {v: 1, bit: 0},
		{isShl: true, shl: 13},
	}
	w := make(weight, 3)
	var b builder
	for _, o := range ops {
		if o.isShl {
			w.shl(o.shl)
			b.shl(o.shl)
		} else {
			w.addAt(o.v, o.bit)
			b.addAt(o.v, o.bit)
		}
	}
	got := weight{7, 7, 7}
	b.into(got)
	if !slices.Equal(got, w) {
		t.Fatalf("builder = %x, shifts = %x", got, w)
	}
}
