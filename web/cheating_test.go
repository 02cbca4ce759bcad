package web

import (
	"net/url"
	"strings"
	"testing"
)

// TestCheatingReportPrivate (A6): a member sends a report from the event
// page's form; the form is offered only to those who play; the report's
// words appear on the TDs' console and nowhere public; the TDs close it.
func TestCheatingReportPrivate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tk := signInTD(t, f)
	member, stranger := f.signIn(t, "a01"), f.signIn(t, "nobody")

	_, body := f.as(t, member, "GET", "/events/atc", nil)
	checkPage(t, "/events/atc", body)
	wantContains(t, body, `<form id="cheating-form"`, `<label for="cheat-text">`)
	for _, tok := range []string{stranger, tk.td} {
		if _, body := f.as(t, tok, "GET", "/events/atc", nil); strings.Contains(body, `id="cheating-form"`) {
			t.Error("the report form is offered to someone who does not play")
		}
	}

	f.submit(t, member, "/events/atc/cheating", url.Values{"suspect": {"b02"}}).wantRefused(t, "text", "A6")
	f.submit(t, stranger, "/events/atc/cheating", url.Values{"suspect": {"b02"}, "text": {"x"}}).wantRefused(t, "does not play")
	secret := "41 of 45 moves matched the engine in game 2"
	f.submit(t, member, "/events/atc/cheating", url.Values{"suspect": {"B02"}, "match": {""}, "text": {secret}}).wantOK(t, "Only they can read it")

	for _, path := range []string{"/events/atc", "/events/atc/entrants/team-02", "/events/atc/standings", "/api/events/atc/entrants/team-02"} {
		if _, body := f.as(t, member, "GET", path, nil); strings.Contains(body, secret) {
			t.Errorf("%s shows the private report", path)
		}
	}
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, `<section id="cheating"`, "c1: <strong>b02</strong>, reported by a01", secret, `<form id="close-cheating-c1"`)
	f.post(t, tk.td, console+"/cheating/c1", url.Values{}, console, true, "reason")
	f.post(t, tk.td, console+"/cheating/c1", url.Values{"outcome": {"games checked: no evidence"}}, console, false, "Report c1 closed")
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, "(closed by arbitertd: games checked: no evidence)")
}
