package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventCLICloseDue: close-due closes the published round of every event
// once its deadline (Monday 2023-03-27 23:59 UTC, W13) has passed, once.
func TestEventCLICloseDue(t *testing.T) {
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
	step(0, "publish", "cup")
	if out := step(0, "close-due", "--now", "2023-03-27T23:59Z"); out != "" {
		t.Fatalf("before the deadline: %q", out)
	}
	if out := step(0, "close-due", "--now", "2023-03-28T00:00Z"); out != "cup: round s1r1 closed; appeals until Tuesday 2023-03-28 23:59 UTC\n" {
		t.Fatalf("at the deadline: %q", out)
	}
	if out := step(0, "close-due", "--now", "2023-03-28T00:01Z", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("second run: %q", out)
	}
	out := step(0, "matches", "cup", "s1r1", "--now", "2023-03-28T00:01Z")
	if strings.Count(out, "double_forfeit") != 4 {
		t.Fatalf("want 4 double forfeits:\n%s", out)
	}
	out = step(0, "audit", "cup", "--now", "2023-03-28T00:01Z")
	if !strings.Contains(out, "scheduler (system)  round.close") {
		t.Fatalf("audit lacks the scheduler's close:\n%s", out)
	}
}
