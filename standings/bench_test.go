package standings

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkCompute9999x11: a 9999-player, 11-round Swiss with six tiebreaks.
func BenchmarkCompute9999x11(b *testing.B) {
	in := genSwiss(rand.New(rand.NewPCG(2026, 11)), 9999, 11)
	tbs, err := ParseTiebreaks([]string{"buchholz/c1", "buchholz", "sonneborn_berger", "progressive", "wins", "direct_encounter"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(in, tbs, Options{Edition: Edition2026}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDirectEncounterFirst9999x11: direct encounter applied to the
// large score groups of a 9999-player Swiss (C.07 6.3 on groups of
// hundreds), then Buchholz.
func BenchmarkDirectEncounterFirst9999x11(b *testing.B) {
	in := genSwiss(rand.New(rand.NewPCG(2026, 11)), 9999, 11)
	tbs, err := ParseTiebreaks([]string{"direct_encounter", "head_to_head", "wins_vs_tied", "buchholz"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(in, tbs, Options{Edition: Edition2026}); err != nil {
			b.Fatal(err)
		}
	}
}
