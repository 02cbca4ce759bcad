package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"arbiter/internal/testshared"
)

// TestServeEligibility: 'arbiter serve --lichess-url' gives the server
// the Lichess client for eligibility checks too. An ACWC event made with
// the CLI (td@local its TD) has Flagged registered on 2023-03-12 09:00;
// the TD's API check reads the shared fixture profile (created
// 2024-11-27, 120 antichess games, a TOS mark; the total settles W1.games
// without counting): W1.created, W1.games and W1.marks fail.
func TestServeEligibility(t *testing.T) {
	profile, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "user_tos.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	lc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/api/user/flagged":
			w.Header().Set("Content-Type", "application/json")
			w.Write(profile)
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found."}`))
		}
	}))
	t.Cleanup(lc.Close)

	db := filepath.Join(t.TempDir(), "arbiter.db")
	for _, args := range [][]string{
		{"event", "create", "wc", "--preset", "acwc-2023", "--start", "2023-03-21T00:00Z", "--as", "td@local", "--now", "2023-03-12T08:00Z", "--db", db},
		{"event", "register", "wc", "Flagged", "--rating", "1900", "--as", "Flagged", "--role", "player", "--now", "2023-03-12T09:00Z", "--db", db},
	} {
		if code, stdout, stderr := runCLI(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	t.Setenv("ARBITER_TD_PASSWORD", "chosen-secret-42")
	s := startServe(t, "--db", db, "--lichess-url", lc.URL)
	defer s.stop(t)
	post := func(path, token string, body any) (int, []byte) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", "http://"+s.addr+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out bytes.Buffer
		out.ReadFrom(res.Body)
		return res.StatusCode, out.Bytes()
	}
	code, body := post("/api/session", "", map[string]string{"username": "td@local", "password": "chosen-secret-42"})
	var sess struct{ Token string }
	if code != 201 || json.Unmarshal(body, &sess) != nil || sess.Token == "" {
		t.Fatalf("session: %d %s", code, body)
	}
	code, body = post("/api/events/wc/entrants/flagged/eligibility", sess.Token, map[string]any{})
	var v struct {
		Entrant, Ruleset, By, Status, Judged string
		Reports                              []struct {
			Username, Status string
			Checks           []struct{ Rule, Status, Detail string }
		}
	}
	if code != 200 || json.Unmarshal(body, &v) != nil {
		t.Fatalf("check: %d %s", code, body)
	}
	var checks []string
	for _, c := range v.Reports[0].Checks {
		checks = append(checks, c.Rule+"="+c.Status)
	}
	if v.Entrant != "flagged" || v.Ruleset != "acwc-2023" || v.By != "td@local" || v.Status != "fail" || v.Judged != "2023-03-12T09:00:00Z" ||
		len(v.Reports) != 1 || v.Reports[0].Username != "Flagged" ||
		strings.Join(checks, " ") != "W1.created=fail W1.games=fail W1.closed=pass W1.marks=fail W1.past-marks=unknown W1.cheat=unknown W1.accounts=unknown W1.bot=pass" ||
		v.Reports[0].Checks[1].Detail != "at most 120 rated antichess games before 2023-03-12 (needs 1000)" {
		t.Fatalf("check %s", body)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, ", ") != "GET /api/user/flagged" {
		t.Fatalf("Lichess was asked %q", seen)
	}
}
