package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter/sqlstore/storetest"
)

// TestSeveralServeProcessesPostgres runs three 'arbiter serve' on one
// PostgreSQL database, as three processes behind a load balancer would
// (each with its own connection pool, caches and background jobs), and
// checks they behave as one: a change made through one reaches a live
// page held open on another, and another's pages at once; failed sign-ins
// through one delay the next try through another; the deadline job runs
// in one of them only. Skipped unless $ARBITER_TEST_POSTGRES names a
// server.
func TestSeveralServeProcessesPostgres(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	t.Setenv("ARBITER_TD_PASSWORD", "a-long-password")
	var procs []*servedCLI
	for range 3 {
		// The deadline job ticks once an hour: each process tries its
		// lease once, at start, and exactly one gets it.
		procs = append(procs, startServe(t, "--db", dsn, "--deadline-check", "1h"))
	}
	a, b, c := procs[0], procs[1], procs[2]

	token := a.signIn(t, "td@local", "a-long-password", 201)
	a.api(t, token, "POST", "/api/events", `{"slug": "cup", "preset": "antichess-team-cup", "start": "2027-01-05"}`, 201)

	// A live page of the event on b; a change through a; b's stream tells.
	stream := b.live(t, "/events/cup/live")
	a.api(t, token, "POST", "/api/events/cup/officials", `{"user": "SecondTD"}`, 200)
	if ev := stream.waitChange(t, 10*time.Second); ev == "" {
		t.Fatal("the change made through one process did not reach the live stream of another")
	}
	// c shows it at once (read-your-writes across processes).
	if body := c.api(t, token, "GET", "/api/events/cup/audit", "", 200); !strings.Contains(body, "secondtd") {
		t.Fatalf("the audit log read through a third process lacks the change: %s", body)
	}

	// Sign-in throttle shared: five wrong passwords through a and b, the
	// next try through c is delayed.
	for i := range 5 {
		procs[i%2].signIn(t, "td@local", "wrong-password", 401)
	}
	c.signIn(t, "td@local", "a-long-password", 429)

	// One deadline job among the three.
	runs := 0
	for i, p := range procs {
		code, log := p.stop(t)
		if code != 0 {
			t.Fatalf("process %d exited %d:\n%s", i, code, log)
		}
		runs += strings.Count(log, `msg="deadline job runs in this process"`)
	}
	if runs != 1 {
		t.Fatalf("the deadline job ran in %d processes, want 1", runs)
	}
}

// signIn posts to /api/session and checks the status; it returns the
// token on success.
func (s *servedCLI) signIn(t *testing.T, user, password string, want int) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"username": user, "password": password})
	code, body := s.do(t, "", "POST", "/api/session", string(b))
	if code != want {
		t.Fatalf("%s: sign-in as %s: %d, want %d: %s", s.addr, user, code, want, body)
	}
	var out struct{ Token string }
	json.Unmarshal([]byte(body), &out)
	return out.Token
}

func (s *servedCLI) api(t *testing.T, token, method, path, body string, want int) string {
	t.Helper()
	code, out := s.do(t, token, method, path, body)
	if code != want {
		t.Fatalf("%s: %s %s: %d, want %d: %s", s.addr, method, path, code, want, out)
	}
	return out
}

func (s *servedCLI) do(t *testing.T, token, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+s.addr+path, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// liveStream reads the "event:" lines of a server-sent events stream.
type liveStream struct{ events chan string }

func (s *servedCLI) live(t *testing.T, path string) *liveStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", (&url.URL{Scheme: "http", Host: s.addr, Path: path}).String(), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	ls := &liveStream{events: make(chan string, 16)}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				ls.events <- ev
			}
		}
	}()
	return ls
}

func (ls *liveStream) waitChange(t *testing.T, within time.Duration) string {
	t.Helper()
	select {
	case ev := <-ls.events:
		return ev
	case <-time.After(within):
		return ""
	}
}
