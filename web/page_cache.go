package web

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"time"

	"arbiter/app"
)

// pageCache keeps the answers of public pages and read API routes to
// anonymous visitors, as a CDN would, but exact: an event's page is served
// from here only while the event's change log stands where it stood when
// the page was made (readCache.mark, one indexed query shared by
// concurrent requests), so a change made through any process shows on the
// very next request. The formats' pages, which change only with the
// binary, are kept for a short time. (The home page is cheap and lists
// every event: it is not kept.)
//
// Some pages change with time alone (a lineup is disclosed at the round's
// start), so a page is also kept at most pageCacheMaxAge by the
// application's clock: it may show such a change that much late, never
// early.
//
// Signed-in visitors (whose pages show their own controls) and requests
// with a flash message, a query other than a small number, or any method
// but GET go to the handler. Only 200 answers that set no cookie and do
// not say no-store are kept. The cache is bounded in bytes and entries;
// beyond, entries are dropped at random.
//
// Why: an event page is built from the whole event (entrants, rounds,
// matches; 10-35 ms for 64 teams), so without it a single process served
// about 60 event pages a second (docs/load.md).
type pageCache struct {
	mu      sync.Mutex
	entries map[string]*pageEntry
	bytes   int
	flights map[string]chan struct{} // pages being made, by key
}

type pageEntry struct {
	mark   app.Mark
	made   time.Time
	header http.Header
	body   []byte
}

// Bounds of the page cache.
const (
	pageCacheBytes   = 32 << 20
	pageCacheEntries = 4096
	// pageCacheMaxAge bounds how long an event's page is kept even while
	// its log stands still (a safety net for what a page shows from
	// outside the event's own log).
	pageCacheMaxAge = 10 * time.Second
	// siteCacheMaxAge is how long a page about no event is kept.
	siteCacheMaxAge = time.Second
)

func newPageCache() *pageCache {
	return &pageCache{entries: map[string]*pageEntry{}, flights: map[string]chan struct{}{}}
}

// cachedPages are the routes whose anonymous answers are kept; those with
// {slug} are kept while their event stands still.
var cachedPages = map[string]bool{
	"GET /formats":                                  true,
	"GET /formats/{name}":                           true,
	"GET /events/{slug}":                            true,
	"GET /events/{slug}/standings":                  true,
	"GET /events/{slug}/rounds/{round}":             true,
	"GET /events/{slug}/crosstable":                 true,
	"GET /events/{slug}/bracket":                    true,
	"GET /events/{slug}/pools":                      true,
	"GET /events/{slug}/entrants":                   true,
	"GET /events/{slug}/entrants/{id}":              true,
	"GET /events/{slug}/matches/{match}":            true,
	"GET /api/events/{slug}":                        true,
	"GET /api/events/{slug}/rounds":                 true,
	"GET /api/events/{slug}/rounds/{round}/matches": true,
	"GET /api/events/{slug}/standings":              true,
	"GET /api/events/{slug}/entrants":               true,
	"GET /api/events/{slug}/entrants/{id}":          true,
	"GET /api/events/{slug}/crosstable":             true,
	"GET /api/events/{slug}/bracket":                true,
	"GET /api/events/{slug}/pools":                  true,
	"GET /api/events/{slug}/matches/{match}":        true,
}

// cachePage serves the route's anonymous GET requests through the cache.
func (s *Server) cachePage(pattern string, h http.Handler) http.Handler {
	ofEvent := strings.Contains(pattern, "{slug}")
	maxAge := pageCacheMaxAge
	if !ofEvent {
		maxAge = siteCacheMaxAge
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !cacheable(r) || !plainQuery(r) {
			h.ServeHTTP(w, r)
			return
		}
		var mark app.Mark
		if ofEvent {
			m, err := s.reads.mark(r.Context(), r.PathValue("slug"))
			if err != nil { // an unknown event, a failing database: the handler answers
				h.ServeHTTP(w, r)
				return
			}
			mark = m
		}
		key := r.URL.RequestURI()
		for {
			e, wait := s.pageCache.get(key, mark, s.app.Now(), maxAge)
			if e != nil {
				e.write(w)
				return
			}
			if wait == nil {
				break // this request makes the page
			}
			select {
			case <-wait:
			case <-r.Context().Done():
				return
			}
		}
		rec := &pageRecorder{header: http.Header{}}
		made := s.app.Now()
		defer func() { s.pageCache.put(key, mark, made, rec) }() // also when h panics: waiters go on
		h.ServeHTTP(rec, r)
		rec.flush(w)
	})
}

// cacheable reports whether r carries no credentials and no flash message.
func cacheable(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return false
	}
	for _, c := range r.Cookies() {
		if c.Name == sessionCookie || c.Name == flashCookie {
			return false
		}
	}
	return true
}

// plainQuery reports whether r's query is empty or one small number
// (?stage=2, ?entrants=40): other queries would only fill the cache.
func plainQuery(r *http.Request) bool {
	if r.URL.RawQuery == "" {
		return true
	}
	q := r.URL.Query()
	if len(q) != 1 {
		return false
	}
	for k, vs := range q {
		if k != "stage" && k != "entrants" || len(vs) != 1 || len(vs[0]) == 0 || len(vs[0]) > 5 {
			return false
		}
		for _, c := range vs[0] {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// get returns the entry of key if it is current, or else the channel of
// the page being made by another request (wait for it, then look again),
// or neither: then the caller makes the page and must put it.
func (c *pageCache) get(key string, mark app.Mark, now time.Time, maxAge time.Duration) (*pageEntry, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil && e.mark == mark && !now.Before(e.made) && now.Sub(e.made) < maxAge {
		return e, nil
	}
	if ch := c.flights[key]; ch != nil {
		return nil, ch
	}
	c.flights[key] = make(chan struct{})
	return nil, nil
}

// put ends the making of key's page, keeping rec's answer if it may be
// kept: a complete 200 that sets no cookie.
func (c *pageCache) put(key string, mark app.Mark, made time.Time, rec *pageRecorder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch := c.flights[key]; ch != nil {
		close(ch)
		delete(c.flights, key)
	}
	if old := c.entries[key]; old != nil {
		c.bytes -= len(old.body)
		delete(c.entries, key)
	}
	if !rec.done || rec.status != http.StatusOK || rec.header.Get("Set-Cookie") != "" || len(rec.body.Bytes()) > pageCacheBytes/16 ||
		strings.Contains(rec.header.Get("Cache-Control"), "no-store") { // e.g. a simulation still running (odds.go)
		return
	}
	e := &pageEntry{mark: mark, made: made, header: rec.header, body: rec.body.Bytes()}
	for k := range c.entries {
		if c.bytes+len(e.body) <= pageCacheBytes && len(c.entries) < pageCacheEntries {
			break
		}
		c.bytes -= len(c.entries[k].body)
		delete(c.entries, k)
	}
	c.entries[key] = e
	c.bytes += len(e.body)
}

func (e *pageEntry) write(w http.ResponseWriter) {
	h := w.Header()
	for k, vs := range e.header {
		h[k] = append([]string(nil), vs...) // the entry is shared: never let a writer append to it
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(e.body)
}

// pageRecorder records a handler's answer.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	done   bool // the handler returned (flush ran)
}

func (p *pageRecorder) Header() http.Header { return p.header }

func (p *pageRecorder) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
}

func (p *pageRecorder) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	return p.body.Write(b)
}

// flush sends the recorded answer to w.
func (p *pageRecorder) flush(w http.ResponseWriter) {
	p.done = true
	h := w.Header()
	for k, vs := range p.header {
		h[k] = vs
	}
	if p.status == 0 {
		p.status = http.StatusOK
	}
	w.WriteHeader(p.status)
	_, _ = w.Write(p.body.Bytes())
}
