package web

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"arbiter"
)

// TestRegisterTeam: a captain registers a team by the form and by the
// API; the page shows the registration and its status.
func TestRegisterTeam(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	page := "/events/atc/register"

	res, body := f.do(t, "GET", page)
	wantSignIn(t, res, body)
	res, body = f.as(t, "", "POST", page, url.Values{"name": {"X"}})
	wantSignIn(t, res, body)

	cap11 := f.signIn(t, "cap11")
	res, body = f.as(t, cap11, "GET", page, nil)
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	wantContains(t, body, `<form id="register"`, `<label for="team-name">Team name</label>`, `name="member"`, `id="register-submit"`)

	f.submit(t, cap11, page, url.Values{"name": {""}, "member": {"a11"}}).wantRefused(t, "name")
	f.submit(t, cap11, page, url.Values{"name": {"Team 11"}, "rating": {"high"}}).wantRefused(t, "rating")
	r := f.submit(t, cap11, page, url.Values{"name": {"Team 11"}, "member": {"a11", "b11", "c11", ""}, "substitute": {"d11"}, "rating": {"2100"}})
	r.wantOK(t, "Registered Team 11")
	e := teamEntrantOf(t, f, "atc", "team-11")
	if e.Captain != "cap11" || strings.Join(e.Members, ",") != "cap11,a11,b11,c11" || e.Substitute != "d11" || e.Rating != 2100 || e.Status != arbiter.EntrantPending {
		t.Fatalf("registered %+v", e)
	}
	_, body = f.follow(t, cap11, r)
	wantContains(t, body, `id="my-registrations"`, `data-test="registration-status">pending`, "cap11, a11, b11, c11")
	// A member sees the team's registration too.
	_, body = f.as(t, f.signIn(t, "a11"), "GET", page, nil)
	wantContains(t, body, `data-test="registration-status">pending`)

	// The API.
	api := "/api/events/atc/entrants"
	f.apiAs(t, "", "POST", api, map[string]any{"name": "Team 12"}, 401, nil)
	var ae apiErr
	cap12 := f.signIn(t, "cap12")
	f.apiAs(t, cap12, "POST", api, map[string]any{"name": "Team 12", "colour": "red"}, 400, &ae)
	if ae.Error.Field != "colour" {
		t.Errorf("unknown field %+v", ae.Error)
	}
	f.apiAs(t, cap12, "POST", api, map[string]any{"members": []string{"a12"}}, 400, &ae)
	if ae.Error.Field != "name" {
		t.Errorf("no name %+v", ae.Error)
	}
	var got arbiter.Entrant
	f.apiAs(t, cap12, "POST", api, map[string]any{"name": "Team 12", "members": []string{"a12", "b12", "c12"}, "rating": 2050}, 201, &got)
	if got.ID != "team-12" || got.Captain != "cap12" || got.Status != arbiter.EntrantPending {
		t.Fatalf("registered %+v", got)
	}
	// A11: a player is entered in one team only.
	f.apiAs(t, cap12, "POST", api, map[string]any{"name": "Team 12b", "members": []string{"a12", "b12", "c12"}}, 422, &ae)
	if ae.Error.Rule != "A11" {
		t.Errorf("second team %+v", ae.Error)
	}

	// Once registration is closed the page says so and the form is refused.
	for _, id := range []string{"team-11", "team-12"} {
		ok(t)(f.app.Reject(context.Background(), tdActor, "atc", id, "late", 0))
	}
	ok(t)(f.app.CloseRegistration(context.Background(), tdActor, "atc"))
	_, body = f.as(t, cap11, "GET", page, nil)
	wantContains(t, body, `id="registration-closed"`, "rejected: late")
	f.submit(t, f.signIn(t, "cap13"), page, url.Values{"name": {"Team 13"}, "member": {"a13", "b13", "c13"}}).wantRefused(t)
}

// TestRegisterPlayer: in an individual event a player registers themself.
func TestRegisterPlayer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acwcEvent(t, f) // registers p01..p12 through the form
	e := teamEntrantOf(t, f, "wc", "p03")
	if e.Kind != arbiter.EntrantPlayer || e.Player != "p03" || e.Rating != 2400 {
		t.Fatalf("p03 %+v", e)
	}
	_, body := f.as(t, f.signIn(t, "p03"), "GET", "/events/wc/register", nil)
	wantContains(t, body, `id="registration-closed"`, `data-test="registration-status">approved`)
}
