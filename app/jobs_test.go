package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// runJobs runs every job due at the clock's time and renders what ran as
// "what=state/attempt".
func runJobs(t *testing.T, s *Service, c *clock) []string {
	t.Helper()
	res, err := s.Jobs().RunDue(ctx, c.t, 2)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		out = append(out, fmt.Sprintf("%s=%s/%d", jobOf(r.Info).What, r.State, r.Attempt))
	}
	slices.Sort(out)
	return out
}

func wantRan(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("ran %q, want %q", got, want)
	}
}

// TestEligibilityJobs: with a job queue, a registration in a format with
// eligibility rules (W1) enqueues its check in the same transaction; it
// runs as the system and is stored like a TD's. A TD's request is a job
// too: asked twice while queued it is one job; asked again once done, a
// new one. Only a TD may ask, see or retry jobs. A format without
// eligibility rules enqueues nothing.
func TestEligibilityJobs(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		s.SetAccountSource(&fakeAccounts{users: map[string]*lichess.User{
			"veteran": account("Veteran", "", utc(2021, 5, 1, 0, 0), 0, 0, 0, false),
		}})
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)}))
		must(s.Register(ctx, player("Veteran"), "wc", arbiter.Entrant{Player: "Veteran", Rating: 2000}))
		js := must(s.EventJobs(ctx, td, "wc"))
		// Newest first: the ratings from Lichess (lichess.perf), then W1.
		if len(js) != 2 || js[1].What != "Eligibility check of veteran" || js[1].State != jobs.Queued || js[1].Key != "eligibility:wc:veteran" ||
			js[0].Key != "ratings:wc:veteran" || js[0].State != jobs.Queued {
			t.Fatalf("jobs after registering %+v", js)
		}
		js = js[1:]
		_, err := s.EventJobs(ctx, player("Veteran"), "wc")
		wantErr(t, err, arbiter.EFORBIDDEN, "")

		c.t = utc(2023, 3, 12, 9, 5)
		wantRan(t, runJobs(t, s, c), "Eligibility check of veteran=done/1", "Ratings of veteran from Lichess=done/1")
		checks := must(s.Eligibilities(ctx, arbiter.NamedUser(td.Name), "wc"))
		v := checks["veteran"]
		if v.By != "arbiter" || v.Status != "fail" || !v.At.Equal(c.t) || detailOf(v.Reports[0], "W1.games") != "at most 0 rated antichess games before 2023-03-12 (needs 1000)" {
			t.Fatalf("check %+v", v)
		}
		audit := must(s.Audit(ctx, td, "wc", sqlstore.AuditFilter{Kind: kindEligibility}))
		if len(audit) != 1 || audit[0].Actor.Name != "arbiter" || audit[0].Actor.Role != arbiter.RoleSystem {
			t.Fatalf("audit %+v", audit)
		}

		// A TD asks again: one job however often they click while it waits.
		j1 := must(s.RequestEligibility(ctx, td, "wc", "Veteran"))
		j2 := must(s.RequestEligibility(ctx, td, "wc", "veteran"))
		if j1.State != jobs.Queued || j1.Duplicate || !j2.Duplicate || j2.ID != j1.ID || j1.ID == js[0].ID {
			t.Fatalf("requested %+v then %+v", j1, j2)
		}
		_, err = s.RequestEligibility(ctx, player("Veteran"), "wc", "veteran")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		c.t = c.t.Add(time.Hour)
		wantRan(t, runJobs(t, s, c), "Eligibility check of veteran=done/1")
		if v := must(s.Eligibilities(ctx, arbiter.NamedUser(td.Name), "wc"))["veteran"]; v.By != "arbitertd" || !v.At.Equal(c.t) || v.Version != 2 {
			t.Fatalf("second check %+v", v)
		}
		latest := must(s.EligibilityJobs(ctx, "wc"))
		if j := latest["veteran"]; j.ID != j1.ID || j.State != jobs.Done {
			t.Fatalf("latest %+v", latest)
		}
		if _, err := s.RetryJob(ctx, td, "wc", j1.ID); arbiter.ErrorCode(err) != arbiter.ECONFLICT {
			t.Fatalf("retrying a done job: %v", err)
		}

		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2023, 4, 3, 0, 0)}))
		if js := must(s.EventJobs(ctx, td, "rk")); len(js) != 0 {
			t.Fatalf("jobs of an event without eligibility rules: %+v", js)
		}
	})
}

// fakeLichess is a Lichess that answers /api/user/veteran as mode says:
// ok (a profile), garbage (an HTML page with status 200), down (the
// connection drops), busy (429). It counts the requests.
type fakeLichess struct {
	mu       sync.Mutex
	mode     string
	requests int
}

func (f *fakeLichess) set(mode string) { f.mu.Lock(); f.mode = mode; f.mu.Unlock() }

func (f *fakeLichess) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	mode := f.mode
	f.requests++
	f.mu.Unlock()
	switch mode {
	case "garbage":
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>Lichess is being upgraded</body></html>"))
	case "down":
		panic(http.ErrAbortHandler) // the connection drops without an answer
	case "busy":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":"Too many requests. Try again later."}`))
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"veteran","username":"Veteran","createdAt":1619827200000,"perfs":{}}`))
	}
}

// lichessTime is the Lichess client's clock: the test's, and sleeps that
// return at once but are recorded.
type lichessTime struct {
	c      *clock
	mu     sync.Mutex
	sleeps []time.Duration
}

func (l *lichessTime) Now() time.Time { return l.c.t }
func (l *lichessTime) Sleep(ctx context.Context, d time.Duration) error {
	l.mu.Lock()
	l.sleeps = append(l.sleeps, d)
	l.mu.Unlock()
	return ctx.Err()
}

// TestEligibilityJobFaults: the real Lichess client against a Lichess
// that answers garbage, then drops connections: the job fails, is retried
// after 30 s, 1 min, 2 min and 4 min (each error kept for the TD), and is
// failed after its 5th attempt; it is not run again by itself. Lichess
// back, a TD retries it (audited) and it is done. A 429 makes the job wait
// the 60 s Lichess asks for without an attempt counted and without the
// client waiting in the worker; it then runs.
func TestEligibilityJobFaults(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		fake := &fakeLichess{mode: "garbage"}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		lt := &lichessTime{c: c}
		lc, err := lichess.New(lichess.Options{BaseURL: srv.URL, Time: lt, Retries429: -1})
		if err != nil {
			t.Fatal(err)
		}
		s.SetAccountSource(lc)
		must(s.OpenJobs(nil))
		// The ACWC without ratings from Lichess: only the eligibility job.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Format: presetWithout(t, "acwc-2023", func(f *format.Format) { f.Lichess.Perf = "" }), Start: utc(2023, 3, 21, 0, 0)}))
		must(s.Register(ctx, player("Veteran"), "wc", arbiter.Entrant{Player: "Veteran", Rating: 2000}))

		start := c.t
		for i, mode := range []string{"garbage", "down", "garbage", "down", "down"} {
			fake.set(mode)
			want := "queued"
			if i == 4 {
				want = "failed"
			}
			wantRan(t, runJobs(t, s, c), fmt.Sprintf("Eligibility check of veteran=%s/%d", want, i+1))
			j := must(s.EventJobs(ctx, td, "wc"))[0]
			if !strings.Contains(j.Error, "fetching the Lichess account veteran failed; try again later") {
				t.Fatalf("attempt %d: error %q", i+1, j.Error)
			}
			if i < 4 {
				// Not due a moment before its backoff, due after it (and its jitter).
				if d := j.RunAt.Sub(c.t); d < jobs.Delay(i+1) || d > jobs.Delay(i+1)*11/10+time.Second {
					t.Fatalf("attempt %d: next in %v", i+1, d)
				}
				c.t = j.RunAt.Add(-time.Second)
				wantRan(t, runJobs(t, s, c))
				c.t = j.RunAt
			}
		}
		if c.t.Sub(start) > 9*time.Minute {
			t.Fatalf("dead-lettered after %v", c.t.Sub(start))
		}
		c.t = c.t.Add(24 * time.Hour)
		wantRan(t, runJobs(t, s, c))
		failed := must(s.EventJobs(ctx, td, "wc", jobs.Failed))
		if len(failed) != 1 || failed[0].Attempt != 5 {
			t.Fatalf("failed jobs %+v", failed)
		}
		if _, ok := must(s.Eligibilities(ctx, arbiter.NamedUser(td.Name), "wc"))["veteran"]; ok {
			t.Fatal("a check was stored from garbage")
		}

		fake.set("ok")
		_, err = s.RetryJob(ctx, player("Veteran"), "wc", failed[0].ID)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		j := must(s.RetryJob(ctx, td, "wc", failed[0].ID))
		if j.State != jobs.Queued || j.What != "Eligibility check of veteran" {
			t.Fatalf("retried %+v", j)
		}
		wantRan(t, runJobs(t, s, c), "Eligibility check of veteran=done/6")
		if v, ok := must(s.Eligibilities(ctx, arbiter.NamedUser(td.Name), "wc"))["veteran"]; !ok || v.Status != "fail" {
			t.Fatalf("check after the retry %+v", v)
		}
		audit := must(s.Audit(ctx, td, "wc", sqlstore.AuditFilter{Kind: kindJobRetry}))
		if len(audit) != 1 || audit[0].Action != "job.retry" || audit[0].Actor.Name != "arbitertd" ||
			!strings.HasPrefix(audit[0].Reason, "Eligibility check of veteran: fetching the Lichess account veteran failed") {
			t.Fatalf("audit %+v", audit)
		}

		// 429: one request, no wait in the worker, the job waits 60 s.
		fake.set("busy")
		fake.requests = 0
		lt.sleeps = nil
		j = must(s.RequestEligibility(ctx, td, "wc", "veteran"))
		wantRan(t, runJobs(t, s, c), "Eligibility check of veteran=queued/0") // a snooze gives its attempt back
		got := must(s.EventJob(ctx, td, "wc", j.ID))
		if !got.RunAt.Equal(c.t.Add(lichess.RateLimitPause)) || fake.requests != 1 {
			t.Fatalf("after a 429: %+v, %d requests", got, fake.requests)
		}
		for _, d := range lt.sleeps { // the client's 1 s spacing of requests, no more
			if d > time.Second {
				t.Fatalf("the client waited %v in the worker", d)
			}
		}
		fake.set("ok")
		c.t = c.t.Add(59 * time.Second)
		wantRan(t, runJobs(t, s, c))
		c.t = c.t.Add(time.Second)
		wantRan(t, runJobs(t, s, c), "Eligibility check of veteran=done/1")
	})
}

// TestVerifyJob: a TD's verification is a job; without a Lichess client
// it cannot succeed, so it fails at once (no retries) with the reason.
func TestVerifyJob(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		m := verifyEvent(t, s, c, "vc", verifyFormat(fixtureParts, true), reportedOK)
		j := must(s.RequestVerification(ctx, td, "vc", m.ID))
		if j.What != "Verification of match "+m.ID+" on Lichess" || j.State != jobs.Queued {
			t.Fatalf("requested %+v", j)
		}
		wantRan(t, runJobs(t, s, c), j.What+"=failed/1")
		got := must(s.VerificationJob(ctx, "vc", m.ID))
		if got == nil || !strings.Contains(got.Error, "result verification is unavailable") {
			t.Fatalf("job %+v", got)
		}
		s.SetGameSource(&fakeGames{games: without(fixtureGames(t), "SynTh006")})
		must(s.RetryJob(ctx, td, "vc", j.ID))
		wantRan(t, runJobs(t, s, c), j.What+"=done/2")
		if v := must(s.Verification(ctx, arbiter.NamedUser(td.Name), "vc", m.ID)); v == nil || !v.Consistent || v.By != "arbitertd" {
			t.Fatalf("verification %+v", v)
		}
	})
}

// presetWithout is a preset's JSON changed by edit.
func presetWithout(t testing.TB, name string, edit func(*format.Format)) []byte {
	t.Helper()
	f, err := format.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	edit(f)
	var b strings.Builder
	if err := format.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return []byte(b.String())
}
