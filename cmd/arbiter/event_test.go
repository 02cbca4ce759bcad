package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eventFormat is the ACWC qualification Swiss (W4, W5, W7, W13) as a
// format file, with R5's 24 h appeal window.
const eventFormat = `{
  "name": "acwc-swiss",
  "title": "ACWC-style Swiss",
  "entrant": "individual",
  "min_entrants": 8,
  "calendar": {
    "rounds_per_week": 1,
    "pairings_by": {"day": "tuesday", "time": "23:59"},
    "deadline": {"day": "monday", "time": "23:59"},
    "appeal_hours": 24
  },
  "clauses": {"unplayed": "R5"},
  "stages": [{
    "name": "qualification", "kind": "swiss", "pairing": "dutch",
    "rounds": {"log2": {"mul": 1, "add": 2}},
    "tiebreaks": ["cumulative", "wins_vs_tied", "median_buchholz"],
    "match": {
      "kind": "individual",
      "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
      "play_all_games": false,
      "match_points": {"win": 1, "draw": 0.5, "loss": 0},
      "double_forfeit": "loss"
    }
  }]
}`

// eventCLI prepares a temporary database and the eventFormat file for
// 'arbiter event' tests and returns the format file's path and a runner
// that adds --db, fails the test unless the exit status is wantCode, and
// returns stdout and stderr.
func eventCLI(t *testing.T) (fmtFile string, run func(wantCode int, args ...string) (stdout, stderr string)) {
	t.Helper()
	dir := t.TempDir()
	db := testDB(t)
	fmtFile = filepath.Join(dir, "swiss.json")
	if err := os.WriteFile(fmtFile, []byte(eventFormat), 0o644); err != nil {
		t.Fatal(err)
	}
	return fmtFile, func(wantCode int, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append([]string{"event"}, append(args, "--db", db)...)...)
		if code != wantCode {
			t.Fatalf("event %v: exit %d (want %d)\nstdout: %s\nstderr: %s", args, code, wantCode, stdout, stderr)
		}
		return stdout, stderr
	}
}

func TestEventCLIWalkthrough(t *testing.T) {
	t.Parallel()
	fmtFile, run := eventCLI(t)
	step := func(wantCode int, wantOut string, args ...string) string {
		t.Helper()
		stdout, stderr := run(wantCode, args...)
		if !strings.Contains(stdout+stderr, wantOut) {
			t.Fatalf("event %v: output lacks %q\nstdout: %s\nstderr: %s", args, wantOut, stdout, stderr)
		}
		return stdout
	}
	step(0, "created cup", "create", "cup", "--format", fmtFile, "--start", "2023-03-21T10:00Z", "--now", "2023-03-12")
	step(0, "cup", "list")
	for i := 1; i <= 8; i++ {
		p := fmt.Sprintf("p%d", i)
		step(0, "registered "+p, "register", "cup", p, "--rating", fmt.Sprint(2500-10*i), "--as", p, "--role", "player")
	}
	step(1, "may register only themself", "register", "cup", "p9", "--as", "p1", "--role", "player")
	step(1, "only a TD", "approve", "cup", "p1", "--as", "p1", "--role", "player")
	step(0, "approved p8", "approve", "cup", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8")
	step(3, "needs a reason", "reject", "cup", "p8")
	// W5: floor(log2 8) + 2 = 5 rounds; W13: round 1 due Monday 2023-03-27 23:59.
	// C.04.3 5.2.5: the TDs drew the round-1 colour themselves; their
	// choice needs a reason and is audited.
	step(3, "say why the TDs choose the initial colour", "close-registration", "cup", "--initial-colour", "white")
	step(3, "white or black", "close-registration", "cup", "--initial-colour", "red", "--reason", "x")
	// Without --now the clock is today's: round 1's deadline has passed.
	step(3, "round 1's deadline, Monday 2023-03-27 23:59 UTC, is in the past", "close-registration", "cup", "--initial-colour", "white", "--reason", "coin tossed on the stream")
	step(0, "5 rounds", "close-registration", "cup", "--initial-colour", "white", "--reason", "coin tossed on the stream", "--allow-past")
	step(0, "initial colour white chosen by the TDs: coin tossed on the stream", "audit", "cup")
	step(0, "round s1r1 paired", "pair", "cup")
	step(0, "round s1r1 discarded", "discard", "cup", "--reason", "checking the seeding")
	out := step(0, "s1r1b1  p1    p5", "pair", "cup")
	if !strings.Contains(out, "s1r1b4  p8    p4") {
		t.Fatalf("round 1 pairings (C.04.3: 1-5, 6-2, 3-7, 8-4):\n%s", out)
	}
	step(0, "deadline Monday 2023-03-27 23:59 UTC", "publish", "cup")
	now := []string{"--now", "2023-03-23T12:00Z"}
	step(0, "reported", append([]string{"result", "cup", "s1r1b1", "--summary", "6-3", "--as", "p1", "--role", "player"}, now...)...)
	step(1, "cannot confirm or dispute their own", append([]string{"confirm", "cup", "s1r1b1", "--as", "p1", "--role", "player"}, now...)...)
	step(0, "confirmed", append([]string{"confirm", "cup", "s1r1b1", "--as", "p5", "--role", "player"}, now...)...)
	step(0, "reported", append([]string{"result", "cup", "s1r1b2", "--summary", "2-6", "--as", "p2", "--role", "player"}, now...)...)
	step(0, "disputed", append([]string{"confirm", "cup", "s1r1b2", "--dispute", "--reason", "wrong score", "--as", "p6", "--role", "player"}, now...)...)
	step(3, "needs a reason", append([]string{"result", "cup", "s1r1b2", "--summary", "4-6", "--override"}, now...)...)
	step(0, "override", append([]string{"result", "cup", "s1r1b2", "--summary", "4-6", "--override", "--reason", "checked the games"}, now...)...)
	step(0, "reported", append([]string{"result", "cup", "s1r1b3", "--summary", "5-5", "--as", "p7", "--role", "player"}, now...)...)
	// Board 4 is not played. The round closes at its deadline only.
	step(1, "(rule format.calendar)", "close-round", "cup", "--now", "2023-03-27T23:59Z")
	out = step(0, "appeals until Tuesday 2023-03-28 23:59 UTC", "close-round", "cup", "--now", "2023-03-28T00:00Z")
	for _, want := range []string{"s1r1b3  p3    p7    final   0.5-0.5", "accepted_at_deadline", "s1r1b4  p8    p4    final   0-0", "double_forfeit"} {
		if !strings.Contains(out, want) {
			t.Fatalf("close-round output lacks %q:\n%s", want, out)
		}
	}
	step(0, "appeal s1r1b4-a1 on s1r1b4: pending", "appeal", "cup", "s1r1b4", "--reason", "we played, 6-2", "--as", "p8", "--role", "player", "--now", "2023-03-28T20:00Z")
	step(1, "(rule R5)", "appeal", "cup", "s1r1b3", "--reason", "late", "--as", "p3", "--role", "player", "--now", "2023-03-29T00:00Z")
	step(0, "accepted", "appeal", "cup", "--accept", "s1r1b4-a1", "--summary", "6-2", "--reason", "Lichess games found")
	// Standings: p1 (6-3), p2 (away, 6-4 by the override) and p8 (6-2 on
	// appeal) have won; p3 and p7 drew.
	out = step(0, "cumulative", "standings", "cup", "--json")
	var tab struct {
		Rows []struct {
			ID    string          `json:"id"`
			Score json.RawMessage `json:"score"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatalf("standings JSON: %v\n%s", err, out)
	}
	scores := map[string]string{}
	for _, r := range tab.Rows {
		scores[r.ID] = string(r.Score)
	}
	want := map[string]string{"p1": "1", "p2": "1", "p8": "1", "p3": "0.5", "p7": "0.5", "p6": "0", "p4": "0", "p5": "0"}
	for id, w := range want {
		if scores[id] != w {
			t.Errorf("%s scores %s, want %s (%s)", id, scores[id], w, out)
		}
	}
	// The table says which completed round it stands after; round 2 is
	// not completed (not even paired).
	step(0, "after round 1 (1 completed)\nRANK", "standings", "cup")
	step(0, "after round 1 (1 completed)", "standings", "cup", "--after", "1")
	step(1, "round 2 of stage qualification is not completed yet", "standings", "cup", "--after", "2")
	out = step(0, "result.override", "audit", "cup")
	for _, want := range [][]string{{"p6 (player)", "result.dispute", "wrong score"}, {"td@local (td)", "result.override", "checked the games"},
		{"td@local (td)", "appeal.accept", "Lichess games found"}, {"result.double_forfeit", "match s1r1b4", "R5: unplayed at the round deadline"}} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(line, w)
			}
			found = found || ok
		}
		if !found {
			t.Fatalf("audit has no line with %q:\n%s", want, out)
		}
	}
	step(1, "only a TD", "audit", "cup", "--as", "p1", "--role", "player")
	step(1, "qualification is the last stage", "advance", "cup")
	step(1, "names no rulebook", "sanction", "cup", "p4", "--kind", "withdrawal", "--reason", "moving house")
	step(1, "names no sanction rules", "replace", "cup", "p4", "--replaced", "p4", "--player", "p9", "--reason", "x")
	step(1, "no wrong time control rule", "wrong-tc", "cup", "s1r1b1", "--set", "1+2", "--reason", "x")
	step(1, "no board lineups", "boards", "cup", "p1", "--order", "p1")
	step(2, "exactly one of --rank", "boards", "cup", "p1")
	step(1, "no board lineups", "captain-change", "cup", "p1", "p2")
	step(3, "needs a reason", "replace", "cup", "p4", "--replaced", "p4", "--player", "p9")
	step(1, "has no time negotiation", "negotiate", "cup", "s1r1b1", "--offer", "2023-03-30T18:00Z", "--as", "p1", "--role", "player")
	step(2, "exactly one of", "negotiate", "cup", "s1r1b1")
	step(0, "p3: td_value:previous_final = 1.5", "tiebreak-value", "cup", "p3", "--key", "previous_final", "--value", "1.5")
	step(1, "no published round is open", "bring-forward", "cup", "--to", "2023-04-01T00:00Z")
	step(1, "no per-set lineups", "lineup", "cup", "p1", "--round", "2", "--sets", "a,b,c")
	step(1, "has no armageddon", "bid", "cup", "s1r1b1", "--seconds", "120", "--as", "p1", "--role", "player")
}

func TestEventCLIHelpAndUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"event", "--help"}, 0, "close-registration"},
		{[]string{"event"}, 2, "missing subcommand"},
		{[]string{"event", "frob"}, 2, `unknown subcommand "frob"`},
		{[]string{"event", "create", "--help"}, 0, "-preset"},
		{[]string{"event", "result", "--help"}, 0, "-override"},
		{[]string{"event", "result", "--help"}, 0, "-wrong-tc"},
		{[]string{"event", "appeal", "--help"}, 0, "-accept"},
		{[]string{"event", "standings", "--help"}, 0, "-pool"},
		{[]string{"event", "advance", "--help"}, 0, "event advance SLUG"},
		{[]string{"event", "sanction", "--help"}, 0, "-not-for-cheating"},
		{[]string{"event", "negotiate", "--help"}, 0, "-none-suitable"},
		{[]string{"event", "bid", "--help"}, 0, "-reveal"},
		{[]string{"event", "lineup", "--help"}, 0, "-sets"},
		{[]string{"event", "bring-forward", "--help"}, 0, "-to"},
		{[]string{"event", "tiebreak-value", "--help"}, 0, "-key"},
		{[]string{"event", "captain", "--help"}, 0, "event captain SLUG TEAM USER"},
		{[]string{"event", "sanction", "--help"}, 0, "-player"},
		{[]string{"event", "replace", "--help"}, 0, "-replaced-rating"},
		{[]string{"event", "wrong-tc", "--help"}, 0, "-set"},
		{[]string{"event", "boards", "--help"}, 0, "-comparable"},
		{[]string{"event", "captain-change", "--help"}, 0, "event captain-change SLUG TEAM USER"},
		{[]string{"event", "approve", "x"}, 2, "wrong number of arguments"},
		{[]string{"event", "create", "x", "--preset", "acwc-2023", "--start", "someday", "--db", testDB(t)}, 3, "cannot read time"},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), output %q %q, want %q", c.args, code, c.code, stdout, stderr, c.want)
		}
	}
}
