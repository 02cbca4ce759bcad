package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventCLIPairingEdits: a TD reviews round 1 of eight players (1-5,
// 6-2, 3-7, 8-4 with White for the top seed), swaps p5 and p6 (p1-p6 and
// p5-p2: with no history 5.2.5 gives the higher ranked White on an even
// rank, Black on an odd one), enters a ninth player late and corrects a
// rating; every step is audited with its reason.
func TestEventCLIPairingEdits(t *testing.T) {
	t.Parallel()
	fmtFile, run := eventCLI(t)
	step := func(wantCode int, args ...string) string {
		t.Helper()
		stdout, stderr := run(wantCode, args...)
		return stdout + stderr
	}
	step(0, "create", "cup", "--format", fmtFile, "--start", "2023-03-21T10:00Z", "--now", "2023-03-12")
	for i := 1; i <= 8; i++ {
		step(0, "register", "cup", fmt.Sprintf("p%d", i), "--rating", fmt.Sprint(2500-10*i))
		step(0, "approve", "cup", fmt.Sprintf("p%d", i))
	}
	step(0, "close-registration", "cup", "--initial-colour", "white", "--reason", "coin tossed", "--now", "2023-03-12")
	step(0, "pair", "cup")
	out := step(0, "review-pairings", "cup")
	for _, want := range []string{"round s1r1 of qualification (paired, not published", "s1r1b1  p1    1     2490", "bye"} {
		if want == "bye" {
			if strings.Contains(out, "(bye)") {
				t.Fatalf("eight players have no bye:\n%s", out)
			}
			continue
		}
		if !strings.Contains(out, want) {
			t.Fatalf("review lacks %q:\n%s", want, out)
		}
	}
	step(2, "edit-pairing", "cup", "--reason", "x")
	step(2, "edit-pairing", "cup", "--swap", "p5,p6", "--bye", "p1", "--reason", "x")
	if out := step(3, "edit-pairing", "cup", "--swap", "p5,p6"); !strings.Contains(out, "needs a reason") {
		t.Fatalf("no reason: %s", out)
	}
	if out := step(0, "edit-pairing", "cup", "--swap", "p5,p6", "--preview"); !strings.Contains(out, "preview (nothing changed)") {
		t.Fatalf("preview: %s", out)
	}
	out = step(0, "edit-pairing", "cup", "--swap", "p5,p6", "--reason", "p5 and p2 asked to play on Sunday")
	for _, want := range []string{"s1r1e1: swapped p5, p6", "no pairing criterion broken", "s1r1b1  p1    p6", "s1r1b2  p5    p2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("edit-pairing lacks %q:\n%s", want, out)
		}
	}
	// p1 and p3 declared a forbidden pair: swapping p6 (p1's opponent)
	// and p3 would pair them, an absolute criterion (C1).
	step(0, "forbid", "cup", "p1", "p3", "--reason", "same club")
	if out := step(1, "edit-pairing", "cup", "--swap", "p6,p3", "--reason", "x"); !strings.Contains(out, "p1 and p3 must not meet (a forbidden pairing) (C1)") ||
		!strings.Contains(out, "(--confirm) (rule C.04.3 C1)") {
		t.Fatalf("a forbidden pair: %s", out)
	}
	if out := step(0, "edit-pairing", "cup", "--swap", "p6,p3", "--reason", "the TDs agreed", "--confirm"); !strings.Contains(out, "absolute: p1 and p3 must not meet") {
		t.Fatalf("confirmed: %s", out)
	}
	if out := step(1, "edit-pairing", "cup", "--bye", "p1", "--reason", "x"); !strings.Contains(out, "has no bye") {
		t.Fatalf("bye without a bye: %s", out)
	}
	if out := step(0, "review-pairings", "cup"); !strings.Contains(out, "edit s1r1e1 by td@local: swap p5, p6 — p5 and p2 asked to play on Sunday") {
		t.Fatalf("review lacks the edit:\n%s", out)
	}
	if out := step(0, "audit", "cup"); !strings.Contains(out, "p5 and p2 asked to play on Sunday") {
		t.Fatalf("audit lacks the reason:\n%s", out)
	}

	out = step(0, "late-entry", "cup", "p9", "--rating", "2475", "--reason", "entered by the TDs")
	if !strings.Contains(out, "entered p9 late, approved, seed 3") {
		t.Fatalf("late entry: %s", out)
	}
	if out := step(1, "late-entry", "cup", "p9", "--reason", "again"); !strings.Contains(out, "already in the event") {
		t.Fatalf("second late entry: %s", out)
	}
	out = step(0, "edit-entrant", "cup", "p9", "--rating", "2470", "--reason", "FIDE list of March")
	if !strings.Contains(out, "edited p9: rating 2475 → 2470") || !strings.Contains(out, "does not change the seeding") {
		t.Fatalf("edit-entrant: %s", out)
	}
	if out := step(3, "edit-entrant", "cup", "p9", "--members", "aa,bb", "--reason", "x"); !strings.Contains(out, "has no members") {
		t.Fatalf("members of a player: %s", out)
	}
}
