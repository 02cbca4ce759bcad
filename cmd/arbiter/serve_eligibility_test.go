package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter/internal/testshared"
	"arbiter/lichess/lichesstest"
)

// TestServeEligibility: 'arbiter serve --lichess-url' gives its job
// workers the Lichess client for eligibility checks. An ACWC event made
// with the CLI (td@local its TD) has Flagged registered on 2023-03-12
// 09:00: the registration queued its check (W1), which serve's workers
// run as the system; the shared fixture profile (created 2024-11-27, 120
// antichess games, a TOS mark; the total settles W1.games without
// counting) fails W1.created, W1.games and W1.marks. The TD's API request
// is a job too (202), done by the workers, and its check is the TD's.
func TestServeEligibility(t *testing.T) {
	profile, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "user_tos.json"))
	if err != nil {
		t.Fatal(err)
	}
	lc := lichesstest.Start(t, lichesstest.Options{})
	if err := lc.AddUserJSON(profile); err != nil {
		t.Fatal(err)
	}

	db := testDB(t)
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
	get := func(path string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+s.addr+path, nil)
		req.Header.Set("Authorization", "Bearer "+sess.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out bytes.Buffer
		out.ReadFrom(res.Body)
		return res.StatusCode, out.Bytes()
	}
	// waitCheck waits for the workers to store a check by by.
	waitCheck := func(by string) []byte {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			code, body := get("/api/events/wc/entrants/flagged/eligibility")
			var c struct{ By string }
			if code == 200 && json.Unmarshal(body, &c) == nil && c.By == by {
				return body
			}
			if time.Now().After(deadline) {
				t.Fatalf("no check by %s: %d %s", by, code, body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	body = waitCheck("arbiter")
	var v struct {
		Entrant, Ruleset, By, Status, Judged string
		Reports                              []struct {
			Username, Status string
			Checks           []struct{ Rule, Status, Detail string }
		}
	}
	if json.Unmarshal(body, &v) != nil {
		t.Fatalf("check: %s", body)
	}
	var checks []string
	for _, c := range v.Reports[0].Checks {
		checks = append(checks, c.Rule+"="+c.Status)
	}
	if v.Entrant != "flagged" || v.Ruleset != "acwc-2023" || v.Status != "fail" || v.Judged != "2023-03-12T09:00:00Z" ||
		len(v.Reports) != 1 || v.Reports[0].Username != "Flagged" ||
		strings.Join(checks, " ") != "W1.created=fail W1.games=fail W1.closed=pass W1.marks=fail W1.past-marks=unknown W1.cheat=unknown W1.accounts=unknown W1.bot=pass" ||
		v.Reports[0].Checks[1].Detail != "at most 120 rated antichess games before 2023-03-12 (needs 1000)" {
		t.Fatalf("check %s", body)
	}
	// The check is stored a moment before its job is marked done; a TD's
	// request in between joins the running job (unique key) instead of
	// queueing a new one, so wait until nothing is pending.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		code, body := get("/api/events/wc/jobs?state=pending")
		if code == 200 && strings.TrimSpace(string(body)) == "[]" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("registration's check still pending: %d %s", code, body)
		}
	}
	code, body = post("/api/events/wc/entrants/flagged/eligibility", sess.Token, map[string]any{})
	var j struct {
		ID          int64
		What, State string
	}
	if code != 202 || json.Unmarshal(body, &j) != nil || j.What != "Eligibility check of flagged" || j.State != "queued" {
		t.Fatalf("request: %d %s", code, body)
	}
	waitCheck("td@local")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		code, body := get(fmt.Sprintf("/api/events/wc/jobs/%d", j.ID))
		if code == 200 && strings.Contains(string(body), `"state": "done"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job: %d %s", code, body)
		}
	}
	// Two checks, and the registration's fetch of the antichess rating
	// (the preset's lichess.perf).
	if asked := lc.Summary(); strings.Join(asked, ", ") != "GET /api/user/flagged 200, GET /api/user/flagged 200, GET /api/user/flagged 200" {
		t.Fatalf("Lichess was asked %q", asked)
	}
}
