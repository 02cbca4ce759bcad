package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestEventRatings: a registration from the CLI queues the fetch of the
// player's rating; 'arbiter jobs run' fetches it from the (fake) Lichess;
// 'arbiter event ratings' shows it with its date, and --refresh fetches
// every rating again at once in one request.
func TestEventRatings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testDB(t)
	fmtFile := filepath.Join(dir, "f.json")
	rated := strings.Replace(verifyFormat, `"clauses"`, `"lichess": {"games": "off", "perf": "antichess"}, "clauses"`, 1)
	if err := os.WriteFile(fmtFile, []byte(rated), 0o644); err != nil {
		t.Fatal(err)
	}
	f := lichesstest.Start(t, lichesstest.Options{})
	f.AddPlayer("PlayerA", lichess.PerfAntichess, 1500, 1912)
	f.AddPlayer("PlayerB", lichess.PerfAntichess, 1500, 1777)
	run := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(args, "--db", db)...)
		if code != 0 {
			t.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
		return stdout
	}
	run("event", "create", "lc", "--format", fmtFile, "--start", "2025-12-30T00:00Z", "--now", "2025-12-29T12:00Z")
	run("event", "register", "lc", "PlayerA", "--rating", "2000", "--as", "PlayerA", "--role", "player", "--now", "2025-12-29T12:00Z")
	run("event", "register", "lc", "PlayerB", "--as", "PlayerB", "--role", "player", "--now", "2025-12-29T12:00Z")
	if out := run("event", "ratings", "lc"); !strings.Contains(out, fmt.Sprintf("%-20s %5d  not fetched from Lichess yet", "playera", 2000)) {
		t.Fatalf("before the jobs:\n%s", out)
	}
	out := run("jobs", "run", "--lichess-url", f.URL, "--now", "2025-12-29T12:01Z")
	if !strings.Contains(out, "ratings:lc:playera: done") || !strings.Contains(out, "ratings:lc:playerb: done") {
		t.Fatalf("jobs run:\n%s", out)
	}
	want := "Ratings: Lichess antichess.\n" +
		fmt.Sprintf("%-20s %5d  Lichess antichess, 2025-12-29 12:01 UTC\n", "playera", 1912) +
		fmt.Sprintf("%-20s %5d  Lichess antichess, 2025-12-29 12:01 UTC\n", "playerb", 1777)
	if out := run("event", "ratings", "lc"); out != want {
		t.Fatalf("ratings:\n%s\nwant:\n%s", out, want)
	}
	f.SetRating("PlayerB", lichess.PerfAntichess, lichess.Perf{Games: 1600, Rating: 1990, RD: 60})
	f.ResetLog()
	out = run("event", "ratings", "lc", "--refresh", "--lichess-url", f.URL, "--now", "2025-12-29T13:00Z")
	if !strings.HasPrefix(out, "Ratings: Lichess antichess.\n2 ratings fetched from Lichess when refreshing ratings (2025-12-29 13:00 UTC); 1 entrant's rating changed.\n") ||
		!strings.Contains(out, fmt.Sprintf("%-20s %5d  Lichess antichess, 2025-12-29 13:00 UTC", "playerb", 1990)) {
		t.Fatalf("refresh:\n%s", out)
	}
	if got := f.Summary(); len(got) != 1 || got[0] != "POST /api/users 200" {
		t.Fatalf("asked %q", got)
	}
	code, _, stderr := runCLI(t, "", "event", "ratings", "lc", "--refresh", "--lichess-url", f.URL, "--as", "PlayerA", "--role", "player", "--db", db)
	if code == 0 || !strings.Contains(stderr, "only a TD") {
		t.Fatalf("a player's refresh: exit %d, %s", code, stderr)
	}

	// Round 1 pairs with the ratings refreshed from Lichess: PlayerA (seed
	// 2 at the close, 1912 against 1990) now 2100 is the top seed.
	f.SetRating("PlayerA", lichess.PerfAntichess, lichess.Perf{Games: 1600, Rating: 2100, RD: 60})
	f.ResetLog()
	run("event", "approve", "lc", "playera", "playerb", "--now", "2025-12-29T14:00Z")
	run("event", "close-registration", "lc", "--now", "2025-12-29T14:00Z")
	if es := run("event", "entrants", "lc"); strings.Index(es, "playerb") > strings.Index(es, "playera") {
		t.Fatalf("entrants at the close:\n%s", es)
	}
	out = run("event", "pair", "lc", "--lichess-url", f.URL, "--now", "2025-12-29T15:00Z")
	if !strings.Contains(out, "2 ratings fetched from Lichess when pairing round 1 (2025-12-29 15:00 UTC); 1 entrant's rating changed.") {
		t.Fatalf("pair:\n%s", out)
	}
	if got := f.Summary(); len(got) != 1 || got[0] != "POST /api/users 200" {
		t.Fatalf("asked %q", got)
	}
	if es := run("event", "entrants", "lc"); strings.Index(es, "playera") > strings.Index(es, "playerb") {
		t.Fatalf("entrants after round 1's refresh:\n%s", es)
	}
}
