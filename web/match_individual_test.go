package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestIndividualMatchFlow: the player flow of an individual event (ACWC
// preset, W14): offer times, the opponent accepts one, a result is
// reported, the reporter cannot confirm it, the opponent confirms and the
// standings change.
func TestIndividualMatchFlow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	ctx := context.Background()
	p01, p07, p02 := f.signIn(t, "p01"), f.signIn(t, "p07"), f.signIn(t, "p02")
	target := "/events/wc/matches/" + m.ID

	// The public page: no forms for a visitor.
	res, body := f.do(t, "GET", target)
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	wantContains(t, body, "p01", "p07", "No time offered yet")
	for _, id := range []string{`id="offer-time"`, `id="report-result"`, `id="confirm-result"`, `id="reports"`} {
		if strings.Contains(body, id) {
			t.Errorf("anonymous page shows %s", id)
		}
	}

	// Anonymous forms go to sign in; nothing changes.
	res, body = f.as(t, "", "POST", target+"/offers", url.Values{"kind": {"propose"}, "time": {"2023-03-22T18:00"}})
	wantSignIn(t, res, body)

	// p01 offers three times (W14: at most two per UTC date).
	_, body = f.as(t, p01, "GET", target, nil)
	wantContains(t, body, `<form id="offer-time"`, `<form id="report-result"`, `name="summary"`)
	// W14: offers are due by Friday 23:59 UTC (the calendar's exclusive
	// end is Saturday 00:00): the page names the last minute.
	wantContains(t, body, `<p id="offer-due">Offers are due by <time datetime="2023-03-24T23:59:00Z" data-local>Fri 24 Mar 2023 23:59 UTC</time>.`)
	f.submit(t, p01, target+"/offers", url.Values{"kind": {"propose"}, "time": {"2023-03-22T10:00", "2023-03-22T13:00", "2023-03-22T16:00"}}).
		wantRefused(t, "W14")
	f.submit(t, p01, target+"/offers", url.Values{"kind": {"propose"}, "time": {"not a time"}}).wantRefused(t, "times[0]", "web.time")
	f.submit(t, p01, target+"/offers", url.Values{"kind": {"propose"}, "time": {"2023-03-22T18:00", "2023-03-23T18:00", "2023-03-24T18:00", ""}}).
		wantOK(t, "offer is recorded")
	// Another player of the event is not a side of the match.
	f.submit(t, p02, target+"/offers", url.Values{"kind": {"accept"}, "at": {"2023-03-23T18:00:00Z"}}).wantRefused(t, "own match")

	// p07 sees the offers in UTC with machine-readable times and accepts one.
	_, body = f.as(t, p07, "GET", target, nil)
	wantContains(t, body, `<form id="accept-offer"`, `value="2023-03-23T18:00:00Z"`, `<time datetime="2023-03-23T18:00:00Z"`,
		"Wed 22 Mar 2023 18:00 UTC", "p01")
	f.submit(t, p07, target+"/offers", url.Values{"kind": {"accept"}, "at": {"2023-03-23T18:00:00Z"}}).wantOK(t, "Agreed")
	if got := f.match(t, "wc", m.ID).ScheduledAt; !got.Equal(time.Date(2023, 3, 23, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("scheduled at %v", got)
	}

	// Bad input names the field.
	f.submit(t, p01, target+"/report", url.Values{}).wantRefused(t, "summary")
	// p01 reports 6-4 and may not confirm their own report.
	f.now = time.Date(2023, 3, 23, 20, 0, 0, 0, time.UTC)
	f.submit(t, p01, target+"/report", url.Values{"summary": {"6-4"}}).wantOK(t, "reported")
	r := f.submit(t, p01, target+"/confirm", url.Values{})
	r.wantRefused(t, "cannot confirm or dispute their own side's report")
	res, body = f.follow(t, p01, r)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `class="flash flash-error" role="alert"`, "cannot confirm or dispute their own side&#39;s report", `id="own-report"`)
	if strings.Contains(body, `id="confirm-result"`) {
		t.Error("the reporter is offered the confirm form")
	}
	if st := f.match(t, "wc", m.ID).Status; st != arbiter.MatchReported {
		t.Fatalf("after the reporter's confirm the match is %s", st)
	}
	// A stranger cannot confirm either.
	f.submit(t, p02, target+"/confirm", url.Values{}).wantRefused(t, "does not play")

	// p07 sees the report and confirms it: final; the standings count it
	// once the round is completed.
	_, body = f.as(t, p07, "GET", target, nil)
	wantContains(t, body, `<form id="confirm-result"`, `<form id="dispute-result"`, `id="reports"`)
	f.submit(t, p07, target+"/confirm", url.Values{}).wantOK(t, "confirmed")
	if got := f.match(t, "wc", m.ID); got.Status != arbiter.MatchFinal || got.Decision != "confirmed" {
		t.Fatalf("match %s (%s)", got.Status, got.Decision)
	}
	res, body = f.do(t, "GET", "/events/wc/standings")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Before the first round", "Round 1 is being played: 1 of 6 results are final.")
	rds, err := f.app.Rounds(ctx, "wc")
	if err != nil {
		t.Fatal(err)
	}
	f.now = rds[0].End
	if _, err := f.app.CloseRound(ctx, tdActor, "wc"); err != nil {
		t.Fatal(err)
	}
	tab, err := f.app.Standings(ctx, "wc", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) == 0 || tab.Rows[0].ID != "p01" || tab.Rows[0].Score != arbiter.P(1) {
		t.Fatalf("standings top %+v", tab.Rows[0])
	}
	res, body = f.do(t, "GET", "/events/wc/standings")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "After round 1 of 5.", "Standings after round 1</caption>")
	if rows := tableRows(body); len(rows) == 0 || !strings.HasPrefix(rows[0], "1|p01|1|") {
		t.Errorf("standings page rows %q", rows)
	}
	// The public page now shows the final result.
	_, body = f.do(t, "GET", target)
	wantContains(t, body, `data-test="match-state">final (confirmed)`)
}

// TestIndividualDispute: the opponent disputes with a reason; without one
// the refusal names the field.
func TestIndividualDispute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	p01, p07 := f.signIn(t, "p01"), f.signIn(t, "p07")
	target := "/events/wc/matches/" + m.ID
	f.submit(t, p07, target+"/report", url.Values{"summary": {"4-6"}}).wantOK(t, "reported")
	f.submit(t, p07, target+"/dispute", url.Values{"reason": {"wrong"}}).wantRefused(t, "own side")
	f.submit(t, p01, target+"/dispute", url.Values{"reason": {""}}).wantRefused(t, "reason")
	f.submit(t, p01, target+"/dispute", url.Values{"reason": {"I won 6-4"}}).wantOK(t, "disputed")
	if st := f.match(t, "wc", m.ID).Status; st != arbiter.MatchDisputed {
		t.Fatalf("match %s", st)
	}
}

// TestAPIHeldAtDeadlineW14: at the ACWC round deadline (Monday 2023-03-27
// 23:59) the API shows each unplayed match's W14 outcome: p01 offered 3
// times by Friday and p07 none, so the match is held for the TDs with
// p07's fault shown (p01 is not punished as if both had failed); nobody
// offered in the other matches, so they are W14's draws (5-5).
func TestAPIHeldAtDeadlineW14(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	tk := signInTD(t, f)
	p01 := f.signIn(t, "p01")
	f.apiAs(t, p01, "POST", "/api/events/wc/matches/"+m.ID+"/offers",
		map[string]any{"kind": "propose", "times": []string{"2023-03-22T18:00:00Z", "2023-03-23T18:00:00Z", "2023-03-24T18:00:00Z"}}, 200, nil)
	f.now = time.Date(2023, 3, 28, 0, 0, 0, 0, time.UTC)
	f.apiAs(t, tk.td, "POST", "/api/events/wc/rounds/s1r1/close", nil, 200, nil)
	var out struct {
		Match arbiter.Match `json:"match"`
	}
	apiDo(t, f, "GET", "/api/events/wc/matches/"+m.ID, 200, &out)
	if out.Match.Status != arbiter.MatchHeld || !strings.Contains(out.Match.Note,
		"p01 offered 3 times by Friday 2023-03-24 23:59 UTC, p07 did not: p07 is at fault (W14: must accept the opponent's time); the TDs decide") {
		t.Fatalf("held match %s %q", out.Match.Status, out.Match.Note)
	}
	_, body := f.do(t, "GET", "/events/wc/matches/"+m.ID)
	wantContains(t, body, `<p id="held-note" class="note">Held for the TDs: match `+m.ID+`: p01 offered 3 times`)
	ms, _ := f.app.Matches(context.Background(), "wc", "s1r1")
	for _, o := range ms[1:] {
		if o.Status != arbiter.MatchFinal || o.Result.Forfeit != "full_draw" || o.Result.Home.Points != arbiter.P(5) {
			t.Errorf("%s: %s %+v", o.ID, o.Status, o.Result)
		}
	}
}
