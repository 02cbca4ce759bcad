package dutch

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"arbiter"
	"arbiter/pairing"
	"arbiter/trf"
)

// pairBoth pairs t with the first-round shortcut and with the matching
// alone, and reports whether the shortcut applied.
func pairBoth(t *pairing.Tournament) (short, full []pairing.Pair, shortErr, fullErr error, applied bool) {
	short, shortErr = Pair(t)
	e := &engine{state: newState(t), local: true}
	e.prepare()
	_, applied = e.firstRound()
	firstRoundShortcut = false
	defer func() { firstRoundShortcut = true }()
	full, fullErr = Pair(t)
	return
}

// TestFirstRoundMatchesMatching: the first-round shortcut gives the
// pairing of the matching (pairs, colours, board order) on every corpus
// case it applies to and on generated first rounds of 2-1201 players,
// with absences (written all three ways), both initial colours.
// Not parallel: it switches the shortcut off for the comparison.
func TestFirstRoundMatchesMatching(t *testing.T) {
	check := func(name string, tour *pairing.Tournament) bool {
		if tour.PlayedRounds != 0 {
			return false
		}
		short, full, serr, ferr, applied := pairBoth(tour)
		if fmt.Sprint(serr) != fmt.Sprint(ferr) || !slices.Equal(short, full) {
			t.Errorf("%s: shortcut %v %v, matching %v %v", name, short, serr, full, ferr)
		}
		return applied
	}
	dir, cases := loadCorpus(t)
	applied := 0
	for _, c := range cases {
		f, err := readTRF(filepath.Join(dir, c.TRF))
		if err != nil {
			t.Fatal(err)
		}
		tour, err := pairing.FromTRF(f)
		if err != nil {
			continue
		}
		if check(c.Case, tour) {
			applied++
		}
	}
	if applied < 30 {
		t.Errorf("the shortcut applied to %d corpus cases, want the round-1 cases without acceleration", applied)
	}
	for _, n := range []int{2, 3, 4, 5, 8, 9, 30, 31, 101, 300, 1201} {
		for _, colour := range []byte{'w', 'b'} {
			f, err := benchFile(n, 1, "byes")
			if err != nil {
				t.Fatal(err)
			}
			f.InitialColour = colour
			for _, form := range absenceForms {
				g, err := rewriteAbsences(f, form)
				if err != nil {
					t.Fatal(err)
				}
				tour, err := pairing.FromTRF(g)
				if err != nil {
					t.Fatal(err)
				}
				if !check(fmt.Sprintf("%d players, %c, %s", n, colour, form), tour) && len(tour.Players) >= 2 {
					t.Errorf("%d players: the shortcut did not apply", n)
				}
			}
		}
	}
	// Forbidden pairs and acceleration: the shortcut stands aside.
	f, _ := benchFile(40, 1, "generated")
	f.ForbiddenPairs = []trf.Forbidden{{IDs: []int{1, 21}}}
	tour, _ := pairing.FromTRF(f)
	if check("forbidden pair", tour) {
		t.Errorf("the shortcut applied with a forbidden pair")
	}
	tour.Forbidden = nil
	tour.Players[0].Accelerations = []arbiter.Points{arbiter.Point}
	if check("accelerated", tour) {
		t.Errorf("the shortcut applied with two scores")
	}
}
