package dutch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"arbiter/pairing"
	"arbiter/trf"
)

// benchRounds are the rounds benchmarked at every size, of a 9-round
// tournament: the first (no history: large homogeneous scoregroups), the
// early ones, the middle and the last (topscorer rules).
var benchRounds = []int{1, 2, 3, 6, 9}

// benchFile is the TRF before round `round` of a 9-round synthetic
// tournament of n players (greedy history, random results, seed n).
//
// kind "generated" is `arbiter pair --generate n --rounds round-1 --total 9
// --seed n --greedy` (1% chance of missing each earlier round). Kind "byes"
// has 3% absences in the history and, in the round to pair, the ways a
// player is not paired: players who lost their last game by forfeit have
// withdrawn ("0000 - Z" in the round column), 2% asked for a half-point
// bye (240 H records), 1% are absent (XXZ), 0.5% absent in the round column.
func benchFile(n, round int, kind string) (*trf.File, error) {
	return benchFileSeed(n, round, kind, uint64(n), true)
}

// benchFileSeed is benchFile with another seed, and optionally the history
// paired by this engine instead of greedily.
func benchFileSeed(n, round int, kind string, seed uint64, greedy bool) (*trf.File, error) {
	absent := 10
	if kind == "byes" {
		absent = 30
	}
	f, err := trf.Generate(trf.GenerateOptions{Players: n, Rounds: round - 1, Total: 9, Seed: seed, AbsentPermille: absent, Greedy: greedy}, Pair)
	if err != nil || kind != "byes" {
		return f, err
	}
	r := rand.New(rand.NewPCG(seed, uint64(round)))
	k := round - 1
	half := trf.ByeRecord{Type: 'H', Round: round}
	for i := range f.Players {
		p := &f.Players[i]
		withdrawn := k > 0 && len(p.Rounds) == k && p.Rounds[k-1].Result == '-'
		switch x := r.IntN(1000); {
		case withdrawn || x < 5:
			p.Rounds = append(p.Rounds, trf.Round{Colour: '-', Result: 'Z'})
		case x < 25:
			half.IDs = append(half.IDs, p.ID)
		case x < 35:
			f.Absent = append(f.Absent, p.ID)
		}
	}
	f.Byes = append(f.Byes, half)
	f.Version = 2026
	return f, nil
}

func benchRoundTournament(b *testing.B, n, round int, kind string) *pairing.Tournament {
	b.Helper()
	f, err := benchFile(n, round, kind)
	if err != nil {
		b.Fatal(err)
	}
	t, err := trf.PairingInput(f)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkPairRounds pairs rounds 1, 2, 3, 6 and 9 (the last) of 9-round
// tournaments of 1000, 2000 and 9999 players (9999 skipped with -short),
// generated ones and ones with byes, absences and withdrawals. Reproduce:
//
//	go test -short -run '^$' -bench PairRounds -benchtime 1x ./pairing/dutch/
//	go test -run '^$' -bench 'PairRounds/.*/players=9999' -benchtime 1x -timeout 2h ./pairing/dutch/
func BenchmarkPairRounds(b *testing.B) {
	uncheckedTies()
	for _, kind := range []string{"generated", "byes"} {
		for _, n := range []int{1000, 2000, 9999} {
			for _, round := range benchRounds {
				b.Run(fmt.Sprintf("%s/players=%d/round=%d", kind, n, round), func(b *testing.B) {
					if n > 2000 && testing.Short() {
						b.Skip("9999 players")
					}
					t := benchRoundTournament(b, n, round, kind)
					b.ResetTimer()
					for range b.N {
						if _, err := Pair(t); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// TestWriteBenchFiles writes the "byes" benchmark tournaments as TRF files
// for timing the command line (arbiter pair --dutch FILE -p) when
// ARBITER_DUTCH_BENCH_DIR names a directory; otherwise it is skipped.
// The "generated" ones are written by arbiter pair --generate. NAME.col.trf
// is the same tournament with every absence in the round column.
func TestWriteBenchFiles(t *testing.T) {
	dir := os.Getenv("ARBITER_DUTCH_BENCH_DIR")
	if dir == "" {
		t.Skip("ARBITER_DUTCH_BENCH_DIR not set")
	}
	for _, n := range []int{1000, 2000, 9999} {
		for _, round := range benchRounds {
			f, err := benchFile(n, round, "byes")
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, fmt.Sprintf("byes%d_r%d.trf", n, round))
			if err := os.WriteFile(name, []byte(f.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			// The same with every absence in the round column (what the
			// engine read right before XXZ and 240 were fixed).
			col, err := rewriteAbsences(f, formColumn)
			if err != nil {
				t.Fatal(err)
			}
			name = filepath.Join(dir, fmt.Sprintf("byes%d_r%d.col.trf", n, round))
			if err := os.WriteFile(name, []byte(col.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBenchFiles: the "byes" tournaments convert and have what they are
// meant to have in the round to pair.
func TestBenchFiles(t *testing.T) {
	t.Parallel()
	for _, round := range []int{1, 3} {
		f, err := benchFile(300, round, "byes")
		if err != nil {
			t.Fatal(err)
		}
		tour, err := trf.PairingInput(f)
		if err != nil {
			t.Fatal(err)
		}
		if tour.PlayedRounds != round-1 {
			t.Fatalf("round %d: %d rounds played", round, tour.PlayedRounds)
		}
		absent := 0
		for _, p := range tour.Players {
			if p.Absent {
				absent++
			}
		}
		// Before round 1 nobody was paired: the players not to be paired
		// are left out (they do not count for pairing numbers).
		if round == 1 {
			absent = 300 - len(tour.Players)
		}
		if len(f.Absent) == 0 || len(f.Byes) != 1 || len(f.Byes[0].IDs) == 0 || absent < len(f.Absent)+len(f.Byes[0].IDs) {
			t.Fatalf("round %d: XXZ %d, 240 %v, %d absent", round, len(f.Absent), f.Byes, absent)
		}
		if _, err := Pair(tour); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
