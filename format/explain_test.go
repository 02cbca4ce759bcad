package format

import (
	"strings"
	"testing"

	"arbiter"
)

func mustPreset(t *testing.T, name string) *Format {
	t.Helper()
	f, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func ip(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// Expected values below are read off the rulebooks (clause in each row).
func TestExplainRKCC(t *testing.T) {
	f := mustPreset(t, "rkcc-team-three-tc")
	for _, c := range []struct{ n, rounds int }{{4, 5}, {8, 5}, {9, 6}, {10, 6}, {11, 7}, {12, 7}, {13, 8}, {40, 8}} { // R1
		x, err := f.Explain(c.n)
		if err != nil || !x.Runs {
			t.Fatalf("n=%d: %v %+v", c.n, err, x)
		}
		if ip(x.Stages[0].Rounds) != c.rounds || ip(x.Stages[0].Advance) != 4 { // R2
			t.Errorf("n=%d: rounds %v advance %v, want %d and 4", c.n, ip(x.Stages[0].Rounds), ip(x.Stages[0].Advance), c.rounds)
		}
		ko := x.Stages[1]
		if ip(ko.Entrants) != 4 || ip(ko.Rounds) != 2 {
			t.Errorf("n=%d: knockout %v entrants %v rounds", c.n, ip(ko.Entrants), ip(ko.Rounds))
		}
		m := x.Stages[0].Match
		if m.MaxPoints != 720*arbiter.Point || m.WinThreshold != 2*arbiter.Point || m.ThresholdUnit != UnitSets { // R10, R11
			t.Errorf("match %+v", m)
		}
		if ip(x.TeamSize) != 3 || x.Weeks != nil {
			t.Errorf("team size %v weeks %v", ip(x.TeamSize), ip(x.Weeks))
		}
	}
	x, _ := f.Explain(3)
	if x.Runs {
		t.Errorf("3 teams cannot fill a top-4 knockout: %+v", x)
	}
	// R3/R10: 6 x 3+2 x 40, 10 x 1.5+1 x 24, 16 x 0.75+0 x 15 = 240 each.
	x, _ = f.Explain(10)
	for i, p := range x.Stages[0].Match.Parts {
		if p.MaxPoints != 240*arbiter.Point {
			t.Errorf("set %d (%s): max %v, want 240", i, p.TC, p.MaxPoints)
		}
	}
	if p := x.Stages[0].Match.Parts[2]; p.TC != "0.75+0" || p.Win != 15*arbiter.Point || p.Draw != arbiter.P(7.5) {
		t.Errorf("0.75+0 set: %+v", p)
	}
}

func TestExplainAntichess(t *testing.T) {
	f := mustPreset(t, "antichess-team-cup")
	for _, c := range []struct {
		n                                  int
		runs                               bool
		team, weeks, rounds, ko, koRounds  any
		max, thr, koMax, koThr, fMax, fThr int
	}{
		{9, false, 3, 9, 7, 4, 2, 432, 217, 576, 289, 720, 361},        // A9: < 10 teams -> no event; 3 boards
		{10, true, 4, 9, 7, 4, 2, 576, 289, 768, 385, 960, 481},        // A9, A10, A18, A22
		{15, true, 4, 9, 7, 4, 2, 576, 289, 768, 385, 960, 481},        // A22: 10-15 -> 9 weeks
		{16, true, 4, 11, 8, 8, 3, 576, 289, 768, 385, 960, 481},       // A10: 16-31 -> top 8
		{31, true, 4, 11, 8, 8, 3, 576, 289, 768, 385, 960, 481},       //
		{32, true, 4, 13, 9, 16, 4, 576, 289, 768, 385, 960, 481},      // A10: 32-63 -> top 16
		{63, true, 4, 13, 9, 16, 4, 576, 289, 768, 385, 960, 481},      //
		{64, true, 4, 15, nil, nil, nil, 576, 289, 768, 385, 960, 481}, // A10: > 63 -> candidates stage by the TDs
	} {
		x, err := f.Explain(c.n)
		if err != nil {
			t.Fatal(err)
		}
		sw, ko := x.Stages[0], x.Stages[1]
		got := []any{x.Runs, ip(x.TeamSize), ip(x.Weeks), ip(sw.Rounds), ip(sw.Advance), ip(ko.Rounds)}
		want := []any{c.runs, c.team, c.weeks, c.rounds, c.ko, c.koRounds}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("n=%d: [runs team weeks rounds ko koRounds] = %v, want %v", c.n, got, want)
				break
			}
		}
		pts := []arbiter.Points{sw.Match.MaxPoints, sw.Match.WinThreshold, ko.Match.MaxPoints, ko.Match.WinThreshold, ko.Final.MaxPoints, ko.Final.WinThreshold, ko.ThirdMatch.MaxPoints}
		wantPts := []int{c.max, c.thr, c.koMax, c.koThr, c.fMax, c.fThr, c.fMax}
		if c.n >= 10 {
			for i := range pts {
				if pts[i] != arbiter.Points(wantPts[i])*arbiter.Point {
					t.Errorf("n=%d: points %v, want %v", c.n, pts, wantPts)
					break
				}
			}
		}
		if c.n == 64 && (len(sw.Notes) == 0 || len(ko.Notes) == 0 || x.Runs != true) {
			t.Errorf("n=64: the candidates stage must be explained: %+v", x)
		}
		if !c.runs && x.Reason == "" {
			t.Errorf("n=%d: no reason", c.n)
		}
	}
	// 3-board teams (A9 below 10 teams): 3 x 3 parts x 48 = 432, threshold 217.
	m := &f.Stages[0].Match
	if m.MaxPoints(3) != 432*arbiter.Point {
		t.Errorf("3 boards: %v", m.MaxPoints(3))
	}
	if thr, _ := m.WinThreshold(3); thr != 217*arbiter.Point {
		t.Errorf("3 boards threshold: %v", thr)
	}
}

func TestExplainACWC(t *testing.T) {
	f := mustPreset(t, "acwc-2023")
	for _, c := range []struct{ n, rounds int }{{12, 5}, {31, 6}, {32, 7}, {63, 7}, {64, 8}, {127, 8}, {128, 9}} { // W5
		x, _ := f.Explain(c.n)
		if !x.Runs || ip(x.Stages[0].Rounds) != c.rounds || ip(x.Stages[0].Advance) != 12 {
			t.Errorf("n=%d: %+v", c.n, x.Stages[0])
		}
		cand := x.Stages[1]
		if ip(cand.Entrants) != 12 || ip(cand.Rounds) != 10 || ip(cand.Advance) != 4 { // W8: two pools of 6, double RR = 10 rounds
			t.Errorf("candidates: %+v", cand)
		}
		ko := x.Stages[2]
		if ip(ko.Entrants) != 4 || ip(ko.Rounds) != 2 || !ko.ThirdPlace || ko.Seeding != "cross_pool" {
			t.Errorf("knockout: %+v", ko)
		}
		if ko.Match.MaxPoints != 10*arbiter.Point || ko.Final.MaxPoints != 12*arbiter.Point || ko.Final.WinThreshold != arbiter.P(6.5) {
			t.Errorf("knockout matches: %+v %+v", ko.Match, ko.Final)
		}
		if x.TeamSize != nil || x.Weeks != nil {
			t.Error("individual event: no team size, no weeks")
		}
	}
	x, _ := f.Explain(40)
	if m := x.Stages[0].Match; m.MaxPoints != 10*arbiter.Point || m.WinThreshold != arbiter.P(5.5) || m.PlayAllGames { // W4
		t.Errorf("swiss match: %+v", m)
	}
	if !x.Stages[1].Match.PlayAllGames { // W8
		t.Error("candidates play all 10 games")
	}
	if x, _ := f.Explain(11); x.Runs {
		t.Error("11 players cannot send 12 to the candidates")
	}
}

func TestCountResolve(t *testing.T) {
	f := mustPreset(t, "antichess-team-cup")
	adv := f.Stages[0].Advance
	for _, c := range []struct {
		n, v int
		ok   bool
	}{{10, 4, true}, {15, 4, true}, {16, 8, true}, {31, 8, true}, {32, 16, true}, {63, 16, true}, {64, 0, false}, {500, 0, false}} { // A10
		v, note, ok := adv.Resolve(c.n)
		if v != c.v || ok != c.ok || (!ok && !strings.Contains(note, "candidates")) {
			t.Errorf("A10 advance(%d) = %d %v %q", c.n, v, ok, note)
		}
	}
	one, three := 1, 3
	gap := Count{Steps: []Step{{Max: &one, Value: &one}, {Min: &three, Value: &three}}}
	if err := gap.validate("c", 1); err == nil || !strings.Contains(err.Error(), "c.steps[1].min") {
		t.Errorf("gap between bands: %v", err)
	}
	open := Count{Steps: []Step{{Value: &one}, {Min: &three, Value: &three}}}
	if err := open.validate("c", 1); err == nil || !strings.Contains(err.Error(), "c.steps") {
		t.Errorf("unbounded first band: %v", err)
	}
	noNote := Count{Steps: []Step{{Max: &one, Value: &one}, {Min: new(2)}}}
	if err := noNote.validate("c", 1); err == nil || !strings.Contains(err.Error(), "c.steps[1].value") {
		t.Errorf("band without value or note: %v", err)
	}
	if v, _, ok := (&Count{Log2: &Log2{Mul: 2, Add: 3}}).Resolve(16); !ok || v != 11 { // A22: 16-31 teams, 11 weeks
		t.Errorf("weeks(16) = %d", v)
	}
}

// R1 gives 5 Swiss rounds to 8 teams or fewer; 4 teams have all met after
// 3 rounds (5 teams, odd, after 5 with a bye each), so only 4 teams get a
// note that 2 rounds would be rematches. 6 teams meet in exactly 5 rounds.
func TestExplainSwissRoundsBeyondRematches(t *testing.T) {
	f := mustPreset(t, "rkcc-team-three-tc")
	for _, c := range []struct {
		n    int
		note string
	}{{4, "4 entrants have all met after 3 rounds; the other 2 need rematches"}, {5, ""}, {6, ""}, {8, ""}} {
		x, err := f.Explain(c.n)
		if err != nil || !x.Runs {
			t.Fatalf("n=%d: %v %+v", c.n, err, x)
		}
		got := strings.Join(x.Stages[0].Notes, "\n")
		if c.note == "" && strings.Contains(got, "rematches") || c.note != "" && !strings.Contains(got, c.note) {
			t.Errorf("n=%d: notes %q, want %q", c.n, got, c.note)
		}
	}
}
