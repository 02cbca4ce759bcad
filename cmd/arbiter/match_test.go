package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rkccSheet = `{"home": "Rooks", "away": "Knights", "sets": [
  {"tc": "3+2", "home_player": "A", "away_player": "X", "results": "1 1 1 1 0 0"},
  {"tc": "1,5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
  {"tc": "¾+0", "results": "1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 ="}]}`

func TestMatchCLIScoreText(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, rkccSheet, "match", "score", "rkcc-team-three-tc", "--stage", "swiss", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// R10: 4-2 x 40, 5-5 x 24, 8.5-7.5 x 15; R11 sets 2-0.
	for _, want := range []string{"3+2    160-80", "1.5+1  120-120", "0.75+0 127.5-112.5", "Sets: 2-0; set points 407.5-312.5 (max 720)", "Winner: Rooks (by sets)", "Decided early: no", "Rooks match points 1, secondary 407.5"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestMatchCLIScoreJSONFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sheet.json")
	os.WriteFile(path, []byte(`{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 = 0 1 1 1"}]}`), 0o644)
	code, out, errs := runCLI(t, "", "match", "score", "acwc-2023", path, "--stage", "qualification", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ms struct {
		HomePoints   float64 `json:"home_points"`
		Result       string  `json:"result"`
		DecidedEarly bool    `json:"decided_early"`
		DecidedAt    string  `json:"decided_at"`
		Standings    struct {
			A struct {
				MatchPoints float64 `json:"match_points"`
			} `json:"a"`
		} `json:"standings"`
	}
	if err := json.Unmarshal([]byte(out), &ms); err != nil {
		t.Fatal(err)
	}
	// W4: 5.5 after 7 games ends the match.
	if ms.HomePoints != 5.5 || ms.Result != "home_win" || !ms.DecidedEarly || ms.DecidedAt != "parts[0].results[6]" || ms.Standings.A.MatchPoints != 1 {
		t.Errorf("%s", out)
	}
}

func TestMatchCLIErrors(t *testing.T) {
	t.Parallel()
	code, _, errs := runCLI(t, `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 = 0 1 1 1 ="}]}`, "match", "score", "acwc-2023", "--stage", "qualification", "-")
	if code != 3 || !strings.Contains(errs, "parts[0].results[7]") || !strings.Contains(errs, "score.after_decided") {
		t.Errorf("game after the early end: exit %d %s", code, errs)
	}
	code, _, errs = runCLI(t, `{"home": "a", "away": "b", "boards": [{"board": 1}]}`, "match", "score", "antichess-team-cup", "--stage", "swiss", "-")
	if code != 3 || !strings.Contains(errs, "boards: want 3 or 4 boards") {
		t.Errorf("board count: exit %d %s", code, errs)
	}
	code, _, errs = runCLI(t, `{"home": "a", "away": "b", "forfeit": "home"}`, "match", "score", "acwc-2023", "--stage", "finals", "-")
	if code != 3 || !strings.Contains(errs, "no stage") {
		t.Errorf("unknown stage: exit %d %s", code, errs)
	}
	code, _, errs = runCLI(t, `{"home": "a",`, "match", "score", "acwc-2023", "--stage", "qualification", "-")
	if code != 3 || !strings.Contains(errs, "sheet.syntax") {
		t.Errorf("bad JSON: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "", "match", "score", "acwc-2023", "-"); code != 2 {
		t.Errorf("missing --stage: exit %d, want 2", code)
	}
	for _, args := range [][]string{{"match", "--help"}, {"match", "score", "--help"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out+errs, "Usage: arbiter match") {
			t.Errorf("%v: exit %d %q %q", args, code, out, errs)
		}
	}
}
