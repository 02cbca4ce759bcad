// Package lichesstest is a fake Lichess that speaks the real API: the
// endpoints Arbiter uses, with the paths, form and query parameters,
// content types, NDJSON streams, scopes and rate limit the bundled OpenAPI
// document (shared/lichess-api) describes. Tests seed users, ratings,
// rating histories, teams and games, let Arbiter create challenges and
// bulk pairings, finish the games with scripted or random (seeded)
// results, and assert on the log of what was asked. `arbiter lichess fake`
// serves it for rehearsals.
//
// It is stricter than Lichess where that catches mistakes: a parameter
// the document does not list is refused with 400, and so is a request
// sent while another of the same token is in flight or within a minute
// of a 429 (Lichess's own rule for API clients).
package lichesstest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/lichess"
)

// Options configure a Fake.
type Options struct {
	// Seed drives random results and generated ids (same seed, same run).
	Seed uint64
	// Now is the fake's clock (the 60 s rule, createdAt of games); default
	// time.Now. Tests share a Clock with the client so nobody waits.
	Now func() time.Time
	// AutoUsers makes any unknown user name exist on first use (a rehearsal
	// with demo players); by default an unknown name is a 404.
	AutoUsers bool
	// GameURL is the base of game and challenge links (default
	// https://lichess.org, as the real answers have).
	GameURL string
}

// Request is one request the fake answered, as tests read it.
type Request struct {
	Method string
	Path   string // unescaped
	Route  string // the API document's path template: "/api/user/{username}"; "" when none matched
	Query  url.Values
	Form   url.Values // form-encoded bodies
	Body   string     // text/plain bodies (ids, tokens)
	Token  string     // the bearer token, "" when anonymous
	Accept string
	Status int
	At     time.Time
}

// Fault is a scripted failure: the next Times requests matching Route
// ("POST /api/challenge/open"; "" matches any) get Status and Body
// instead of an answer (Status 0 with a Body: a 200 with that garbage).
type Fault struct {
	Route  string
	Status int
	Body   string
	Times  int
}

// Fake is the fake Lichess. Its methods are safe for concurrent use.
type Fake struct {
	o   Options
	now func() time.Time

	// URL is set by Start (the httptest server's address).
	URL string

	mu         sync.Mutex
	rng        *rand.Rand
	seq        int
	users      map[string]*lichess.User // by lower-case id
	history    map[string]map[string][]lichess.RatingPoint
	teams      map[string]*team
	tokens     map[string]*token
	games      map[string]*lichess.Game
	gameOrder  []string
	challenges map[string]*challenge
	bulks      map[string]*bulk
	bulkOrder  []string
	messages   []Message
	log        []Request
	faults     []Fault
	inFlight   map[string]int
	pauseUntil map[string]time.Time
	oauthCodes map[string]oauthCode
	routes     []route
}

// New makes a fake; serve it with net/http (it is an http.Handler) or Start.
func New(o Options) *Fake {
	f := &Fake{o: o, now: o.Now, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		users: map[string]*lichess.User{}, history: map[string]map[string][]lichess.RatingPoint{},
		teams: map[string]*team{}, tokens: map[string]*token{}, games: map[string]*lichess.Game{},
		challenges: map[string]*challenge{}, bulks: map[string]*bulk{}, inFlight: map[string]int{},
		pauseUntil: map[string]time.Time{}, oauthCodes: map[string]oauthCode{}}
	if f.now == nil {
		f.now = time.Now
	}
	if f.o.GameURL == "" {
		f.o.GameURL = "https://lichess.org"
	}
	f.routes = f.table()
	return f
}

// Start serves a new fake on an httptest server closed when the test ends.
func Start(t testing.TB, o Options) *Fake {
	t.Helper()
	f := New(o)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// Client is a lichess.Client on the fake (Start) sending token ("" for
// anonymous requests), with the real pacing on the clock ts (nil: the
// real clock, and then every request is spaced by a second).
func (f *Fake) Client(t testing.TB, token string, ts lichess.TimeSource) *lichess.Client {
	t.Helper()
	c, err := lichess.New(lichess.Options{BaseURL: f.URL, Token: token, Time: ts})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// route is one endpoint: the API document's path template, the scopes
// any one of which the token must have (nil: none; Auth: a token of any
// scope), the query and form parameters it accepts, and the handler.
type route struct {
	method, path string
	auth         bool     // a token is required (OAuth2: [] in the document)
	scopes       []string // one of them is required
	// handlerScopes: the handler checks the scopes itself (a team's
	// member list needs team:read only when the team hides it).
	handlerScopes bool
	query, form   []string
	body          string // request content type: "form", "text" or ""
	h             func(f *Fake, c *call)
}

// Route describes an endpoint the fake implements, for tests that check
// the fake against the API document.
type Route struct {
	Method, Path string
	Auth         bool
	Scopes       []string
	Query, Form  []string
	TextBody     bool
}

// Routes lists the endpoints the fake implements.
func (f *Fake) Routes() []Route {
	out := make([]Route, len(f.routes))
	for i, r := range f.routes {
		out[i] = Route{Method: r.method, Path: r.path, Auth: r.auth, Scopes: r.scopes, Query: r.query, Form: r.form, TextBody: r.body == "text"}
	}
	return out
}

// call is one request being answered.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	args   map[string]string // path parameters
	form   url.Values
	body   string
	token  *token // nil when anonymous
	rec    *Request
	status int
}

func (c *call) arg(name string) string { return c.args[name] }

// match finds the route for method and path; templates with a literal
// segment win over a parameter in the same place (/api/challenge/open
// before /api/challenge/{username}).
func (f *Fake) match(method, path string) (*route, map[string]string, bool) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var best *route
	var bestArgs map[string]string
	bestLit := -1
	pathFound := false
	for i := range f.routes {
		rt := &f.routes[i]
		tpl := strings.Split(strings.TrimPrefix(rt.path, "/"), "/")
		if len(tpl) != len(segs) {
			continue
		}
		args, lit, ok := map[string]string{}, 0, true
		for j, s := range tpl {
			switch {
			case strings.HasPrefix(s, "{"):
				if segs[j] == "" {
					ok = false
				}
				args[strings.Trim(s, "{}")] = segs[j]
			case s == segs[j]:
				lit++
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		pathFound = true
		if rt.method == method && lit > bestLit {
			best, bestArgs, bestLit = rt, args, lit
		}
	}
	return best, bestArgs, pathFound
}

// ServeHTTP answers one request: the route, the faults, the pacing rule,
// the token and its scopes, the parameters, then the handler.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/oauth" || strings.HasPrefix(r.URL.Path, "/_fake/") {
		f.serveExtra(w, r)
		return
	}
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	rec := &Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Token: tok, Accept: r.Header.Get("Accept")}
	c := &call{w: w, r: r, rec: rec}
	f.mu.Lock()
	rec.At = f.now()
	rt, args, pathFound := f.match(r.Method, r.URL.Path)
	if rt != nil {
		rec.Route = rt.path
	}
	key := "token:" + tok
	if tok == "" {
		key = "anonymous"
	}
	release := func() {}
	done := func() {
		f.mu.Lock()
		release()
		rec.Status = c.status
		f.log = append(f.log, *rec)
		f.mu.Unlock()
	}
	defer done()
	switch {
	case rt == nil && pathFound:
		f.mu.Unlock()
		c.error(http.StatusMethodNotAllowed, "Method not allowed.")
		return
	case rt == nil:
		f.mu.Unlock()
		c.error(http.StatusNotFound, "Not found.")
		return
	}
	if until := f.pauseUntil[key]; f.inFlight[key] > 0 || rec.At.Before(until) {
		// Lichess: one request at a time, and a full minute after a 429.
		f.pauseUntil[key] = rec.At.Add(lichess.RateLimitPause)
		f.mu.Unlock()
		c.error(http.StatusTooManyRequests, "Too many requests. Try again later.")
		return
	}
	f.inFlight[key]++
	release = func() { f.inFlight[key]-- }
	if ft, ok := f.takeFault(r.Method + " " + rt.path); ok {
		if ft.Status == http.StatusTooManyRequests {
			f.pauseUntil[key] = rec.At.Add(lichess.RateLimitPause)
		}
		f.mu.Unlock()
		c.status = ft.Status
		if c.status == 0 {
			c.status = http.StatusOK
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.status)
		io.WriteString(w, ft.Body)
		return
	}
	if tok != "" {
		c.token = f.tokens[tok]
		if c.token == nil {
			f.mu.Unlock()
			c.error(http.StatusUnauthorized, "No such token")
			return
		}
	}
	needScope := len(rt.scopes) > 0 && !rt.handlerScopes
	if (rt.auth || needScope) && c.token == nil {
		f.mu.Unlock()
		c.w.Header().Set("X-Accepted-OAuth-Scopes", strings.Join(rt.scopes, ","))
		c.error(http.StatusUnauthorized, "Missing authorization header")
		return
	}
	if needScope && !slices.ContainsFunc(rt.scopes, c.token.has) {
		f.mu.Unlock()
		w.Header().Set("X-OAuth-Scopes", strings.Join(c.token.Scopes, ","))
		w.Header().Set("X-Accepted-OAuth-Scopes", strings.Join(rt.scopes, ","))
		c.error(http.StatusForbidden, "Missing scope")
		return
	}
	f.mu.Unlock()
	if msg := c.parse(rt, raw); msg != "" {
		c.error(http.StatusBadRequest, msg)
		return
	}
	c.args = args
	// Handlers run under the lock, so each answer sees one consistent
	// state, and write to a buffer sent after it: a slow reader of a
	// stream never holds up other clients.
	buf := httptest.NewRecorder()
	c.w = buf
	f.mu.Lock()
	f.tick()
	rt.h(f, c)
	f.mu.Unlock()
	for k, v := range buf.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(buf.Code)
	w.Write(buf.Body.Bytes())
}

// parse checks the query and body against the route's parameters.
func (c *call) parse(rt *route, raw []byte) string {
	for k := range c.r.URL.Query() {
		if !slices.Contains(rt.query, k) {
			return fmt.Sprintf("unknown query parameter %q", k)
		}
	}
	ct, _, _ := strings.Cut(c.r.Header.Get("Content-Type"), ";")
	switch rt.body {
	case "form":
		if ct != "application/x-www-form-urlencoded" {
			return "want a form (application/x-www-form-urlencoded), not " + ct
		}
		v, err := url.ParseQuery(string(raw))
		if err != nil {
			return "unreadable form: " + err.Error()
		}
		for k := range v {
			if !slices.Contains(rt.form, k) {
				return fmt.Sprintf("unknown form parameter %q", k)
			}
		}
		c.form, c.rec.Form = v, v
	case "text":
		if ct != "text/plain" {
			return "want a text/plain body, not " + ct
		}
		c.body, c.rec.Body = strings.TrimSpace(string(raw)), strings.TrimSpace(string(raw))
	default:
		if len(raw) > 0 {
			return "this endpoint takes no body"
		}
	}
	return ""
}

func (f *Fake) takeFault(route string) (Fault, bool) {
	for i, ft := range f.faults {
		if ft.Route == "" || ft.Route == route {
			f.faults[i].Times--
			if f.faults[i].Times <= 0 {
				f.faults = slices.Delete(f.faults, i, i+1)
			}
			return ft, true
		}
	}
	return Fault{}, false
}

// Inject scripts failures (Times 0 counts as 1).
func (f *Fake) Inject(faults ...Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ft := range faults {
		ft.Times = max(ft.Times, 1)
		f.faults = append(f.faults, ft)
	}
}

// Log returns every request answered so far, oldest first.
func (f *Fake) Log() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.log)
}

// Asked returns the requests to one route ("POST /api/challenge/open").
func (f *Fake) Asked(route string) []Request {
	var out []Request
	for _, r := range f.Log() {
		if r.Method+" "+r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// Summary is the log in one line per request: "GET /api/user/mary 200".
func (f *Fake) Summary() []string {
	var out []string
	for _, r := range f.Log() {
		out = append(out, fmt.Sprintf("%s %s %d", r.Method, r.Path, r.Status))
	}
	return out
}

// ResetLog forgets the requests answered so far.
func (f *Fake) ResetLog() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = nil
}

// newID makes an 8-character id like Lichess's, from the seeded source.
func (f *Fake) newID() string {
	const abc = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 8)
	for i := range b {
		b[i] = abc[f.rng.IntN(len(abc))]
	}
	f.seq++
	return string(b)
}

func (c *call) json(status int, v any) {
	c.status = status
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	json.NewEncoder(c.w).Encode(v)
}

func (c *call) ok() { c.json(http.StatusOK, map[string]bool{"ok": true}) }

func (c *call) error(status int, msg string) {
	c.json(status, map[string]string{"error": msg})
}

func (c *call) notFound() { c.error(http.StatusNotFound, "Not found.") }

// ndjson writes one JSON value per line.
func (c *call) ndjson(lines []any) {
	c.status = http.StatusOK
	c.w.Header().Set("Content-Type", "application/x-ndjson")
	c.w.WriteHeader(http.StatusOK)
	for _, v := range lines {
		b, _ := json.Marshal(v)
		c.w.Write(append(b, '\n'))
	}
}

func ms(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}
