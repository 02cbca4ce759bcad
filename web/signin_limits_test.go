package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"arbiter/app"
)

// signInFrom posts the password form as the client at addr.
func (f *fixture) signInFrom(addr, username, password, next string) (*http.Response, string) {
	form := url.Values{"username": {username}, "password": {password}}
	if next != "" {
		form.Set("next", next)
	}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = addr + ":4242"
	return f.send(req)
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestFailedSignInsKeepHeapFlat (issue 12, high): thousands of failed
// sign-ins under unique names, some of them huge, leave the live heap
// where it was. Huge names are refused before anything is kept; the
// failures of short ones are counted in the database, not in memory.
func TestFailedSignInsKeepHeapFlat(t *testing.T) {
	f := newFixture(t)
	if _, err := f.app.EnsureLocalTD(context.Background(), "a-long-password"); err != nil {
		t.Fatal(err)
	}
	f.do(t, "GET", "/login") // warm the templates and pools
	before := liveHeap()
	huge := strings.Repeat("x", 20_000)
	for i := range 1000 {
		res, _ := f.signInFrom(fmt.Sprintf("10.1.%d.%d", i/250, i%250), fmt.Sprintf("%s%d", huge, i), "guess-guess", "")
		if res.StatusCode == http.StatusSeeOther || res.StatusCode >= 500 {
			t.Fatalf("huge name %d: status %d", i, res.StatusCode)
		}
	}
	for i := range 2000 {
		res, _ := f.signInFrom(fmt.Sprintf("10.2.%d.%d", i/250, i%250), fmt.Sprintf("user%d@local", i), "guess-guess", "")
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("unique name %d: status %d, want 401", i, res.StatusCode)
		}
	}
	after := liveHeap()
	// 1000 names of 20 kB kept in memory would be 20 MB; the bound leaves
	// room for pools and caches that settle.
	if grew := int64(after) - int64(before); grew > 4<<20 {
		t.Fatalf("the live heap grew by %d kB over 3000 failed sign-ins with unique names", grew>>10)
	}
}

// TestUnknownAccountCostsAHash: a wrong password for an existing account
// and any password for an unknown one both compute one password hash, so
// their answers take the same time and do not tell which accounts exist.
func TestUnknownAccountCostsAHash(t *testing.T) {
	f := newFixture(t)
	if _, err := f.app.EnsureLocalTD(context.Background(), "a-long-password"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LocalTD, "nobody@local", "no-such-user"} {
		n := app.PasswordHashes()
		res, body := f.signInFrom("192.0.2.10", name, "wrong-password", "")
		wantStatus(t, res, body, 401)
		if got := app.PasswordHashes() - n; got != 1 {
			t.Errorf("%s: %d password hashes computed, want 1", name, got)
		}
	}
}

// TestSignedInTDKeepsWorking: while failed sign-ins delay further tries
// for td@local, the TD's open session works as before.
func TestSignedInTDKeepsWorking(t *testing.T) {
	f := newFixture(t)
	pw, _ := f.app.EnsureLocalTD(context.Background(), "a-long-password")
	res, body := f.signInFrom("192.0.2.20", LocalTD, pw, "")
	wantStatus(t, res, body, 303)
	session := cookieOf(res, sessionCookie).Value
	for range 12 {
		f.signInFrom("198.51.100.66", LocalTD, "guess-guess", "")
	}
	if res, body := f.signInFrom("198.51.100.66", LocalTD, pw, ""); res.StatusCode != 429 {
		t.Fatalf("the attacker's address is not delayed: %d\n%s", res.StatusCode, body)
	}
	res, body = f.as(t, session, "GET", "/", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Signed in as </span><strong>td@local</strong>")
}

// TestSignInRefusesOversizedInput: a 5 MB form is refused before it is
// read, and a long account name before anything is counted or stored.
func TestSignInRefusesOversizedInput(t *testing.T) {
	f := newFixture(t)
	res, body := f.signInFrom("192.0.2.30", strings.Repeat("n", 5<<20), "guess-guess", "")
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("5 MB name: status %d, want 400\n%.300s", res.StatusCode, body)
	}
	res, body = f.signInFrom("192.0.2.30", strings.Repeat("n", 65), "guess-guess", "")
	wantStatus(t, res, body, 400)
	wantContains(t, body, "at most 64 characters")
	var rows int
	if err := f.db.SQLDB().QueryRow(`SELECT COUNT(*) FROM limits`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d counters stored (%v), want none", rows, err)
	}
}

// hostileNext are "next" values that a browser would follow to another
// host, or that are not a clean path.
var hostileNext = []string{
	"/\t/evil.example", "/%09/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/ /evil.example",
	"//evil.example/x", "/\\evil.example", "/%5Cevil.example", "\\\\evil.example", "https://evil.example/",
	"http:/evil.example", "javascript:alert(1)", "/%2F/evil.example", "/a/../../evil.example", "/\u202e/x",
	"", "evil.example",
}

// TestNextIsACleanLocalPath (issue 12, medium): after a password sign-in
// the browser goes only to a clean path on this host.
func TestNextIsACleanLocalPath(t *testing.T) {
	f := newFixture(t)
	pw, _ := f.app.EnsureLocalTD(context.Background(), "a-long-password")
	for _, next := range hostileNext {
		res, body := f.signInFrom("192.0.2.40", LocalTD, pw, next)
		wantStatus(t, res, body, 303)
		if loc := res.Header.Get("Location"); loc != "/" {
			t.Errorf("next=%q: redirected to %q, want /", next, loc)
		}
	}
	for next, want := range map[string]string{"/formats": "/formats", "/formats/acwc-2023?entrants=40": "/formats/acwc-2023?entrants=40",
		"/events/atc/": "/events/atc/", "/events/atc#standings": "/events/atc"} {
		res, _ := f.signInFrom("192.0.2.40", LocalTD, pw, next)
		if loc := res.Header.Get("Location"); loc != want {
			t.Errorf("next=%q: redirected to %q, want %q", next, loc, want)
		}
	}
}

// TestLichessNextIsACleanLocalPath: the same for sign-in with Lichess,
// where the path travels through Lichess in a cookie.
func TestLichessNextIsACleanLocalPath(t *testing.T) {
	fl := newFakeLichess(t, "DrNykterstein")
	f := newFixtureWithLichess(t, fl)
	for _, next := range hostileNext {
		start := httptest.NewRequest("GET", "/auth/lichess?next="+url.QueryEscape(next), nil)
		res, body := f.send(start)
		wantStatus(t, res, body, 302)
		consent, _ := url.Parse(res.Header.Get("Location"))
		fl.challenge = consent.Query().Get("code_challenge")
		req := httptest.NewRequest("GET", "/auth/lichess/callback?code=good-code&state="+url.QueryEscape(consent.Query().Get("state")), nil)
		req.AddCookie(cookieOf(res, oauthCookie))
		res, body = f.send(req)
		wantStatus(t, res, body, 303)
		if loc := res.Header.Get("Location"); loc != "/" {
			t.Errorf("next=%q: redirected to %q after Lichess sign-in, want /", next, loc)
		}
	}
}
