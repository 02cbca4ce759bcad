package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// `event odds` on a demo ACWC stopped after Swiss round 4: the JSON lists
// every entrant with its chance to qualify, adding up to the 12 places;
// the same seed gives the same figures; a result fixed by hand is taken;
// bad flags are refused.
func TestEventOdds(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	code, _, errOut := runCLI(t, "", "demo", "acwc-2023", "--entrants", "16", "--seed", "2", "--db", db, "--stop-after", "s1r4")
	if code != 0 {
		t.Fatalf("demo: %d %s", code, errOut)
	}
	slug := "demo-acwc-2023-2"
	run := func(want int, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, "", append([]string{"event", "odds", slug, "--db", db}, args...)...)
		if code != want {
			t.Fatalf("event odds %v: exit %d (want %d)\n%s%s", args, code, want, out, errOut)
		}
		return out + errOut
	}
	out := run(0, "--sims", "200", "--seed", "5", "--json")
	var list []struct {
		Entrant string             `json:"entrant"`
		Qualify float64            `json:"qualify"`
		Band    string             `json:"band"`
		Bands   map[string]float64 `json:"bands"`
		Sims    int                `json:"sims"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not a JSON list: %v\n%s", err, out)
	}
	sum := 0.0
	for _, e := range list {
		if e.Entrant == "" || e.Qualify < 0 || e.Qualify > 1 || e.Band != "candidates" || e.Sims != 200 {
			t.Errorf("entry %+v", e)
		}
		sum += e.Qualify
	}
	if len(list) != 16 || math.Abs(sum-12) > 1e-9 {
		t.Errorf("%d entrants, chances add up to %v (want 16, 12)", len(list), sum)
	}
	if again := run(0, "--sims", "200", "--seed", "5", "--json"); again != out {
		t.Errorf("same seed, other figures")
	}
	a, b := list[0].Entrant, list[1].Entrant
	text := run(0, "--sims", "100", "--fix", a+":"+b+"="+b)
	for _, want := range []string{"100 runs, seed 1", "TOP 12 (CANDIDATES)", "TITLE", "EXP. PLACE", "Fixed by hand: " + a + " v " + b + " = away"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	run(3, "--sims", "10", "--fix", "s1r1b1=home") // final already
	run(3, "--sims", "10", "--fix", "nonsense")
	run(3, "--seed", "x")
	run(3, "--sims", "-3")
}
