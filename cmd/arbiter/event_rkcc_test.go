package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/format"
)

// TestEventR14CLI: R14 through the CLI. Round 1 of an RKCC event: team-1
// wins its match 2 sets to 1, 409-311 (3+2 4-2 = 160-80; 1.5+1, a1's set,
// 6-4 = 144-96; 0.75+0 7-9 = 105-135). a1's TOS violation turns a1's set
// into R15's full forfeit, 0-240: 1 set to 2, 265-455, team-5 wins; the
// other sets stand.
func TestEventR14CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
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
	cli(0, "pair", "rk", "--now", "2025-01-06T01:00Z")
	cli(0, "publish", "rk", "--now", "2025-01-06T02:00Z")
	sheet := filepath.Join(dir, "s.json")
	os.WriteFile(sheet, []byte(`{"sets": [
		{"tc": "3+2", "home_player": "cap1", "away_player": "cap5", "results": "1 1 1 1 0 0"},
		{"tc": "1.5+1", "home_player": "a1", "away_player": "a5", "results": "1 1 1 1 1 1 0 0 0 0"},
		{"tc": "0.75+0", "home_player": "b1", "away_player": "b5", "results": "0 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1"}]}`), 0o644)
	if out := cli(0, "result", "rk", "s1r1b1", "--sheet", sheet, "--override", "--reason", "from Lichess", "--now", "2025-01-08T12:00Z"); !strings.Contains(out, "409") {
		t.Fatalf("result: %s", out)
	}
	cli(0, "close-round", "rk", "--now", "2025-01-13T00:00Z")
	out := cli(0, "sanction", "rk", "team-1", "--player", "a1", "--kind", "tos_violation", "--reason", "Lichess TOS violation", "--now", "2025-01-13T10:00Z")
	for _, want := range []string{"a1 of team-1 tos_violation (rule R14); 1 matches changed", "s1r1b1 set 1.5+1: away (R14)", "s1r1b1  team-1  team-5  final   0-1 (265-455)  sanction"} {
		if !strings.Contains(out, want) {
			t.Fatalf("sanction output lacks %q:\n%s", want, out)
		}
	}
}

// TestEventA20CLI: a report whose captains' board the board lists
// contradict is refused naming A20. A knockout of four antichess teams
// (the preset's knockout stage as a format file): team-01 v team-04, both
// captains on board 1 by the TDs' ranking; the sheet is tied 384-384 and
// claims the captains met on board 2.
func TestEventA20CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testDB(t)
	f, err := format.Preset("antichess-team-cup")
	if err != nil {
		t.Fatal(err)
	}
	four := 4
	f.Name, f.MinEntrants, f.Team.Size, f.Stages = "ko-cup", 4, format.Count{Fixed: &four}, f.Stages[1:]
	var doc bytes.Buffer
	if err := format.Write(&doc, f); err != nil {
		t.Fatal(err)
	}
	fmtFile := filepath.Join(dir, "ko.json")
	os.WriteFile(fmtFile, doc.Bytes(), 0o644)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(append([]string{"event"}, args...), "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, stdout, stderr)
		}
		return stdout + stderr
	}
	cli(0, "create", "ko", "--format", fmtFile, "--start", "2025-01-07T00:00Z", "--now", "2025-01-01T10:00Z")
	for i := 1; i <= 4; i++ {
		n := fmt.Sprintf("%02d", i)
		cli(0, "register", "ko", "--team", "Team "+n, "--captain", "cap"+n, "--members", fmt.Sprintf("cap%[1]s,a%[1]s,b%[1]s,c%[1]s", n),
			"--rating", fmt.Sprint(2000-i), "--now", "2025-01-01T11:00Z")
		cli(0, "approve", "ko", "team-"+n, "--now", "2025-01-01T11:00Z")
	}
	cli(0, "close-registration", "ko", "--initial-colour", "white", "--reason", "rehearsal", "--now", "2025-01-02T10:00Z")
	for i := 1; i <= 4; i++ {
		cli(0, "boards", "ko", fmt.Sprintf("team-%02d", i), "--rank", strings.ReplaceAll("capN:2100,aN:2000,bN:1900,cN:1800", "N", fmt.Sprintf("%02d", i)), "--now", "2025-01-02T10:00Z")
	}
	cli(0, "pair", "ko", "--now", "2025-01-07T01:00Z")
	cli(0, "publish", "ko", "--now", "2025-01-07T02:00Z")
	draws := func(n int) string { return strings.TrimSpace(strings.Repeat("= ", n)) }
	board := func(b int, first string) string {
		return fmt.Sprintf(`{"board": %d, "parts": [{"tc": "0+2", "results": "%s %s"}, {"tc": "2+5", "results": "%s"}, {"tc": "5+0", "results": "%s"}, {"tc": "1+2", "results": "%s"}]}`,
			b, first, draws(7), draws(4), draws(4), draws(6))
	}
	sheet := filepath.Join(dir, "tie.json")
	os.WriteFile(sheet, []byte(fmt.Sprintf(`{"boards": [%s, %s, %s, %s], "tie": {"captains_board": 2, "games": "1 1 1 =", "armageddon": null}}`,
		board(1, "1"), board(2, "0"), board(3, "="), board(4, "="))), 0o644)
	out := cli(3, "result", "ko", "s1r1b1", "--sheet", sheet, "--as", "cap01", "--role", "captain", "--now", "2025-01-08T12:00Z")
	if !strings.Contains(out, "the sheet says the captains met on board 2, but they met on board 1 (the captains: cap01 played board 1, cap04 played board 1) (rule A20)") {
		t.Fatalf("a contradicting claim: %s", out)
	}
}
