package knockout

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"arbiter"
	"github.com/google/go-cmp/cmp"
)

func TestSeedOrder(t *testing.T) {
	// Standard draw sheets: the first-round pairs read 1-2; 1-4 2-3;
	// 1-8 4-5 2-7 3-6; 1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11.
	for size, want := range map[int][]int{
		2:  {1, 2},
		4:  {1, 4, 2, 3},
		8:  {1, 8, 4, 5, 2, 7, 3, 6},
		16: {1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11},
	} {
		got, err := SeedOrder(size)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(want, got) {
			t.Errorf("SeedOrder(%d) = %v, want %v", size, got, want)
		}
	}
	for _, bad := range []int{0, 1, 3, 6, 12, MaxEntrants * 2} {
		if _, err := SeedOrder(bad); arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("SeedOrder(%d): %v, want EINVALID", bad, err)
		}
	}
}

// firstRound renders round 1 as "h-a" strings with "bye" for byes and a
// trailing "*" on walkovers.
func firstRound(b *Bracket) []string {
	var out []string
	for _, m := range b.Rounds[0].Matches {
		out = append(out, pairString(m))
	}
	return out
}

func pairString(m Match) string {
	side := func(s Source, seed int) string {
		if s.Kind == FromBye {
			return "bye"
		}
		if seed == 0 {
			return "?"
		}
		return fmt.Sprint(seed)
	}
	s := side(m.Home, m.HomeSeed) + "-" + side(m.Away, m.AwaySeed)
	if m.Walkover {
		s += "*"
	}
	return s
}

func roundStrings(b *Bracket, r int) []string {
	var out []string
	for _, m := range b.Rounds[r-1].Matches {
		out = append(out, pairString(m))
	}
	return out
}

// TestFirstRounds: hand-drawn first (and second) rounds for fields with
// and without byes. Byes fall to the top seeds, who stand in round 2 at once.
func TestFirstRounds(t *testing.T) {
	for _, tc := range []struct {
		n      int
		names  []string
		r1, r2 []string
	}{
		{2, []string{"Final"}, []string{"1-2"}, nil},
		{3, []string{"Semifinals", "Final"}, []string{"1-bye*", "2-3"}, []string{"1-?"}},
		{4, []string{"Semifinals", "Final"}, []string{"1-4", "2-3"}, []string{"?-?"}},
		{5, []string{"Quarterfinals", "Semifinals", "Final"}, []string{"1-bye*", "4-5", "2-bye*", "3-bye*"}, []string{"1-?", "2-3"}},
		{6, []string{"Quarterfinals", "Semifinals", "Final"}, []string{"1-bye*", "4-5", "2-bye*", "3-6"}, []string{"1-?", "2-?"}},
		{7, []string{"Quarterfinals", "Semifinals", "Final"}, []string{"1-bye*", "4-5", "2-7", "3-6"}, []string{"1-?", "?-?"}},
		{8, []string{"Quarterfinals", "Semifinals", "Final"}, []string{"1-8", "4-5", "2-7", "3-6"}, []string{"?-?", "?-?"}},
		{12, []string{"Round of 16", "Quarterfinals", "Semifinals", "Final"},
			[]string{"1-bye*", "8-9", "4-bye*", "5-12", "2-bye*", "7-10", "3-bye*", "6-11"},
			[]string{"1-?", "4-?", "2-?", "3-?"}},
		{16, []string{"Round of 16", "Quarterfinals", "Semifinals", "Final"},
			[]string{"1-16", "8-9", "4-13", "5-12", "2-15", "7-10", "3-14", "6-11"},
			[]string{"?-?", "?-?", "?-?", "?-?"}},
	} {
		b, err := New(tc.n, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range b.Rounds {
			names = append(names, r.Name)
		}
		if !cmp.Equal(tc.names, names) {
			t.Errorf("n=%d: rounds %v, want %v", tc.n, names, tc.names)
		}
		if got := firstRound(b); !cmp.Equal(tc.r1, got) {
			t.Errorf("n=%d: round 1 %v, want %v", tc.n, got, tc.r1)
		}
		if tc.r2 != nil {
			if got := roundStrings(b, 2); !cmp.Equal(tc.r2, got) {
				t.Errorf("n=%d: round 2 %v, want %v", tc.n, got, tc.r2)
			}
		}
	}
}

// TestFeeders checks the structure a renderer draws: sources and next links.
func TestFeeders(t *testing.T) {
	b, err := New(8, Options{ThirdPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	sf2 := b.Match("R2-M2")
	if sf2.Home != (Source{Kind: FromWinner, Match: "R1-M3"}) || sf2.Away != (Source{Kind: FromWinner, Match: "R1-M4"}) || sf2.Next != "R3-M1" || sf2.NextLoser != "R3-3P" {
		t.Errorf("R2-M2 = %+v", sf2)
	}
	tp := b.Match("R3-3P")
	if tp == nil || !tp.ThirdPlace || tp.Slot != 2 || tp.Home != (Source{Kind: FromLoser, Match: "R2-M1"}) || tp.Away != (Source{Kind: FromLoser, Match: "R2-M2"}) {
		t.Errorf("third place = %+v", tp)
	}
	if q := b.Match("R1-M3"); q.Home != (Source{Kind: FromSeed, Seed: 2}) || q.Next != "R2-M2" || q.NextLoser != "" {
		t.Errorf("R1-M3 = %+v", q)
	}
	if len(b.Rounds[2].Matches) != 2 || b.Rounds[2].Matches[0].ID != "R3-M1" {
		t.Errorf("final round = %+v", b.Rounds[2].Matches)
	}
}

// TestPlayEight plays an 8-bracket with one upset per round by hand.
func TestPlayEight(t *testing.T) {
	b, err := New(8, Options{ThirdPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Ready()) != 4 {
		t.Fatalf("ready: %d, want 4", len(b.Ready()))
	}
	must := func(id string, w int) {
		t.Helper()
		if err := b.SetWinner(id, w); err != nil {
			t.Fatal(err)
		}
	}
	must("R1-M1", 1)
	must("R1-M2", 5) // upset
	must("R1-M3", 2)
	must("R1-M4", 3)
	if got := roundStrings(b, 2); !cmp.Equal([]string{"1-5", "2-3"}, got) {
		t.Fatalf("semis %v", got)
	}
	must("R2-M1", 5) // upset
	must("R2-M2", 2)
	if got := roundStrings(b, 3); !cmp.Equal([]string{"5-2", "1-3"}, got) {
		t.Fatalf("final round %v, want final 5-2 and third place 1-3", got)
	}
	must("R3-3P", 3)
	must("R3-M1", 2)
	if b.Champion() != 2 {
		t.Errorf("champion %d", b.Champion())
	}
	if len(b.Ready()) != 0 {
		t.Errorf("still ready: %v", b.Ready())
	}
}

func TestSetWinnerErrors(t *testing.T) {
	b, _ := New(5, Options{ThirdPlace: true})
	for _, tc := range []struct {
		id   string
		seed int
		code string
	}{
		{"R9-M1", 1, arbiter.ENOTFOUND},
		{"R1-M2", 1, arbiter.EINVALID},  // 1 is not in 4-5
		{"R2-M1", 1, arbiter.ECONFLICT}, // 1 v winner of 4-5: not ready
		{"R1-M1", 1, arbiter.ECONFLICT}, // decided by a bye
		{"R3-M1", 2, arbiter.ECONFLICT}, // final not ready
		{"R3-3P", 2, arbiter.ECONFLICT}, // third place not ready
	} {
		if err := b.SetWinner(tc.id, tc.seed); arbiter.ErrorCode(err) != tc.code {
			t.Errorf("SetWinner(%s, %d) = %v, want %s", tc.id, tc.seed, err, tc.code)
		}
	}
	// A correction is allowed until the next match is decided.
	if err := b.SetWinner("R1-M2", 5); err != nil {
		t.Fatal(err)
	}
	if err := b.SetWinner("R1-M2", 4); err != nil {
		t.Fatal(err)
	}
	if m := b.Match("R2-M1"); m.AwaySeed != 4 {
		t.Errorf("after correction R2-M1 = %s", pairString(*m))
	}
	if err := b.SetWinner("R2-M1", 1); err != nil {
		t.Fatal(err)
	}
	if err := b.SetWinner("R1-M2", 5); arbiter.ErrorCode(err) != arbiter.ECONFLICT {
		t.Errorf("correction after the next match: %v, want ECONFLICT", err)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		n     int
		opt   Options
		field string
	}{
		{1, Options{}, "entrants"}, {0, Options{}, "entrants"}, {MaxEntrants + 1, Options{}, "entrants"},
		{3, Options{ThirdPlace: true}, "third_place"},
	} {
		_, err := New(tc.n, tc.opt)
		e, ok := err.(*arbiter.Error)
		if !ok || e.Code != arbiter.EINVALID || e.Field != tc.field {
			t.Errorf("New(%d, %+v) = %v, want EINVALID on %s", tc.n, tc.opt, err, tc.field)
		}
	}
}

// TestProperties, for every field of 2..70 with and without third place:
// every seed is drawn once; the byes are Slots-n and go to seeds 1..byes;
// if the better seed always wins, round r holds seeds 1..Slots/2^(r-1) and
// the final is 1 v 2; under random results 1 and 2 can only meet in the
// final (they may meet in the third-place match); played matches number n-1 (+1 for third place); nobody loses twice.
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 70; n++ {
		for _, third := range []bool{false, true} {
			if third && n < 4 {
				continue
			}
			name := fmt.Sprintf("n=%d third=%v", n, third)
			b, err := New(n, Options{ThirdPlace: third})
			if err != nil {
				t.Fatal(err)
			}
			drawn := map[int]int{}
			byes := map[int]bool{}
			for _, m := range b.Rounds[0].Matches {
				for _, s := range []Source{m.Home, m.Away} {
					if s.Kind == FromSeed {
						drawn[s.Seed]++
					}
				}
				if m.Away.Kind == FromBye {
					byes[m.HomeSeed] = true
				}
				if m.Home.Kind == FromBye {
					t.Fatalf("%s: bye on the home line of %s", name, m.ID)
				}
			}
			for s := 1; s <= n; s++ {
				if drawn[s] != 1 {
					t.Fatalf("%s: seed %d drawn %d times", name, s, drawn[s])
				}
			}
			if len(drawn) != n || len(byes) != b.Slots-n {
				t.Fatalf("%s: %d drawn, %d byes, want %d and %d", name, len(drawn), len(byes), n, b.Slots-n)
			}
			for s := 1; s <= b.Slots-n; s++ {
				if !byes[s] {
					t.Errorf("%s: seed %d has no bye but %d byes go to the top seeds", name, s, b.Slots-n)
				}
			}

			// Favourites always win.
			fav := play(t, b, func(m *Match) int { return min(m.HomeSeed, m.AwaySeed) })
			for r := range fav.Rounds {
				want := fav.Slots >> r
				for _, m := range fav.Rounds[r].Matches {
					if m.ThirdPlace {
						continue
					}
					for _, s := range []int{m.HomeSeed, m.AwaySeed} {
						if s > want {
							t.Errorf("%s: seed %d in round %d, where only 1..%d remain", name, s, r+1, want)
						}
					}
				}
			}
			if f := fav.Match(MatchID(len(fav.Rounds), 1)); f.HomeSeed != 1 || f.AwaySeed != 2 || fav.Champion() != 1 {
				t.Errorf("%s: final %s, champion %d", name, pairString(*f), fav.Champion())
			}
			if third {
				if tp := fav.Match(thirdPlaceID(len(fav.Rounds))); min(tp.HomeSeed, tp.AwaySeed) != 3 || max(tp.HomeSeed, tp.AwaySeed) != 4 {
					t.Errorf("%s: third place %s", name, pairString(*tp))
				}
			}

			// Random results.
			for trial := 0; trial < 20; trial++ {
				rb := play(t, b, func(m *Match) int {
					if rng.IntN(2) == 0 {
						return m.HomeSeed
					}
					return m.AwaySeed
				})
				played, losses := 0, map[int]int{}
				for _, rd := range rb.Rounds {
					for _, m := range rd.Matches {
						if m.Winner == 0 {
							t.Fatalf("%s: %s undecided after play", name, m.ID)
						}
						if m.Walkover {
							continue
						}
						played++
						if min(m.HomeSeed, m.AwaySeed) == 1 && max(m.HomeSeed, m.AwaySeed) == 2 && m.Next != "" && !m.ThirdPlace {
							t.Errorf("%s: 1 and 2 meet in %s", name, m.ID)
						}
						if !m.ThirdPlace {
							losses[m.Loser()]++
						}
					}
				}
				want := n - 1
				if third {
					want++
				}
				if played != want {
					t.Errorf("%s: %d matches played, want %d", name, played, want)
				}
				for s, l := range losses {
					if l > 1 {
						t.Errorf("%s: seed %d lost %d times", name, s, l)
					}
				}
			}
		}
	}
}

// play copies b and decides every ready match with pick until none is left.
func play(t *testing.T, b *Bracket, pick func(*Match) int) *Bracket {
	t.Helper()
	c := clone(b)
	for {
		ready := c.Ready()
		if len(ready) == 0 {
			return c
		}
		for _, m := range ready {
			if err := c.SetWinner(m.ID, pick(m)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func clone(b *Bracket) *Bracket {
	c := *b
	c.Rounds = make([]Round, len(b.Rounds))
	for i, r := range b.Rounds {
		c.Rounds[i] = r
		c.Rounds[i].Matches = append([]Match(nil), r.Matches...)
	}
	c.Withdrawn = append([]int(nil), b.Withdrawn...)
	return &c
}

func BenchmarkNewAndPlay4096(b *testing.B) {
	for b.Loop() {
		br, err := New(MaxEntrants-5, Options{ThirdPlace: true})
		if err != nil {
			b.Fatal(err)
		}
		for {
			ready := br.Ready()
			if len(ready) == 0 {
				break
			}
			for _, m := range ready {
				_ = br.SetWinner(m.ID, min(m.HomeSeed, m.AwaySeed))
			}
		}
	}
}

func TestMatchLookup(t *testing.T) {
	b, _ := New(8, Options{ThirdPlace: true})
	for id, want := range map[string]bool{
		"R1-M1": true, "R1-M4": true, "R3-M1": true, "R3-3P": true,
		"R1-M0": false, "R1-M5": false, "R0-M1": false, "R4-M1": false, "R2-3P": false,
		"": false, "R": false, "R1": false, "R1-": false, "R1-X1": false, "r1-m1": false,
	} {
		m := b.Match(id)
		if (m != nil) != want || (m != nil && m.ID != id) {
			t.Errorf("Match(%q) = %v, want found=%v", id, m, want)
		}
	}
}
