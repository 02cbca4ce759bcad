package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestDemoCommand(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	code, out, errOut := runCLI(t, "", "demo", "rkcc-team-three-tc", "--entrants", "8", "--seed", "3", "--db", db)
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	// RKCC with 8 teams: 5 Swiss rounds of 4 matches, semifinals and final (R2).
	for _, want := range []string{"Event demo-rkcc-team-three-tc-3 (rkcc-team-three-tc, 8 entrants): finished",
		"Stage swiss (swiss): 5 of 5 rounds closed", "Stage knockout (knockout): 2 of 2 rounds closed",
		"match_points", "set_points", "Bracket", "s2r2b1", "[final]", "Winner: ", "Matches 23 (byes 0, not played over the board 1)",
		"unplayed at a deadline 1 (double forfeits 1, held for the TDs 0)", "appeals 1", "Database: sqlite " + db, "arbiter event standings demo-rkcc-team-three-tc-3 --db " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(errOut, "\r[") || !strings.HasSuffix(errOut, "] 23/23 matches\n") ||
		!strings.Contains(errOut, "[##############################] 23/23 matches") {
		t.Errorf("progress bar: %q", errOut)
	}
	// The database is an ordinary one: the event commands read it.
	code, st, errOut := runCLI(t, "", "event", "standings", "demo-rkcc-team-three-tc-3", "--db", db)
	if code != 0 || st == "" {
		t.Fatalf("event standings: code %d, %s", code, errOut)
	}
	// The final ranking: the final decides 1st and 2nd; R2 names no
	// third-place match, so the semifinal losers are 3rd and 4th by their
	// Swiss place; the other four teams follow the Swiss standings.
	code, rk, errOut := runCLI(t, "", "event", "ranking", "demo-rkcc-team-three-tc-3", "--db", db, "--json")
	var ranking []struct {
		Rank      int    `json:"rank"`
		Entrant   string `json:"entrant"`
		DecidedBy string `json:"decided_by"`
	}
	if code != 0 || json.Unmarshal([]byte(rk), &ranking) != nil || len(ranking) != 8 {
		t.Fatalf("event ranking: code %d, %s%s", code, rk, errOut)
	}
	winner := regexp.MustCompile(`Winner: (\S+)`).FindStringSubmatch(out)
	for i, p := range ranking {
		want := "standings"
		switch {
		case i < 2:
			want = "final"
		case i < 4:
			want = "knockout_round"
		}
		if p.Rank != i+1 || (p.DecidedBy != want && p.DecidedBy != "removed") {
			t.Errorf("place %d: %+v, want rank %d decided by %s", i+1, p, i+1, want)
		}
	}
	if winner == nil || winner[1] != ranking[0].Entrant {
		t.Errorf("the demo's winner %v, the ranking's first %s", winner, ranking[0].Entrant)
	}
	code, text, _ := runCLI(t, "", "event", "ranking", "demo-rkcc-team-three-tc-3", "--db", db)
	if code != 0 || !strings.HasPrefix(text, "RANK  ENTRANT") || !strings.Contains(text, "won the final") || !strings.Contains(text, "lost in the semifinals") {
		t.Errorf("event ranking:\n%s", text)
	}

	// Same seed, another database: the same event.
	code, again, _ := runCLI(t, "", "demo", "rkcc-team-three-tc", "--entrants", "8", "--seed", "3", "--db", testDB(t))
	strip := func(s string) string { return s[:strings.Index(s, "\nDatabase:")] }
	if code != 0 || strip(again) != strip(out) {
		t.Errorf("same seed, different output:\n%s\n---\n%s", out, again)
	}
}

func TestDemoCommandDefaultsAndJSON(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the default database goes to a new temporary directory
	code, out, errOut := runCLI(t, "", "demo", "acwc-2023", "--entrants", "13", "--stop-after", "s1r2", "--json")
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	var got struct {
		DB      string `json:"db"`
		Summary struct {
			Slug    string `json:"slug"`
			Status  string `json:"status"`
			Stopped string `json:"stopped"`
			Stages  []struct {
				Played int `json:"rounds_closed"`
			} `json:"stages"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !regexp.MustCompile(`^sqlite .*/arbiter-demo-[0-9]+/arbiter\.db$`).MatchString(got.DB) || got.Summary.Slug != "demo-acwc-2023-1" ||
		got.Summary.Status != "running" || got.Summary.Stopped != "s1r2" || got.Summary.Stages[0].Played != 2 {
		t.Fatalf("summary %+v", got)
	}
}

func TestDemoCommandErrors(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"demo"}, 2, "want one preset"},
		{[]string{"demo", "acwc-2023"}, 2, "--entrants N is required"},
		{[]string{"demo", "acwc-2023", "--entrants", "x"}, 2, "invalid value"},
		{[]string{"demo", "nope", "--entrants", "8", "--db", db}, 1, `no preset "nope"`},
		{[]string{"demo", "antichess-team-cup", "--entrants", "6", "--db", db}, 3, "entrants"},
		{[]string{"demo", "acwc-2023", "--entrants", "13", "--stop-after", "s7r1", "--db", db}, 3, "stop_after"},
	} {
		code, _, errOut := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if code, _, _ := runCLI(t, "", "demo", "--help"); code != 0 {
		t.Errorf("--help: code %d", code)
	}
}
