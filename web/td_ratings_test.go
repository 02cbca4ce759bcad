package web

import (
	"context"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestTDConsoleRatings: in the ACWC (ratings from Lichess's antichess
// perf, W1 eligibility) a registration queues both jobs; once they ran,
// the console shows each entrant's rating fetched from Lichess with its
// date, replacing the typed one, and the eligibility outcome in words
// with the failing clause (the fake's accounts are two years old: created
// 2023-01-01, not before it, W1) and what is unknown with why. "Refresh every rating" queues a job; its
// outcome, and Lichess being down on the next one, show in the Lichess
// section.
func TestTDConsoleRatings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	fl := lichesstest.Start(t, lichesstest.Options{Seed: 1, Now: func() time.Time { return f.now }})
	fl.AddPlayer("Veteran", lichess.PerfAntichess, 1800, 2111)
	f.app.SetAccountSource(fl.Client(t, "", lichesstest.NewClock(f.now)))
	if _, err := f.app.OpenJobs(nil); err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "wc", Name: "ACWC", Preset: "acwc-2023", Start: f.now.Add(7 * 24 * time.Hour)}))
	ok(t)(f.app.Register(ctx, arbiter.Actor{Name: "Veteran", Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: "Veteran", Rating: 1500}))
	tdTok := f.signIn(t, "ArbiterTD")
	console := "/events/wc/td"
	res, body := f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<td data-test="rating">1500 <span class="note">(typed; not fetched from Lichess yet)</span>`, "not checked",
		"Ratings: each player's Lichess <strong>antichess</strong> rating, fetched right after registration and refreshed before round 1 is paired")

	f.now = f.now.Add(time.Minute)
	if _, err := f.app.Jobs().RunDue(ctx, f.now, 1); err != nil {
		t.Fatal(err)
	}
	res, body = f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, console, body)
	wantContains(t, body, `<td data-test="rating">2111
        <span class="note">(Lichess antichess, Wed 1 Jan 2025 12:01 UTC)</span>`,
		`<summary><strong>not eligible</strong> <span class="note">(checked Wed 1 Jan 2025 12:01 UTC by arbiter, judged at Wed 1 Jan 2025 12:00 UTC)</span></summary>`,
		"<li>Veteran: fail — account created before 2023-01-01 00:00 UTC (W1.created): created 2023-01-01, not before 2023-01-01</li>",
		"<li>Veteran: unknown — not entered with another account (W1.accounts): not in the public Lichess API — TD must confirm</li>")

	fl.SetRating("Veteran", lichess.PerfAntichess, lichess.Perf{Games: 1810, Rating: 2150, RD: 60})
	f.now = f.now.Add(time.Hour)
	f.submit(t, tdTok, "/events/wc/td/ratings", nil).wantOK(t, "Refresh of every rating of wc from Lichess queued")
	if _, err := f.app.Jobs().RunDue(ctx, f.now, 1); err != nil {
		t.Fatal(err)
	}
	res, body = f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<p data-test="ratings-refresh">1 rating fetched from Lichess when refreshing ratings (2025-01-01 13:01 UTC); 1 entrant&#39;s rating changed.</p>`,
		`<td data-test="rating">2150`)

	fl.Inject(lichesstest.Fault{Route: "POST /api/users", Status: 500, Body: "oops", Times: 10})
	f.now = f.now.Add(time.Hour)
	f.submit(t, tdTok, "/events/wc/td/ratings", nil).wantOK(t, "queued")
	if _, err := f.app.Jobs().RunDue(ctx, f.now, 1); err != nil {
		t.Fatal(err)
	}
	res, body = f.as(t, tdTok, "GET", console, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<p data-test="ratings-refresh" class="ratings-stale" role="status">Lichess could not be reached when refreshing ratings (2025-01-01 14:01 UTC, `,
		`): the ratings of 2025-01-01 13:01 UTC stand.</p>`, `<td data-test="rating">2150`)

	// A player may not refresh.
	capTok := f.signIn(t, "Veteran")
	res, body = f.as(t, capTok, "POST", "/events/wc/td/ratings", nil)
	wantStatus(t, res, body, 403)
}
