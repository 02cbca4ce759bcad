package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// TestTDPairingEditForms: the review page shows the round; its form
// previews a swap, applies it with a reason, and asks for a confirmation
// before a rematch (C1). Round 1 of the ten-team cup is 1-6, 7-2, 3-8,
// 9-4, 5-10; swapping team-06 and team-02 gives team-01 v team-02 and
// team-07 v team-06 on boards 1 and 2.
func TestTDPairingEditForms(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	antichessEvent(t, f)
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	pairRound(t, f)
	tok := f.signIn(t, "ArbiterTD")
	const page = "/events/atc/td/pairings"

	_, body := f.as(t, tok, "GET", "/events/atc/td", nil)
	wantContains(t, body, `href="/events/atc/td/pairings"`, `href="/events/atc/td/entrants/team-01/edit"`, `href="/events/atc/td/late-entry"`)
	res, body := f.as(t, tok, "GET", page, nil)
	wantStatus(t, res, body, http.StatusOK)
	wantContains(t, body, "Round s1r1 of swiss: paired, not published", `<form id="edit-pairing"`, "Team 06", "no colour preference")

	swap := url.Values{"round": {"s1r1"}, "kind": {"swap"}, "a": {"team-06"}, "b": {"team-02"}}
	form := func(v url.Values, kv ...string) url.Values {
		out := url.Values{}
		for k, x := range v {
			out[k] = x
		}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	wellFormed(t, body)
	res, body = f.as(t, tok, "POST", page, form(swap, "action", "preview"))
	wantStatus(t, res, body, http.StatusOK)
	wellFormed(t, body)
	wantContains(t, body, "Preview: nothing is changed yet", "The edit breaks no pairing criterion.", "board 1: team-01 v team-02", "board 2: team-07 v team-06")
	// No reason: the form comes back as typed.
	res, body = f.as(t, tok, "POST", page, form(swap, "action", "apply"))
	wantStatus(t, res, body, http.StatusBadRequest)
	wantContains(t, body, "needs a reason", `value="team-06" selected`, `value="team-02" selected`)
	f.post(t, tok, page, form(swap, "action", "apply", "reason", "team-06 asked for a later match"), page, false,
		"Swapped the opponents of team-06 and team-02 (boards 1, 2). No pairing criterion is broken.")
	_, body = f.as(t, tok, "GET", page, nil)
	wantContains(t, body, "s1r1e1, swap team-06, team-02 by arbitertd", "team-06 asked for a later match")

	// Round 1 played (the home sides win on the board), round 2 paired.
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	f.now = time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	ms, err := f.app.Matches(ctx, "atc", "s1r1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		ok(t)(f.app.OverrideResult(ctx, tdActor, "atc", m.ID, app.ResultInput{Sheet: []byte(teamSheet)}, "entered by the TD", 0))
	}
	f.now = time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
	ok(t)(f.app.CloseRound(ctx, tdActor, "atc"))
	pairRound(t, f)
	ms, err = f.app.Matches(ctx, "atc", "s1r2")
	if err != nil {
		t.Fatal(err)
	}
	opp := ""
	for _, m := range ms {
		if m.Home == "team-01" {
			opp = m.Away
		} else if m.Away == "team-01" {
			opp = m.Home
		}
	}
	// Swapping team-01's opponent and team-02 pairs team-01 and team-02
	// again: refused until confirmed.
	rematch := url.Values{"round": {"s1r2"}, "kind": {"swap"}, "a": {opp}, "b": {"team-02"}, "reason": {"the captains agreed"}, "action": {"apply"}}
	res, body = f.as(t, tok, "POST", page, rematch)
	wantStatus(t, res, body, http.StatusUnprocessableEntity)
	wellFormed(t, body)
	wantContains(t, body, "This edit needs your confirmation", "<strong>absolute:</strong> Team 0", "have already played each other: no rematch (C1)", `value="the captains agreed"`)
	f.post(t, tok, page, form(rematch, "confirm", "1"), page, false, "Warning: ", "no rematch (C1)")
	_, body = f.as(t, tok, "GET", page, nil)
	wantContains(t, body, "(confirmed against an absolute criterion)")
}

// TestTDEntrantForms: the console's entrant correction and late entry
// forms.
func TestTDEntrantForms(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	antichessEvent(t, f)
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	tok := f.signIn(t, "ArbiterTD")

	const edit = "/events/atc/td/entrants/team-03/edit"
	res, body := f.as(t, tok, "GET", edit, nil)
	wantStatus(t, res, body, http.StatusOK)
	wellFormed(t, body)
	wantContains(t, body, `<form id="edit-entrant"`, `value="Team 03"`, `value="cap03, a03, b03, c03"`)
	f.post(t, tok, edit, url.Values{"name": {"Team Three"}, "rating": {"2270"}, "members": {"cap03, a03, b03, c03"}, "substitute": {""}, "reason": {"the captain's spelling"}},
		"/events/atc/td#entrant-team-03", false, `Edited Team Three: name "Team 03" → "Team Three".`)
	res, body = f.as(t, tok, "POST", edit, url.Values{"members": {"cap03, a03, b03, a01"}, "reason": {"x"}})
	wantStatus(t, res, body, http.StatusUnprocessableEntity)
	wantContains(t, body, "a01 is already entered (in Team 01)", "rule A11", `value="cap03, a03, b03, a01"`)

	const late = "/events/atc/td/late-entry"
	res, body = f.as(t, tok, "GET", late, nil)
	wantStatus(t, res, body, http.StatusOK)
	wellFormed(t, body)
	wantContains(t, body, `<form id="late-entry"`, "Enter a team after registration closed")
	f.post(t, tok, late, url.Values{"name": {"Late Team"}, "captain": {"capl"}, "members": {"capl, al, bl, cl"}, "rating": {"2100"}, "reason": {"by message"}},
		"/events/atc/td#entrant-late-team", false, "Entered Late Team late and approved it. Seed 11")
	es, err := f.app.Entrants(ctx, "atc")
	if err != nil {
		t.Fatal(err)
	}
	if last := es[len(es)-1]; last.ID != "late-team" || last.Status != arbiter.EntrantApproved {
		t.Fatalf("late entrant %+v", last)
	}
}

func pairRound(t *testing.T, f *fixture) {
	t.Helper()
	if _, _, err := f.app.PairRound(context.Background(), tdActor, "atc"); err != nil {
		t.Fatal(err)
	}
}

// wellFormed checks a page's nesting and its single h1 (markup_test.go).
func wellFormed(t *testing.T, body string) {
	t.Helper()
	if msg := checkBalanced(body); msg != "" {
		t.Errorf("markup: %s", msg)
	}
	if n := strings.Count(body, "<h1"); n != 1 {
		t.Errorf("%d h1 elements", n)
	}
}
