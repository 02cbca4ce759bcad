package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The 4-player table (C.05 Annex 1): 1-4 2-3; 4-3 1-2; 2-4 3-1.
func TestRoundRobinCLIText(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "roundrobin", "4")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	want := []string{
		"Round 1 (cycle 1, table round 1)\n  board 1: 1 - 4\n  board 2: 2 - 3\n",
		"Round 2 (cycle 1, table round 2)\n  board 1: 4 - 3\n  board 2: 1 - 2\n",
		"Round 3 (cycle 1, table round 3)\n  board 1: 2 - 4\n  board 2: 3 - 1\n",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "Round 4") || strings.Contains(out, "bye") {
		t.Errorf("single 4-player round robin has 3 rounds and no byes:\n%s", out)
	}
}

// 3 players use the 4-table: whoever meets 4 has the bye; --double plays
// table rounds 1, 3, 2 then 1, 2, 3 reversed.
func TestRoundRobinCLIDoubleJSON(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "roundrobin", "--double", "3", "--json")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	var got roundRobinJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Entrants != 3 || got.Cycles != 2 || !got.Swapped || len(got.Rounds) != 6 {
		t.Fatalf("%+v", got)
	}
	var table, byes []int
	for _, r := range got.Rounds {
		table = append(table, r.TableRound)
		byes = append(byes, r.Bye)
	}
	if !equalInts(table, []int{1, 3, 2, 1, 2, 3}) || !equalInts(byes, []int{1, 2, 3, 1, 3, 2}) {
		t.Errorf("table rounds %v byes %v", table, byes)
	}
	// Round 4 = table round 1 (2-3) with colours reversed.
	if p := got.Rounds[3].Pairs; len(p) != 1 || p[0].White != 3 || p[0].Black != 2 {
		t.Errorf("round 4 %+v, want 3-2", p)
	}
}

func TestRoundRobinCLIErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"roundrobin"}, 2, "number of entrants"},
		{[]string{"roundrobin", "four"}, 2, "must be an integer"},
		{[]string{"roundrobin", "1"}, 3, "2 to 1000 entrants"},
		{[]string{"roundrobin", "6", "--cycles", "0", "--double"}, 0, ""},
		{[]string{"roundrobin", "6", "--cycles", "3", "--double"}, 2, "conflicts"},
		{[]string{"roundrobin", "6", "--cycles", "-1"}, 3, "cycles"},
		{[]string{"roundrobin", "6", "--bogus"}, 2, "flag provided but not defined"},
	} {
		code, _, errs := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: code %d stderr %q, want %d %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
	if code, _, _ := runCLI(t, "", "roundrobin", "--help"); code != 0 {
		t.Errorf("--help exits %d", code)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
