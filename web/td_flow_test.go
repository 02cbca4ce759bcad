package web

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestTDHappyPath runs an event through the console's forms only, as a
// browser without JavaScript would: create the event, approve the
// registrations, close registration, pair, review, publish, override a
// result, close the round; the public standings show the override.
func TestTDHappyPath(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	tok := f.signIn(t, "Director")
	f.post(t, tok, "/events/new", url.Values{"slug": {"cup"}, "name": {"Winter Cup"}, "preset": {"antichess-team-cup"},
		"start": {"2025-01-07T00:00"}}, "/events/cup/td", false, "Created Winter Cup")

	// Ten captains register their teams (the captains' pages do this).
	for i := 1; i <= 10; i++ {
		c := captain(i).Name
		_, err := f.app.Register(ctx, captain(i), "cup", arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: c, Rating: 2300 - 10*i,
			Members: []string{c, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, body := f.as(t, tok, "GET", "/events/cup/td", nil)
	wantContains(t, body, "10 registered, 10 waiting for approval")
	// Approve each from its own form, with the version the page showed.
	forms := regexp.MustCompile(`<form id="decide-(team-\d+)"[^>]*action="([^"]+)">\s*<input type="hidden" name="version" value="(\d+)">`).FindAllStringSubmatch(body, -1)
	if len(forms) != 10 {
		t.Fatalf("%d approval forms", len(forms))
	}
	for _, m := range forms {
		f.post(t, tok, m[2], url.Values{"action": {"approve"}, "version": {m[3]}, "reason": {""}}, "/events/cup/td", false, "Approved")
	}
	_, body = f.as(t, tok, "GET", "/events/cup/td", nil)
	if st := cells(body, "entrant-status"); len(st) != 10 || strings.Count(strings.Join(st, ","), "approved") != 10 {
		t.Fatalf("statuses %v", st)
	}

	f.post(t, tok, "/events/cup/td/registration", url.Values{"action": {"close-registration"}, "initial_colour": {"white"}, "reason": {"lot drawn on the stream"}}, "/events/cup/td", false,
		"Registration closed with 10 entrants", "white")
	f.post(t, tok, "/events/cup/td/rounds", url.Values{"action": {"pair"}}, "/events/cup/td", false, "Round s1r1 paired")
	_, body = f.as(t, tok, "GET", "/events/cup/td", nil)
	wantContains(t, body, "Proposed pairings", `<form id="publish-round"`)
	round := regexp.MustCompile(`<form id="publish-round"[^>]*>\s*<input type="hidden" name="round" value="([^"]+)">`).FindStringSubmatch(body)
	if round == nil {
		t.Fatal("no round in the publish form")
	}
	f.post(t, tok, "/events/cup/td/rounds", url.Values{"action": {"publish"}, "round": {round[1]}}, "/events/cup/td", false, "published")

	// Board 1 (team-01 v team-06) by the TDs' decision, from the match
	// page's form with its version.
	_, body = f.as(t, tok, "GET", "/events/cup/td/matches/s1r1b1", nil)
	wantContains(t, body, "Team 01", "Team 06")
	ver := regexp.MustCompile(`<form id="override-result"[^>]*>\s*<input type="hidden" name="version" value="(\d+)">`).FindStringSubmatch(body)
	if ver == nil {
		t.Fatal("no version in the override form")
	}
	f.post(t, tok, "/events/cup/td/matches/s1r1b1", url.Values{"action": {"override"}, "outcome": {"sheet"}, "sheet": {teamSheet},
		"reason": {"played on Lichess, links checked"}, "version": {ver[1]}}, "/events/cup/td/matches/s1r1b1", false, "1-0 (348-228)")

	f.now = time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
	f.post(t, tok, "/events/cup/td/rounds", url.Values{"action": {"close"}, "round": {"s1r1"}}, "/events/cup/td", false, "Round s1r1 closed")

	res, body := f.do(t, "GET", "/events/cup/standings")
	wantStatus(t, res, body, 200)
	rows := tableRows(body)
	if len(rows) != 10 || !strings.HasPrefix(rows[0], "1|Team 01|1|120|348|") || !strings.HasPrefix(rows[9], "10|Team 06|0|-120|228|") {
		t.Fatalf("standings %q", rows)
	}
	_, body = f.as(t, tok, "GET", "/events/cup/td/audit?kind=match&record=s1r1b1", nil)
	if reasons := cells(body, "audit-reason"); len(reasons) == 0 || !strings.Contains(strings.Join(reasons, "|"), "played on Lichess, links checked") {
		t.Errorf("override reason not in the audit page: %v", reasons)
	}
}
