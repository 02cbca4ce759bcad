package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// TestCheatReportsRateLimited (issue 12: thirty 900 kB reports made the
// TD console 29 MB): a player's reports beyond the hourly limit get 429
// with Retry-After and nothing is stored; another player is not limited;
// an hour later the player may report again.
func TestCheatReportsRateLimited(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	a03, b04 := f.signIn(t, "a03"), f.signIn(t, "b04")
	limit := app.RateLimits["report"].N
	for i := range limit {
		f.apiAs(t, a03, "POST", "/api/events/atc/cheating", map[string]any{"suspect": "b09", "text": fmt.Sprintf("engine moves %d", i)}, 201, nil)
	}
	var e apiErr
	res := f.apiAs(t, a03, "POST", "/api/events/atc/cheating", map[string]any{"suspect": "b09", "text": "one more"}, 429, &e)
	if e.Error.Code != arbiter.ETOOMANY || res.Header.Get("Retry-After") != "3600" {
		t.Fatalf("over the limit: %+v, Retry-After %q", e.Error, res.Header.Get("Retry-After"))
	}
	// The form is limited by the same count.
	res2, body := f.as(t, a03, "POST", "/events/atc/cheating", url.Values{"suspect": {"b09"}, "text": {"form"}})
	wantStatus(t, res2, body, 429)
	f.apiAs(t, b04, "POST", "/api/events/atc/cheating", map[string]any{"suspect": "b09", "text": "me too"}, 201, nil)
	crs, err := f.app.CheatReports(context.Background(), tdActor, "atc")
	if err != nil || int64(len(crs)) != limit+1 {
		t.Fatalf("%d reports stored (%v), want %d", len(crs), err, limit+1)
	}
	f.now = f.now.Add(time.Hour)
	f.apiAs(t, a03, "POST", "/api/events/atc/cheating", map[string]any{"suspect": "b09", "text": "an hour later"}, 201, nil)
}

// TestRegistrationRateLimitSparesTDs: a user's registrations are limited
// (failed tries count too); a TD of the event is not.
func TestRegistrationRateLimitSparesTDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ok(t)(f.app.CreateEvent(context.Background(), tdActor, app.NewEvent{Slug: "atc", Preset: "antichess-team-cup",
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}))
	td, cap1 := f.signIn(t, tdActor.Name), f.signIn(t, "cap01")
	post := func(token, captain string) int {
		res, _ := f.send(jsonRequest(t, token, "POST", "/api/events/atc/entrants",
			map[string]any{"name": "Team " + captain, "members": []string{captain, "aa" + captain, "bb" + captain}}))
		return res.StatusCode
	}
	n := int(app.RateLimits["register"].N)
	for i := range n + 5 {
		if got := post(td, tdActor.Name); got == 429 || i == 0 && got != 201 {
			t.Fatalf("TD registration %d: status %d", i+1, got)
		}
	}
	for i := range n {
		if got := post(cap1, "cap01"); got == 429 || i == 0 && got != 201 {
			t.Fatalf("captain registration %d: status %d", i+1, got)
		}
	}
	if got := post(cap1, "cap01"); got != 429 {
		t.Fatalf("captain registration %d: status %d, want 429", n+1, got)
	}
}

// TestAPIKeysMatchExactly: JSON keys are matched in their exact letter
// case, as the OpenAPI document spells them; {"SUMMARY": ...} is an
// unknown field, not "summary".
func TestAPIKeysMatchExactly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	a03 := f.signIn(t, "a03")
	var e apiErr
	f.apiAs(t, a03, "POST", "/api/events/atc/cheating", map[string]any{"SUSPECT": "b09", "Text": "engine"}, 400, &e)
	if e.Error.Code != arbiter.EINVALID || e.Error.Field != "SUSPECT" {
		t.Fatalf("%+v, want EINVALID on field SUSPECT", e.Error)
	}
}

// TestOriginSchemeChecked (issue 12): an https Origin is refused for a
// server reached over http, and the reverse; behind a proxy the forwarded
// scheme counts.
func TestOriginSchemeChecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	post := func(origin string, hdr ...string) int {
		req := httptest.NewRequest("POST", "http://arbiter.test/login", strings.NewReader("username=x@local&password=guess-guess"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, _ := f.send(req)
		return res.StatusCode
	}
	for _, tc := range []struct {
		origin string
		hdr    []string
		want   int
	}{
		{"http://arbiter.test", nil, 401},
		{"https://arbiter.test", nil, 403},
		{"https://arbiter.test", []string{"X-Forwarded-Proto", "https"}, 401},
		{"http://arbiter.test", []string{"X-Forwarded-Proto", "https"}, 403},
		{"https://evil.example", nil, 403},
		// A browser that compared whole origins says so.
		{"https://arbiter.test", []string{"Sec-Fetch-Site", "same-origin", "X-Forwarded-Proto", "https"}, 401},
	} {
		if got := post(tc.origin, tc.hdr...); got != tc.want {
			t.Errorf("Origin %s %v: status %d, want %d", tc.origin, tc.hdr, got, tc.want)
		}
	}
}

// TestLiveStreamsCappedPerClient (issue 12): one client address cannot
// take every stream of the process; others still get theirs.
func TestLiveStreamsCappedPerClient(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.trustProxy = true // tell clients apart by X-Forwarded-For on loopback
	hub := liveHubOf(t, f)
	hub.perClient = 2
	antichessEvent(t, f)
	ts := liveServer(t, f)
	open := func(client string) *http.Response {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/events/atc/live", nil)
		req.Header.Set("X-Forwarded-For", client)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	for range 2 {
		if res := open("203.0.113.5"); res.StatusCode != 200 {
			t.Fatalf("stream: %d", res.StatusCode)
		}
	}
	if res := open("203.0.113.5"); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("third stream of one client: %d, want 503 with Retry-After", res.StatusCode)
	}
	if res := open("198.51.100.8"); res.StatusCode != 200 {
		t.Fatalf("another client: %d, want 200", res.StatusCode)
	}
}

// jsonRequest is a JSON API request with a bearer token.
func jsonRequest(t *testing.T, token, method, target string, in any) *http.Request {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// TestClientAddr: the peer, or behind a trusted proxy the address it
// appended; IPv6 clients by their /64.
func TestClientAddr(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		remote, xff string
		trust       bool
		want        string
	}{
		{"192.0.2.7:1234", "", false, "192.0.2.7"},
		{"192.0.2.7:1234", "203.0.113.9", false, "192.0.2.7"},
		{"192.0.2.7:1234", "1.2.3.4, 203.0.113.9", true, "203.0.113.9"},
		{"[2001:db8:1:2:3:4:5:6]:1234", "", false, "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:1234", "", false, "2001:db8:1:2::/64"},
	} {
		f.srv.trustProxy = tc.trust
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = tc.remote
		if tc.xff != "" {
			req.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := f.srv.clientAddr(req); got != tc.want {
			t.Errorf("%+v: %q", tc, got)
		}
	}
}
