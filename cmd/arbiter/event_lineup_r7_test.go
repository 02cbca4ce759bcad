package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventLineupR7CLI: 'event lineup' shows a team's set lineup to its
// own captain and members and to the TDs at any time, and to anyone else
// (the opponent's captain included) only from the round's start, its
// deadline (R7). The event starts Monday 2025-01-06 00:00 UTC, round 1's
// start; team-1's captain submits its lineup on the Sunday before.
func TestEventLineupR7CLI(t *testing.T) {
	t.Parallel()
	db := testDB(t)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(append([]string{"event"}, args...), "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, stdout, stderr)
		}
		return stdout + stderr
	}
	cli(0, "create", "rk", "--preset", "rkcc-team-three-tc", "--start", "2025-01-06T00:00Z", "--now", "2025-01-01T10:00Z")
	for i := 1; i <= 8; i++ {
		cli(0, "register", "rk", "--team", fmt.Sprintf("Team %d", i), "--captain", fmt.Sprintf("cap%d", i),
			"--members", fmt.Sprintf("cap%d,a%d,b%d", i, i, i), "--rating", fmt.Sprint(2000-i), "--now", "2025-01-01T11:00Z")
		cli(0, "approve", "rk", fmt.Sprintf("team-%d", i), "--now", "2025-01-01T11:00Z")
	}
	cli(0, "close-registration", "rk", "--initial-colour", "white", "--reason", "rehearsal", "--now", "2025-01-04T23:00Z")
	before := "2025-01-05T12:00Z"
	cli(0, "lineup", "rk", "team-1", "--round", "1", "--sets", "a1,b1,cap1", "--as", "cap1", "--role", "captain", "--now", before)

	const shown = "team-1 round 1: a1, b1, cap1 (submitted for round 1)"
	for _, as := range []string{"cap1", "a1", "td@local"} { // the captain, a member, the TD
		if out := cli(0, "lineup", "rk", "team-1", "--round", "1", "--as", as, "--role", "captain", "--now", before); !strings.Contains(out, shown) {
			t.Errorf("as %s before the start: %q, want %q", as, out, shown)
		}
	}
	for _, as := range []string{"cap5", "b5", "stranger"} { // another team's captain and member, anyone
		out := cli(1, "lineup", "rk", "team-1", "--round", "1", "--as", as, "--role", "captain", "--now", before)
		if strings.Contains(out, "a1, b1") || !strings.Contains(out, "R7") || !strings.Contains(out, "Monday 2025-01-06 00:00 UTC") {
			t.Errorf("as %s before the start: %q, want a refusal naming R7 and the start", as, out)
		}
	}
	// From the start on, the lineup is public.
	if out := cli(0, "lineup", "rk", "team-1", "--round", "1", "--as", "cap5", "--role", "captain", "--now", "2025-01-06T00:00Z"); !strings.Contains(out, shown) {
		t.Errorf("as cap5 at the start: %q, want %q", out, shown)
	}
}
