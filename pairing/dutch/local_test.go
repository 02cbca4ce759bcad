package dutch

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arbiter/pairing"
	"arbiter/trf"
)

// localVsGlobal pairs t with the bracket-local and the global matching.
// fellBack is the reason the local run gave up (Pair then returns the
// global result).
func localVsGlobal(t *pairing.Tournament) (local, global []pairing.Pair, lerr, gerr error, fellBack string, crash any) {
	func() {
		defer func() { crash = recover() }()
		local, fellBack, lerr = pairLocal(t)
	}()
	global, gerr = pairGlobal(t)
	return
}

// TestLocalMatchesGlobal checks that the bracket-local matching gives the
// same pairing as the global one on every corpus case.
func TestLocalMatchesGlobal(t *testing.T) {
	t.Parallel() // reads the engine's switches only; see TestCorpus
	if testing.Short() {
		t.Skip("runs the global matching on every corpus case")
	}
	dir, cases := loadCorpus(t)
	// Both matchings of every case, on every core (as runCorpus does);
	// the results are checked in manifest order.
	type result struct {
		skip       bool // the case's TRF does not parse or pair
		l, g       []pairing.Pair
		lerr, gerr error
		fb         string
		crash      any
	}
	results := make([]result, len(cases))
	onEveryCore(len(cases), func(i int) {
		data, err := os.ReadFile(filepath.Join(dir, cases[i].TRF))
		if err != nil {
			t.Error(err)
			results[i].skip = true
			return
		}
		f, err := trf.Parse(bytes.NewReader(data))
		if err != nil {
			results[i].skip = true
			return
		}
		tour, err := trf.PairingInput(f)
		if err != nil {
			results[i].skip = true
			return
		}
		r := &results[i]
		r.l, r.g, r.lerr, r.gerr, r.fb, r.crash = localVsGlobal(tour)
	})
	if t.Failed() {
		t.FailNow()
	}
	fell := 0
	for i, c := range cases {
		r := results[i]
		if r.skip {
			continue
		}
		l, g, lerr, gerr, fb, crash := r.l, r.g, r.lerr, r.gerr, r.fb, r.crash
		if crash != nil {
			t.Errorf("%s: local run panicked: %v", c.Case, crash)
			continue
		}
		if fb != "" {
			if strings.Contains(fb, "carried") {
				t.Errorf("%s: fell back (%s)", c.Case, fb)
			}
			t.Logf("%s: fell back (%s)", c.Case, fb)
			fell++
			continue
		}
		if fmt.Sprint(lerr) != fmt.Sprint(gerr) || !slices.Equal(l, g) {
			t.Errorf("%s: local %v %v, global %v %v", c.Case, l, lerr, g, gerr)
		}
	}
	t.Logf("%d cases, %d fell back to the global matching", len(cases), fell)
}

// TestLocalMatchesGlobalGenerated compares both matchings on synthetic
// tournaments larger than the corpus cases (skipped with -short).
func TestLocalMatchesGlobalGenerated(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("synthetic tournaments")
	}
	for _, c := range []struct{ players, rounds int }{{150, 3}, {251, 5}, {300, 7}} {
		for seed := uint64(1); seed <= 2; seed++ {
			f, err := trf.Generate(trf.GenerateOptions{Players: c.players, Rounds: c.rounds, Total: c.rounds + 2, Seed: seed, AbsentPermille: 20, Greedy: true}, Pair)
			if err != nil {
				t.Fatal(err)
			}
			tour, err := trf.PairingInput(f)
			if err != nil {
				t.Fatal(err)
			}
			l, g, lerr, gerr, fb, crash := localVsGlobal(tour)
			if crash != nil {
				t.Fatalf("%d players, %d rounds, seed %d: local run panicked: %v", c.players, c.rounds, seed, crash)
			}
			if fb != "" {
				t.Errorf("%d players, %d rounds, seed %d: fell back (%s)", c.players, c.rounds, seed, fb)
				continue
			}
			if fmt.Sprint(lerr) != fmt.Sprint(gerr) || !slices.Equal(l, g) {
				t.Errorf("%d players, %d rounds, seed %d: local and global pairings differ", c.players, c.rounds, seed)
			}
		}
	}
}

// TestBaseWeightsByKey checks the base weights read from the per-key
// table against edgeWeightLay for every pair read, on the corpus and on
// synthetic tournaments with engine-paired histories (floats, colour
// repeats) and with byes: weightKey must hold every attribute the weights
// read.
func TestBaseWeightsByKey(t *testing.T) {
	defer func(v bool) { verifyBase = v }(verifyBase)
	verifyBase = true
	runCorpus(t)
	for _, c := range []struct{ players, rounds int }{{41, 6}, {120, 8}, {201, 4}} {
		f, err := trf.Generate(trf.GenerateOptions{Players: c.players, Rounds: c.rounds, Total: c.rounds + 2, Seed: 3, AbsentPermille: 30}, Pair)
		if err != nil {
			t.Fatal(err)
		}
		tour, err := trf.PairingInput(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Pair(tour); err != nil {
			t.Fatalf("%d players after %d rounds: %v", c.players, c.rounds, err)
		}
	}
}
