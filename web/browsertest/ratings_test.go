package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
	"arbiter/web"
)

// TestConsoleRatings (ACWC preset: antichess ratings from Lichess, W1):
// a registration queues the fetch of the player's rating and the
// eligibility check; once the workers ran, the local TD's console shows
// the rating fetched with its date in place of the typed one, and the
// eligibility outcome in words (unknown: W1's marks are for the TD). The TD clicks "Refresh every rating from
// Lichess now"; once the workers ran, the Lichess section says what the
// refresh fetched and the entrant's new rating.
func TestConsoleRatings(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 3, 12, 9, 0, 0, 0, time.UTC)
	s := newSite(t, now)
	ctx := context.Background()
	fl := lichesstest.Start(t, lichesstest.Options{Seed: 1, Now: s.clock.Now})
	fl.AddPlayer("Veteran", lichess.PerfAntichess, 1800, 2111)
	s.App.SetAccountSource(fl.Client(t, "", lichesstest.NewClock(now)))
	q, err := s.App.OpenJobs(nil)
	noErr(t, err)
	td := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	_, err = s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "wc", Name: "World Cup", Preset: "acwc-2023", Start: time.Date(2023, 3, 21, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)
	_, err = s.App.Register(ctx, arbiter.Actor{Name: "Veteran", Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: "Veteran", Rating: 1500})
	noErr(t, err)
	run := func(at time.Time) {
		t.Helper()
		s.clock.Set(at)
		_, err := q.RunDue(ctx, at, 1)
		noErr(t, err)
	}
	run(now.Add(time.Minute))

	b := s.tab(t, "td", "")
	b.signInTD("/events/wc/td")
	if got := b.text(`#entrant-veteran [data-test="rating"]`); got != "2111 (Lichess antichess, Sun 12 Mar 2023 09:01 UTC)" {
		t.Fatalf("the rating cell %q%s", got, b.where())
	}
	if got := b.text(`#entrant-veteran [data-test="eligibility"] summary`); !strings.HasPrefix(got, "unknown (checked Sun 12 Mar 2023 09:01 UTC by arbiter") {
		t.Fatalf("the eligibility %q%s", got, b.where())
	}
	fl.SetRating("Veteran", lichess.PerfAntichess, lichess.Perf{Games: 1810, Rating: 2150, RD: 60})
	b.click(`#ratings-refresh button[type=submit]`)
	b.wantFlash("Refresh of every rating of wc from Lichess queued; the outcome shows here when it is done.")
	run(now.Add(time.Hour))
	b.goTo("/events/wc/td")
	if got := b.text(`[data-test="ratings-refresh"]`); got != "1 rating fetched from Lichess when refreshing ratings (2023-03-12 10:00 UTC); 1 entrant's rating changed." {
		t.Fatalf("the refresh %q%s", got, b.where())
	}
	if got := b.text(`#entrant-veteran [data-test="rating"]`); !strings.HasPrefix(got, "2150 (Lichess antichess, Sun 12 Mar 2023 10:00 UTC)") {
		t.Fatalf("the rating cell after the refresh %q%s", got, b.where())
	}
}
