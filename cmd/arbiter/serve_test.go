package main

import (
	"arbiter/format"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// servedCLI is an 'arbiter serve' running in-process on a free port.
type servedCLI struct {
	addr   string
	cancel context.CancelFunc
	code   chan int
	rest   chan string
	stdout *bytes.Buffer // read it only after stop
}

// startServe runs 'arbiter serve --addr 127.0.0.1:0 ARGS...' and waits for
// its listening line.
func startServe(t *testing.T, args ...string) *servedCLI {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	s := &servedCLI{cancel: cancel, code: make(chan int, 1), rest: make(chan string, 1), stdout: new(bytes.Buffer)}
	go func() {
		s.code <- run(ctx, &env{stdin: strings.NewReader(""), stdout: s.stdout, stderr: pw}, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	var logs []string
	for lines.Scan() {
		logs = append(logs, lines.Text())
		if m := regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(lines.Text()); m != nil {
			s.addr = m[1]
			break
		}
	}
	if s.addr == "" {
		t.Fatalf("no listening line; exit %v; log:\n%s", <-s.code, strings.Join(logs, "\n"))
	}
	go func() {
		b, _ := io.ReadAll(pr) // keep draining the log until the command exits
		s.rest <- strings.Join(logs, "\n") + "\n" + string(b)
	}()
	return s
}

// get fetches a path and returns the status and body.
func (s *servedCLI) get(t *testing.T, path string) (int, string) {
	t.Helper()
	res, err := http.Get("http://" + s.addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// stop cancels the context (what SIGINT does) and returns the exit status and the log.
func (s *servedCLI) stop(t *testing.T) (int, string) {
	t.Helper()
	s.cancel()
	select {
	case c := <-s.code:
		return c, <-s.rest
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after the context was cancelled")
	}
	return 0, ""
}

// TestServeStartsAndShutsDown runs 'arbiter serve' on a free port with a
// new SQLite file, checks /healthz and a page, then cancels the context
// and expects a clean exit.
func TestServeStartsAndShutsDown(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "web.db")
	s := startServe(t, "--db", dbPath)
	if _, err := os.Stat(dbPath); err != nil {
		t.Errorf("the SQLite file was not created: %v", err)
	}
	code, body := s.get(t, "/healthz")
	var health map[string]string
	if err := json.Unmarshal([]byte(body), &health); err != nil || code != 200 || health["status"] != "ok" || health["db"] != "ok" {
		t.Fatalf("healthz: %d %v %v", code, health, err)
	}
	if code, _ := s.get(t, "/formats"); code != 200 {
		t.Fatalf("/formats: %d", code)
	}
	c, log := s.stop(t)
	if c != 0 {
		t.Fatalf("exit status %d", c)
	}
	for _, want := range []string{`path=/healthz`, `status=200`, `msg="shutting down"`, `msg=stopped`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestServeDemo starts the server with --demo: one live event per preset,
// listed on the home page with standings, and a second start on the same
// database neither fails nor duplicates them.
func TestServeDemo(t *testing.T) {
	dbPath := testDB(t)
	for range 2 {
		s := startServe(t, "--db", dbPath, "--demo")
		_, home := s.get(t, "/")
		for _, p := range format.Presets() {
			if n := strings.Count(home, `href="/events/demo-`+p+`"`); n != 1 {
				t.Errorf("home page links demo-%s %d times, want once", p, n)
			}
			if code, body := s.get(t, "/events/demo-"+p+"/standings"); code != 200 || !strings.Contains(body, "<table") {
				t.Errorf("standings of demo-%s: %d", p, code)
			}
		}
		if c, log := s.stop(t); c != 0 {
			t.Fatalf("exit status %d; log:\n%s", c, log)
		}
	}
}

// TestServeLocalTDPassword: the first start creates td@local and shows a
// random password once on standard output (never in the log); a password
// chosen in $ARBITER_TD_PASSWORD is not echoed; a second start says nothing.
func TestServeLocalTDPassword(t *testing.T) {
	dbPath := testDB(t)
	s := startServe(t, "--db", dbPath)
	_, log := s.stop(t)
	out := s.stdout.String()
	m := regexp.MustCompile(`local TD account td@local with password (\S+)\n`).FindStringSubmatch(out)
	if m == nil || len(m[1]) < 10 {
		t.Fatalf("first start's output %q: no password of 10 or more characters", out)
	}
	if strings.Contains(log, m[1]) {
		t.Errorf("the password is in the log:\n%s", log)
	}
	s = startServe(t, "--db", dbPath)
	s.stop(t)
	if out := s.stdout.String(); strings.Contains(out, "td@local") {
		t.Errorf("second start printed %q", out)
	}

	t.Setenv("ARBITER_TD_PASSWORD", "chosen-secret-42")
	s = startServe(t, "--db", testDB(t))
	_, log = s.stop(t)
	out = s.stdout.String()
	if !strings.Contains(out, "td@local with the password in $ARBITER_TD_PASSWORD") {
		t.Errorf("output %q does not say the password came from $ARBITER_TD_PASSWORD", out)
	}
	if strings.Contains(out+log, "chosen-secret-42") {
		t.Errorf("the chosen password was echoed:\n%s\n%s", out, log)
	}
}

func TestServeUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"serve", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--port", "80"}, 2, "flag provided but not defined: -port"},
		{[]string{"serve", "--log-format", "xml"}, 2, "--log-format must be text or json"},
		{[]string{"serve", "--db", "mysql://x"}, 3, "unsupported database URL"},
		{[]string{"serve", "--db", testDB(t), "--addr", "127.0.0.1:notaport"}, 3, "cannot listen on 127.0.0.1:notaport"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	code, _, stderr := runCLI(t, "", "serve", "--help")
	if code != 0 || !strings.Contains(stderr, "--addr") {
		t.Errorf("--help: exit %d, %q", code, stderr)
	}
}
