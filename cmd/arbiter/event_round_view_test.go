package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventCLIRoundMatches: "event matches SLUG ROUND" prints the round
// as its page shows it to --as (app.RoundView): while the TDs review the
// pairings, a player gets a notice and no pairings, the TD gets them; once
// published, everyone does. A round neither in the calendar nor paired is
// not found.
func TestEventCLIRoundMatches(t *testing.T) {
	t.Parallel()
	fmtFile, run := eventCLI(t)
	step := func(wantCode int, args ...string) string {
		t.Helper()
		stdout, _ := run(wantCode, args...)
		return stdout
	}
	step(0, "create", "cup", "--format", fmtFile, "--start", "2023-03-21T10:00Z", "--now", "2023-03-12")
	for i := 1; i <= 8; i++ {
		step(0, "register", "cup", fmt.Sprintf("p%d", i), "--rating", fmt.Sprint(2500-10*i))
		step(0, "approve", "cup", fmt.Sprintf("p%d", i))
	}
	step(0, "close-registration", "cup", "--now", "2023-03-12")
	step(0, "pair", "cup")
	if out := step(0, "matches", "cup", "s1r1", "--as", "p1", "--role", "player"); out != "round s1r1 is under the TDs' review: its pairings are shown once published\n" {
		t.Errorf("a player during the review: %q", out)
	}
	if out := step(0, "matches", "cup", "s1r1", "--as", "p1", "--role", "player", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("a player during the review, JSON: %q", out)
	}
	if out := step(0, "matches", "cup", "s1r1"); strings.Count(out, "scheduled") != 4 {
		t.Errorf("the TD during the review: want 4 scheduled matches:\n%s", out)
	}
	step(0, "publish", "cup")
	if out := step(0, "matches", "cup", "s1r1", "--as", "p1", "--role", "player"); strings.Count(out, "scheduled") != 4 {
		t.Errorf("a player once published: want 4 scheduled matches:\n%s", out)
	}
	if _, errOut := run(1, "matches", "cup", "s9r9"); !strings.Contains(errOut, `no round "s9r9"`) {
		t.Errorf("an unknown round: %q", errOut)
	}
}
