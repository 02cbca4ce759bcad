package jobs_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/jobs"
	"arbiter/sqlstore"
)

// A job that keeps failing runs again after 30 s, then 1 min (plus up to
// a tenth), and is failed after its kind's 3 attempts: the dead letter,
// listed as failed with its last error; a TD's retry gives it one more
// attempt, which succeeds.
func TestRetryBackoffDeadLetter(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q := open(t, dsn, w, c)
		in := enqueue(t, q, task{Name: "down", Fail: 3}, time.Time{})
		if in.State != jobs.Queued || in.MaxAttempts != 3 || !in.RunAt.Equal(t0) {
			t.Fatalf("enqueued %+v", in)
		}
		if got := runDue(t, q, t0); got != "task:down=queued/1" {
			t.Fatalf("first run: %s", got)
		}
		in = get(t, q, in.ID)
		if d := in.RunAt.Sub(t0); d < 30*time.Second || d > 33*time.Second || !strings.Contains(in.Error, "Lichess is down (run 1)") {
			t.Fatalf("after 1 failure: retry in %v, error %q", d, in.Error)
		}
		if got := runDue(t, q, t0.Add(29*time.Second)); got != "" {
			t.Fatalf("before the backoff: %s", got)
		}
		at := t0.Add(34 * time.Second)
		if got := runDue(t, q, at); got != "task:down=queued/2" {
			t.Fatalf("second run: %s", got)
		}
		in = get(t, q, in.ID)
		if d := in.RunAt.Sub(at); d < time.Minute || d > 66*time.Second {
			t.Fatalf("after 2 failures: retry in %v", d)
		}
		if got := runDue(t, q, t0.Add(3*time.Minute)); got != "task:down=failed/3" {
			t.Fatalf("third run: %s", got)
		}
		failed, err := q.List(context.Background(), jobs.Filter{States: []jobs.State{jobs.Failed}})
		if err != nil || len(failed) != 1 || failed[0].ID != in.ID || !strings.Contains(failed[0].Error, "(run 3)") {
			t.Fatalf("failed jobs %+v %v", failed, err)
		}
		if got := runDue(t, q, t0.Add(24*time.Hour)); got != "" {
			t.Fatalf("a failed job ran again by itself: %s", got)
		}
		if r, err := q.Retry(context.Background(), nil, in.ID); err != nil || r.State != jobs.Queued {
			t.Fatalf("retry: %+v %v", r, err)
		}
		if got := runDue(t, q, t0.Add(25*time.Hour)); got != "task:down=done/4" {
			t.Fatalf("after the retry: %s", got)
		}
		if _, err := q.Retry(context.Background(), nil, in.ID); err == nil {
			t.Fatal("retrying a done job succeeded")
		}
	})
}

// A rule broken is failed at once: trying again cannot fix it.
func TestPermanentFailure(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q := open(t, dsn, w, c)
		in := enqueue(t, q, task{Name: "rule", Rule: true}, time.Time{})
		if got := runDue(t, q, t0); got != "task:rule=failed/1" {
			t.Fatalf("run: %s", got)
		}
		if in = get(t, q, in.ID); !strings.Contains(in.Error, "not allowed") {
			t.Fatalf("error %q", in.Error)
		}
	})
}

// One job per key: enqueued twice, from two processes, or again once done
// (a kind that is not Repeatable), it is the same job and runs once. A
// Repeatable kind may be enqueued again once the last one is done.
func TestUniqueByKey(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q1, q2 := open(t, dsn, w, c), open(t, dsn, w, c)
		a := enqueue(t, q1, task{Name: "x"}, time.Time{})
		b := enqueue(t, q2, task{Name: "x"}, time.Time{})
		if a.Duplicate || !b.Duplicate || b.ID != a.ID {
			t.Fatalf("enqueued twice: %+v then %+v", a, b)
		}
		if got := runDue(t, q2, t0); got != "task:x=done/1" {
			t.Fatalf("run: %s", got)
		}
		if again := enqueue(t, q1, task{Name: "x"}, time.Time{}); !again.Duplicate || again.ID != a.ID || again.State != jobs.Done {
			t.Fatalf("enqueued once done: %+v", again)
		}
		if got := runDue(t, q1, t0.Add(time.Hour)); got != "" || w.count("x") != 1 {
			t.Fatalf("ran again: %s (%d runs)", got, w.count("x"))
		}
		r1 := enqueue(t, q1, again{Name: "y"}, time.Time{})
		if r2 := enqueue(t, q2, again{Name: "y"}, time.Time{}); !r2.Duplicate || r2.ID != r1.ID {
			t.Fatalf("repeatable while queued: %+v", r2)
		}
		runDue(t, q1, t0)
		r3 := enqueue(t, q2, again{Name: "y"}, time.Time{})
		if r3.Duplicate || r3.ID == r1.ID {
			t.Fatalf("repeatable once done: %+v", r3)
		}
		runDue(t, q1, t0)
		if n := w.count("again:y"); n != 2 {
			t.Fatalf("repeatable ran %d times", n)
		}
	})
}

// A job enqueued in a transaction exists only if it commits.
func TestEnqueueInTransaction(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q := open(t, dsn, w, c)
		db, _ := sqlstore.Open(context.Background(), dsn)
		defer db.Close()
		boom := errors.New("the change failed")
		err := db.Tx(context.Background(), func(tx *sqlstore.Tx) error {
			if _, err := q.Enqueue(context.Background(), tx, task{Name: "rolled-back"}, time.Time{}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		err = db.Tx(context.Background(), func(tx *sqlstore.Tx) error {
			_, err := q.Enqueue(context.Background(), tx, task{Name: "committed"}, time.Time{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := runDue(t, q, t0); got != "task:committed=done/1" {
			t.Fatalf("ran %s", got)
		}
	})
}

// A job that acted outside (recorded its effect) and then failed does not
// act again when it runs again: one external call, then done.
func TestEffectNotRepeated(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q := open(t, dsn, w, c)
		enqueue(t, q, task{Name: "challenge:wc:r1-1:1", Effect: true, Crash: true}, time.Time{})
		if got := runDue(t, q, t0); got != "task:challenge:wc:r1-1:1=queued/1" {
			t.Fatalf("first run: %s", got)
		}
		if got := runDue(t, q, t0.Add(time.Minute)); got != "task:challenge:wc:r1-1:1=done/2" {
			t.Fatalf("second run: %s", got)
		}
		w.mu.Lock()
		n := w.external["challenge:wc:r1-1:1"]
		w.mu.Unlock()
		if n != 1 {
			t.Fatalf("acted %d times", n)
		}
	})
}

// A job runs at its time, not before.
func TestScheduled(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		q := open(t, dsn, w, c)
		enqueue(t, q, task{Name: "later"}, t0.Add(time.Hour))
		enqueue(t, q, task{Name: "now"}, time.Time{})
		if got := runDue(t, q, t0.Add(59*time.Minute)); got != "task:now=done/1" {
			t.Fatalf("before its time: %s", got)
		}
		if got := runDue(t, q, t0.Add(time.Hour)); got != "task:later=done/1" {
			t.Fatalf("at its time: %s", got)
		}
	})
}
