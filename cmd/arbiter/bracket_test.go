package main

import (
	"encoding/json"
	"strings"
	"testing"

	"arbiter/pairing/knockout"
)

// 5 entrants on 8 lines: byes to 1, 2, 3; 4 v 5 is the only first-round match.
func TestBracketCLIText(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "bracket", "5", "--third-place", "--winner", "R1-M2=5")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	for _, w := range []string{
		"Knockout: 5 entrants, 8-line bracket, 3 byes, third place: yes",
		"Quarterfinals (round 1)",
		"R1-M1                1 v bye  -> 1 advances without play",
		"R1-M2                4 v 5  -> winner 5",
		"Semifinals (round 2)",
		"R2-M1                1 v 5\n",
		"R2-M2                2 v 3\n",
		"R3-M1                (winner of R2-M1) v (winner of R2-M2)",
		"R3-3P (third place)  (loser of R2-M1) v (loser of R2-M2)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestBracketCLIJSONPlayed(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "bracket", "4", "--json",
		"--winner", "R1-M1=4", "--winner", "R1-M2=2", "--winner", "R2-M1=2", "--third-place", "--winner", "R2-3P=1")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errs)
	}
	var b knockout.Bracket
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	f, tp := b.Match("R2-M1"), b.Match("R2-3P")
	if f == nil || tp == nil || f.HomeSeed != 4 || f.AwaySeed != 2 || f.Winner != 2 || tp.HomeSeed != 1 || tp.AwaySeed != 3 || tp.Winner != 1 {
		t.Errorf("final %+v third place %+v", f, tp)
	}
	if code, out, _ := runCLI(t, "", "bracket", "4", "--winner", "R1-M1=1", "--winner", "R1-M2=3", "--winner", "R2-M1=3"); code != 0 || !strings.Contains(out, "Champion: 3") {
		t.Errorf("code %d:\n%s", code, out)
	}
}

func TestBracketCLIErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bracket"}, 2, "number of entrants"},
		{[]string{"bracket", "x"}, 2, "must be an integer"},
		{[]string{"bracket", "1"}, 3, "2 to 4096 entrants"},
		{[]string{"bracket", "3", "--third-place"}, 3, "at least 4 entrants"},
		{[]string{"bracket", "4", "--winner", "R1-M1"}, 2, "MATCH=SEED"},
		{[]string{"bracket", "4", "--winner", "R1-M1=2"}, 3, "does not play in R1-M1"},
		{[]string{"bracket", "4", "--winner", "R7-M1=2"}, 1, "no match"},
	} {
		code, _, errs := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: code %d stderr %q, want %d %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}
