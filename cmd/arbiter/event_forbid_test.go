package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventCLIForbid: round 1 of 8 would pair p1-p5 (C.04.3); with p1 and
// p5 forbidden the Dutch engine pairs 1-6, 2-5, 3-7, 4-8 instead.
func TestEventCLIForbid(t *testing.T) {
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
	// The round-1 colour is drawn by lot (C.04.3 5.2.5): sha256 of
	// "cup\n2023-03-12T00:00:00Z" (printf ... | sha256sum) starts with
	// 0xb5, odd, so the top seed p1 has Black in round 1.
	if out := step(0, "close-registration", "cup", "--now", "2023-03-12"); !strings.Contains(out,
		`initial colour: the top seed has black in round 1 (sha256("cup\n2023-03-12T00:00:00Z")=b5695890caa1f7ebf76a5e957620a369a8097f1626f13a77e8e951ca56cc13b8`) {
		t.Fatalf("close-registration does not show the lot:\n%s", out)
	}
	if out := step(3, "forbid", "cup", "p1", "p5"); !strings.Contains(out, "needs a reason") {
		t.Fatalf("no reason: %s", out)
	}
	step(2, "forbid", "cup", "p1", "--reason", "club")
	step(1, "forbid", "cup", "p1", "p5", "--reason", "club", "--as", "p1", "--role", "player")
	if out := step(0, "forbid", "cup", "p1", "p5", "--reason", "same club"); out != "f1: p1, p5 must not meet in stage 1\n" {
		t.Fatalf("forbid: %q", out)
	}
	out := step(0, "pair", "cup")
	// p1-p6, p5-p2, p3-p7, p8-p4 with White for p1; the lot gave p1 Black,
	// so every board's colours are the other way round.
	for _, want := range []string{"p6    p1", "p2    p5", "p7    p3", "p4    p8"} {
		if !strings.Contains(out, want) {
			t.Fatalf("pairing lacks %q:\n%s", want, out)
		}
	}
	if out := step(0, "forbid", "cup", "--list"); !strings.Contains(out, "f1  1      p1,p5     standing  same club") {
		t.Fatalf("list:\n%s", out)
	}
	if out := step(0, "forbid", "cup", "--remove", "f1", "--reason", "p5 moved"); out != "f1 lifted: p1, p5 may meet again\n" {
		t.Fatalf("remove: %q", out)
	}
	if out := step(0, "forbid", "cup", "--list"); !strings.Contains(out, "lifted") || !strings.Contains(out, "(lifted: p5 moved)") {
		t.Fatalf("list after removal:\n%s", out)
	}
}
