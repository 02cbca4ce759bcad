package dutch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"arbiter/pairing"
)

// reviewTournament is seven players P1..P7 (indexes 0..6) after two of
// five rounds, 1 / ½ / 0 with the PAB worth a win:
//
//	round 1: P1(W) 1-0 P5, P6(W) 0-1 P2, P3(W) 1-0 P7, P4 the PAB
//	round 2: P1(W) 0-1 P2, P3(W) ½-½ P4, P5(W) 1-0 P6, P7 the PAB
//
// By hand (C.04.3 1.4, 1.7; C.04.1 4):
//
//	P1 1   W W  CD +2  black, absolute  no floats
//	P2 2   B B  CD -2  white, absolute  no floats
//	P3 1½  W W  CD +2  black, absolute  no floats
//	P4 1½  - B  CD -1  white, strong    downfloat two rounds ago (PAB); no second PAB
//	P5 1   B W  CD  0  black, mild      no floats
//	P6 0   W B  CD  0  white, mild      no floats
//	P7 1   B -  CD -1  white, strong    downfloat last round (PAB); no second PAB
//
// Round 1 paired equal scores only (all 0) and so did round 2 (1 v 1, 0 v
// 0), so the PABs are the only floats.
func reviewTournament() *pairing.Tournament {
	t := &pairing.Tournament{PlayedRounds: 2, TotalRounds: 5, InitialColour: pairing.White, Points: pairing.StandardPoints()}
	for i := range 7 {
		t.Players = append(t.Players, pairing.Player{ID: i + 1, Games: make([]pairing.Game, 2)})
	}
	game := func(r, white, black int, wOut pairing.Outcome) {
		bOut := pairing.Win - wOut
		t.Players[white].Games[r] = pairing.Game{Opponent: black, Colour: pairing.White, Outcome: wOut, Played: true, Paired: true}
		t.Players[black].Games[r] = pairing.Game{Opponent: white, Colour: pairing.Black, Outcome: bOut, Played: true, Paired: true}
	}
	bye := func(r, p int) {
		t.Players[p].Games[r] = pairing.Game{Opponent: -1, Outcome: pairing.Win, Paired: true}
	}
	game(0, 0, 4, pairing.Win)
	game(0, 5, 1, pairing.Loss)
	game(0, 2, 6, pairing.Win)
	bye(0, 3)
	game(1, 0, 1, pairing.Loss)
	game(1, 2, 3, pairing.Draw)
	game(1, 4, 5, pairing.Win)
	bye(1, 6)
	for i := range t.Players {
		for _, g := range t.Players[i].Games {
			t.Players[i].Score += t.Points.For(g)
		}
	}
	return t
}

const (
	P1 = iota
	P2
	P3
	P4
	P5
	P6
	P7
)

var w, b, none = pairing.White, pairing.Black, pairing.NoColour

func TestProfiles(t *testing.T) {
	t.Parallel()
	got := Profiles(reviewTournament())
	want := []Profile{
		{Score: 100, Colours: []pairing.Colour{w, w}, Difference: 2, Preference: b, Strength: Absolute, ByeEligible: true, Rank: 0},
		{Score: 200, Colours: []pairing.Colour{b, b}, Difference: -2, Preference: w, Strength: Absolute, ByeEligible: true, Rank: 1},
		{Score: 150, Colours: []pairing.Colour{w, w}, Difference: 2, Preference: b, Strength: Absolute, ByeEligible: true, Rank: 2},
		{Score: 150, Colours: []pairing.Colour{none, b}, Difference: -1, Preference: w, Strength: Strong, Floats: [2]Float{NoFloat, Downfloat}, Unplayed: 1, Rank: 3},
		{Score: 100, Colours: []pairing.Colour{b, w}, Difference: 0, Preference: b, Strength: Mild, ByeEligible: true, Rank: 4},
		{Score: 0, Colours: []pairing.Colour{w, b}, Difference: 0, Preference: w, Strength: Mild, ByeEligible: true, Rank: 5},
		{Score: 100, Colours: []pairing.Colour{b, none}, Difference: -1, Preference: w, Strength: Strong, Floats: [2]Float{Downfloat, NoFloat}, Unplayed: 1, Rank: 6},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("profiles (-want +got):\n%s", d)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	tour := reviewTournament()
	for _, tc := range []struct {
		name string
		pair pairing.Pair
		want []Breach
	}{
		{"a rematch, with an absolute preference refused twice over", pairing.Pair{White: P1, Black: P5}, []Breach{
			{Criterion: "C1", Absolute: true, Kind: KindRematch, Players: []int{P1, P5}},
			// P1 (WW, CD +2) gets White again: CD +3 and a third White.
			{Criterion: "C10", Absolute: true, Kind: KindColourDifference, Players: []int{P1, P5}, Colour: w, Strength: Absolute},
			{Criterion: "C11", Absolute: true, Kind: KindColourRepeat, Players: []int{P1, P5}, Colour: w, Strength: Absolute},
		}},
		{"a rematch across scoregroups", pairing.Pair{White: P2, Black: P1}, []Breach{
			{Criterion: "C1", Absolute: true, Kind: KindRematch, Players: []int{P2, P1}},
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P2, P1}, Difference: 100},
		}},
		{"two non-topscorers wanting Black absolutely", pairing.Pair{White: P3, Black: P1}, []Breach{
			{Criterion: "C3", Absolute: true, Kind: KindSameAbsolute, Players: []int{P3, P1}, Colour: w, Strength: Absolute},
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P3, P1}, Difference: 50},
		}},
		{"a mild preference, and a downfloat two rounds ago repeated", pairing.Pair{White: P4, Black: P6}, []Breach{
			{Criterion: "C12", Kind: KindColourPreference, Players: []int{P6, P4}, Colour: b, Strength: Mild},
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P4, P6}, Difference: 150},
			{Criterion: "C16", Kind: KindDownfloatAgain, Players: []int{P4, P6}, Round: 2},
		}},
		{"both preferences met", pairing.Pair{White: P7, Black: P5}, nil},
		{"both preferences refused", pairing.Pair{White: P5, Black: P7}, []Breach{
			{Criterion: "C12", Kind: KindColourPreference, Players: []int{P5, P7}, Colour: w, Strength: Mild},
			{Criterion: "C13", Kind: KindStrongPreference, Players: []int{P7, P5}, Colour: b, Strength: Strong},
		}},
		{"a downfloat last round repeated", pairing.Pair{White: P7, Black: P6}, []Breach{
			{Criterion: "C12", Kind: KindColourPreference, Players: []int{P6, P7}, Colour: b, Strength: Mild},
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P7, P6}, Difference: 100},
			{Criterion: "C14", Kind: KindDownfloatAgain, Players: []int{P7, P6}, Round: 1},
		}},
		// P4 had the PAB; P1, P5 (1) and P6 (0) score less and may take
		// it; P3 has P4's score and no unplayed game.
		{"a second bye", pairing.Pair{White: P4, Black: -1}, []Breach{
			{Criterion: "C2", Absolute: true, Kind: KindSecondBye, Players: []int{P4}},
			{Criterion: "C5", Kind: KindByeScore, Players: []int{P4, P1, P5, P6}},
			{Criterion: "C9", Kind: KindByeUnplayed, Players: []int{P4, P3}},
		}},
		{"the bye to the lowest score", pairing.Pair{White: P6, Black: -1}, nil},
		{"the bye above the lowest score", pairing.Pair{White: P5, Black: -1}, []Breach{
			{Criterion: "C5", Kind: KindByeScore, Players: []int{P5, P6}},
		}},
	} {
		got := Check(tour, []pairing.Pair{tc.pair})
		if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// In the last round, topscorers may meet with the same absolute
// preference: the one refused breaks C10/C11, quality criteria.
func TestCheckTopscorers(t *testing.T) {
	t.Parallel()
	tour := reviewTournament()
	tour.TotalRounds = 3
	// Topscorers have more than half the maximum (2 rounds: more than 1):
	// P2 (2), P3 and P4 (1½). P3 (WW) meets P2 (BB): compatible. P3 meets
	// P1 (WW, 1 point, not a topscorer) but P3 is: C3 does not apply.
	got := Check(tour, []pairing.Pair{{White: P3, Black: P1}})
	want := []Breach{
		{Criterion: "C10", Kind: KindColourDifference, Players: []int{P3, P1}, Colour: w, Strength: Absolute},
		{Criterion: "C11", Kind: KindColourRepeat, Players: []int{P3, P1}, Colour: w, Strength: Absolute},
		{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P3, P1}, Difference: 50},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if p := Profiles(tour); !p[P2].Topscorer || !p[P3].Topscorer || !p[P4].Topscorer || p[P1].Topscorer || p[P5].Topscorer {
		t.Errorf("topscorers: %+v", p)
	}
}

func TestWorse(t *testing.T) {
	t.Parallel()
	tour := reviewTournament()
	pr := func(wh, bl int) pairing.Pair { return pairing.Pair{White: wh, Black: bl} }
	for _, tc := range []struct {
		name          string
		before, after []pairing.Pair
		want          []Breach
	}{
		{"colours swapped against both preferences", []pairing.Pair{pr(P7, P5)}, []pairing.Pair{pr(P5, P7)}, []Breach{
			{Criterion: "C12", Kind: KindColourPreference, Players: []int{P5, P7}, Colour: w, Strength: Mild},
			{Criterion: "C13", Kind: KindStrongPreference, Players: []int{P7, P5}, Colour: b, Strength: Strong},
		}},
		// The same two players with colours reversed: the score difference
		// and the repeated float were there before; P6's mild preference is
		// now met, P4's strong one is not.
		{"what was there before is not repeated", []pairing.Pair{pr(P4, P6)}, []pairing.Pair{pr(P6, P4)}, []Breach{
			{Criterion: "C13", Kind: KindStrongPreference, Players: []int{P4, P6}, Colour: b, Strength: Strong},
		}},
		{"a larger score difference", []pairing.Pair{pr(P2, P3)}, []pairing.Pair{pr(P2, P5)}, []Breach{
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P2, P5}, Difference: 100},
		}},
		{"a smaller score difference", []pairing.Pair{pr(P2, P5)}, []pairing.Pair{pr(P2, P3)}, nil},
		// The bye moves from P6 (0) to P5 (1); P6 now meets P7.
		{"the bye moved up", []pairing.Pair{pr(P6, -1), pr(P7, P5)}, []pairing.Pair{pr(P5, -1), pr(P7, P6)}, []Breach{
			{Criterion: "C5", Kind: KindByeScore, Players: []int{P5, P6}},
			{Criterion: "C12", Kind: KindColourPreference, Players: []int{P6, P7}, Colour: b, Strength: Mild},
			{Criterion: "C6", Kind: KindScoreDifference, Players: []int{P7, P6}, Difference: 100},
			{Criterion: "C14", Kind: KindDownfloatAgain, Players: []int{P7, P6}, Round: 1},
		}},
		// P1-P2 was a rematch and a score difference before too; only the
		// colours change, and now both preferences are met.
		{"a breach already there is not new", []pairing.Pair{pr(P1, P2)}, []pairing.Pair{pr(P2, P1)}, nil},
		// A rematch is absolute: named even where the count does not grow.
		{"an absolute breach is always named", []pairing.Pair{pr(P1, P2)}, []pairing.Pair{pr(P1, P5)}, []Breach{
			{Criterion: "C1", Absolute: true, Kind: KindRematch, Players: []int{P1, P5}},
		}},
	} {
		got := Worse(tour, tc.before, tc.after)
		if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestColours(t *testing.T) {
	t.Parallel()
	tour := reviewTournament()
	for _, tc := range []struct {
		name         string
		a, b         int
		white, black int
	}{
		// 5.2.1: both preferences (P1 Black, P2 White).
		{"both preferences", P1, P2, P2, P1},
		// 5.2.2: P4's strong preference for White beats P6's mild one.
		{"the stronger preference", P6, P4, P4, P6},
		// 5.2.1: P5 mild Black, P6 mild White.
		{"mild preferences that fit", P5, P6, P6, P5},
		// P3 and P1 both want Black absolutely with CD +2 and the same
		// history: 5.2.3 finds no round where they differed, so 5.2.4 gives
		// the higher ranked (P3, 1½ points) its preference.
		{"the higher ranked player's preference", P1, P3, P1, P3},
	} {
		wh, bl := Colours(tour, tc.a, tc.b)
		if wh != tc.white || bl != tc.black {
			t.Errorf("%s: Colours(P%d, P%d) = P%d-P%d, want P%d-P%d", tc.name, tc.a+1, tc.b+1, wh+1, bl+1, tc.white+1, tc.black+1)
		}
	}
}

func TestWhyBye(t *testing.T) {
	t.Parallel()
	tour := reviewTournament()
	if d := cmp.Diff(ByeReason{Eligible: true}, WhyBye(tour, P6), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("P6 (-want +got):\n%s", d)
	}
	// P5 (1 point): P6 has less; P1 has 1 point, no unplayed game either,
	// and is ranked above P5. P7 (1 point) had the PAB.
	want := ByeReason{Eligible: true, LowerScore: []int{P6}, Candidates: []int{P1}}
	if d := cmp.Diff(want, WhyBye(tour, P5), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("P5 (-want +got):\n%s", d)
	}
	// With P6 absent, P1 would be the holder with P5 ranked below it.
	tour.Players[P6].Absent = true
	want = ByeReason{Eligible: true, Candidates: []int{P5}, RankedBelow: []int{P5}}
	if d := cmp.Diff(want, WhyBye(tour, P1), cmpopts.EquateEmpty()); d != "" {
		t.Errorf("P1 (-want +got):\n%s", d)
	}
}
