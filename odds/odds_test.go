package odds

import (
	"math"
	"reflect"
	"testing"

	"arbiter"
)

// The same seed gives the same answer whatever the number of workers; a
// different seed gives another sample.
func TestReproducible(t *testing.T) {
	t.Parallel()
	in := newEvent(t, "acwc-2023", 20)
	playTo(t, in, 0, 3, 8)
	var first *Result
	for _, w := range []int{1, 2, 3, 7} {
		res, err := Run(in, Options{Sims: 150, Seed: 42, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if !reflect.DeepEqual(first, res) {
			t.Fatalf("%d workers give another answer than 1", w)
		}
	}
	other, err := Run(in, Options{Sims: 150, Seed: 43})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(first.Entrants, other.Entrants) {
		t.Errorf("seeds 42 and 43 give the same answer")
	}
	if first.Sims != 150 || first.Seed != 42 {
		t.Errorf("sims %d seed %d", first.Sims, first.Seed)
	}
}

// What-if: the chances after a win in the next match are the chances when
// that win is fixed by hand, within the simulation's error; fixing a
// result shows in the answer.
func TestWhatIfMatchesFixedResult(t *testing.T) {
	t.Parallel()
	in := newEvent(t, "acwc-2023", 24)
	playTo(t, in, 0, 4, 21)
	// Publish round 5 without results: its matches are open.
	p, err := prepare(in, Options{Sims: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.before(); err != nil {
		t.Fatal(err)
	}
	for _, m := range p.predicted {
		in.Matches = append(in.Matches, m)
	}
	const sims = 2500
	base, err := Run(in, Options{Sims: sims, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The entrant whose chance is the most open.
	var pick *Odds
	for i := range base.Entrants {
		e := &base.Entrants[i]
		if e.Next != nil && e.Next.Match != "" && (pick == nil || math.Abs(e.Qualify-0.5) < math.Abs(pick.Qualify-0.5)) {
			pick = e
		}
	}
	if pick == nil {
		t.Fatal("nobody has an open match")
	}
	var win *IfResult
	for i := range pick.Next.If {
		if pick.Next.If[i].Result == Win {
			win = &pick.Next.If[i]
		}
	}
	if win == nil || win.Runs < 200 {
		t.Fatalf("%s: no win among the runs: %+v", pick.Entrant, pick.Next)
	}
	var m arbiter.Match
	for _, x := range p.predicted {
		if x.ID == pick.Next.Match {
			m = x
		}
	}
	res := HomeWins
	if m.Away == pick.Entrant {
		res = AwayWins
	}
	in.Fixed = []Fixed{{Match: m.ID, Result: res}}
	fixed, err := Run(in, Options{Sims: sims, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got Odds
	for _, e := range fixed.Entrants {
		if e.Entrant == pick.Entrant {
			got = e
		}
	}
	sigma := math.Sqrt(win.Qualify*(1-win.Qualify)/float64(win.Runs)) + math.Sqrt(got.Qualify*(1-got.Qualify)/sims)
	t.Logf("%s: %.3f; after a win %.3f (%d runs); with the win fixed %.3f", pick.Entrant, pick.Qualify, win.Qualify, win.Runs, got.Qualify)
	if math.Abs(got.Qualify-win.Qualify) > 4*sigma+2.0/float64(win.Runs) {
		t.Errorf("after a win %.3f, with the win fixed %.3f", win.Qualify, got.Qualify)
	}
	if len(fixed.Fixed) != 1 || got.Next == nil || len(got.Next.If) != 1 || got.Next.If[0].Result != Win || got.Next.If[0].Chance != 1 {
		t.Errorf("fixed %+v, next %+v", fixed.Fixed, got.Next)
	}
	checkSums(t, fixed)
}

// Results fixed by hand are checked: a match of the round being played,
// or two entrants; a knockout match has a winner.
func TestFixedChecked(t *testing.T) {
	t.Parallel()
	in := newEvent(t, "acwc-2023", 16)
	playTo(t, in, 0, 2, 1)
	for _, fx := range []Fixed{
		{Match: "s1r1b1", Result: HomeWins}, // final already
		{Match: "nope", Result: HomeWins},
		{Home: "e01", Away: "zz", Result: HomeWins},
		{Home: "e01", Away: "e01", Result: HomeWins},
		{Home: "e01", Away: "e02", Result: "maybe"},
	} {
		in.Fixed = []Fixed{fx}
		if _, err := Run(in, Options{Sims: 10}); arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("%+v: %v, want EINVALID", fx, err)
		}
	}
	in.Fixed = []Fixed{{Home: "e01", Away: "e02", Result: AwayWins}}
	if _, err := Run(in, Options{Sims: 10}); err != nil {
		t.Errorf("a fixed pair: %v", err)
	}
	ko := newEvent(t, "acwc-2023", 16)
	playTo(t, ko, 2, 0, 1)
	ko.Fixed = []Fixed{{Home: ko.Event.Stages[2].Seeds[0], Away: ko.Event.Stages[2].Seeds[3], Result: Drawn}}
	if _, err := Run(ko, Options{Sims: 10}); arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("a drawn knockout match: %v, want EINVALID", err)
	}
	if _, err := Run(in, Options{Sims: -1}); arbiter.ErrorCode(err) != arbiter.EINVALID {
		t.Errorf("negative sims: %v", err)
	}
}

// A fixed pair decides their match whenever they meet in the stage: the
// winner scores the win in every run where they are paired.
func TestFixedPairApplies(t *testing.T) {
	t.Parallel()
	in := newEvent(t, "acwc-2023", 12)
	playTo(t, in, 1, 0, 6)
	pool := in.Event.Stages[1].Pools[0].Seeds
	a, b := pool[0], pool[1] // they meet twice in the double round robin
	in.Fixed = []Fixed{{Home: b, Away: a, Result: HomeWins}}
	p, err := prepare(in, Options{Sims: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.before(); err != nil {
		t.Fatal(err)
	}
	r := newRun(p)
	for i := range 20 {
		if err := r.simulate(newRNG(uint64(i))); err != nil {
			t.Fatal(err)
		}
		met := 0
		for _, rd := range r.rounds[1] {
			for _, m := range rd {
				switch {
				case m.Home == b && m.Away == a:
					met++
					if m.Result.Result != "home_win" {
						t.Fatalf("run %d: %s v %s is %s", i, b, a, m.Result.Result)
					}
				case m.Home == a && m.Away == b:
					met++
					if m.Result.Result != "away_win" {
						t.Fatalf("run %d: %s v %s is %s", i, a, b, m.Result.Result)
					}
				}
			}
		}
		if met != 2 {
			t.Fatalf("run %d: %s and %s met %d times", i, a, b, met)
		}
	}
}

// The default number of runs shrinks with the work left: the Dutch
// pairings of a large field cost most.
func TestSuggestedSims(t *testing.T) {
	t.Parallel()
	small := newEvent(t, "acwc-2023", 40)
	playTo(t, small, 0, 4, 1)
	large := newEvent(t, "acwc-2023", 200)
	playTo(t, large, 0, 1, 1)
	s, l := SuggestedSims(small), SuggestedSims(large)
	if s < 500 || s > DefaultSims || l != 100 {
		t.Errorf("suggested runs: 40 players %d, 200 players %d", s, l)
	}
	if a := AffordableSims(large); a != DefaultSims {
		t.Errorf("affordable runs for 200 players: %d", a)
	}
	if a := AffordableSims(small); a < 10*s {
		t.Errorf("affordable runs for 40 players: %d (suggested %d)", a, s)
	}
}
