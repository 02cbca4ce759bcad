package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeStandingsFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Three RKCC rounds; values by hand: set points A 400+340+500 = 1240,
// B 320+370+361 = 1051; A and B both 2 MP, split by set points (R12).
const rkccResults = `{
  "stage": "swiss",
  "entrants": [
    {"id": "A", "name": "Alpha", "seed": 1}, {"id": "B", "name": "Bravo", "seed": 2},
    {"id": "C", "name": "Charlie", "seed": 3}, {"id": "D", "name": "Delta", "seed": 4}
  ],
  "rounds": [
    [{"a": "A", "b": "B", "secondary": [400, 320], "sets_won": [2, 1]},
     {"a": "C", "b": "D", "secondary": [360, 360], "sets_won": [1, 1], "match_points": [0.5, 0.5]}],
    [{"a": "A", "b": "C", "secondary": [340, 380], "sets_won": [1, 2]},
     {"a": "B", "b": "D", "secondary": [370, 350], "sets_won": [2, 1]}],
    [{"a": "A", "b": "D", "secondary": [500, 220], "sets_won": [3, 0]},
     {"a": "B", "b": "C", "secondary": [361, 359], "sets_won": [2, 1]}]
  ]
}`

func TestStandingsRKCCText(t *testing.T) {
	t.Parallel()
	p := writeStandingsFile(t, rkccResults)
	code, out, errs := runCLI(t, "", "standings", "rkcc-team-three-tc", p)
	if code != 0 {
		t.Fatalf("code %d stderr %s", code, errs)
	}
	for _, want := range []string{"match_points", "set_points", "match_wins", "set_wins", "head_to_head"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks column %s:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-4:]
	for k, id := range []string{"A", "B", "C", "D"} {
		if f := strings.Fields(last[k]); len(f) < 3 || f[1] != id {
			t.Errorf("row %d = %q, want entrant %s", k+1, last[k], id)
		}
	}
	if !strings.Contains(last[0], "1240") || !strings.Contains(last[1], "1051") {
		t.Errorf("set points missing:\n%s", out)
	}
}

func TestStandingsJSONFromStdin(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, rkccResults, "standings", "rkcc-team-three-tc", "-", "--stage", "swiss", "--json")
	if code != 0 {
		t.Fatalf("code %d stderr %s", code, errs)
	}
	var got struct {
		Stage     string   `json:"stage"`
		Tiebreaks []string `json:"tiebreaks"`
		Tables    []struct {
			Rows []struct {
				Rank   int       `json:"rank"`
				ID     string    `json:"id"`
				Score  float64   `json:"score"`
				Values []float64 `json:"values"`
			} `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, out)
	}
	if got.Stage != "swiss" || len(got.Tiebreaks) != 5 || got.Tiebreaks[1] != "set_points" {
		t.Errorf("header %+v", got)
	}
	r := got.Tables[0].Rows
	if r[0].ID != "A" || r[0].Score != 2 || r[0].Values[1] != 1240 || r[3].ID != "D" || r[3].Values[3] != 2 {
		t.Errorf("rows %+v", r)
	}
}

// ACWC candidates: two pools ranked separately with W9's tiebreaks; the
// --tiebreaks flag replaces the list.
func TestStandingsPoolsAndTiebreakFlag(t *testing.T) {
	t.Parallel()
	body := `{
  "entrants": [
    {"id": "a", "pool": "upper"}, {"id": "b", "pool": "upper"},
    {"id": "c", "pool": "lower"}, {"id": "d", "pool": "lower"}
  ],
  "rounds": [
    [{"a": "a", "b": "b", "secondary": [6, 4]}, {"a": "c", "b": "d", "secondary": [5, 5]}],
    [{"a": "b", "b": "a", "secondary": [5.5, 4.5]}, {"a": "d", "b": "c", "secondary": [4, 6]}]
  ]
}`
	p := writeStandingsFile(t, body)
	code, out, errs := runCLI(t, "", "standings", "acwc-2023", "--stage", "candidates", p, "--json")
	if code != 0 {
		t.Fatalf("code %d stderr %s", code, errs)
	}
	var got struct {
		Tables []struct {
			Pool string `json:"pool"`
			Rows []struct {
				ID     string    `json:"id"`
				Rank   int       `json:"rank"`
				Shared bool      `json:"shared"`
				Values []float64 `json:"values"`
			} `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tables) != 2 || got.Tables[0].Pool != "upper" || got.Tables[1].Pool != "lower" {
		t.Fatalf("pools %+v", got.Tables)
	}
	// upper: 1 MP each, mutual 1 each, mutual games a 10.5 b 9.5 -> a first.
	up := got.Tables[0].Rows
	if up[0].ID != "a" || up[0].Rank != 1 || up[1].Rank != 2 || up[0].Values[1] != 10.5 {
		t.Errorf("upper pool %+v", up)
	}
	// lower: c 1.5 (draw + win), d 0.5.
	if lo := got.Tables[1].Rows; lo[0].ID != "c" {
		t.Errorf("lower pool %+v", lo)
	}

	code, out, errs = runCLI(t, "", "standings", "acwc-2023", "--stage", "candidates", p, "--tiebreaks", "overall_game_score")
	if code != 0 || !strings.Contains(out, "overall_game_score") || strings.Contains(out, "mutual_match_score") {
		t.Errorf("--tiebreaks: code %d out %s err %s", code, out, errs)
	}
}

func TestStandingsErrors(t *testing.T) {
	t.Parallel()
	good := writeStandingsFile(t, rkccResults)
	cases := []struct {
		name string
		args []string
		body string
		code int
		want []string
	}{
		{"unknown stage", []string{"rkcc-team-three-tc", good, "--stage", "nope"}, "", 3, []string{"--stage", "no stage \"nope\""}},
		{"bad tiebreak flag", []string{"rkcc-team-three-tc", good, "--tiebreaks", "bh,zzz"}, "", 3, []string{"--tiebreaks", "zzz", "rule tiebreak-id"}},
		{"bad edition", []string{"rkcc-team-three-tc", good, "--edition", "1999"}, "", 3, []string{"--edition", "1999"}},
		{"unknown format", []string{"no-such-preset", good}, "", 3, []string{"no-such-preset", "rule format.preset"}},
		{"missing args", []string{"rkcc-team-three-tc"}, "", 2, []string{"want a format"}},
		{"unknown field", []string{"rkcc-team-three-tc", "-"}, `{"entrants": [{"id": "A", "colour": 1}], "rounds": []}`, 3, []string{"entrants[0].colour", "unknown field"}},
		{"unknown entrant", []string{"rkcc-team-three-tc", "-"}, `{"entrants": [{"id": "A"}], "rounds": [[{"a": "A", "b": "Z", "match_points": [1, 0]}]]}`, 3, []string{"rounds[0][0].b", "unknown entrant \"Z\""}},
		{"bad decision", []string{"rkcc-team-three-tc", "-"}, `{"entrants": [{"id": "A"}, {"id": "B"}], "rounds": [[{"a": "A", "b": "B", "decision": "won"}]]}`, 3, []string{"rounds[0][0].decision", "rule results.decision"}},
		{"no scores", []string{"rkcc-team-three-tc", "-"}, `{"entrants": [{"id": "A"}, {"id": "B"}], "rounds": [[{"a": "A", "b": "B"}]]}`, 3, []string{"rounds[0][0].match_points", "rule results.match_points"}},
		{"bad edition in file", []string{"rkcc-team-three-tc", "-"}, `{"edition": "2019", "entrants": [{"id": "A"}], "rounds": []}`, 3, []string{"edition: unknown C.07 edition \"2019\""}},
		{"bad json", []string{"rkcc-team-three-tc", "-"}, `{"entrants": [`, 3, []string{"invalid JSON"}},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.body, append([]string{"standings"}, c.args...)...)
		if code != c.code {
			t.Errorf("%s: code %d, want %d (stderr %s)", c.name, code, c.code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, errs, w)
			}
		}
	}
}

func TestStandingsHelp(t *testing.T) {
	t.Parallel()
	code, _, errs := runCLI(t, "", "standings", "--help")
	if code != 0 || !strings.Contains(errs, "--stage") || !strings.Contains(errs, "RESULTS_FILE") {
		t.Errorf("code %d help %s", code, errs)
	}
}

// A result given as a match sheet is scored with package score: the R10
// example (4-2 x 40, 5-5 x 24, 8.5-7.5 x 15 = 407.5 to 312.5, sets 2-0)
// gives Rooks 1 MP and 407.5 set points.
func TestStandingsWithMatchSheet(t *testing.T) {
	t.Parallel()
	body := `{
  "entrants": [{"id": "Rooks"}, {"id": "Knights"}, {"id": "Bishops"}, {"id": "Pawns"}],
  "rounds": [[
    {"sheet": {"home": "Rooks", "away": "Knights", "sets": [
      {"tc": "3+2", "results": "1 1 1 1 0 0"},
      {"tc": "1.5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
      {"tc": "0.75+0", "results": "1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 ="}]}},
    {"a": "Bishops", "b": "Pawns", "decision": "double_forfeit"}
  ]]
}`
	p := writeStandingsFile(t, body)
	code, out, errs := runCLI(t, "", "standings", "rkcc-team-three-tc", p, "--json")
	if code != 0 {
		t.Fatalf("code %d stderr %s", code, errs)
	}
	var got struct {
		Tables []struct {
			Rows []struct {
				ID     string    `json:"id"`
				Score  float64   `json:"score"`
				Values []float64 `json:"values"`
			} `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	r := got.Tables[0].Rows[0]
	if r.ID != "Rooks" || r.Score != 1 || r.Values[1] != 407.5 || r.Values[3] != 2 {
		t.Errorf("first row %+v, want Rooks 1 MP, 407.5 set points, 2 sets won", r)
	}
	// A bad sheet names its path inside the results file.
	bad := strings.Replace(body, `"tc": "3+2"`, `"tc": "3+2", "oops": 1`, 1)
	code, _, errs = runCLI(t, bad, "standings", "rkcc-team-three-tc", "-")
	if code != 3 || !strings.Contains(errs, "rounds[0][0].sheet.sets[0].oops") {
		t.Errorf("bad sheet: code %d stderr %s", code, errs)
	}
}
