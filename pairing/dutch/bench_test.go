package dutch

import (
	"fmt"
	"testing"

	"arbiter/pairing"
	"arbiter/trf"
)

// benchTournament builds the state before round 6 of a synthetic tournament
// (five rounds of random results, greedy history pairing, 1% absences).
func benchTournament(b *testing.B, n int) *pairing.Tournament {
	b.Helper()
	f, err := trf.Generate(trf.GenerateOptions{Players: n, Rounds: 5, Total: 9, Seed: uint64(n), AbsentPermille: 10, Greedy: true}, Pair)
	if err != nil {
		b.Fatal(err)
	}
	t, err := trf.PairingInput(f)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkPair pairs round 6 of synthetic tournaments of several sizes.
// Reproduce: go test -run '^$' -bench . -benchmem ./pairing/dutch/
func BenchmarkPair(b *testing.B) {
	uncheckedTies()
	for _, n := range []int{100, 500, 1000, 2000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			t := benchTournament(b, n)
			b.ResetTimer()
			for range b.N {
				if _, err := Pair(t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPairLarge pairs round 6 of a 9999-player synthetic tournament
// (skipped with -short). Reproduce:
// go test -run '^$' -bench 'PairLarge' -benchmem -benchtime 1x ./pairing/dutch/
func BenchmarkPairLarge(b *testing.B) {
	uncheckedTies()
	if testing.Short() {
		b.Skip("9999 players")
	}
	b.Run("players=9999", func(b *testing.B) {
		t := benchTournament(b, 9999)
		b.ResetTimer()
		for range b.N {
			if _, err := Pair(t); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReview is what the TDs' review of a round costs: every
// player's profile and the criteria each board of the engine's pairing
// breaks. Reproduce: go test -run '^$' -bench Review -benchmem ./pairing/dutch/
func BenchmarkReview(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			t := benchTournament(b, n)
			pairs, err := Pair(t)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				Profiles(t)
				CheckEach(t, pairs)
			}
		})
	}
}
