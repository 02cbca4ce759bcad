package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestLocalTDSharedWithWeb: the CLI acts as td@local, the web app's local
// TD account, so an event made on one is run on the other; 'arbiter td
// password' gives that account a new password (the old sessions end), and
// 'event officials' adds and removes co-TDs.
func TestLocalTDSharedWithWeb(t *testing.T) {
	db := testDB(t)
	cli := func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", append(args, "--db", db)...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, stdout, stderr)
		}
		return stdout + stderr
	}
	cli(0, "event", "create", "cli-made", "--preset", "acwc-2023", "--start", "2031-03-17T18:00Z")
	if out := cli(0, "event", "officials", "cli-made"); !strings.HasPrefix(out, "td@local\ttd\n") {
		t.Fatalf("officials of an event made on the CLI: %q", out)
	}
	out := cli(0, "td", "password")
	m := regexp.MustCompile(`account td@local now has the password (\S+)\n`).FindStringSubmatch(out)
	if m == nil || len(m[1]) < 10 {
		t.Fatalf("td password: %q", out)
	}
	s := startServe(t, "--db", db)
	defer s.stop(t)
	do := func(method, path, token string, body any) (int, []byte) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, "http://"+s.addr+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(res.Body)
		return res.StatusCode, buf.Bytes()
	}
	signIn := func(pw string) string {
		t.Helper()
		code, body := do("POST", "/api/session", "", map[string]string{"username": "td@local", "password": pw})
		var sess struct{ Token string }
		if code != 201 || json.Unmarshal(body, &sess) != nil || sess.Token == "" {
			t.Fatalf("session with %q: %d %s", pw, code, body)
		}
		return sess.Token
	}
	token := signIn(m[1])
	// The event made on the CLI is the web TD's: its audit log is open to them.
	if code, body := do("GET", "/api/events/cli-made/audit", token, nil); code != 200 {
		t.Fatalf("audit of the CLI's event on the web: %d %s", code, body)
	}
	// An event made on the web is the CLI's.
	if code, body := do("POST", "/api/events", token, map[string]string{"slug": "web-made", "preset": "acwc-2023", "start": "2031-03-17T18:00Z"}); code != 201 {
		t.Fatalf("create on the web: %d %s", code, body)
	}
	cli(0, "event", "officials", "web-made", "add", "Bob")
	if out := cli(0, "event", "officials", "web-made"); out != "bob\ttd\ntd@local\ttd\n" {
		t.Fatalf("officials after add: %q", out)
	}
	cli(1, "event", "officials", "web-made", "add", "bob") // already a TD
	cli(0, "event", "officials", "web-made", "remove", "td@local", "--as", "bob")
	if out := cli(1, "event", "officials", "web-made", "remove", "bob", "--as", "bob"); !strings.Contains(out, "only TD") {
		t.Fatalf("removing the last TD: %q", out)
	}
	// A new password signs td@local out everywhere.
	out = cli(0, "td", "password")
	if code, _ := do("GET", "/api/events/cli-made/audit", token, nil); code != 401 {
		t.Fatalf("the old session still works after the reset: %d", code)
	}
	m2 := regexp.MustCompile(`password (\S+)\n`).FindStringSubmatch(out)
	if m2 == nil || m2[1] == m[1] {
		t.Fatalf("second reset: %q", out)
	}
	signIn(m2[1])
	if code, _ := do("POST", "/api/session", "", map[string]string{"username": "td@local", "password": m[1]}); code == 201 {
		t.Fatal("the old password still signs in")
	}
}
