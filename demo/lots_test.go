package demo

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter/standings"
)

// TestLots: the TDs' drawing of lots only reorders entrants of equal rank,
// puts removed entrants after those still playing, and keeps the top n.
func TestLots(t *testing.T) {
	t.Parallel()
	// Ranks 1, 2=, 2=, 2=, 5, 6: places 2-4 are a three-way tie.
	rows := []standings.Row{{Rank: 1, ID: "a"}, {Rank: 2, ID: "b"}, {Rank: 2, ID: "c"}, {Rank: 2, ID: "d"}, {Rank: 5, ID: "e"}, {Rank: 6, ID: "f"}}
	seen := map[string]bool{}
	for seed := range uint64(40) {
		got, err := lots(rows, map[string]bool{"c": true}, 3, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		// a first; then b and d in either order; c (removed) never makes the top 3.
		if len(got) != 3 || got[0] != "a" || !slices.Contains(got, "b") || !slices.Contains(got, "d") {
			t.Fatalf("seed %d: %v", seed, got)
		}
		seen[got[1]] = true
	}
	if !seen["b"] || !seen["d"] {
		t.Errorf("the lot never put %v second", seen)
	}
	if _, err := lots(rows, nil, 7, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("7 of 6 advanced")
	}
}
