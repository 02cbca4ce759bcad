package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestLichessFakeRehearsal runs 'arbiter lichess fake' on a free port:
// the organiser's token it prints (and writes) has every scope, any name
// is a player, and a game created as an open challenge is finished
// through the control endpoint, then imported by id.
func TestLichessFakeRehearsal(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tokFile := filepath.Join(t.TempDir(), "token")
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, &env{stdin: strings.NewReader(""), stdout: pw, stderr: io.Discard},
			[]string{"lichess", "fake", "--addr", "127.0.0.1:0", "--seed", "3", "--token-file", tokFile})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var url, printed string
	for sc.Scan() && (url == "" || printed == "") {
		if m := regexp.MustCompile(`^Fake Lichess at (http://127\.0\.0\.1:\d+)$`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
		if m := regexp.MustCompile(`every scope\): (lip_\w+)$`).FindStringSubmatch(sc.Text()); m != nil {
			printed = m[1]
		}
	}
	go io.Copy(io.Discard, pr)
	if url == "" || printed == "" {
		t.Fatalf("no URL or token printed (exit %d)", <-code)
	}
	b, _ := os.ReadFile(tokFile)
	if strings.TrimSpace(string(b)) != printed {
		t.Fatalf("token file %q, printed %q", b, printed)
	}
	c, err := lichess.New(lichess.Options{BaseURL: url, Token: printed, MinInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.CheckToken(ctx, printed)
	if err != nil || !slices.Equal(info.Scopes, lichesstest.AllScopes) {
		t.Fatalf("token %+v %v", info, err)
	}
	ch, err := c.OpenChallenge(ctx, lichess.OpenChallengeRequest{Users: [2]string{"PlayerA", "PlayerB"},
		GameSettings: lichess.GameSettings{Rated: true, Clock: &lichess.Clock{Initial: 60, Increment: 2}, Variant: lichess.VariantAntichess}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ch.URLWhite, url+"/") {
		t.Errorf("game links %q point elsewhere than the fake", ch.URLWhite)
	}
	res, err := http.Post(url+"/_fake/finish?result=black&id="+ch.ID, "", nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("finish: %v %v", res, err)
	}
	res.Body.Close()
	games, err := c.GamesByID(ctx, []string{ch.ID})
	if err != nil || len(games) != 1 || games[0].Winner != "black" || games[0].White.UserID != "playera" || games[0].Status != lichess.StatusVariantEnd {
		t.Fatalf("games %+v %v", games, err)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("exit %d", c)
	}
}

// TestServeOrganiserToken: serve checks the organiser's token at start
// with POST /api/token/test and logs its scopes and what a missing scope
// turns off; a token Lichess refuses stops the start.
func TestServeOrganiserToken(t *testing.T) {
	f := lichesstest.Start(t, lichesstest.Options{})
	f.AddToken("lip_org", "organiser", lichess.ScopeChallengeWrite, lichess.ScopeMsgWrite)
	dir := t.TempDir()
	tokFile := filepath.Join(dir, "token")
	os.WriteFile(tokFile, []byte("lip_org\n"), 0o600)
	s := startServe(t, "--db", testDB(t), "--lichess-url", f.URL, "--lichess-token-file", tokFile)
	code, log := s.stop(t)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, log)
	}
	for _, want := range []string{`msg="organiser's Lichess token" user=organiser scopes=challenge:write,msg:write`,
		`msg="Bulk pairing is off: the organiser's token lacks challenge:bulk. Games are created as open challenges instead." feature=bulk_pairing missing_scope=challenge:bulk`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s\n%s", want, log)
		}
	}
	if strings.Contains(log, "feature=messages") {
		t.Errorf("messages reported off with msg:write:\n%s", log)
	}
	if asked := f.Asked("POST /api/token/test"); len(asked) != 1 || asked[0].Body != "lip_org" {
		t.Errorf("token test %+v", asked)
	}

	os.WriteFile(tokFile, []byte("lip_revoked\n"), 0o600)
	code, _, stderr := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--db", testDB(t), "--lichess-url", f.URL, "--lichess-token-file", tokFile)
	if code == 0 || !strings.Contains(stderr, "Lichess does not accept the organiser's token") {
		t.Errorf("revoked token: exit %d\n%s", code, stderr)
	}
	// $LICHESS_TOKEN is the default.
	t.Setenv("LICHESS_TOKEN", "lip_org")
	s = startServe(t, "--db", testDB(t), "--lichess-url", f.URL)
	if _, log := s.stop(t); !strings.Contains(log, "user=organiser") {
		t.Errorf("$LICHESS_TOKEN not checked:\n%s", log)
	}
}

// TestServeSignInWithFake: 'serve --lichess-url FAKE' signs a player in
// through the fake's consent page (OAuth2 with PKCE, no scope asked).
func TestServeSignInWithFake(t *testing.T) {
	t.Parallel()
	f := lichesstest.Start(t, lichesstest.Options{AutoUsers: true})
	s := startServe(t, "--db", testDB(t), "--lichess-url", f.URL)
	defer s.stop(t)
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	res, err := hc.Get("http://" + s.addr + "/auth/lichess")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	consent := res.Request.URL
	if res.StatusCode != 200 || !strings.HasPrefix(consent.String(), f.URL+"/oauth?") || consent.Query().Get("scope") != "" ||
		!strings.Contains(string(body), "Sign in as") {
		t.Fatalf("consent %d %s\n%s", res.StatusCode, consent, body)
	}
	q := consent.Query()
	q.Set("as", "PlayerA")
	res, err = hc.Get(f.URL + "/oauth?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "Signed in as </span><strong>PlayerA</strong>") {
		t.Fatalf("after sign-in %d %s\n%s", res.StatusCode, res.Request.URL, body)
	}
	if asked := f.Summary(); strings.Join(asked, ", ") != "POST /api/token 200, GET /api/account 200" {
		t.Errorf("fake asked %v", asked)
	}
}
