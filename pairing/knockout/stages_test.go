package knockout

import (
	"fmt"
	"testing"

	"arbiter"
	"github.com/google/go-cmp/cmp"
)

// acwcPools is ACWC 2023 W8: upper = places 12, 9, 7, 6, 4, 1; lower = 11, 10, 8, 5, 3, 2.
var acwcPools = [][]int{{12, 9, 7, 6, 4, 1}, {11, 10, 8, 5, 3, 2}}

func ranked(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Q%d", i+1) // Q7 = 7th in the qualification Swiss
	}
	return out
}

func TestPoolsACWC(t *testing.T) {
	got, err := Pools(ranked(40), acwcPools) // 40 entrants; the top 12 go through (W6)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Q1", "Q4", "Q6", "Q7", "Q9", "Q12"},
		{"Q2", "Q3", "Q5", "Q8", "Q10", "Q11"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	// Another pattern of the same kind: 3 pools of 3 by serpentine.
	got, err = Pools(ranked(9), [][]int{{1, 6, 7}, {2, 5, 8}, {3, 4, 9}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"Q1", "Q6", "Q7"}, {"Q2", "Q5", "Q8"}, {"Q3", "Q4", "Q9"}}, got); diff != "" {
		t.Error(diff)
	}
}

func TestPoolsErrors(t *testing.T) {
	for _, tc := range []struct {
		n       int
		pattern [][]int
		field   string
	}{
		{12, nil, "pattern"},
		{12, [][]int{{1, 2}, {}}, "pattern[1]"},
		{12, [][]int{{1, 2}, {2, 3}}, "pattern[1][0]"}, // 2 twice
		{12, [][]int{{1, 2}, {3, 5}}, "pattern[1][1]"}, // 5 of 4 places
		{12, [][]int{{0, 1}, {2, 3}}, "pattern[0][0]"}, // place 0
		{11, acwcPools, "ranking"},                     // 12 places, 11 ranked
	} {
		_, err := Pools(ranked(tc.n), tc.pattern)
		e, ok := err.(*arbiter.Error)
		if !ok || e.Code != arbiter.EINVALID || e.Field != tc.field {
			t.Errorf("Pools(%d, %v) = %v, want EINVALID on %s", tc.n, tc.pattern, err, tc.field)
		}
	}
}

// TestACWCSemisAndFinals runs W8 -> W10 -> W11 on a hand-made outcome.
func TestACWCSemisAndFinals(t *testing.T) {
	pools, err := Pools(ranked(12), acwcPools)
	if err != nil {
		t.Fatal(err)
	}
	// Candidates standings (invented): upper Q4 first, Q1 second, Q9 third;
	// lower Q2 first, Q8 second, Q3 third.
	upper := []string{"Q4", "Q1", "Q9", "Q6", "Q12", "Q7"}
	lower := []string{"Q2", "Q8", "Q3", "Q11", "Q5", "Q10"}
	if !sameSet(upper, pools[0]) || !sameSet(lower, pools[1]) {
		t.Fatal("standings are not the pools")
	}
	seeds, err := CrossPoolSeeds([][]string{upper, lower}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Q4", "Q2", "Q1", "Q8"}, seeds); diff != "" {
		t.Fatal(diff)
	}
	b, err := New(len(seeds), Options{ThirdPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	name := func(s int) string { return seeds[s-1] }
	semis := b.Rounds[0].Matches
	// W10: winner of each pool v second of the other pool.
	if got := [2][2]string{{name(semis[0].HomeSeed), name(semis[0].AwaySeed)}, {name(semis[1].HomeSeed), name(semis[1].AwaySeed)}}; got != [2][2]string{{"Q4", "Q8"}, {"Q2", "Q1"}} {
		t.Fatalf("semis %v, want Q4-Q8 (upper 1st v lower 2nd) and Q2-Q1 (lower 1st v upper 2nd)", got)
	}
	if b.Rounds[0].Name != "Semifinals" || b.Rounds[1].Name != "Final" {
		t.Errorf("round names %q %q", b.Rounds[0].Name, b.Rounds[1].Name)
	}
	// W11: winners to the final, losers to the third-place playoff.
	if err := b.SetWinner("R1-M1", 4); err != nil { // Q8 beats Q4
		t.Fatal(err)
	}
	if err := b.SetWinner("R1-M2", 2); err != nil { // Q2 beats Q1
		t.Fatal(err)
	}
	f, tp := b.Match("R2-M1"), b.Match("R2-3P")
	if name(f.HomeSeed) != "Q8" || name(f.AwaySeed) != "Q2" || name(tp.HomeSeed) != "Q4" || name(tp.AwaySeed) != "Q1" {
		t.Errorf("final %s, third place %s", pairString(*f), pairString(*tp))
	}
}

// TestW17SemisMoveUp: a pool winner removed before the semifinals; the
// players below in that pool move up one place and the seeding follows.
func TestW17SemisMoveUp(t *testing.T) {
	upper := []string{"Q4", "Q1", "Q9", "Q6", "Q12", "Q7"}
	lower := []string{"Q2", "Q8", "Q3", "Q11", "Q5", "Q10"}
	upper = MoveUp(upper, func(s string) bool { return s == "Q4" })
	if diff := cmp.Diff([]string{"Q1", "Q9", "Q6", "Q12", "Q7"}, upper); diff != "" {
		t.Fatal(diff)
	}
	seeds, err := CrossPoolSeeds([][]string{upper, lower}, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Semis: Q1 (now upper 1st) v Q8 (lower 2nd), Q2 v Q9 (now upper 2nd).
	if diff := cmp.Diff([]string{"Q1", "Q2", "Q9", "Q8"}, seeds); diff != "" {
		t.Error(diff)
	}
}

// TestW17FinalMoveUp: a semifinal winner withdraws before the final. The
// player they beat moves up into the final, and the first reserve (the
// caller's "player below" from the candidates) takes the freed third-place spot.
func TestW17FinalMoveUp(t *testing.T) {
	b, _ := New(4, Options{ThirdPlace: true})
	must(t, b.SetWinner("R1-M1", 1))
	must(t, b.SetWinner("R1-M2", 3))
	must(t, b.Withdraw(1, []int{5, 6}))
	if got := roundStrings(b, 2); !cmp.Equal([]string{"4-3", "5-2"}, got) {
		t.Errorf("after withdrawal: final and third place %v, want 4-3 and 5-2", got)
	}
	// With no reserve the third-place opponent wins without play.
	b, _ = New(4, Options{ThirdPlace: true})
	must(t, b.SetWinner("R1-M1", 1))
	must(t, b.SetWinner("R1-M2", 3))
	must(t, b.Withdraw(3, nil))
	if got := roundStrings(b, 2); !cmp.Equal([]string{"1-2", "4-?*"}, got) {
		t.Errorf("no reserve: %v, want final 1-2 and 4 third by walkover", got)
	}
	if tp := b.Match("R2-3P"); tp.Winner != 4 {
		t.Errorf("third place winner %d", tp.Winner)
	}
	// The third-place player withdraws: a reserve comes in.
	b, _ = New(4, Options{ThirdPlace: true})
	must(t, b.SetWinner("R1-M1", 1))
	must(t, b.SetWinner("R1-M2", 2))
	must(t, b.Withdraw(4, []int{4, 5})) // 4 itself is skipped as a reserve
	if got := roundStrings(b, 2); !cmp.Equal([]string{"1-2", "5-3"}, got) {
		t.Errorf("third place %v, want 5-3", got)
	}
}

func TestWithdrawFirstRound(t *testing.T) {
	// With a reserve: the reserve takes the line.
	b, _ := New(8, Options{})
	must(t, b.Withdraw(8, []int{9}))
	if got := firstRound(b); !cmp.Equal([]string{"1-9", "4-5", "2-7", "3-6"}, got) {
		t.Errorf("%v", got)
	}
	// Without: the opponent advances without play.
	b, _ = New(8, Options{})
	must(t, b.Withdraw(5, nil))
	if got := firstRound(b); !cmp.Equal([]string{"1-8", "4-?*", "2-7", "3-6"}, got) {
		t.Errorf("%v", got)
	}
	if m := b.Match("R2-M1"); m.AwaySeed != 4 {
		t.Errorf("4 should stand in R2-M1: %s", pairString(*m))
	}
	// A seed with a bye withdraws and nobody moves up: whoever wins 4-5 walks over.
	b, _ = New(5, Options{})
	must(t, b.Withdraw(1, nil))
	must(t, b.SetWinner("R1-M2", 5))
	if m := b.Match("R2-M1"); m.Winner != 5 || !m.Walkover {
		t.Errorf("R2-M1 = %+v", m)
	}
	if m := b.Match("R3-M1"); m.HomeSeed != 5 {
		t.Errorf("final home %d, want 5", m.HomeSeed)
	}
	// Both first-round seeds gone with no reserves: the line is empty up to
	// the next round, where the other side walks over.
	b, _ = New(8, Options{})
	must(t, b.Withdraw(4, nil))
	must(t, b.Withdraw(5, nil))
	must(t, b.SetWinner("R1-M1", 8))
	if m := b.Match("R2-M1"); m.Winner != 8 || !m.Walkover {
		t.Errorf("R2-M1 = %s", pairString(*m))
	}
}

func TestWithdrawErrors(t *testing.T) {
	b, _ := New(4, Options{})
	must(t, b.SetWinner("R1-M1", 1))
	for _, tc := range []struct {
		seed     int
		reserves []int
		code     string
	}{
		{4, nil, arbiter.ECONFLICT},     // already out
		{9, nil, arbiter.ENOTFOUND},     // never in
		{2, []int{0}, arbiter.EINVALID}, // bad reserve
	} {
		if err := b.Withdraw(tc.seed, tc.reserves); arbiter.ErrorCode(err) != tc.code {
			t.Errorf("Withdraw(%d, %v) = %v, want %s", tc.seed, tc.reserves, err, tc.code)
		}
	}
	must(t, b.Withdraw(2, nil))
	if err := b.Withdraw(2, nil); arbiter.ErrorCode(err) != arbiter.ECONFLICT {
		t.Errorf("second withdrawal: %v", err)
	}
}

// The rulebooks' knockout sizes as data: RKCC R2 (top 4 of the Swiss) and
// antichess A10 (10-15: 4, 16-31: 8, 32-63: 16; more: a candidates stage).
func TestKnockoutSizes(t *testing.T) {
	a10 := []SizeRule{{Min: 10, Max: 15, Size: 4}, {Min: 16, Max: 31, Size: 8}, {Min: 32, Max: 63, Size: 16}}
	for _, tc := range []struct{ teams, size int }{{10, 4}, {15, 4}, {16, 8}, {31, 8}, {32, 16}, {63, 16}} {
		got, err := KnockoutSize(tc.teams, a10, "A10")
		if err != nil || got != tc.size {
			t.Errorf("A10 %d teams: %d, %v; want %d", tc.teams, got, err, tc.size)
		}
	}
	for _, teams := range []int{9, 64, 100} {
		_, err := KnockoutSize(teams, a10, "A10")
		e, ok := err.(*arbiter.Error)
		if !ok || e.Code != arbiter.ERULE || e.Rule != "A10" {
			t.Errorf("A10 %d teams: %v, want ERULE A10", teams, err)
		}
	}
	r2 := []SizeRule{{Min: 4, Size: 4}}
	if got, err := KnockoutSize(23, r2, "R2"); got != 4 || err != nil {
		t.Errorf("R2: %d, %v", got, err)
	}
	if _, err := KnockoutSize(3, []SizeRule{{Min: 2, Size: 4}}, "X"); arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("size above the field: %v", err)
	}
	// The brackets those sizes make: round names and first rounds.
	for _, tc := range []struct {
		size  int
		third bool
		names []string
		r1    []string
	}{
		{4, false, []string{"Semifinals", "Final"}, []string{"1-4", "2-3"}}, // RKCC R2, no third place
		{4, true, []string{"Semifinals", "Final"}, []string{"1-4", "2-3"}},  // antichess A18: bronze match
		{8, true, []string{"Quarterfinals", "Semifinals", "Final"}, []string{"1-8", "4-5", "2-7", "3-6"}},
		{16, true, []string{"Round of 16", "Quarterfinals", "Semifinals", "Final"}, nil},
	} {
		b, err := New(tc.size, Options{ThirdPlace: tc.third})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range b.Rounds {
			names = append(names, r.Name)
		}
		if !cmp.Equal(tc.names, names) || (tc.r1 != nil && !cmp.Equal(tc.r1, firstRound(b))) {
			t.Errorf("size %d: %v %v", tc.size, names, firstRound(b))
		}
		last := b.Rounds[len(b.Rounds)-1].Matches
		if tc.third != (len(last) == 2) {
			t.Errorf("size %d third=%v: final round has %d matches", tc.size, tc.third, len(last))
		}
	}
}

func TestCrossPoolSeedsErrors(t *testing.T) {
	for _, tc := range []struct {
		pools   [][]int
		advance int
		field   string
	}{
		{[][]int{{1, 2}}, 1, "pools"},
		{[][]int{{1, 2}, {3, 4}}, 0, "advance"},
		{[][]int{{1, 2}, {3}}, 2, "pools[1]"},
	} {
		_, err := CrossPoolSeeds(tc.pools, tc.advance)
		e, ok := err.(*arbiter.Error)
		if !ok || e.Field != tc.field {
			t.Errorf("CrossPoolSeeds(%v, %d) = %v, want error on %s", tc.pools, tc.advance, err, tc.field)
		}
	}
	// Four pools, two advance: pool winners are spread and meet other pools' runners-up.
	seeds, err := CrossPoolSeeds([][]string{{"A1", "A2"}, {"B1", "B2"}, {"C1", "C2"}, {"D1", "D2"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(len(seeds), Options{})
	var got []string
	for _, m := range b.Rounds[0].Matches {
		got = append(got, seeds[m.HomeSeed-1]+"-"+seeds[m.AwaySeed-1])
	}
	if want := []string{"A1-D2", "D1-A2", "B1-C2", "C1-B2"}; !cmp.Equal(want, got) {
		t.Errorf("quarterfinals %v, want %v", got, want)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		if !m[x] {
			return false
		}
	}
	return true
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
