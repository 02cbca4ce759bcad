package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/internal/testshared"
	"arbiter/lichess/lichesstest"
)

// fakeLichess is a fake Lichess holding the shared hand-made antichess
// match (PlayerA v PlayerB on 2026-01-01).
func fakeLichess(t *testing.T) *lichesstest.Fake {
	t.Helper()
	f := lichesstest.Start(t, lichesstest.Options{})
	file, err := os.Open(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "games_antichess_match.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if err := f.AddGamesNDJSON(file); err != nil {
		t.Fatal(err)
	}
	return f
}

// verifyFormat is a two-player antichess round robin whose match has the
// fixture's clocks (2 x 3+2, 1 x 1+2, 1 x 0+2), ACWC's clauses.
const verifyFormat = `{
  "name": "lichess-check", "title": "Lichess check", "entrant": "individual", "variant": "antichess",
  "clauses": {"games": "W2", "decided": "W4"},
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "stages": [{
    "name": "all", "kind": "round_robin", "pairing": "berger", "cycles": 1, "tiebreaks": ["mutual_match_score"],
    "match": {"kind": "individual",
      "parts": [{"tc": "3+2", "games": 2, "win": 1, "draw": 0.5}, {"tc": "1+2", "games": 1, "win": 1, "draw": 0.5}, {"tc": "0+2", "games": 1, "win": 1, "draw": 0.5}],
      "play_all_games": true, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}
  }]
}`

// TestEventVerify: 'arbiter event verify' asks the (fake) Lichess for the
// pair's games in the round window and prints each part with its games
// and the discrepancies and their clauses: here PlayerA reported the 3+2
// part 1-1 (Lichess: 1.5-0.5) and the casual SynTh006 was in 3+2 (W2).
func TestEventVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testDB(t)
	fmtFile, sheet := filepath.Join(dir, "f.json"), filepath.Join(dir, "sheet.json")
	if err := os.WriteFile(fmtFile, []byte(verifyFormat), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sheet, []byte(`{"parts": [{"tc": "3+2", "results": "1 0"}, {"tc": "1+2", "results": "0"}, {"tc": "0+2", "results": "0"}]}`), 0o644); err != nil {
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
	run(0, "result", "lc", "s1r1b1", "--sheet", sheet, "--as", "PlayerA", "--role", "player", "--now", "2026-01-02T12:00Z")

	lc := fakeLichess(t)
	now := []string{"--lichess-url", lc.URL, "--now", "2026-01-02T12:00Z"}
	out := run(1, append([]string{"verify", "lc", "s1r1b1", "--as", "PlayerA", "--role", "player"}, now...)...)
	if !strings.Contains(out, "only a TD of lc may check a match's games on Lichess") || len(lc.Log()) != 0 {
		t.Fatalf("a player's check: %q, asked %v", out, lc.Summary())
	}
	out = run(0, append([]string{"verify", "lc", "s1r1b1"}, now...)...)
	want := `s1r1b1: antichess games 2025-12-30T00:00:00Z to 2026-01-02T12:00:00Z, against report s1r1b1-1: 2 discrepancies: casual_game (W2), score_mismatch (W2)
3+2 (2 games) playera-playerb: reported 1-1, Lichess 1.5-0.5
  https://lichess.org/SynTh001 white 1 variantEnd
  https://lichess.org/SynTh002 black = draw
  ! W2 casual_game: game SynTh006 in 3+2 was casual; only rated games count
  ! W2 score_mismatch: reported 1-1, Lichess shows 1.5-0.5
1+2 (1 game) playera-playerb: reported 0-1, Lichess 0-1
  https://lichess.org/SynTh003 white 0 outoftime
0+2 (1 game) playera-playerb: reported 0-1, Lichess 0-1
  https://lichess.org/SynTh004 black 0 variantEnd
`
	if out != want {
		t.Fatalf("verify printed:\n%s\nwant:\n%s", out, want)
	}
	// One request: PlayerA's antichess games against PlayerB in the window.
	if asked := lc.Log(); len(asked) != 1 || asked[0].Method+" "+asked[0].Path+"?"+asked[0].Query.Encode() !=
		"GET /api/games/user/playera?moves=false&perfType=antichess&since=1767052800000&until=1767355200000&vs=playerb" {
		t.Fatalf("requests %v", lc.Summary())
	}

	// --json prints the stored verification.
	out = run(0, append([]string{"verify", "lc", "s1r1b1", "--json"}, now...)...)
	var v struct {
		Match         string `json:"match"`
		Consistent    bool   `json:"consistent"`
		Discrepancies int    `json:"discrepancies"`
		Checks        []struct {
			TC    string `json:"tc"`
			Found []struct {
				ID  string `json:"id"`
				URL string `json:"url"`
			} `json:"found"`
			Discrepancies []struct{ Kind, Clause, Game string } `json:"discrepancies"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Match != "s1r1b1" || v.Consistent || v.Discrepancies != 2 || len(v.Checks) != 3 || v.Checks[0].Found[1].URL != "https://lichess.org/SynTh002" ||
		v.Checks[0].Discrepancies[0].Kind != "casual_game" || v.Checks[0].Discrepancies[0].Clause != "W2" || v.Checks[0].Discrepancies[0].Game != "SynTh006" {
		t.Fatalf("json %+v", v)
	}
	out = run(0, "audit", "lc")
	if !strings.Contains(out, "match.verify") {
		t.Fatalf("audit lacks the checks:\n%s", out)
	}
}
