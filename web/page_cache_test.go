package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPageCache: an anonymous visitor's page of an event is made once
// while the event's change log stands still, and again as soon as the log
// moves; concurrent requests share one making; signed-in visitors, odd
// queries and other methods always reach the handler; a page is kept at
// most pageCacheMaxAge by the application's clock.
func TestPageCache(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	match := reportedRound1(t, f)
	var made atomic.Int64
	h := f.srv.cachePage("GET /events/{slug}/probe", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "page %d", made.Add(1))
	}))
	get := func(target string, hdr ...string) string {
		req := httptest.NewRequest("GET", target, nil)
		req.SetPathValue("slug", "atc")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	if a, b := get("/events/atc/probe"), get("/events/atc/probe"); a != "page 1" || b != "page 1" {
		t.Fatalf("two anonymous requests: %q, %q; want the page made once", a, b)
	}
	if got := get("/events/atc/probe", "Cookie", sessionCookie+"=x"); got != "page 2" {
		t.Errorf("with a session cookie: %q, want a page made afresh", got)
	}
	if got := get("/events/atc/probe", "Authorization", "Bearer x"); got != "page 3" {
		t.Errorf("with a token: %q, want a page made afresh", got)
	}
	if got := get("/events/atc/probe?x=1"); got != "page 4" {
		t.Errorf("with an odd query: %q, want a page made afresh", got)
	}
	if a, b := get("/events/atc/probe?stage=1"), get("/events/atc/probe?stage=1"); a != "page 5" || b != a {
		t.Errorf("?stage=1 twice: %q, %q; want one page kept", a, b)
	}
	ok(t)(f.app.ConfirmResult(context.Background(), captain(6), "atc", match, 0))
	var wg sync.WaitGroup
	got := make([]string, 50)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = get("/events/atc/probe") }()
	}
	wg.Wait()
	for _, g := range got {
		if g != "page 6" {
			t.Fatalf("50 requests after a change: %v; want one page made for all", got)
		}
	}
	f.now = f.now.Add(pageCacheMaxAge)
	if got := get("/events/atc/probe"); got != "page 7" {
		t.Errorf("after pageCacheMaxAge: %q, want a page made afresh", got)
	}
}

// TestPublicPageShowsChangeAtOnce: through the whole server, an anonymous
// visitor's round page shows a confirmed result on the next request.
func TestPublicPageShowsChangeAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	match := reportedRound1(t, f)
	_, before := f.do(t, "GET", "/events/atc/rounds/s1r1")
	_, again := f.do(t, "GET", "/events/atc/rounds/s1r1")
	if before != again {
		t.Fatal("the same page differs between two requests with no change")
	}
	ok(t)(f.app.ConfirmResult(context.Background(), captain(6), "atc", match, 0))
	_, after := f.do(t, "GET", "/events/atc/rounds/s1r1")
	if after == before {
		t.Fatal("the round page did not change after a result was confirmed")
	}
}
