package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFormatCLIList(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "", "format", "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, p := range []string{"rkcc-team-three-tc", "antichess-team-cup", "acwc-2023"} {
		if !strings.Contains(out, p) {
			t.Errorf("list lacks %s:\n%s", p, out)
		}
	}
}

// show prints a file that show loads back and prints identically.
func TestFormatCLIShowRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"rkcc-team-three-tc", "antichess-team-cup", "acwc-2023"} {
		code, out, errs := runCLI(t, "", "format", "show", p)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", p, code, errs)
		}
		path := filepath.Join(dir, p+".json")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		code, again, errs := runCLI(t, "", "format", "show", path)
		if code != 0 || again != out {
			t.Errorf("%s: reloading show output: exit %d %s", p, code, errs)
		}
	}
}

func TestFormatCLIExplain(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "format", "explain", "acwc-2023", "--entrants", "40", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var x struct {
		Runs     bool `json:"runs"`
		TeamSize *int `json:"team_size"`
		Weeks    *int `json:"weeks"`
		Stages   []struct {
			Name    string `json:"name"`
			Kind    string `json:"kind"`
			Rounds  *int   `json:"rounds"`
			Advance *int   `json:"advance"`
			Match   struct {
				Parts []struct {
					TC     string   `json:"tc"`
					Games  int      `json:"games"`
					Win    float64  `json:"win"`
					Draw   float64  `json:"draw"`
					Factor *float64 `json:"factor"`
				} `json:"parts"`
				MaxPoints    float64 `json:"max_points"`
				WinThreshold float64 `json:"win_threshold"`
			} `json:"match"`
		} `json:"stages"`
	}
	if err := json.Unmarshal([]byte(out), &x); err != nil {
		t.Fatal(err)
	}
	// W5: floor(log2 40) + 2 = 7 rounds; W6: top 12; W4: 10 games, 5.5 decides.
	s := x.Stages[0]
	if !x.Runs || x.TeamSize != nil || x.Weeks != nil || s.Name != "qualification" || *s.Rounds != 7 || *s.Advance != 12 ||
		s.Match.MaxPoints != 10 || s.Match.WinThreshold != 5.5 || s.Match.Parts[0].TC != "1+2" || s.Match.Parts[0].Games != 10 || s.Match.Parts[0].Factor != nil {
		t.Errorf("explain: %s", out)
	}
	code, out, _ = runCLI(t, "", "format", "explain", "antichess-team-cup", "--entrants", "70")
	if code != 0 || !strings.Contains(out, "candidates stage") || !strings.Contains(out, "Duration: 15 weeks") {
		t.Errorf("explain 70 teams (A10 candidates): exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "format", "explain", "antichess-team-cup", "--entrants", "8")
	if code != 0 || !strings.Contains(out, "Runs: no: needs at least 10 entrants") {
		t.Errorf("explain 8 teams: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "format", "explain", "rkcc-team-three-tc", "--entrants", "11")
	if code != 0 || !strings.Contains(out, "rounds: 7; top 4 advance") || !strings.Contains(out, "game score x 15 = 240") ||
		!strings.Contains(out, "rounds open Monday 00:00 UTC; deadline Sunday 23:59 UTC") { // R4
		t.Errorf("explain rkcc 11 teams: exit %d\n%s", code, out)
	}
}

func TestFormatCLIErrors(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	code, out, _ := runCLI(t, "", "format", "show", "acwc-2023")
	os.WriteFile(bad, []byte(strings.Replace(out, `"tc": "1+2"`, `"tc": "1+two"`, 1)), 0o644)
	code, _, errs := runCLI(t, "", "format", "show", bad)
	if code != 3 || !strings.Contains(errs, "stages[0].match.parts[0].tc") || !strings.Contains(errs, "rule format.tc") {
		t.Errorf("bad tc: exit %d %s", code, errs)
	}
	code, _, errs = runCLI(t, "", "format", "explain", "no-such-format", "--entrants", "5")
	if code != 3 || !strings.Contains(errs, `no preset "no-such-format"`) {
		t.Errorf("unknown format: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "", "format", "explain", "acwc-2023"); code != 2 {
		t.Errorf("missing --entrants: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "", "format", "frob"); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
	for _, args := range [][]string{{"format", "--help"}, {"format", "list", "--help"}, {"format", "show", "--help"}, {"format", "explain", "--help"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out+errs, "Usage: arbiter format") {
			t.Errorf("%v: exit %d %q %q", args, code, out, errs)
		}
	}
}

// W13: the ACWC breaks are shown on the candidates and knockout stages, not
// as one calendar-wide setting; the JSON carries them per stage.
func TestFormatCLIExplainBreaks(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "format", "explain", "acwc-2023", "--entrants", "40")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "between stages") || strings.Count(out, "Starts after a break of 1 week") != 2 ||
		!strings.Contains(out, "Stage 2: candidates (pool, berger pairing)\n  Starts after a break of 1 week") ||
		!strings.Contains(out, "Stage 3: knockout (knockout, bracket pairing)\n  Starts after a break of 1 week") {
		t.Errorf("breaks:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "format", "explain", "acwc-2023", "--entrants", "40", "--json")
	var x struct {
		Stages []struct {
			Break *int `json:"break_weeks_before"`
		} `json:"stages"`
	}
	if err := json.Unmarshal([]byte(out), &x); code != 0 || err != nil || len(x.Stages) != 3 {
		t.Fatalf("exit %d: %v", code, err)
	}
	for i, want := range []int{0, 1, 1} {
		if x.Stages[i].Break == nil || *x.Stages[i].Break != want {
			t.Errorf("stage %d: break %v, want %d", i, x.Stages[i].Break, want)
		}
	}
	if _, out, _ := runCLI(t, "", "format", "explain", "rkcc-team-three-tc", "--entrants", "8"); strings.Contains(out, "Starts after a break") {
		t.Errorf("RKCC has no breaks:\n%s", out)
	}
}

// TestFormatCLIExplainAppeals: RKCC states R5's fixed window, the
// antichess cup and the ACWC leave appeals to the TDs.
func TestFormatCLIExplainAppeals(t *testing.T) {
	t.Parallel()
	for preset, want := range map[string]string{
		"rkcc-team-three-tc": "appeals within 24 h",
		"antichess-team-cup": "appeals to the TDs until the next round is published",
		"acwc-2023":          "appeals to the TDs until the next round is published",
	} {
		code, out, errs := runCLI(t, "", "format", "explain", preset, "--entrants", "16")
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d %s; output lacks %q:\n%s", preset, code, errs, want, out)
		}
	}
}
