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
	// The corpus cases and the generated first rounds are paired on every
	// core: all with the shortcut, then all without (the switch is a
	// package variable), and checked in order, as check does one by one.
	type round1 struct {
		name       string
		tour       *pairing.Tournament
		generated  bool // a generated first round: the shortcut must apply
		short      []pairing.Pair
		full       []pairing.Pair
		serr, ferr error
		applied    bool
	}
	var rounds []*round1
	dir, cases := loadCorpus(t)
	for _, c := range cases {
		f, err := readTRF(filepath.Join(dir, c.TRF))
		if err != nil {
			t.Fatal(err)
		}
		tour, err := trf.PairingInput(f)
		if err != nil || tour.PlayedRounds != 0 {
			continue
		}
		rounds = append(rounds, &round1{name: c.Case, tour: tour})
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
				tour, err := trf.PairingInput(g)
				if err != nil {
					t.Fatal(err)
				}
				rounds = append(rounds, &round1{name: fmt.Sprintf("%d players, %c, %s", n, colour, form), tour: tour, generated: true})
			}
		}
	}
	onEveryCore(len(rounds), func(i int) {
		r := rounds[i]
		r.short, r.serr = Pair(r.tour)
		e := &engine{state: newState(r.tour), local: true}
		e.prepare()
		_, r.applied = e.firstRound()
	})
	firstRoundShortcut = false
	onEveryCore(len(rounds), func(i int) { rounds[i].full, rounds[i].ferr = Pair(rounds[i].tour) })
	firstRoundShortcut = true
	applied := 0
	for _, r := range rounds {
		if fmt.Sprint(r.serr) != fmt.Sprint(r.ferr) || !slices.Equal(r.short, r.full) {
			t.Errorf("%s: shortcut %v %v, matching %v %v", r.name, r.short, r.serr, r.full, r.ferr)
		}
		switch {
		case !r.generated && r.applied:
			applied++
		case r.generated && !r.applied && len(r.tour.Players) >= 2:
			t.Errorf("%s: the shortcut did not apply", r.name)
		}
	}
	if applied < 30 {
		t.Errorf("the shortcut applied to %d corpus cases, want the round-1 cases without acceleration", applied)
	}
	// Forbidden pairs and acceleration: the shortcut stands aside.
	f, _ := benchFile(40, 1, "generated")
	f.ForbiddenPairs = []trf.Forbidden{{IDs: []int{1, 21}}}
	tour, _ := trf.PairingInput(f)
	if check("forbidden pair", tour) {
		t.Errorf("the shortcut applied with a forbidden pair")
	}
	tour.Forbidden = nil
	tour.Players[0].Accelerations = []arbiter.Points{arbiter.Point}
	if check("accelerated", tour) {
		t.Errorf("the shortcut applied with two scores")
	}
}
