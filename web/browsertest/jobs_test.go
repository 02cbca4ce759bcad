package browsertest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/web"
)

// flakyLichess is an app.AccountSource whose profiles fail while down.
type flakyLichess struct {
	mu   sync.Mutex
	down bool
}

func (f *flakyLichess) setDown(d bool) { f.mu.Lock(); f.down = d; f.mu.Unlock() }

func (f *flakyLichess) User(_ context.Context, name string) (*lichess.User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return nil, errors.New("lichess: GET /api/user/" + name + ": HTTP 502: Bad Gateway")
	}
	return &lichess.User{ID: strings.ToLower(name), Username: name, CreatedAt: time.Date(2021, 5, 1, 0, 0, 0, 0, time.UTC), Perfs: map[string]lichess.Perf{}}, nil
}

func (f *flakyLichess) CountGames(context.Context, string, lichess.GamesQuery) (int, error) {
	return 0, errors.New("not asked: the profile has no antichess games")
}

// TestJobsRetry: a registration queues the entrant's eligibility check;
// with Lichess down it fails five times and the TD console shows it
// failed, beside the entrant and among the background jobs, with the
// error. Lichess back, the TD clicks Retry: the job is queued, then done,
// and the entrant shows the check's outcome. The TD's "Check eligibility"
// button queues a new check, shown queued until the workers run it.
func TestJobsRetry(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 3, 12, 9, 0, 0, 0, time.UTC)
	s := newSite(t, now)
	ctx := context.Background()
	lc := &flakyLichess{down: true}
	s.App.SetAccountSource(lc)
	q, err := s.App.OpenJobs(nil)
	noErr(t, err)
	td := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	// The ACWC without ratings from Lichess: the eligibility job alone
	// (the ratings job has its own test, TestConsoleRatings).
	f, err := format.Preset("acwc-2023")
	noErr(t, err)
	f.Lichess.Perf = ""
	var fj strings.Builder
	noErr(t, format.Write(&fj, f))
	_, err = s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "wc", Name: "World Cup", Format: []byte(fj.String()), Start: time.Date(2023, 3, 21, 0, 0, 0, 0, time.UTC)})
	noErr(t, err)
	_, err = s.App.Register(ctx, arbiter.Actor{Name: "Flagged", Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: "Flagged", Rating: 1900})
	noErr(t, err)
	// The workers' runs, at the times the backoff allows.
	runAt := func(at time.Time) []jobs.Result {
		t.Helper()
		s.clock.Set(at)
		res, err := q.RunDue(ctx, at, 1)
		noErr(t, err)
		return res
	}
	at := now
	for try := 1; try <= 5; try++ {
		res := runAt(at)
		if len(res) != 1 || res[0].Attempt != try {
			t.Fatalf("try %d: %+v", try, res)
		}
		at = res[0].RunAt.Add(time.Second)
	}

	b := s.tab(t, "td", "")
	b.signInTD("/events/wc/td")
	if got := b.text(`#entrant-flagged [data-test="eligibility-job"]`); !strings.Contains(got, "failed after 5 tries") ||
		!strings.Contains(got, "fetching the Lichess account flagged failed; try again later") {
		t.Fatalf("the entrant's check: %q%s", got, b.where())
	}
	rows := b.rows("#jobs table")
	if len(rows) != 1 || !strings.Contains(rows[0], "Eligibility check of flagged") || !strings.Contains(rows[0], "failed after 5 tries") {
		t.Fatalf("jobs %q%s", rows, b.where())
	}

	lc.setDown(false)
	b.click(`#jobs tr[data-test="job"] button[type=submit]`)
	b.wantFlash("Eligibility check of flagged: tried again.")
	if got := b.text(`#jobs [data-test="job-state"]`); !strings.HasPrefix(got, "queued: try 6 of 6") {
		t.Fatalf("after Retry the job is %q%s", got, b.where())
	}
	if res := runAt(at.Add(time.Minute)); len(res) != 1 || res[0].State != jobs.Done {
		t.Fatalf("the retried job: %+v", res)
	}
	b.goTo("/events/wc/td")
	if !strings.Contains(b.text("#jobs"), "No job is queued, running or failed.") || b.has(`#entrant-flagged [data-test="eligibility-job"]`) {
		t.Fatalf("after the job is done%s", b.where())
	}
	if got := b.text(`#entrant-flagged [data-test="eligibility"] summary`); !strings.HasPrefix(got, "not eligible") || !strings.Contains(got, "by arbiter") {
		t.Fatalf("the check %q%s", got, b.where())
	}
	// The TD asks again: queued until the workers run it.
	b.click(`#eligibility-form-flagged button[type=submit]`)
	b.wantFlash("Eligibility check of flagged queued; the outcome shows here when it is done.")
	if got := b.text(`#entrant-flagged [data-test="eligibility-job"]`); !strings.Contains(got, "queued") {
		t.Fatalf("the entrant's check: %q%s", got, b.where())
	}
	if res := runAt(at.Add(2 * time.Minute)); len(res) != 1 || res[0].State != jobs.Done {
		t.Fatalf("the TD's job: %+v", res)
	}
	b.goTo("/events/wc/td")
	if got := b.text(`#entrant-flagged [data-test="eligibility"] summary`); !strings.Contains(got, "by "+web.LocalTD) {
		t.Fatalf("the TD's check %q%s", got, b.where())
	}
	b.goTo("/events/wc/td/audit")
	if got := b.text("main"); !strings.Contains(got, "job.retry") {
		t.Fatalf("the audit log lacks the retry%s", b.where())
	}
}
