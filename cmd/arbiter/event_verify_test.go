package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"arbiter/internal/testshared"
)

// fakeLichess serves GET /api/games/user/{user} from the shared hand-made
// antichess match (PlayerA v PlayerB on 2026-01-01), as NDJSON, keeping
// the games against ?vs= created in [since, until] and leaving out the
// ids in skip. It records the requests' paths and queries.
func fakeLichess(t *testing.T, skip ...string) (*httptest.Server, *[]string) {
	t.Helper()
	data, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "games_antichess_match.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		user, ok := strings.CutPrefix(r.URL.Path, "/api/games/user/")
		if r.Method != "GET" || !ok {
			http.Error(w, `{"error":"Not found."}`, http.StatusNotFound)
			return
		}
		q := r.URL.Query()
		since, _ := strconv.ParseInt(q.Get("since"), 10, 64)
		until, _ := strconv.ParseInt(q.Get("until"), 10, 64)
		w.Header().Set("Content-Type", "application/x-ndjson")
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			var g struct {
				ID        string `json:"id"`
				CreatedAt int64  `json:"createdAt"`
				Players   map[string]struct {
					User struct{ ID string } `json:"user"`
				} `json:"players"`
			}
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Error(err)
				return
			}
			ids := []string{g.Players["white"].User.ID, g.Players["black"].User.ID}
			pair := strings.Join(ids, " ")
			want := strings.ToLower(user) + " " + strings.ToLower(q.Get("vs"))
			rev := strings.ToLower(q.Get("vs")) + " " + strings.ToLower(user)
			if (pair == want || pair == rev) && g.CreatedAt >= since && g.CreatedAt <= until && !contains(skip, g.ID) {
				fmt.Fprintf(w, "%s\n", sc.Bytes())
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
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
	dir := t.TempDir()
	db := filepath.Join(dir, "arbiter.db")
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

	srv, seen := fakeLichess(t)
	now := []string{"--lichess-url", srv.URL, "--now", "2026-01-02T12:00Z"}
	out := run(1, append([]string{"verify", "lc", "s1r1b1", "--as", "PlayerA", "--role", "player"}, now...)...)
	if !strings.Contains(out, "only a TD of lc may check a match's games on Lichess") || len(*seen) != 0 {
		t.Fatalf("a player's check: %q, asked %v", out, *seen)
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
	if len(*seen) != 1 || (*seen)[0] != "GET /api/games/user/playera?moves=false&perfType=antichess&since=1767052800000&until=1767355200000&vs=playerb" {
		t.Fatalf("requests %v", *seen)
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
