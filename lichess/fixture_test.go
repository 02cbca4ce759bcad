package lichess

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"arbiter/internal/testshared"
)

// fakeTime is an injectable TimeSource: Sleep advances Now instantly and
// records how long the client asked to wait.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newFakeTime() *fakeTime {
	return &fakeTime{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	return nil
}

func (f *fakeTime) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// seen is one request the fixture server received.
type seen struct {
	Method, Path string
	Escaped      string // the path as sent, still escaped
	Query        url.Values
	Header       http.Header
	Body         string
}

// fixtureServer serves shared Lichess fixtures by route ("GET /api/user/mary"
// -> file under fixtures/) and records every request.
type fixtureServer struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	routes map[string]route
	seen   []seen
}

type route struct {
	status int
	file   string // relative to shared/lichess-api/fixtures
	// handler, when set, replaces the file (used for 429 sequences and streams).
	handler http.HandlerFunc
}

func newFixtureServer(t *testing.T) *fixtureServer {
	fs := &fixtureServer{t: t, routes: map[string]route{}}
	fs.srv = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(fs.srv.Close)
	return fs
}

func (fs *fixtureServer) fixture(file string) []byte {
	fs.t.Helper()
	b, err := os.ReadFile(testshared.Path(fs.t, "lichess-api", "fixtures", file))
	if err != nil {
		fs.t.Fatal(err)
	}
	return b
}

func (fs *fixtureServer) handle(key string, status int, file string) {
	fs.t.Helper()
	fs.fixture(file) // fail now, not mid-request, if the file is missing
	fs.routes[key] = route{status: status, file: file}
}

func (fs *fixtureServer) handleFunc(key string, h http.HandlerFunc) {
	fs.routes[key] = route{handler: h}
}

func (fs *fixtureServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	fs.mu.Lock()
	fs.seen = append(fs.seen, seen{Method: r.Method, Path: r.URL.Path, Escaped: r.URL.EscapedPath(), Query: r.URL.Query(), Header: r.Header.Clone(), Body: string(body)})
	rt, ok := fs.routes[r.Method+" "+r.URL.Path]
	fs.mu.Unlock()
	switch {
	case !ok:
		http.Error(w, `{"error":"no fixture route"}`, http.StatusNotImplemented)
	case rt.handler != nil:
		rt.handler(w, r)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rt.status)
		w.Write(fs.fixture(rt.file))
	}
}

func (fs *fixtureServer) requests() []seen {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]seen(nil), fs.seen...)
}

func (fs *fixtureServer) last() seen {
	fs.t.Helper()
	r := fs.requests()
	if len(r) == 0 {
		fs.t.Fatal("no request reached the server")
	}
	return r[len(r)-1]
}

// client returns a Client on the fixture server with a fake clock.
func (fs *fixtureServer) client(o Options) (*Client, *fakeTime) {
	fs.t.Helper()
	ft := newFakeTime()
	o.BaseURL = fs.srv.URL
	if o.Time == nil {
		o.Time = ft
	}
	c, err := New(o)
	if err != nil {
		fs.t.Fatal(err)
	}
	return c, ft
}
