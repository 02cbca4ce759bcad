package standings

import (
	"strings"
	"testing"

	"arbiter"
)

// m builds a played match: ids, match points, secondary scores, sets won.
func m(a, b string, mpA, mpB, secA, secB float64, setsA, setsB int) Result {
	return Result{
		A: Side{ID: a, MatchPoints: arbiter.P(mpA), Secondary: arbiter.P(secA), SetsWon: setsA},
		B: Side{ID: b, MatchPoints: arbiter.P(mpB), Secondary: arbiter.P(secB), SetsWon: setsB},
	}
}

func entrants(ids ...string) []Entrant {
	var es []Entrant
	for i, id := range ids {
		es = append(es, Entrant{ID: id, Seed: i + 1})
	}
	return es
}

func mustCompute(t *testing.T, in Input, opts Options, ids ...string) Table {
	t.Helper()
	tbs, err := ParseTiebreaks(ids)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := Compute(in, tbs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func rowOf(tbl Table, id string) Row {
	for _, r := range tbl.Rows {
		if r.ID == id {
			return r
		}
	}
	return Row{}
}

// RKCC R12/R13: match points 1/½/0, then set points, match wins, set wins,
// head-to-head. Values derived by hand from the three rounds below.
func TestRKCCTiebreaks(t *testing.T) {
	in := Input{
		Entrants: entrants("A", "B", "C", "D"),
		Scoring:  Scoring{Win: arbiter.Point, Draw: arbiter.Point / 2, SecondaryWin: 720 * arbiter.Point, SecondaryDraw: 360 * arbiter.Point},
		Rounds: [][]Result{
			{m("A", "B", 1, 0, 400, 320, 2, 1), m("C", "D", .5, .5, 360, 360, 1, 1)},
			{m("A", "C", 0, 1, 340, 380, 1, 2), m("B", "D", 1, 0, 370, 350, 2, 1)},
			{m("A", "D", 1, 0, 500, 220, 3, 0), m("B", "C", 1, 0, 361, 359, 2, 1)},
		},
	}
	tbl := mustCompute(t, in, Options{}, "match_points", "set_points", "match_wins", "set_wins", "head_to_head")
	want := map[string][]float64{ // score, MP, SP, MW, SW, H2H (within the group where applied)
		"A": {2, 2, 1240, 2, 6, 0},
		"B": {2, 2, 1051, 2, 5, 0},
		"C": {1.5, 1.5, 1099, 1, 4, 0},
		"D": {0.5, 0.5, 930, 0, 2, 0},
	}
	if got := strings.Join(ids(tbl), ","); got != "A,B,C,D" {
		t.Errorf("order %s, want A,B,C,D (A and B split by set points)", got)
	}
	for id, w := range want {
		r := rowOf(tbl, id)
		if r.Score != arbiter.P(w[0]) {
			t.Errorf("%s score %v, want %v", id, r.Score, w[0])
		}
		for k, v := range r.Values {
			if v != arbiter.P(w[k+1]) {
				t.Errorf("%s %s = %v, want %v", id, tbl.Tiebreaks[k], v, w[k+1])
			}
		}
	}
}

// Head-to-head among three or more (C.07 Art. 6 semantics): the mini table
// decides when everyone met; a circular result leaves the tie; a forfeit
// counts for the rulebook head-to-head but not for FIDE DE (6.1.1).
func TestHeadToHeadGroups(t *testing.T) {
	// X beat Y and Z, Y-Z drew; W is alone below.
	in := Input{Entrants: entrants("X", "Y", "Z", "W"), Rounds: [][]Result{
		{m("X", "Y", 1, 0, 1, 0, 0, 0), m("Z", "W", 1, 0, 1, 0, 0, 0)},
		{m("X", "Z", 1, 0, 1, 0, 0, 0), m("Y", "W", 1, 0, 1, 0, 0, 0)},
		{m("Y", "Z", .5, .5, .5, .5, 0, 0), m("W", "X", 1, 0, 1, 0, 0, 0)},
	}}
	// X 2, Y 1.5, Z 1.5, W 1: only Y-Z tie; h2h draw -> shared.
	tbl := mustCompute(t, in, Options{}, "head_to_head")
	if r, s := rowOf(tbl, "Y"), rowOf(tbl, "Z"); r.Rank != 2 || s.Rank != 2 || !r.Shared {
		t.Errorf("Y/Z ranks %d %d shared %v, want both 2 shared", r.Rank, s.Rank, r.Shared)
	}

	// Circular: X>Y, Y>Z, Z>X, all 1 point: nobody separated.
	circ := Input{Entrants: entrants("X", "Y", "Z"), Rounds: [][]Result{
		{m("X", "Y", 1, 0, 1, 0, 0, 0), {A: Side{ID: "Z", MatchPoints: 0}, Decision: ZeroBye}},
		{m("Y", "Z", 1, 0, 1, 0, 0, 0), {A: Side{ID: "X", MatchPoints: 0}, Decision: ZeroBye}},
		{m("Z", "X", 1, 0, 1, 0, 0, 0), {A: Side{ID: "Y", MatchPoints: 0}, Decision: ZeroBye}},
	}}
	tbl = mustCompute(t, circ, Options{}, "head_to_head")
	for _, r := range tbl.Rows {
		if r.Rank != 1 || !r.Shared || r.Values[0] != arbiter.Point {
			t.Errorf("circular: %s rank %d shared %v h2h %v, want 1, shared, 1", r.ID, r.Rank, r.Shared, r.Values[0])
		}
	}
	// The fallback lists shared entrants by seed.
	if got := strings.Join(ids(tbl), ","); got != "X,Y,Z" {
		t.Errorf("shared order %s, want seeds X,Y,Z", got)
	}

	// A forfeit win: counts for head_to_head, not for direct_encounter.
	ff := Input{Entrants: entrants("P", "Q"), Rounds: [][]Result{
		{{A: Side{ID: "P", MatchPoints: arbiter.Point}, B: Side{ID: "Q"}, Decision: ForfeitWin}},
		{m("Q", "P", 1, 0, 1, 0, 0, 0)},
	}}
	if tbl := mustCompute(t, ff, Options{}, "head_to_head"); rowOf(tbl, "P").Rank != 1 || rowOf(tbl, "Q").Rank != 1 {
		t.Errorf("head_to_head with a forfeit: P and Q each scored 1 against the other, want shared 1st: %+v", tbl.Rows)
	}
	if tbl := mustCompute(t, ff, Options{}, "direct_encounter"); rowOf(tbl, "Q").Rank != 1 || rowOf(tbl, "P").Rank != 2 {
		t.Errorf("DE excludes the forfeit, Q won the only game: %+v", tbl.Rows)
	}
}

// Antichess A21: points difference, points scored, median-Buchholz.
func TestAntichessTiebreaks(t *testing.T) {
	in := Input{
		Entrants: entrants("P", "Q", "R", "S"),
		Scoring:  Scoring{Win: 2 * arbiter.Point, Draw: arbiter.Point},
		Rounds: [][]Result{
			{m("P", "Q", 2, 0, 10, 6, 0, 0), {A: Side{ID: "R", MatchPoints: arbiter.Point}, B: Side{ID: "S", MatchPoints: arbiter.Point}, Decision: FullDraw}},
			{m("P", "R", 0, 2, 7, 9, 0, 0), m("Q", "S", 2, 0, 9, 7, 0, 0)},
		},
	}
	tbl := mustCompute(t, in, Options{}, "points_difference", "points_scored", "median_buchholz")
	// MP: R 3, P 2, Q 2, S 1. P: +4 −2 = 2, Q: −4 +2 = −2. R: 0−0 + 9−7 = 2; S: −2.
	want := map[string][2]float64{"P": {2, 17}, "Q": {-2, 15}, "R": {2, 9}, "S": {-2, 7}}
	for id, w := range want {
		r := rowOf(tbl, id)
		if r.Values[0] != arbiter.P(w[0]) || r.Values[1] != arbiter.P(w[1]) {
			t.Errorf("%s diff/scored %v, want %v", id, r.Values[:2], w)
		}
	}
	if got := strings.Join(ids(tbl), ","); got != "R,P,Q,S" {
		t.Errorf("order %s, want R,P,Q,S", got)
	}
}

// ACWC W9 (candidates, double round robin): mutual match score, mutual
// game score, overall game score, previous final, qualification.
func TestACWCCandidates(t *testing.T) {
	// A, B, C beat D twice each and are circular among themselves (A>B,
	// B>C, C>A, each match 6-4): 4 MP each, mutual MP 2 each, mutual GP 20
	// each. Against D: A 6-4 twice (12), B 7-3 twice (14), C 6-4 twice (12).
	// Overall GP: B 34, A 32, C 32. A and C split by the previous final.
	in := Input{Entrants: entrants("A", "B", "C", "D"), Scoring: Scoring{Win: arbiter.Point, Draw: arbiter.Point / 2, SecondaryWin: 10 * arbiter.Point, SecondaryDraw: 5 * arbiter.Point}}
	in.Entrants[0].Values = map[string]arbiter.Points{"previous_final": 2 * arbiter.Point}
	in.Entrants[2].Values = map[string]arbiter.Points{"Previous_Final": 3 * arbiter.Point} // keys match in any case
	add := func(a, b string, ga, gb float64) {
		mpA, mpB := 0.5, 0.5
		if ga > gb {
			mpA, mpB = 1, 0
		} else if gb > ga {
			mpA, mpB = 0, 1
		}
		in.Rounds = append(in.Rounds, []Result{m(a, b, mpA, mpB, ga, gb, 0, 0)})
	}
	for range 2 {
		add("A", "B", 6, 4)
		add("B", "C", 6, 4)
		add("C", "A", 6, 4)
		add("A", "D", 6, 4)
		add("B", "D", 7, 3)
		add("C", "D", 6, 4)
	}
	tbl := mustCompute(t, in, Options{RoundRobin: true}, "mutual_match_score", "mutual_game_score", "overall_game_score", "td_value:previous_final", "td_value:qualification")
	if got := strings.Join(ids(tbl), ","); got != "B,C,A,D" {
		t.Errorf("order %s, want B,C,A,D", got)
	}
	for _, id := range []string{"A", "B", "C"} {
		r := rowOf(tbl, id)
		if r.Score != 4*arbiter.Point || r.Values[0] != 2*arbiter.Point || r.Values[1] != 20*arbiter.Point {
			t.Errorf("%s: score %v mutual MP %v mutual GP %v, want 4, 2, 20", id, r.Score, r.Values[0], r.Values[1])
		}
	}
	if r := rowOf(tbl, "B"); r.Values[2] != 34*arbiter.Point {
		t.Errorf("B overall game score %v, want 34", r.Values[2])
	}
	for _, r := range tbl.Rows {
		if r.Shared {
			t.Errorf("%s shared, want every tie broken", r.ID)
		}
	}
}

// ACWC W7 (Swiss): cumulative, match wins against tied opponents, median-Buchholz.
func TestACWCSwissWinsVsTied(t *testing.T) {
	// After 3 rounds E, F, G have 2 MP. E beat F, F beat G, E lost to H,
	// G beat E? no: G did not meet E. Wins against tied: E 1 (F), F 1 (G),
	// G 0 -> G last of the three; E and F stay tied on this tiebreak.
	in := Input{Entrants: entrants("E", "F", "G", "H"), Rounds: [][]Result{
		{m("E", "F", 1, 0, 6, 4, 0, 0), m("G", "H", 1, 0, 6, 4, 0, 0)},
		{m("F", "G", 1, 0, 6, 4, 0, 0), m("H", "E", 1, 0, 6, 4, 0, 0)},
		{m("E", "H", 1, 0, 6, 4, 0, 0), m("G", "F", 0, 1, 4, 6, 0, 0)},
	}}
	// Scores: E 2, F 2, G 1, H 1. Make G 2 as well with a fourth round.
	in.Rounds = append(in.Rounds, []Result{m("G", "H", 1, 0, 6, 4, 0, 0), m("E", "F", 0, 1, 4, 6, 0, 0)})
	// Now E 2, F 3, G 2, H 1. Tied E and G: E did not beat G, G did not beat E -> both 0.
	tbl := mustCompute(t, in, Options{}, "wins_vs_tied", "cumulative")
	e, g := rowOf(tbl, "E"), rowOf(tbl, "G")
	if e.Values[0] != 0 || g.Values[0] != 0 {
		t.Errorf("wins vs tied E %v G %v, want 0 0", e.Values[0], g.Values[0])
	}
	// Cumulative: E 1,1,2,2 -> 6; G 1,1,1,2 -> 5.
	if e.Values[1] != 6*arbiter.Point || g.Values[1] != 5*arbiter.Point || e.Rank != 2 || g.Rank != 3 {
		t.Errorf("cumulative E %v (rank %d) G %v (rank %d), want 6 (2) and 5 (3)", e.Values[1], e.Rank, g.Values[1], g.Rank)
	}

	// Three tied where wins_vs_tied decides: J beat K and L, K beat L.
	in2 := Input{Entrants: entrants("J", "K", "L"), Rounds: [][]Result{
		{m("J", "K", 1, 0, 6, 4, 0, 0), {A: Side{ID: "L", MatchPoints: arbiter.Point}, Decision: PairingBye}},
		{m("K", "L", 1, 0, 6, 4, 0, 0), {A: Side{ID: "J"}, Decision: ZeroBye}},
		{m("L", "J", 0, 1, 4, 6, 0, 0), {A: Side{ID: "K", MatchPoints: arbiter.Point}, Decision: PairingBye}},
	}}
	// J 2, K 2, L 1: J beat K -> J 1 win vs tied, K 0.
	tbl = mustCompute(t, in2, Options{}, "wins_vs_tied")
	if got := strings.Join(ids(tbl), ","); got != "J,K,L" {
		t.Errorf("order %s, want J,K,L", got)
	}
}

func TestMedianBuchholzIsBHM1(t *testing.T) {
	in := genSwiss(newRand(3), 30, 7)
	a := mustCompute(t, in, Options{}, "median_buchholz")
	b := mustCompute(t, in, Options{}, "BH/M1")
	for k := range a.Rows {
		if a.Rows[k].Values[0] != b.Rows[k].Values[0] || a.Rows[k].ID != b.Rows[k].ID {
			t.Fatalf("row %d: median_buchholz %v vs BH/M1 %v", k, a.Rows[k], b.Rows[k])
		}
	}
}

func TestComputeErrors(t *testing.T) {
	base := func() Input {
		return Input{Entrants: entrants("A", "B"), Rounds: [][]Result{{m("A", "B", 1, 0, 1, 0, 0, 0)}}}
	}
	cases := []struct {
		name  string
		edit  func(*Input)
		opts  Options
		field string
	}{
		{"unknown id", func(in *Input) { in.Rounds[0][0].B.ID = "Z" }, Options{}, "rounds[0][0].b.id"},
		{"duplicate entrant", func(in *Input) { in.Entrants[1].ID = "A" }, Options{}, "entrants[1].id"},
		{"twice in a round", func(in *Input) {
			in.Rounds[0] = append(in.Rounds[0], Result{A: Side{ID: "A"}, Decision: ZeroBye})
		}, Options{}, "rounds[0][1].a"},
		{"bad decision", func(in *Input) { in.Rounds[0][0].Decision = "maybe" }, Options{}, "rounds[0][0].decision"},
		{"bye with two sides", func(in *Input) { in.Rounds[0][0].Decision = HalfBye }, Options{}, "rounds[0][0].b.id"},
		{"played alone", func(in *Input) { in.Rounds[0][0].B = Side{} }, Options{}, "rounds[0][0].b.id"},
		{"bad edition", func(*Input) {}, Options{Edition: "2019"}, "edition"},
	}
	for _, c := range cases {
		in := base()
		c.edit(&in)
		_, err := Compute(in, nil, c.opts)
		e, ok := err.(*arbiter.Error)
		if !ok || e.Code != arbiter.EINVALID || e.Field != c.field || e.Rule == "" {
			t.Errorf("%s: error %#v, want EINVALID at %s with a rule", c.name, err, c.field)
		}
	}
}
