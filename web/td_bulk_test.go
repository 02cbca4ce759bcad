package web

import (
	"context"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"arbiter/sqlstore"
)

// TestTDBulkPairing: the TD chooses bulk pairing on the console (audited
// event.bulk_pairing); the console then says which players have not
// granted challenge:write (their games stay open challenges), and turns
// it off again.
func TestTDBulkPairing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acwcEvent(t, f)
	tk := signInTD(t, f)
	_, body := f.as(t, tk.td, "GET", "/events/wc/td", nil)
	wantContains(t, body, "Bulk pairing is off: every game is an open challenge for its two players.")
	f.post(t, tk.td, "/events/wc/td/bulk-pairing", url.Values{"on": {"1"}}, "/events/wc/td", false, "Bulk pairing is on")
	_, body = f.as(t, tk.td, "GET", "/events/wc/td", nil)
	checkPage(t, "/events/wc/td", body)
	wantContains(t, body, "Bulk pairing is on, but 12 players have not granted challenge:write")
	wantContains(t, body, "Not granted: p01, p02,")
	wantContains(t, body, "Stop bulk pairing")
	log, err := f.app.Audit(context.Background(), tdActor, "wc", sqlstore.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(log, func(e sqlstore.AuditEntry) bool {
		return e.Action == "event.bulk_pairing" && e.Actor.Name == "arbitertd"
	}) {
		t.Errorf("no event.bulk_pairing in the audit log")
	}
	f.post(t, tk.td, "/events/wc/td/bulk-pairing", url.Values{"on": {"0"}}, "/events/wc/td", false, "Bulk pairing is off")
}

// TestSignInAsksChallengeWriteForBulk: sign-in with Lichess asks for no
// scope, except from the pages of an event whose TDs chose bulk pairing:
// then it asks for challenge:write and keeps the token Lichess gives
// (never logged) for the bulk pairings.
func TestSignInAsksChallengeWriteForBulk(t *testing.T) {
	t.Parallel()
	fl := newFakeLichess(t, "p01")
	f := newFixtureWithLichess(t, fl)
	acwcEvent(t, f)
	start := func(next string) (url.Values, *httptest.ResponseRecorder) {
		req := httptest.NewRequest("GET", "/auth/lichess?next="+url.QueryEscape(next), nil)
		req.Host = "arbiter.test"
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, req)
		u, err := url.Parse(rec.Header().Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		return u.Query(), rec
	}
	if q, _ := start("/events/wc/matches/s1r1b1"); q.Has("scope") {
		t.Fatalf("scope %q asked without bulk pairing", q.Get("scope"))
	}
	if _, err := f.app.SetBulkPairing(context.Background(), tdActor, "wc", true); err != nil {
		t.Fatal(err)
	}
	if q, _ := start("/formats"); q.Has("scope") {
		t.Fatalf("scope %q asked from a page of no event", q.Get("scope"))
	}
	q, rec := start("/events/wc/matches/s1r1b1")
	if q.Get("scope") != "challenge:write" {
		t.Fatalf("scope %q asked from the event's pages, want challenge:write", q.Get("scope"))
	}
	fl.challenge = q.Get("code_challenge")
	req := httptest.NewRequest("GET", "/auth/lichess/callback?code=good-code&state="+url.QueryEscape(q.Get("state")), nil)
	req.Host = "arbiter.test"
	req.AddCookie(cookieOf(rec.Result(), oauthCookie))
	res, body := f.send(req)
	wantStatus(t, res, body, 303)
	g, found, err := sqlstore.GetLichessGrant(context.Background(), f.db, "p01")
	if err != nil || !found || g.Token != fl.token || !slices.Equal(g.Scopes, []string{"challenge:write"}) {
		t.Fatalf("grant %+v %v %v", g, found, err)
	}
	if strings.Contains(f.logs.String(), fl.token) {
		t.Error("the Lichess token was logged")
	}
}
