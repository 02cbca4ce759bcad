package resultsfile

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/standings"

	"github.com/google/go-cmp/cmp"
)

func TestResultsFileDefaults(t *testing.T) {
	const doc = `{
  "entrants": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}],
  "rounds": [[
    {"a": "a", "b": "b", "white": "b"},
    {"a": "c", "b": "d", "decision": "forfeit_win"},
    {"a": "e", "decision": "pairing_bye"}
  ], [
    {"a": "a", "b": "c", "decision": "double_forfeit"},
    {"a": "b", "b": "d", "decision": "full_draw"},
    {"a": "e", "decision": "half_bye"}
  ]]
}`
	rf, err := Read(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	// Played without scores needs match points: error.
	if _, err := rf.Inputs(Defaults{}, nil); err == nil || !strings.Contains(err.Error(), "rounds[0][0].match_points") {
		t.Fatalf("want a match_points error, got %v", err)
	}
	rf.Rounds[0][0].MatchPoints = []arbiter.Points{0, arbiter.Point}
	d := Defaults{Scoring: standings.Scoring{Win: 2 * arbiter.Point, Draw: arbiter.Point}, DoubleForfeitDraw: true, SingleGame: true}
	pools, err := rf.Inputs(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != 1 || pools[0].Name != "" {
		t.Fatalf("pools %+v", pools)
	}
	P := arbiter.Point
	want := [][]standings.Result{{
		{A: standings.Side{ID: "a", Colour: standings.Black}, B: standings.Side{ID: "b", MatchPoints: P, Secondary: P, Colour: standings.White}},
		{A: standings.Side{ID: "c", MatchPoints: 2 * P, Secondary: 2 * P}, B: standings.Side{ID: "d"}, Decision: standings.ForfeitWin},
		{A: standings.Side{ID: "e", MatchPoints: 2 * P, Secondary: 2 * P}, Decision: standings.PairingBye},
	}, {
		{A: standings.Side{ID: "a", MatchPoints: P, Secondary: P}, B: standings.Side{ID: "c", MatchPoints: P, Secondary: P}, Decision: standings.DoubleForfeit},
		{A: standings.Side{ID: "b", MatchPoints: P, Secondary: P}, B: standings.Side{ID: "d", MatchPoints: P, Secondary: P}, Decision: standings.FullDraw},
		{A: standings.Side{ID: "e", MatchPoints: P, Secondary: P}, Decision: standings.HalfBye},
	}}
	if diff := cmp.Diff(want, pools[0].Input.Rounds); diff != "" {
		t.Errorf("rounds (-want +got):\n%s", diff)
	}
}

func TestResultsFileDerivesMatchPoints(t *testing.T) {
	rf := &File{
		Entrants: []Entrant{{ID: "x"}, {ID: "y"}},
		Rounds: [][]Result{{
			{A: "x", B: "y", Secondary: []arbiter.Points{300, 420}, SetsWon: []int{2, 1}},
		}},
	}
	sets, err := rf.Inputs(Defaults{DecideBySets: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := sets[0].Input.Rounds[0][0]; got.A.MatchPoints != arbiter.Point || got.B.MatchPoints != 0 {
		t.Errorf("by sets (R11): %+v, want x wins", got)
	}
	pts, err := rf.Inputs(Defaults{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := pts[0].Input.Rounds[0][0]; got.A.MatchPoints != 0 || got.B.MatchPoints != arbiter.Point {
		t.Errorf("by secondary: %+v, want y wins", got)
	}
}

func TestResultsFileErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"entrants": [{"id": "a"}], "rounds": [[{"a": "a", "b": "a", "match_points": [1, 0]}]]}`, ""},
		{`{"entrants": [{"id": "a"}, {"id": "a"}], "rounds": []}`, "entrants[1].id"},
		{`{"entrants": [{"id": "a"}, {"id": "b"}], "rounds": [[{"a": "a", "b": "b", "match_points": [1]}]]}`, "rounds[0][0].match_points"},
		{`{"entrants": [{"id": "a"}, {"id": "b"}], "rounds": [[{"a": "a", "b": "b", "decision": "half_bye"}]]}`, "rounds[0][0].b"},
		{`{"entrants": [{"id": "a"}, {"id": "b"}], "rounds": [[{"a": "a", "b": "b", "match_points": [1, 0], "white": "x"}]]}`, "rounds[0][0].white"},
		{`{"entrants": [{"id": "a", "pool": "p"}, {"id": "b", "pool": "q"}], "rounds": [[{"a": "a", "b": "b", "match_points": [1, 0]}]]}`, "different pools"},
		{`{"entrants": [{"id": "a"}, {"id": "b"}], "rounds": [[{"a": "a", "b": "b", "sheet": {}}]]}`, "rounds[0][0].sheet"},
	} {
		rf, err := Read(strings.NewReader(c.doc))
		if err == nil {
			var pools []Pool
			pools, err = rf.Inputs(Defaults{}, nil)
			if err == nil && c.want == "" {
				// a self-pairing is caught by standings.Compute
				_, err = standings.Compute(pools[0].Input, nil, standings.Options{})
				c.want = "paired with itself"
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("%s: error %v, want EINVALID mentioning %q", c.doc, err, c.want)
		}
	}
}
