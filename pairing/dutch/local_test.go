package dutch

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	dir, cases := loadCorpus(t)
	fell := 0
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(dir, c.TRF))
		if err != nil {
			t.Fatal(err)
		}
		f, err := trf.Parse(bytes.NewReader(data))
		if err != nil {
			continue
		}
		tour, err := pairing.FromTRF(f)
		if err != nil {
			continue
		}
		l, g, lerr, gerr, fb, crash := localVsGlobal(tour)
		if crash != nil {
			t.Errorf("%s: local run panicked: %v", c.Case, crash)
			continue
		}
		if fb != "" {
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
