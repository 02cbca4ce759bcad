package web

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestMePage: the signed-in user's events and current pairings with what
// is expected from them.
func TestMePage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)

	res, body := f.do(t, "GET", "/me")
	wantSignIn(t, res, body)

	res, body = f.as(t, f.signIn(t, "nobody"), "GET", "/me", nil)
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	wantContains(t, body, `id="no-events"`, `aria-current="page">My events`)

	// After round 1 closed: cap01's final match against Team 06.
	cap01 := f.signIn(t, "cap01")
	res, body = f.as(t, cap01, "GET", "/me", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `href="/events/atc"`, "captain of Team 01, member of Team 01", `href="/events/atc/teams/team-01/captain"`,
		`<a href="/events/atc/matches/s1r1b1" data-test="my-match">s1r1b1</a>`, `data-test="opponent">Team 06`, `data-test="my-state">final`)

	// Round 2 is open: the report is expected; after the opponent reported,
	// the confirmation is.
	m := openRound2(t, f)[0]
	home, away := f.signIn(t, captainOf(m.Home)), f.signIn(t, captainOf(m.Away))
	_, body = f.as(t, home, "GET", "/me", nil)
	if got := cells(body, "expect"); len(got) != 1 || !strings.Contains(got[0], "result to report") || !strings.Contains(got[0], "offer times") {
		t.Errorf("home expects %v", got)
	}
	f.submit(t, home, "/events/atc/matches/"+m.ID+"/report", url.Values{"sheet": {teamSheet}}).wantOK(t, "reported")
	_, body = f.as(t, away, "GET", "/me", nil)
	if got := cells(body, "expect"); len(got) != 1 || got[0] != "result to confirm" {
		t.Errorf("away expects %v", got)
	}
	_, body = f.as(t, home, "GET", "/me", nil)
	if got := cells(body, "expect"); len(got) != 1 || !strings.Contains(got[0], "waiting for the opponent") {
		t.Errorf("home expects %v", got)
	}
	// A member (not captain) sees the team's pairing but no captain link.
	_, body = f.as(t, f.signIn(t, "a01"), "GET", "/me", nil)
	wantContains(t, body, "member of Team 01", `data-test="my-match"`)
	if strings.Contains(body, "/captain\"") {
		t.Error("a member gets the captain's page link")
	}
}

// TestMeIndividualOfferExpected: in the ACWC, the opponent's offers are
// "to answer" for the other player.
func TestMeIndividualOfferExpected(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	p01, p07 := f.signIn(t, "p01"), f.signIn(t, "p07")
	f.apiAs(t, p01, "POST", "/api/events/wc/matches/"+m.ID+"/offers",
		map[string]any{"kind": "propose", "times": []string{"2023-03-22T18:00:00Z", "2023-03-23T18:00:00Z", "2023-03-24T18:00:00Z"}}, 200, nil)
	_, body := f.as(t, p07, "GET", "/me", nil)
	if got := cells(body, "expect"); len(got) != 1 || !strings.HasPrefix(got[0], "offer to answer") {
		t.Errorf("p07 expects %v", got)
	}
	// The API: the opponent accepts; the match detail shows the agreement.
	var e apiErr
	f.apiAs(t, p07, "POST", "/api/events/wc/matches/"+m.ID+"/offers", map[string]any{"kind": "accept"}, 400, &e)
	if e.Error.Field != "at" {
		t.Errorf("accept without at: %+v", e.Error)
	}
	f.apiAs(t, p07, "POST", "/api/events/wc/matches/"+m.ID+"/offers", map[string]any{"kind": "accept", "at": "2023-03-23T19:00:00Z"}, 422, nil)
	f.apiAs(t, p07, "POST", "/api/events/wc/matches/"+m.ID+"/offers", map[string]any{"kind": "accept", "at": "2023-03-23T18:00:00Z"}, 200, nil)
	var detail struct {
		Negotiation string `json:"negotiation"`
		Offers      []struct{ By string }
		Match       struct {
			ScheduledAt string `json:"scheduled_at"`
		}
	}
	f.apiAs(t, "", "GET", "/api/events/wc/matches/"+m.ID, nil, 200, &detail)
	if detail.Negotiation != "agreed" || len(detail.Offers) != 3 || detail.Offers[0].By != "home" || detail.Match.ScheduledAt != "2023-03-23T18:00:00Z" {
		b, _ := json.Marshal(detail)
		t.Errorf("detail %s", b)
	}
}

// TestAPIMyEvents: /me as JSON.
func TestAPIMyEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	f.apiAs(t, "", "GET", "/api/me/events", nil, 401, nil)
	var out struct {
		Events []struct {
			Slug     string
			Roles    struct{ Captain []string }
			Pairings []struct {
				Match, Opponent, Status string
			}
		}
	}
	f.apiAs(t, f.signIn(t, "cap06"), "GET", "/api/me/events", nil, 200, &out)
	if len(out.Events) != 1 || out.Events[0].Slug != "atc" || len(out.Events[0].Roles.Captain) != 1 || out.Events[0].Roles.Captain[0] != "team-06" {
		t.Fatalf("events %+v", out.Events)
	}
	if ps := out.Events[0].Pairings; len(ps) != 1 || ps[0].Match != "s1r1b1" || ps[0].Opponent != "Team 01" || ps[0].Status != "final" {
		t.Fatalf("pairings %+v", ps)
	}
	f.apiAs(t, f.signIn(t, "nobody"), "GET", "/api/me/events", nil, 200, &out)
	if len(out.Events) != 0 {
		t.Fatalf("nobody's events %+v", out.Events)
	}
}

// TestMeLineupDue: an RKCC captain sees the next lineup due (R7: before
// the round starts) even before any pairing.
func TestMeLineupDue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rkccEvent(t, f)
	_, body := f.as(t, f.signIn(t, "cap1"), "GET", "/me", nil)
	wantContains(t, body, `data-test="lineup-due">The lineup of round 1 is due before <time datetime="2025-01-06T00:00:00Z"`,
		`href="/events/rk/teams/team-1/captain?round=1"`, "No current pairing.")
	_, body = f.as(t, f.signIn(t, "a1"), "GET", "/me", nil)
	if strings.Contains(body, "lineup-due") {
		t.Error("a member who is not captain is told a lineup is due")
	}
}
