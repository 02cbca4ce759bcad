package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEventAntichessCLI: the antichess cup's team rules through the CLI.
//   - A9: with nine teams of four approved, a tenth team of three would
//     play four boards (10 teams): its approval is refused naming A9.
//   - A11: 'team-rules' reads Lichess (a fake): team-01's players are
//     rated 2100, 2050, 2000, 1950, so c01 (1950) plays board 4; his
//     history never went over 2000: the cap passes whatever the titles;
//     the titles the TD records (cap01 AGM, the others none) give one AGM
//     or higher: A11 passes.
//   - A5: each board is negotiated apart: an offer without --board is
//     refused; cap01 offers three times for board 1 as its player.
//   - At the deadline nobody else offered: the match is held for the TDs,
//     the fault shown board by board (A5: both at fault on boards 2-4;
//     cap06 on board 1).
func TestEventAntichessCLI(t *testing.T) {
	t.Parallel()
	lc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, hist := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/api/user/"), "/rating-history")
		ratings := map[string]int{"cap01": 2100, "a01": 2050, "b01": 2000, "c01": 1950}
		rating, ok := ratings[name]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found."}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if hist {
			json.NewEncoder(w).Encode([]map[string]any{{"name": "Antichess", "points": [][4]int{{2025, 0, 10, rating - 20}, {2025, 1, 1, rating}}}})
			return
		}
		fmt.Fprintf(w, `{"id": %q, "username": %q, "createdAt": 1577836800000, "perfs": {"antichess": {"games": 2000, "rating": %d, "rd": 50, "prov": false}}}`, name, name, rating)
	}))
	defer lc.Close()
	db := testDB(t)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(append([]string{"event"}, args...), "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, stdout, stderr)
		}
		return stdout + stderr
	}
	now := func(s string) []string { return []string{"--now", s} }
	cli(0, append([]string{"create", "atc", "--preset", "antichess-team-cup", "--start", "2025-05-06T00:00Z"}, now("2025-04-28T10:00Z")...)...)
	team := func(i, size int) string {
		n := fmt.Sprintf("%02d", i)
		members := []string{"cap" + n, "a" + n, "b" + n, "c" + n}[:size]
		cli(0, append([]string{"register", "atc", "--team", "Team " + n, "--captain", "cap" + n, "--members", strings.Join(members, ","),
			"--as", "cap" + n, "--role", "captain", "--rating", fmt.Sprint(2300 - i)}, now("2025-04-28T11:00Z")...)...)
		return "team-" + n
	}
	for i := 1; i <= 9; i++ {
		cli(0, append([]string{"approve", "atc", team(i, 4)}, now("2025-04-28T12:00Z")...)...)
	}
	short := team(10, 3)
	if out := cli(1, append([]string{"approve", "atc", short}, now("2025-04-28T12:00Z")...)...); !strings.Contains(out, "with 10 teams each team fields 4 players (rule A9)") {
		t.Fatalf("approval of a team of 3: %s", out)
	}
	cli(0, append([]string{"reject", "atc", short, "--reason", "three players for four boards (A9)"}, now("2025-04-28T12:00Z")...)...)
	cli(0, append([]string{"approve", "atc", team(11, 4)}, now("2025-04-28T12:00Z")...)...)
	cli(0, append([]string{"close-registration", "atc"}, now("2025-04-29T10:00Z")...)...)

	out := cli(0, append([]string{"team-rules", "atc", "team-01", "--titles", "cap01:AGM,a01:none,b01:none,c01:none", "--lichess-url", lc.URL}, now("2025-04-29T10:00Z")...)...)
	for _, want := range []string{"team-01: A11 team rules pass", "pass     A11.agm: 1 AGM or higher", "pass     A11.cap: c01: over 2000 on 0 days"} {
		if !strings.Contains(out, want) {
			t.Fatalf("team-rules output lacks %q:\n%s", want, out)
		}
	}
	for _, n := range []string{"01", "06"} {
		cli(0, append([]string{"boards", "atc", "team-" + n, "--rank", fmt.Sprintf("cap%[1]s:2100,a%[1]s:2050,b%[1]s:2000,c%[1]s:1950", n)}, now("2025-05-06T01:00Z")...)...)
	}
	cli(0, append([]string{"pair", "atc"}, now("2025-05-06T01:00Z")...)...)
	cli(0, append([]string{"publish", "atc"}, now("2025-05-06T02:00Z")...)...)
	offer := []string{"--offer", "2025-05-07T18:00Z,2025-05-08T18:00Z,2025-05-09T18:00Z", "--as", "cap01", "--role", "player"}
	if out := cli(3, append(append([]string{"negotiate", "atc", "s1r1b1"}, offer...), now("2025-05-06T10:00Z")...)...); !strings.Contains(out, "name the board, 1 to 4") {
		t.Fatalf("offer without a board: %s", out)
	}
	if out := cli(0, append(append([]string{"negotiate", "atc", "s1r1b1", "--board", "1"}, offer...), now("2025-05-06T10:00Z")...)...); !strings.Contains(out, "s1r1b1 board 1: 3 offers, open; match scheduled") {
		t.Fatalf("board 1's offers: %s", out)
	}
	// A5: "it is not allowed to agree to a draw without playing".
	if out := cli(1, append([]string{"negotiate", "atc", "s1r1b1", "--board", "2", "--agree-draw", "--as", "cap01", "--role", "captain"}, now("2025-05-06T11:00Z")...)...); !strings.Contains(out, "may not be agreed drawn without being played (rule A5)") {
		t.Fatalf("an agreed draw: %s", out)
	}
	out = cli(0, append([]string{"close-round", "atc"}, now("2025-05-13T00:00Z")...)...)
	// The colours (home, away) are drawn by lot: the notes name the board
	// players in that order.
	for _, want := range []string{"note: s1r1b1 is held for the TDs: board 1 (",
		"cap01 offered 3 times by Thursday 2025-05-08 23:59 UTC, cap06 did not: cap06 is at fault (A5: must accept the opponent's time)",
		"offered 3 times by Thursday 2025-05-08 23:59 UTC (A5: both at fault)", "s1r1b1  team-0"} {
		if !strings.Contains(out, want) {
			t.Fatalf("close-round output lacks %q:\n%s", want, out)
		}
	}
}
