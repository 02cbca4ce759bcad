package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/lichess"
)

// TestEventLichessCommands: what the TD console does for Lichess, from
// the CLI. 'event lichess-import' imports a match (or a round) from the
// fake Lichess now and prints the findings: the fixture's casual game
// SynTh006 in a format where only rated games count keeps the sheet for
// the TD. 'event messages on|off' is the per-event switch, a TD's only,
// audited as the local TD. 'event lichess-token' shows the organiser's
// token's owner, scopes and what a missing scope turns off.
func TestEventLichessCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testDB(t)
	fmtFile := filepath.Join(dir, "f.json")
	f := strings.Replace(verifyFormat, `"variant": "antichess",`, `"variant": "antichess", "lichess": {"games": "off", "rated": true},`, 1)
	if err := os.WriteFile(fmtFile, []byte(f), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(wantCode int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append([]string{"event"}, append(args, "--db", db)...)...)
		if code != wantCode {
			t.Fatalf("event %v: exit %d (want %d)\nstdout: %s\nstderr: %s", args, code, wantCode, stdout, stderr)
		}
		return stdout + stderr
	}
	run(0, "create", "lc", "--format", fmtFile, "--start", "2025-12-30T00:00Z", "--now", "2025-12-29T12:00Z")
	run(0, "register", "lc", "PlayerA", "--rating", "2000", "--as", "PlayerA", "--role", "player", "--now", "2025-12-29T12:00Z")
	run(0, "register", "lc", "PlayerB", "--rating", "1999", "--as", "PlayerB", "--role", "player", "--now", "2025-12-29T12:00Z")
	run(0, "approve", "lc", "playera", "playerb", "--now", "2025-12-29T12:00Z")
	run(0, "close-registration", "lc", "--now", "2025-12-30T12:00Z")
	run(0, "pair", "lc", "--now", "2025-12-30T12:00Z")
	run(0, "publish", "lc", "--now", "2025-12-30T12:00Z")

	lc := fakeLichess(t)
	lc.AddToken("lip_org", "organiser", lichess.ScopeMsgWrite)
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("lip_org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	at := []string{"--lichess-url", lc.URL, "--lichess-token-file", tokenFile, "--now", "2026-01-02T12:00Z"}
	out := run(1, append([]string{"lichess-import", "lc", "s1r1b1", "--as", "PlayerA", "--role", "player"}, at...)...)
	if !strings.Contains(out, "only a TD of lc may import a match's games from Lichess") || len(lc.Log()) != 0 {
		t.Fatalf("a player's import: %q, asked %v", out, lc.Summary())
	}
	// The fixture: SynTh001-004 fill the three parts (2 x 3+2, 1+2,
	// 0+2), SynTh005 was aborted, SynTh006 is a casual 3+2 game.
	want := `s1r1b1: 4 games of 6 counted, 2 findings; not entered: the TD looks at the findings first
  aborted_game SynTh005: game SynTh005 was aborted: it has to be played again
  casual_game SynTh006: game SynTh006 in 3+2 was casual; only rated games count
`
	if out = run(0, append([]string{"lichess-import", "lc", "s1r1b1"}, at...)...); out != want {
		t.Fatalf("import of the match:\n%s\nwant:\n%s", out, want)
	}
	// The round: its one match again, the same findings.
	if out = run(0, append([]string{"lichess-import", "lc", "s1r1"}, at...)...); out != want {
		t.Fatalf("import of the round:\n%s\nwant:\n%s", out, want)
	}
	if out = run(0, append([]string{"lichess-import", "lc", "s1r1", "--json"}, at...)...); !strings.Contains(out, `"match": "s1r1b1"`) || !strings.Contains(out, `"Kind": "casual_game"`) {
		t.Fatalf("import as JSON: %s", out)
	}
	if out = run(1, append([]string{"lichess-import", "lc", "s1r9"}, at...)...); !strings.Contains(out, "event lc has no round s1r9 with matches") {
		t.Fatalf("import of no round: %s", out)
	}

	if out = run(1, "messages", "lc", "on", "--as", "PlayerA", "--role", "player"); !strings.Contains(out, "only a TD of lc may turn Lichess messages on or off") {
		t.Fatalf("a player's switch: %s", out)
	}
	if out = run(0, "messages", "lc", "on"); !strings.HasPrefix(out, "messages on Lichess are on for lc:") {
		t.Fatalf("on: %s", out)
	}
	if out = run(2, "messages", "lc", "maybe"); !strings.Contains(out, `messages takes on or off, not "maybe"`) {
		t.Fatalf("maybe: %s", out)
	}
	if out = run(0, "messages", "lc", "off"); out != "messages on Lichess are off for lc: nothing more is sent\n" {
		t.Fatalf("off: %s", out)
	}
	audit := run(0, "audit", "lc")
	if strings.Count(audit, "td@local (td)     event.messages") != 2 || !strings.Contains(audit, "messages on Lichess: true") || !strings.Contains(audit, "messages on Lichess: false") ||
		strings.Count(audit, "lichess.import") != 3 {
		t.Fatalf("audit:\n%s", audit)
	}

	out = run(0, append([]string{"lichess-token", "lc"}, at...)...)
	for _, line := range []string{
		"the organiser's Lichess token belongs to organiser; scopes: msg:write\n",
		"Messages to players through the Lichess inbox                   msg:write       on\n",
		"Announcements to the event's Lichess team                       team:lead       off: No team announcements: the organiser's token lacks team:lead",
		"event lc: games created on Lichess: no; results imported: yes\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("token: missing %q in\n%s", line, out)
		}
	}
	if out = run(1, append([]string{"lichess-token", "lc", "--as", "PlayerA", "--role", "player"}, at...)...); !strings.Contains(out, "only a TD of lc may see the organiser's Lichess token") {
		t.Fatalf("a player's look at the token: %s", out)
	}
}
