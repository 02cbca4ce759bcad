package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/app"
	"arbiter/sqlstore"
)

// Hashing at the production cost would make the suite slow; the cost is
// stored in each hash, so checking still runs the real code, and app's
// TestPasswordHashCost checks the real cost. One iteration: at 1000 the
// hashes were still 0.75 s of the package's CPU, 0.6 s of it in the
// sequential TestFailedSignInsKeepHeapFlat (2000 failed sign-ins), and no
// test here times a hash (TestUnknownAccountCostsAHash counts them).
func init() { app.PasswordIterations = 1 }

// signIn creates the user (a Lichess user, or a local account for a name
// ending in @local) if needed and returns a session token for it, as the
// sign-in pages would.
func (f *fixture) signIn(t testing.TB, name string) string {
	t.Helper()
	ctx := context.Background()
	var token string
	err := f.db.Tx(ctx, func(tx *sqlstore.Tx) error {
		u, err := sqlstore.GetUserByLichess(ctx, tx, name)
		if err != nil {
			ch := sqlstore.Change{Actor: sqlstore.Actor{Name: name, Role: "player"}}
			if strings.HasSuffix(name, sqlstore.LocalSuffix) {
				u, err = sqlstore.CreateLocalAccount(ctx, tx, ch, name, "unused")
			} else {
				u, err = sqlstore.UpsertUser(ctx, tx, ch, name, "")
			}
			if err != nil {
				return err
			}
		}
		token, err = sqlstore.NewSession(ctx, tx, u.ID, f.now.Add(sessionTTL))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// as sends a request with the session token's cookie; a form body when
// form is not nil.
func (f *fixture) as(t testing.TB, token, method, target string, form url.Values) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, target, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: token})
	}
	return f.send(req)
}

// apiAs sends a JSON request with a bearer token (none when token is ""),
// checks the status and decodes the answer into out when it is not nil.
func (f *fixture) apiAs(t testing.TB, token, method, target string, in any, want int, out any) *http.Response {
	t.Helper()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, target, body)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, text := f.send(req)
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d\n%s", method, target, res.StatusCode, want, text)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, target, err, text)
		}
	}
	return res
}

func (f *fixture) send(req *http.Request) (*http.Response, string) {
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	res := rec.Result()
	res.Request = req
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func cookieOf(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func TestLocalTDSignInAndOut(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	pw, err := f.app.EnsureLocalTD(ctx, "")
	if err != nil || len(pw) < app.MinPassword {
		t.Fatalf("EnsureLocalTD = %q, %v", pw, err)
	}
	if again, err := f.app.EnsureLocalTD(ctx, ""); err != nil || again != "" {
		t.Fatalf("second EnsureLocalTD = %q, %v; want nothing created", again, err)
	}
	res, body := f.as(t, "", "POST", "/login", url.Values{"username": {LocalTD}, "password": {"wrong-password"}, "next": {"/formats"}})
	wantStatus(t, res, body, 401)
	wantContains(t, body, "wrong account name or password", `value="td@local"`)
	if cookieOf(res, sessionCookie) != nil {
		t.Fatal("a wrong password set a session cookie")
	}

	res, body = f.as(t, "", "POST", "/login", url.Values{"username": {LocalTD}, "password": {pw}, "next": {"/formats"}})
	wantStatus(t, res, body, 303)
	if loc := res.Header.Get("Location"); loc != "/formats" {
		t.Errorf("redirected to %q, want /formats", loc)
	}
	c := cookieOf(res, sessionCookie)
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Value == "" {
		t.Fatalf("session cookie %+v", c)
	}
	res, body = f.as(t, c.Value, "GET", "/", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Signed in as </span><strong>td@local</strong>", `action="/logout"`)

	res, body = f.as(t, c.Value, "POST", "/logout", url.Values{})
	wantStatus(t, res, body, 303)
	if gone := cookieOf(res, sessionCookie); gone == nil || gone.MaxAge >= 0 {
		t.Errorf("sign-out did not clear the cookie: %+v", gone)
	}
	fl := cookieOf(res, flashCookie)
	if fl == nil {
		t.Fatal("sign-out set no flash message")
	}
	// The old token no longer signs anyone in; the flash shows once.
	req := httptest.NewRequest("GET", "/", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.Value})
	req.AddCookie(fl)
	res, body = f.send(req)
	wantContains(t, body, `href="/login"`, "You are signed out.", `role="status"`)
	if strings.Contains(body, "Signed in as") {
		t.Error("a deleted session still signs in")
	}
	if cleared := cookieOf(res, flashCookie); cleared == nil || cleared.MaxAge >= 0 {
		t.Errorf("the flash cookie was not cleared: %+v", cleared)
	}
}

// TestLocalSignInThrottled: wrong passwords from one address slow that
// address down with growing delays (429 with Retry-After), not a lock:
// the owner at another address signs in at once, and the delayed address
// may try again once its wait is over.
func TestLocalSignInThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pw, err := f.app.EnsureLocalTD(context.Background(), "a-long-password")
	if err != nil || pw != "a-long-password" {
		t.Fatal(pw, err)
	}
	from := func(addr, password string) (*http.Response, string) {
		req := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"username": {LocalTD}, "password": {password}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.RemoteAddr = addr + ":4242"
		return f.send(req)
	}
	for range 5 {
		res, body := from("198.51.100.7", "guess")
		wantStatus(t, res, body, 401)
	}
	res, body := from("198.51.100.7", pw)
	wantStatus(t, res, body, 429)
	wantContains(t, body, "too many failed sign-ins; wait 1 second")
	if ra := res.Header.Get("Retry-After"); ra != "1" {
		t.Errorf("Retry-After %q, want 1", ra)
	}
	// The TD elsewhere is not locked out.
	res, body = from("203.0.113.9", pw)
	wantStatus(t, res, body, 303)
	// Each further failure doubles the wait: 1 s, then 2 s.
	f.now = f.now.Add(time.Second)
	res, body = from("198.51.100.7", "guess")
	wantStatus(t, res, body, 401)
	res, body = from("198.51.100.7", pw)
	wantStatus(t, res, body, 429)
	if ra := res.Header.Get("Retry-After"); ra != "2" {
		t.Errorf("Retry-After %q after the 6th failure, want 2", ra)
	}
	f.now = f.now.Add(2 * time.Second)
	res, body = from("198.51.100.7", pw)
	wantStatus(t, res, body, 303)
}

func TestSignInNeverRedirectsOffSite(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pw, _ := f.app.EnsureLocalTD(context.Background(), "a-long-password")
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"} {
		res, body := f.as(t, "", "POST", "/login", url.Values{"username": {LocalTD}, "password": {pw}, "next": {next}})
		wantStatus(t, res, body, 303)
		if loc := res.Header.Get("Location"); loc != "/" {
			t.Errorf("next=%q redirected to %q, want /", next, loc)
		}
	}
	if _, err := newFixture(t).app.EnsureLocalTD(context.Background(), "short"); err == nil {
		t.Error("a 5-character local TD password was accepted")
	}
}

// fakeLichess is the part of Lichess's OAuth2 server that sign-in uses:
// the token endpoint (which checks the PKCE verifier against the
// challenge of the consent step) and the account endpoint.
type fakeLichess struct {
	srv       *httptest.Server
	challenge string // from the consent redirect
	username  string // who signs in
	token     string
}

func newFakeLichess(t *testing.T, username string) *fakeLichess {
	fl := &fakeLichess{username: username, token: "lio_fake_token"}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/token", func(w http.ResponseWriter, r *http.Request) {
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		if r.PostFormValue("grant_type") != "authorization_code" || r.PostFormValue("code") != "good-code" ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != fl.challenge || r.PostFormValue("client_id") != "arbiter-test" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"token_type":"Bearer","access_token":"`+fl.token+`","expires_in":31536000}`)
	})
	mux.HandleFunc("GET /api/account", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+fl.token {
			http.Error(w, `{"error":"No such token"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"`+strings.ToLower(fl.username)+`","username":"`+fl.username+`"}`)
	})
	fl.srv = httptest.NewServer(mux)
	t.Cleanup(fl.srv.Close)
	return fl
}

func newFixtureWithLichess(t *testing.T, fl *fakeLichess) *fixture {
	f := newFixture(t)
	srv, err := New(Config{App: f.app, Lichess: LichessAuth{BaseURL: fl.srv.URL, ClientID: "arbiter-test", HTTPClient: fl.srv.Client()}})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	return f
}

func TestSignInWithLichess(t *testing.T) {
	t.Parallel()
	fl := newFakeLichess(t, "DrNykterstein")
	f := newFixtureWithLichess(t, fl)
	start := httptest.NewRequest("GET", "/auth/lichess?next=/formats", nil)
	start.Host = "arbiter.test"
	res, body := f.send(start)
	wantStatus(t, res, body, 302)
	consent, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(consent.String(), fl.srv.URL+"/oauth?") {
		t.Fatalf("consent redirect %q", res.Header.Get("Location"))
	}
	q := consent.Query()
	if q.Get("response_type") != "code" || q.Get("client_id") != "arbiter-test" || q.Get("code_challenge_method") != "S256" ||
		q.Get("redirect_uri") != "http://arbiter.test/auth/lichess/callback" || q.Get("state") == "" || len(q.Get("code_challenge")) != 43 {
		t.Fatalf("consent query %v", q)
	}
	fl.challenge = q.Get("code_challenge")
	oc := cookieOf(res, oauthCookie)
	if oc == nil || !oc.HttpOnly || oc.Path != "/auth/lichess" {
		t.Fatalf("oauth cookie %+v", oc)
	}

	// A callback with another state is refused.
	req := httptest.NewRequest("GET", "/auth/lichess/callback?code=good-code&state=forged", nil)
	req.AddCookie(oc)
	res, body = f.send(req)
	wantStatus(t, res, body, 400)

	req = httptest.NewRequest("GET", "/auth/lichess/callback?code=good-code&state="+url.QueryEscape(q.Get("state")), nil)
	req.Host = "arbiter.test"
	req.AddCookie(oc)
	res, body = f.send(req)
	wantStatus(t, res, body, 303)
	if loc := res.Header.Get("Location"); loc != "/formats" {
		t.Errorf("after sign-in redirected to %q", loc)
	}
	sc := cookieOf(res, sessionCookie)
	if sc == nil {
		t.Fatal("no session cookie after sign-in")
	}
	res, body = f.as(t, sc.Value, "GET", "/", nil)
	wantContains(t, body, "Signed in as </span><strong>DrNykterstein</strong>")
	if _, err := sqlstore.GetUserByLichess(context.Background(), f.db, "drnykterstein"); err != nil {
		t.Fatal(err)
	}
	// The Lichess token is not kept anywhere.
	if strings.Contains(f.logs.String(), fl.token) {
		t.Error("the Lichess token was logged")
	}

	// A code Lichess refuses (wrong verifier or code) gives no session.
	fl.challenge = "other"
	res, body = f.send(req)
	wantStatus(t, res, body, 502)
	if cookieOf(res, sessionCookie) != nil {
		t.Error("a refused code set a session")
	}
	// The user declined on Lichess.
	req = httptest.NewRequest("GET", "/auth/lichess/callback?error=access_denied&state=x", nil)
	req.AddCookie(oc)
	res, body = f.send(req)
	wantStatus(t, res, body, 401)
}

func TestAPISessions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pw, _ := f.app.EnsureLocalTD(context.Background(), "a-long-password")
	var e apiErr
	f.apiAs(t, "", "POST", "/api/session", map[string]string{"username": LocalTD, "password": "nope-nope-nope"}, 401, &e)
	f.apiAs(t, "", "POST", "/api/session", map[string]string{"username": LocalTD, "pass": pw}, 400, &e)
	if e.Error.Field != "pass" {
		t.Errorf("unknown field error %+v", e.Error)
	}
	var sess apiSession
	res := f.apiAs(t, "", "POST", "/api/session", map[string]string{"username": LocalTD, "password": pw}, 201, &sess)
	if sess.Token == "" || sess.User.Username != LocalTD || !sess.User.Local || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("session %+v", sess)
	}
	var me apiUser
	f.apiAs(t, sess.Token, "GET", "/api/me", nil, 200, &me)
	if me.Username != LocalTD {
		t.Errorf("me %+v", me)
	}
	f.apiAs(t, "forged", "GET", "/api/me", nil, 401, &e)
	f.apiAs(t, sess.Token, "DELETE", "/api/session", nil, 204, nil)
	f.apiAs(t, sess.Token, "GET", "/api/me", nil, 401, &e)
	// A browser's cookie works for the API too.
	tok := f.signIn(t, "somebody")
	res, body := f.as(t, tok, "GET", "/api/me", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `"username": "somebody"`)
}

func TestDemoSignInOnlyWhenOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.as(t, "", "POST", "/login/demo", url.Values{"username": {"cap01"}})
	wantStatus(t, res, body, 404)
	if cookieOf(res, sessionCookie) != nil {
		t.Fatal("demo sign-in worked on a server without demo mode")
	}
	_, body = f.do(t, "GET", "/login")
	if strings.Contains(body, "demo-sign-in") {
		t.Error("the login page offers demo sign-in without demo mode")
	}

	srv, err := New(Config{App: f.app, DemoSignIn: true})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	_, body = f.do(t, "GET", "/login")
	wantContains(t, body, `id="demo-sign-in"`, "<code>td@local</code>")
	res, body = f.as(t, "", "POST", "/login/demo", url.Values{"username": {"cap01"}, "next": {"/formats"}})
	wantStatus(t, res, body, 303)
	c := cookieOf(res, sessionCookie)
	if c == nil || res.Header.Get("Location") != "/formats" {
		t.Fatalf("demo sign-in: cookie %v, location %q", c, res.Header.Get("Location"))
	}
	_, body = f.as(t, c.Value, "GET", "/", nil)
	wantContains(t, body, "Signed in as </span><strong>cap01</strong>")
	// Local accounts keep their password even in demo mode.
	res, body = f.as(t, "", "POST", "/login/demo", url.Values{"username": {LocalTD}})
	wantStatus(t, res, body, 303)
	if cookieOf(res, sessionCookie) != nil {
		t.Error("demo sign-in as the local TD")
	}
}

// TestSignedInAnswersArePrivate: a page or API answer to a request with a
// session is "private" (what it shows depends on who asks), an anonymous
// one may be stored by a shared cache but revalidated, and both vary with
// the credentials.
func TestSignedInAnswersArePrivate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tok := f.signIn(t, "alice")
	cases := []struct {
		name, want string
		res        *http.Response
	}{
		{"anonymous page", "no-cache", first(f.do(t, "GET", "/events/atc/standings"))},
		{"signed-in page", "private, no-cache", first(f.as(t, tok, "GET", "/events/atc/standings", nil))},
		{"anonymous API", "no-cache", first(f.do(t, "GET", "/api/events/atc/standings"))},
		{"API with a bearer token", "private, no-cache", f.apiAs(t, tok, "GET", "/api/events/atc/standings", nil, 200, nil)},
		{"API error with a token", "private, no-cache", f.apiAs(t, tok, "GET", "/api/events/zz", nil, 404, nil)},
	}
	for _, c := range cases {
		if got := c.res.Header.Get("Cache-Control"); got != c.want {
			t.Errorf("%s: Cache-Control %q, want %q", c.name, got, c.want)
		}
		if vary := c.res.Header.Values("Vary"); !slices.Contains(vary, "Cookie") || !slices.Contains(vary, "Authorization") {
			t.Errorf("%s: Vary %q, want Cookie and Authorization", c.name, vary)
		}
	}
}

func first[A, B any](a A, _ B) A { return a }
