package main

import (
	"bufio"
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

// TestServeStartsAndShutsDown runs 'arbiter serve' on a free port with a
// new SQLite file, checks /healthz and a page, then cancels the context
// (what SIGINT does) and expects a clean exit.
func TestServeStartsAndShutsDown(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "web.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: pw}, []string{"serve", "--addr", "127.0.0.1:0", "--db", dbPath})
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	var addr string
	var logs []string
	for lines.Scan() {
		logs = append(logs, lines.Text())
		if m := regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(lines.Text()); m != nil {
			addr = m[1]
			break
		}
	}
	if addr == "" {
		t.Fatalf("no listening line; exit %v; log:\n%s", <-code, strings.Join(logs, "\n"))
	}
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(pr) // keep draining the log until the command exits
		rest <- string(b)
	}()
	if _, err := os.Stat(dbPath); err != nil {
		t.Errorf("the SQLite file was not created: %v", err)
	}

	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health map[string]string
	err = json.NewDecoder(res.Body).Decode(&health)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 || health["status"] != "ok" || health["db"] != "ok" {
		t.Fatalf("healthz: %d %v %v", res.StatusCode, health, err)
	}
	res, err = http.Get("http://" + addr + "/formats")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/formats: %d", res.StatusCode)
	}

	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit status %d", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after the context was cancelled")
	}
	log := <-rest
	for _, want := range []string{`path=/healthz`, `status=200`, `msg="shutting down"`, `msg=stopped`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
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
		{[]string{"serve", "--db", filepath.Join(t.TempDir(), "a.db"), "--addr", "127.0.0.1:notaport"}, 3, "cannot listen on 127.0.0.1:notaport"},
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
