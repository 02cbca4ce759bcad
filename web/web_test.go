package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type fixture struct {
	srv  *Server
	db   *sqlstore.DB
	app  *app.Service
	now  time.Time // the app's clock; tests move it
	logs *lockedBuffer
}

// testOddsSims are the runs of the simulation every standings page of a
// running event starts (app.SetOddsSims): the page's tests check what is
// shown, not the precision, and the production default costs about 4 s of
// CPU per page and event state. No test of this package reads the
// figures of these default runs (TestAPIOdds asks for its own runs), yet
// at 100 runs they were a sixth of the package's CPU (5 s of 30 s):
// every standings page after a change starts one in the background.
const testOddsSims = 10

func newFixture(t testing.TB) *fixture {
	t.Helper()
	return newFixtureOn(t, testSQLite(t))
}

// testSQLiteDSN is a fresh, migrated SQLite database in t.TempDir() (a
// copy of storetest's template) opened without fsync: synchronous=OFF
// leaves a commit in the OS's cache instead of waiting for the disk. A
// test's database does not outlive the test, so durability across a
// power cut is nothing it checks, and on a disk (not tmpfs) the fsync of
// every commit was most of the wall time of the write-heavy tests
// (TestFailedSignInsKeepHeapFlat: 19 s wall for 4 s CPU, 6.6 s on tmpfs).
func testSQLiteDSN(t testing.TB) string {
	t.Helper()
	return "file:" + storetest.MigratedSQLiteDSN(t) + "?_pragma=synchronous(OFF)"
}

// testSQLite opens testSQLiteDSN, closed when the test ends.
func testSQLite(t testing.TB) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), testSQLiteDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newFixtureOn(t testing.TB, db *sqlstore.DB) *fixture {
	t.Helper()
	f := &fixture{db: db, logs: &lockedBuffer{}, now: time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)}
	f.app = app.New(db, func() time.Time { return f.now })
	f.app.SetOddsSims(testOddsSims)
	srv, err := New(Config{App: f.app, Logger: slog.New(slog.NewTextHandler(f.logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	return f
}

// do sends one request through the whole handler (middleware included).
func (f *fixture) do(t testing.TB, method, target string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	res := rec.Result()
	res.Request = req // for failure messages
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func wantStatus(t *testing.T, res *http.Response, body string, want int) {
	t.Helper()
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d\n%s", res.Request.Method, res.Request.URL, res.StatusCode, want, body)
	}
}

func wantContains(t *testing.T, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("body lacks %q", s)
		}
	}
}

func wantHTML(t *testing.T, res *http.Response, body string) {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	// The layout: language, skip link to the main landmark, stylesheet.
	wantContains(t, body, `<html lang="en">`, `<a class="skip" href="#main">`, `<main id="main"`, `/static/style.css?v=`)
}

func TestHomeWithoutEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	wantContains(t, body, "No events yet", `href="/formats/antichess-team-cup"`, `aria-current="page"`)
}

func TestHomeListsEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	err := f.db.Tx(ctx, func(tx *sqlstore.Tx) error {
		ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "alice", Role: arbiter.RoleTD}}
		_, err := sqlstore.CreateEvent(ctx, tx, ch, sqlstore.Event{Slug: "spring-cup", Name: "Spring <Cup> & co", Status: "registration"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res, body := f.do(t, "GET", "/")
	wantStatus(t, res, body, 200)
	// The name is escaped, not injected.
	wantContains(t, body, `<a href="/events/spring-cup">Spring &lt;Cup&gt; &amp; co</a>`, "registration")
	if strings.Contains(body, "No events yet") {
		t.Error("empty-state text shown with an event")
	}
}

func TestFormatsListsEveryPreset(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	names := format.Presets()
	if len(names) != 3 {
		t.Fatalf("presets %v: the three rulebooks expected", names)
	}
	for _, n := range names {
		p, err := format.Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		wantContains(t, html.UnescapeString(body), `href="/formats/`+n+`"`, p.Title)
	}
	wantContains(t, body, "<caption>Built-in formats</caption>", `scope="col"`)
}

// cells returns the text of the element marked data-test=name, in order.
func cells(body, name string) []string {
	re := regexp.MustCompile(`data-test="` + name + `">([^<]*)<`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

func TestFormatExplainAntichess12Teams(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/antichess-team-cup?entrants=12")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	// A9: 12 teams >= 10, so teams of 4. A18: 3 parts of 48 points per
	// board pair, 4 x 3 x 48 = 576 per match, 289 wins.
	mx, th := cells(body, "max-points"), cells(body, "win-threshold")
	if len(mx) == 0 || mx[0] != "576" || !strings.HasPrefix(th[0], "289 ") {
		t.Fatalf("first match: max %v, threshold %v; want 576 and 289", mx, th)
	}
	wantContains(t, body, "<title>Antichess Team Cup: 12 teams · Arbiter</title>", "<h1>Antichess Team Cup</h1>")
	if got := cells(body, "runs"); len(got) != 1 || got[0] != "yes" {
		t.Errorf("runs = %v", got)
	}
	// A18 parts: 2+5 12/6, 1+2 8/4, 0+2 6/3, each 48 per board pair
	// (so 4, 6 and 8 games).
	text := html.UnescapeString(body)
	wantContains(t, text,
		"<td>2+5</td><td>4</td><td>12</td><td>6</td><td>–</td><td>48</td>",
		"<td>1+2</td><td>6</td><td>8</td><td>4</td><td>–</td><td>48</td>",
		"<td>0+2</td><td>8</td><td>6</td><td>3</td><td>–</td><td>48</td>")
	wantContains(t, body, "4 players per match", "<caption>Calendar</caption>", "Negotiation of the playing time",
		`<input id="entrants" name="entrants"`, `value="12"`, `<label for="entrants">Number of teams</label>`)
}

func TestFormatExplainRKCC8Teams(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/rkcc-team-three-tc?entrants=8")
	wantStatus(t, res, body, 200)
	// R1: 8 teams play 5 Swiss rounds.
	if got := cells(body, "rounds"); len(got) == 0 || got[0] != "5" {
		t.Fatalf("rounds cells %v, want the Swiss stage at 5", got)
	}
	// R4: rounds open Monday 00:00, deadline Sunday 23:59 (UTC).
	wantContains(t, body, "Monday 00:00 UTC", "Sunday 23:59 UTC")
}

func TestFormatWithoutEntrantsShowsForm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/acwc-2023")
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<label for="entrants">Number of players</label>`, "Enter the number of players", "<caption>Calendar</caption>",
		// A plain GET form without JavaScript; htmx swaps the same region in place.
		`<form class="explain" method="get" action="/formats/acwc-2023"`, `hx-select="#explainer"`)
	if len(cells(body, "max-points")) != 0 {
		t.Error("explanation shown without entrants")
	}
}

func TestFormatBadEntrants(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, v := range []string{"abc", "-1", "10001", "", "1.5"} {
		res, body := f.do(t, "GET", "/formats/acwc-2023?entrants="+v)
		wantStatus(t, res, body, 400)
		wantContains(t, body, `aria-invalid="true"`, `aria-describedby="entrants-error"`, "enter a whole number from 0 to 10000")
		if len(cells(body, "max-points")) != 0 {
			t.Errorf("entrants=%q: explanation shown for bad input", v)
		}
	}
}

func TestFormatTooFewEntrantsDoesNotRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/antichess-team-cup?entrants=9")
	wantStatus(t, res, body, 200)
	// A9: the event runs only with at least 10 teams.
	if got := cells(body, "runs"); len(got) != 1 || !strings.HasPrefix(got[0], "no: needs at least 10 entrants") {
		t.Errorf("runs = %v", got)
	}
}

func TestUnknownPresetIs404(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/chess960")
	wantStatus(t, res, body, 404)
	wantHTML(t, res, body)
	wantContains(t, body, "<code>not_found</code>", "no preset &#34;chess960&#34;")
}

func TestUnknownPathIs404Page(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, p := range []string{"/nope", "/formats/acwc-2023/more", "/static/nope.js", "/apis"} {
		res, body := f.do(t, "GET", p)
		wantStatus(t, res, body, 404)
		wantHTML(t, res, body)
		wantContains(t, body, "<code>not_found</code>", "Request id")
	}
}

func TestWrongMethodIs405WithAllow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		res, body := f.do(t, m, "/formats")
		wantStatus(t, res, body, 405)
		wantHTML(t, res, body)
		if a := res.Header.Get("Allow"); a != "GET, HEAD" {
			t.Errorf("%s: Allow %q", m, a)
		}
		wantContains(t, body, "<code>method_not_allowed</code>")
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "POST", "/formats", "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	wantStatus(t, res, body, 403)
	wantHTML(t, res, body)
	wantContains(t, body, "Cross-origin requests that change data are refused")
}

func TestHeadAnswersWithoutBody(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	for _, p := range []string{"/", "/formats", "/formats/acwc-2023?entrants=40", "/healthz"} {
		res, err := http.Head(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(body) != 0 {
			t.Errorf("HEAD %s: status %d, %d body bytes", p, res.StatusCode, len(body))
		}
		if res.Header.Get("Content-Type") == "" {
			t.Errorf("HEAD %s: no Content-Type", p)
		}
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, p := range []string{"/", "/nope", "/healthz", "/static/style.css"} {
		res, _ := f.do(t, "GET", p)
		h := res.Header
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q", p, csp)
		}
		for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY"} {
			if h.Get(k) != v {
				t.Errorf("%s: %s = %q, want %q", p, k, h.Get(k), v)
			}
		}
		if len(h.Get("X-Request-Id")) != 16 {
			t.Errorf("%s: X-Request-Id %q", p, h.Get("X-Request-Id"))
		}
	}
}

func TestHealthOK(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/healthz")
	wantStatus(t, res, body, 200)
	var got map[string]string
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got["status"] != "ok" || got["db"] != "ok" || len(got) != 2 {
		t.Errorf("health %v", got)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
}

func TestHealthClosedDBIs503(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.db.Close()
	res, body := f.do(t, "GET", "/healthz")
	wantStatus(t, res, body, 503)
	var got map[string]string
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got["status"] != "error" || got["db"] != "unavailable" {
		t.Errorf("health %v", got)
	}
	if strings.Contains(body, "closed") {
		t.Errorf("the cause leaked into the answer: %s", body)
	}
	if !strings.Contains(f.logs.String(), "database is closed") {
		t.Errorf("the cause is not in the log:\n%s", f.logs.String())
	}
}

func TestInternalErrorShowsNoDetail(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.db.Close() // the home page's event list fails inside the store
	res, body := f.do(t, "GET", "/")
	wantStatus(t, res, body, 500)
	wantHTML(t, res, body)
	wantContains(t, body, "<code>internal</code>", "internal error")
	if strings.Contains(body, "closed") || strings.Contains(body, "sql") {
		t.Errorf("internal detail in the page:\n%s", body)
	}
	if !strings.Contains(f.logs.String(), "internal error") {
		t.Errorf("internal error not logged:\n%s", f.logs.String())
	}
}

func TestErrorCodesMapToStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, c := range []struct {
		err    error
		status int
		shown  string
	}{
		{arbiter.FieldError("lineup", "A12", "board order broken"), 400, "lineup: board order broken (rule A12)"},
		{arbiter.RuleError("R7", "lineup after the deadline"), 422, "lineup after the deadline (rule R7)"},
		{arbiter.Errorf(arbiter.ECONFLICT, "changed meanwhile"), 409, "changed meanwhile"},
		{arbiter.Errorf(arbiter.EFORBIDDEN, "TDs only"), 403, "TDs only"},
		{arbiter.Errorf(arbiter.EUNAUTHORIZED, "sign in"), 401, "sign in"},
		{arbiter.Errorf(arbiter.ENOPAIRING, "no pairing"), 422, "no pairing"},
		{&arbiter.Error{Code: arbiter.EINTERNAL, Message: "db", Err: errors.New("password=hunter2")}, 500, "internal error"},
		{errors.New("plain failure with secret"), 500, "internal error"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/x", nil)
		f.srv.fail(rec, req, c.err)
		body := rec.Body.String()
		if rec.Code != c.status || !strings.Contains(body, c.shown) {
			t.Errorf("%v: status %d, want %d with %q", c.err, rec.Code, c.status, c.shown)
		}
		if strings.Contains(body, "hunter2") || strings.Contains(body, "secret") {
			t.Errorf("%v: detail leaked", c.err)
		}
		if !strings.Contains(body, "<code>"+arbiter.ErrorCode(c.err)+"</code>") {
			t.Errorf("%v: code not shown", c.err)
		}
	}
}

func TestPanicBecomes500Page(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	h := f.srv.logRequests(f.srv.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom: secret state")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") {
		t.Fatalf("status %d body %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(f.logs.String(), "boom: secret state") || !strings.Contains(f.logs.String(), "status=500") {
		t.Errorf("panic not logged:\n%s", f.logs.String())
	}
}

func TestRequestLogHasNoQueryOrSecrets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.do(t, "GET", "/formats/acwc-2023?entrants=40&code=oauth-secret", "Cookie", "session=cookie-secret", "Authorization", "Bearer token-secret")
	logs := f.logs.String()
	for _, want := range []string{"msg=request", "method=GET", "path=/formats/acwc-2023", `route="GET /formats/{name}"`, "status=200", "duration=", "request_id="} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "secret") || strings.Contains(logs, "entrants=40") {
		t.Errorf("log holds the query or a secret:\n%s", logs)
	}
}

func TestStaticAssets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, home := f.do(t, "GET", "/")
	css := regexp.MustCompile(`href="(/static/style\.css\?v=[0-9a-f]{16})"`).FindStringSubmatch(home)
	js := regexp.MustCompile(`src="(/static/htmx\.min\.js\?v=[0-9a-f]{16})"`).FindStringSubmatch(home)
	if css == nil || js == nil {
		t.Fatalf("versioned asset links missing:\n%s", home)
	}
	res, body := f.do(t, "GET", css[1])
	wantStatus(t, res, body, 200)
	if ct := res.Header.Get("Content-Type"); ct != "text/css; charset=utf-8" {
		t.Errorf("css Content-Type %q", ct)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("versioned css Cache-Control %q", cc)
	}
	wantContains(t, body, ":focus-visible")
	etag := res.Header.Get("ETag")
	res, _ = f.do(t, "GET", "/static/style.css", "If-None-Match", etag)
	if res.StatusCode != 304 {
		t.Errorf("conditional GET: status %d, want 304", res.StatusCode)
	}
	if cc := res.Header.Get("Cache-Control"); strings.Contains(cc, "immutable") {
		t.Errorf("unversioned URL cached as immutable: %q", cc)
	}
	res, body = f.do(t, "GET", js[1])
	wantStatus(t, res, body, 200)
	if ct := res.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("js Content-Type %q", ct)
	}
	if !strings.HasPrefix(body, "var htmx=function(){") {
		t.Errorf("htmx.min.js does not look like htmx")
	}
}

func TestNewNeedsDB(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{}); err == nil {
		t.Fatal("New without a DB succeeded")
	}
}

func TestFormatExplainACWC40Players(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/formats/acwc-2023?entrants=40")
	wantStatus(t, res, body, 200)
	// W5: floor(log2 40) + 2 = 7 Swiss rounds; W6/W8: 12 go on to two
	// pools of 6, a double round robin of 10 rounds; W10: 4 to the
	// knockout, 2 rounds; W13: a week's break before each later stage.
	if got := cells(body, "rounds"); strings.Join(got, ",") != "7,10,2" {
		t.Errorf("rounds %v, want 7,10,2", got)
	}
	wantContains(t, body, "top 12", "<td>pool (double)</td>", "<caption>Pools</caption>", "<td>1 week</td>", "Armageddon:")
}

// TestPostgres runs the home, event, standings and health pages on
// PostgreSQL when $ARBITER_TEST_POSTGRES names a server (skipped
// otherwise, like every PostgreSQL test of the repository).
func TestPostgres(t *testing.T) {
	t.Parallel()
	f := newFixtureOn(t, storetest.Postgres(t))
	res, body := f.do(t, "GET", "/")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "No events yet")
	antichessEvent(t, f)
	playRound1(t, f)
	res, body = f.do(t, "GET", "/events/atc")
	wantStatus(t, res, body, 200)
	if got := cells(body, "rounds"); strings.Join(got, ",") != "7,2" {
		t.Errorf("stage rounds %v, want 7,2", got)
	}
	res, body = f.do(t, "GET", "/events/atc/standings")
	wantStatus(t, res, body, 200)
	if rows := tableRows(body); len(rows) != 10 || !strings.HasPrefix(rows[0], "1|Team 01|1|120|348|") {
		t.Errorf("standings rows %q", rows)
	}
	res, body = f.do(t, "GET", "/healthz")
	wantStatus(t, res, body, 200)
	f.db.Close()
	res, body = f.do(t, "GET", "/healthz")
	wantStatus(t, res, body, 503)
}
