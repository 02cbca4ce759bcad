package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/sqlstore"
)

// The API token matrix: every kind of token against the routes a bot
// might try, with the exact answer; like TestRoleMatrix, a refused write
// changes nothing and an allowed one changes the store.

type tokenKind int

const (
	tokRead       tokenKind = iota // read, acting for nobody
	tokReadAs                      // read, acting for m2's home team (its captain)
	tokReport                      // report, for m1's home team
	tokOffers                      // offers, for m1's home team
	tokReportAway                  // report, for m2's away team (the side that confirms m2)
	tokOtherEvent                  // report, for a team of another event
	tokRevoked                     // report for m1's home team, revoked
	tokForged                      // never issued
	nTokens
)

var tokenNames = [nTokens]string{"read", "read-as", "report", "offers", "report-away", "other-event", "revoked", "forged"}

func tokWants(ws ...string) [nTokens]string {
	var out [nTokens]string
	copy(out[:], ws)
	return out
}

func TestTokenMatrix(t *testing.T) {
	t.Parallel()
	b := newMatrixBase(t)
	f, ctx := b.f, context.Background()
	var lastID string
	mk := func(req app.NewAPIToken, slug string) string {
		t.Helper()
		secret, tok, err := f.app.CreateAPIToken(ctx, tdActor, slug, req)
		if err != nil {
			t.Fatal(err)
		}
		lastID = tok.ID
		return secret
	}
	var toks [nTokens]string
	toks[tokRead] = mk(app.NewAPIToken{Name: "reader"}, "atc")
	toks[tokReadAs] = mk(app.NewAPIToken{Name: "reader as", Entrant: b.m2.Home}, "atc")
	toks[tokReport] = mk(app.NewAPIToken{Name: "reporter", Scopes: []string{"report"}, Entrant: b.m1.Home}, "atc")
	toks[tokOffers] = mk(app.NewAPIToken{Name: "scheduler", Scopes: []string{"offers"}, Entrant: b.m1.Home}, "atc")
	toks[tokReportAway] = mk(app.NewAPIToken{Name: "confirmer", Scopes: []string{"report"}, Entrant: b.m2.Away}, "atc")
	toks[tokOtherEvent] = mk(app.NewAPIToken{Name: "rk bot", Scopes: []string{"report"}, Entrant: "team-1"}, "rk")
	toks[tokRevoked] = mk(app.NewAPIToken{Name: "old", Scopes: []string{"report"}, Entrant: b.m1.Home}, "atc")
	if _, err := f.app.RevokeAPIToken(ctx, tdActor, "atc", lastID); err != nil {
		t.Fatal(err)
	}
	toks[tokForged] = sqlstore.APITokenPrefix + "forged-forged-forged-forged-forged-forged00"

	const (
		fb    = "403 forbidden"
		unaut = "401 unauthorized"
	)
	api1, api2 := "/api/events/atc/matches/"+b.m1.ID, "/api/events/atc/matches/"+b.m2.ID
	offer := map[string]any{"kind": "propose", "board": 1, "times": []string{"2025-01-16T18:00:00Z", "2025-01-17T18:00:00Z", "2025-01-18T18:00:00Z"}}
	rows := []struct {
		row  matrixRow
		want [nTokens]string
	}{
		{matrixRow{pattern: "GET /api/events/{slug}/export", path: "/api/events/atc/export?format=csv&what=results"},
			tokWants("200", "200", "200", "200", "200", fb, unaut, unaut)},
		{matrixRow{pattern: "GET /api/events/{slug}", path: "/api/events/atc"},
			tokWants("200", "200", "200", "200", "200", fb, unaut, unaut)},
		// The sides' reports: the token reads as its entrant's captain.
		{matrixRow{pattern: "GET /api/events/{slug}/matches/{match}/reports", path: api2 + "/reports"},
			tokWants(unaut, "200", fb, fb, "200", fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/matches/{match}/offers", path: api1 + "/offers", body: offer},
			tokWants(fb, fb, fb, "200", fb, fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/matches/{match}/reports", path: api1 + "/reports", body: map[string]any{"summary": "forfeit:away"}},
			tokWants(fb, fb, "200", fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/matches/{match}/confirm", path: api2 + "/confirm", body: map[string]any{}},
			tokWants(fb, fb, fb, fb, "200", fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/matches/{match}/dispute", path: api2 + "/dispute", body: map[string]any{"reason": "they did show"}},
			tokWants(fb, fb, fb, fb, "200", fb, unaut, unaut)},
		// What a token never reaches: the TDs' and the captains' other
		// actions, other events, the user's own pages.
		{matrixRow{pattern: "GET /api/events/{slug}/audit", path: "/api/events/atc/audit"},
			tokWants(unaut, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/tokens", path: "/api/events/atc/tokens", body: map[string]any{"name": "x"}},
			tokWants(fb, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/matches/{match}/override", path: api1 + "/override", body: map[string]any{"summary": "forfeit:double", "reason": "x"}},
			tokWants(fb, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "PUT /api/events/{slug}/teams/{team}/boards", path: "/api/events/atc/teams/" + b.m1.Home + "/boards", body: map[string]any{"boards": []string{"x"}}},
			tokWants(fb, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "POST /api/events/{slug}/cheating", path: "/api/events/atc/cheating", body: map[string]any{"suspect": "b09", "text": "engine"}},
			tokWants(fb, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "GET /api/me", path: "/api/me"},
			tokWants(fb, fb, fb, fb, fb, fb, unaut, unaut)},
		{matrixRow{pattern: "GET /api/events/{slug}/standings", path: "/api/events/rk/standings"},
			tokWants(fb, fb, fb, fb, fb, "200", unaut, unaut)},
	}
	for _, r := range rows {
		t.Run(strings.ReplaceAll(r.row.pattern, "/", "_"), func(t *testing.T) {
			for k := range nTokens {
				want := r.want[k]
				g := f
				if r.row.changes(want) {
					g = b.clone(t)
				}
				before := auditMark(t, g.db)
				got := r.row.outcome(t, g, toks[k])
				if got != want {
					t.Errorf("%s with the %s token: got %q, want %q", r.row.path, tokenNames[k], got, want)
					continue
				}
				after := auditMark(t, g.db)
				if r.row.changes(want) != (after != before) {
					t.Errorf("%s with the %s token: %q, audit %s → %s", r.row.path, tokenNames[k], got, before, after)
				}
			}
		})
	}

	// A token is an API credential only: on a page it is not looked at.
	req := httptest.NewRequest("GET", "/events/atc/td", nil)
	req.Header.Set("Authorization", "Bearer "+toks[tokReport])
	if res, _ := f.send(req); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
		t.Errorf("the console with a token: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}

// TestTokenActsAsCaptain: a result reported through a token is the
// captain's report in the audit log, and the token's last use shows.
func TestTokenActsAsCaptain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	ms := openRound2(t, f)
	ctx := context.Background()
	secret, tok, err := f.app.CreateAPIToken(ctx, tdActor, "atc", app.NewAPIToken{Name: "bot", Scopes: []string{"report"}, Entrant: ms[0].Home})
	if err != nil {
		t.Fatal(err)
	}
	f.now = time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	req := httptest.NewRequest("POST", "/api/events/atc/matches/"+ms[0].ID+"/reports", strings.NewReader(`{"summary":"forfeit:away"}`))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	res, body := f.send(req)
	if res.StatusCode != 200 {
		t.Fatalf("report: %d %s", res.StatusCode, body)
	}
	log, err := f.app.Audit(ctx, tdActor, "atc", sqlstore.AuditFilter{RecordID: ms[0].ID})
	if err != nil || len(log) == 0 {
		t.Fatal(err)
	}
	last := log[len(log)-1]
	if last.Actor.Name != captainOf(ms[0].Home) || last.Actor.Role != arbiter.RoleCaptain {
		t.Errorf("the report is audited as %s", last.Actor)
	}
	ts, _ := f.app.APITokens(ctx, tdActor, "atc")
	if len(ts) != 1 || ts[0].ID != tok.ID || !ts[0].LastUsedAt.Equal(f.now) {
		t.Errorf("tokens %+v, want last use %s", ts, f.now)
	}
}
