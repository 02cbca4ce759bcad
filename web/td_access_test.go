package web

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
)

// tdTokens signs in the event's TD and two users who are not its TDs: a
// captain of the event and a stranger.
type tdTokens struct{ td, cap, other string }

func signInTD(t *testing.T, f *fixture) tdTokens {
	t.Helper()
	return tdTokens{td: f.signIn(t, "ArbiterTD"), cap: f.signIn(t, "cap01"), other: f.signIn(t, "stranger")}
}

// flashOf decodes the flash message a redirect set, and whether it is an
// error.
func flashOf(t *testing.T, res *http.Response) (string, bool) {
	t.Helper()
	c := cookieOf(res, flashCookie)
	if c == nil || c.Value == "" {
		return "", false
	}
	kind, enc, _ := strings.Cut(c.Value, ".")
	b, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		t.Fatalf("flash cookie %q: %v", c.Value, err)
	}
	return string(b), kind == "error"
}

// post sends a console form as tok and wants the 303 back to where,
// with a flash message: the success message (wantErr false) or the
// error containing each of subs.
func (f *fixture) post(t *testing.T, tok, target string, form url.Values, where string, wantErr bool, subs ...string) string {
	t.Helper()
	res, body := f.as(t, tok, "POST", target, form)
	wantStatus(t, res, body, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != where {
		t.Errorf("POST %s redirected to %q, want %q", target, loc, where)
	}
	msg, isErr := flashOf(t, res)
	if isErr != wantErr {
		t.Fatalf("POST %s %v: flash %q error=%v, want error=%v", target, form, msg, isErr, wantErr)
	}
	for _, s := range subs {
		if !strings.Contains(msg, s) {
			t.Errorf("POST %s: flash %q lacks %q", target, msg, s)
		}
	}
	return msg
}

var tdPages = []string{"/events/atc/td", "/events/atc/td/appeals", "/events/atc/td/sanctions", "/events/atc/td/audit",
	"/events/atc/td/matches/s1r1b1"}

// TestTDPagesAccess: every console page shows only to the event's TDs.
func TestTDPagesAccess(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	for _, p := range tdPages {
		res, body := f.as(t, "", "GET", p, nil)
		wantStatus(t, res, body, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/login?next="+url.QueryEscape(p) {
			t.Errorf("anonymous %s: redirected to %q", p, loc)
		}
		for _, tok := range []string{tk.cap, tk.other} {
			res, body = f.as(t, tok, "GET", p, nil)
			wantStatus(t, res, body, http.StatusForbidden)
			wantContains(t, body, "<code>forbidden</code>", "Only the TDs of Antichess Team Cup 2025")
		}
		res, body = f.as(t, tk.td, "GET", p, nil)
		wantStatus(t, res, body, http.StatusOK)
		wantHTML(t, res, body)
		checkPage(t, p, body)
		wantContains(t, body, `aria-label="TD console"`)
		res, body = f.as(t, tk.td, "GET", strings.Replace(p, "/atc/", "/nope/", 1), nil)
		wantStatus(t, res, body, http.StatusNotFound)
	}
	res, body := f.as(t, tk.td, "GET", "/events/atc/td/matches/s9r9b9", nil)
	wantStatus(t, res, body, http.StatusNotFound)
	wantContains(t, body, "no match")
}

// TestTDPostsRefused: every console form refuses anonymous visitors
// (sent to sign in), non-TDs (403) and unknown events (404), and
// changes nothing.
func TestTDPostsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	posts := []string{"/events/atc/td/entrants/team-01", "/events/atc/td/registration", "/events/atc/td/rounds",
		"/events/atc/td/stages", "/events/atc/td/officials", "/events/atc/td/forbidden", "/events/atc/td/forbidden/f1",
		"/events/atc/td/matches/s1r1b1", "/events/atc/td/appeals/a1", "/events/atc/td/sanctions", "/events/atc/td/entrants/team-01/values",
		"/events/atc/td/replacements", "/events/atc/td/boards"}
	form := url.Values{"action": {"pair"}, "reason": {"r"}, "user": {"cap02"}}
	for _, p := range posts {
		res, body := f.as(t, "", "POST", p, form)
		wantStatus(t, res, body, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login?next=") {
			t.Errorf("anonymous POST %s: redirected to %q", p, loc)
		}
		res, body = f.as(t, tk.cap, "POST", p, form)
		wantStatus(t, res, body, http.StatusForbidden)
		res, body = f.as(t, tk.td, "POST", strings.Replace(p, "/atc/", "/nope/", 1), form)
		wantStatus(t, res, body, http.StatusNotFound)
	}
	rs, err := f.app.Rounds(context.Background(), "atc")
	if err != nil || len(rs) != 1 {
		t.Fatalf("rounds %v %v: a refused pair request paired", rs, err)
	}
	roles, _ := f.app.RolesOf(context.Background(), "atc", "cap02")
	if roles.TD {
		t.Error("a refused add-TD request made cap02 a TD")
	}
}

// TestTDNewEvent: any signed-in user creates an event and becomes its
// TD; a refused form comes back with the field marked.
func TestTDNewEvent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.as(t, "", "GET", "/events/new", nil)
	wantStatus(t, res, body, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/login?next=%2Fevents%2Fnew" {
		t.Errorf("anonymous: %q", loc)
	}
	res, body = f.as(t, "", "POST", "/events/new", url.Values{"slug": {"x"}})
	wantStatus(t, res, body, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login") {
		t.Errorf("anonymous POST: %q", loc)
	}

	tok := f.signIn(t, "NewTD")
	res, body = f.as(t, tok, "GET", "/events/new", nil)
	wantStatus(t, res, body, http.StatusOK)
	checkPage(t, "/events/new", body)
	wantContains(t, body, `<form id="new-event"`, `<option value="antichess-team-cup"`, `<option value="acwc-2023"`, `name="start"`)

	good := url.Values{"slug": {"spring"}, "name": {"Spring Cup"}, "preset": {"antichess-team-cup"}, "start": {"2025-01-07T00:00"}}
	f.post(t, tok, "/events/new", good, "/events/spring/td", false, "Created Spring Cup")
	ctx := context.Background()
	ev, err := f.app.Event(ctx, "spring")
	if err != nil || ev.Status != arbiter.EventRegistration || ev.Format != "antichess-team-cup" || ev.Start.Format("2006-01-02 15:04") != "2025-01-07 00:00" {
		t.Fatalf("event %+v %v", ev, err)
	}
	if roles, _ := f.app.RolesOf(ctx, "spring", "NewTD"); !roles.TD {
		t.Error("the creator is not the event's TD")
	}
	res, body = f.as(t, tok, "GET", "/events/spring/td", nil)
	wantStatus(t, res, body, http.StatusOK)
	wantContains(t, body, "registration", `<form id="close-registration"`, "No entrants yet.")

	// The same slug again: a conflict, the form kept.
	res, body = f.as(t, tok, "POST", "/events/new", good)
	wantStatus(t, res, body, http.StatusConflict)
	wantContains(t, body, `value="Spring Cup"`, `role="alert"`)
	for _, c := range []struct {
		form   url.Values
		status int
		field  string
	}{
		{url.Values{"slug": {"a2"}, "name": {"A"}, "preset": {"antichess-team-cup"}, "start": {"next week"}}, 400, "start"},
		{url.Values{"slug": {"a3"}, "name": {"A"}, "preset": {"chess960"}, "start": {"2025-01-07"}}, 0, "preset"},
		{url.Values{"slug": {"a4"}, "name": {"A"}, "format": {"{not json"}, "start": {"2025-01-07"}}, 0, ""},
	} {
		res, body = f.as(t, tok, "POST", "/events/new", c.form)
		if res.StatusCode < 400 || res.StatusCode >= 500 || (c.status != 0 && res.StatusCode != c.status) {
			t.Errorf("%v: status %d", c.form, res.StatusCode)
		}
		wantContains(t, body, `id="new-event-error"`, c.field)
		if c.field == "start" {
			wantContains(t, body, `id="start" name="start" type="datetime-local" required value="next week" aria-describedby="start-note new-event-error" aria-invalid="true"`)
		}
		if _, err := f.app.Event(ctx, c.form.Get("slug")); err == nil {
			t.Errorf("%v: event created", c.form)
		}
	}

	// A start in the past (the fixture's clock is 2025-01-01 12:00 UTC) is
	// shown in UTC and must be confirmed; confirmed, it is created.
	past := url.Values{"slug": {"old"}, "name": {"Old Cup"}, "preset": {"acwc-2023"}, "start": {"2024-12-31T18:00"}}
	res, body = f.as(t, tok, "POST", "/events/new", past)
	wantStatus(t, res, body, http.StatusBadRequest)
	wantContains(t, body, `id="past-start"`, "The first round would start on Tue 31 Dec 2024 18:00 UTC, which is in the past.",
		`<input type="checkbox" id="allow_past" name="allow_past" value="yes">`, `value="2024-12-31T18:00"`)
	if _, err := f.app.Event(ctx, "old"); err == nil {
		t.Error("a past start was stored without confirmation")
	}
	past.Set("allow_past", "yes")
	f.post(t, tok, "/events/new", past, "/events/old/td", false, "Created Old Cup")
	if ev, err := f.app.Event(ctx, "old"); err != nil || !ev.Start.Equal(time.Date(2024, 12, 31, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("confirmed past start: %+v %v", ev, err)
	}
}

// TestAPICreatePastStart: the API refuses a start in the past (rule
// app.past, field start) unless allow_past is set.
func TestAPICreatePastStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tok := f.signIn(t, "NewTD")
	var e apiErrorBody
	f.apiAs(t, tok, "POST", "/api/events", map[string]any{"slug": "old", "name": "Old", "preset": "acwc-2023", "start": "2024-12-31T18:00Z"}, 400, &e)
	if e.Error.Rule != "app.past" || e.Error.Field != "start" {
		t.Fatalf("error %+v", e)
	}
	var ev arbiter.Event
	f.apiAs(t, tok, "POST", "/api/events", map[string]any{"slug": "old", "name": "Old", "preset": "acwc-2023", "start": "2024-12-31T18:00Z", "allow_past": true}, 201, &ev)
	if !ev.Start.Equal(time.Date(2024, 12, 31, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("event %+v", ev)
	}
}
