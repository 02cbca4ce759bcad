package jobs_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"arbiter/jobs"
	"arbiter/sqlstore"
)

// Three processes' workers on one database never run a job twice, nor one
// job in two places at once; nor do three 'jobs run' at once.
func TestProcessesShareTheQueue(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		w, c := newWorld(), &clock{t: t0}
		qs := []*jobs.Queue{open(t, dsn, w, c), open(t, dsn, w, c), open(t, dsn, w, c)}
		const n = 30
		for i := range n {
			enqueue(t, qs[i%3], task{Name: fmt.Sprint("w", i)}, time.Time{})
		}
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for _, q := range qs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := q.Work(ctx, jobs.WorkOptions{Workers: 3, Poll: 50 * time.Millisecond}); err != nil {
					t.Error(err)
				}
			}()
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			done, err := qs[0].List(context.Background(), jobs.Filter{States: []jobs.State{jobs.Done}})
			if err != nil {
				t.Fatal(err)
			}
			if len(done) == n {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d jobs done", len(done), n)
			}
			time.Sleep(50 * time.Millisecond)
		}
		stop()
		wg.Wait() // Work stops cleanly once its context ends

		for i := range n {
			enqueue(t, qs[i%3], task{Name: fmt.Sprint("r", i)}, time.Time{})
		}
		for _, q := range qs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := q.RunDue(context.Background(), t0, 3); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		w.mu.Lock()
		defer w.mu.Unlock()
		for i := range n {
			for _, name := range []string{fmt.Sprint("w", i), fmt.Sprint("r", i)} {
				if w.runs[name] != 1 {
					t.Errorf("%s ran %d times", name, w.runs[name])
				}
			}
		}
		if len(w.overlaps) > 0 {
			t.Errorf("ran in two places at once: %v", w.overlaps)
		}
	})
}

// The helper process of TestKilledMidJob: it works the queue, on a clock
// stopped at $JOBS_TEST_WORKER_CLOCK, until it is killed.
func TestMain(m *testing.M) {
	if dsn := os.Getenv("JOBS_TEST_WORKER_DSN"); dsn != "" {
		at, err := time.Parse(time.RFC3339Nano, os.Getenv("JOBS_TEST_WORKER_CLOCK"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		db, err := sqlstoreOpen(dsn)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		w, c := newWorld(), &clock{t: at}
		var log *slog.Logger
		if os.Getenv("JOBS_DEBUG") != "" {
			log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
		}
		q, err := jobs.Open(db, w.kinds(), c.Now, log)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		q.Work(context.Background(), jobs.WorkOptions{Workers: 1, Poll: 50 * time.Millisecond})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// killWorker starts a helper process working the queue on a clock stopped
// at at, waits until it has started the job that creates the file
// started, and kills it (SIGKILL: no clean-up at all).
func killWorker(t *testing.T, dsn string, at time.Time, started string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JOBS_TEST_WORKER_DSN="+dsn, "JOBS_TEST_WORKER_CLOCK="+at.Format(time.RFC3339Nano))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			if os.Getenv("JOBS_DEBUG") != "" {
				q := open(t, dsn, newWorld(), &clock{t: at})
				all, _ := q.List(context.Background(), jobs.Filter{})
				for _, j := range all {
					t.Logf("%+v", j)
				}
			}
			t.Fatal("the helper process never started the job")
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
}

// A process killed in the middle of a job leaves it running in the store.
// Once its lease has expired, the workers of another process take it
// back and run it again, once, to the end; a job whose lease still runs
// is left alone by the same rescue. River's rescuer reads the lease on the
// real clock, so both jobs are started on the real time and the first one,
// once its process is dead, is made to have started a lease and a minute
// ago (ageAttempt). Started on a clock that said so already, the job could
// be rescued by its own process before the kill (that process is the only
// one working, so River's leader, and its rescuer starts after a random
// delay): a rare failure, seen when the delay was short.
func TestKilledMidJob(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, dsn string) {
		now := time.Now().UTC()
		w, c := newWorld(), &clock{t: now}
		q := open(t, dsn, w, c)
		dir := t.TempDir()
		old := enqueue(t, q, task{Name: "old", Block: filepath.Join(dir, "old")}, now.Add(-jobs.Lease-2*time.Minute))
		killWorker(t, dsn, now, filepath.Join(dir, "old"))
		ageAttempt(t, dsn, old.ID, now.Add(-jobs.Lease-time.Minute))
		fresh := enqueue(t, q, task{Name: "fresh", Block: filepath.Join(dir, "fresh")}, time.Time{})
		killWorker(t, dsn, now, filepath.Join(dir, "fresh"))
		for _, id := range []int64{old.ID, fresh.ID} {
			if got := get(t, q, id); got.State != jobs.Running || got.Attempt != 1 {
				t.Fatalf("after the kill: %+v", got)
			}
		}
		// 'jobs run' never takes a running job.
		if got := runDue(t, q, now.Add(time.Hour)); got != "" {
			t.Fatalf("jobs run ran %s", got)
		}
		c.Set(now.Add(time.Minute)) // past the killed leader's term
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- q.Work(ctx, jobs.WorkOptions{Workers: 1, Poll: 50 * time.Millisecond}) }()
		defer func() { stop(); <-done }()
		moved := false
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			got := get(t, q, old.ID)
			if got.State == jobs.Queued && !moved {
				c.Set(got.RunAt.Add(time.Second)) // its retry time has come
				moved = true
			}
			if got.State == jobs.Done || got.State == jobs.Failed {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("not run again: %+v", got)
			}
		}
		if got := get(t, q, old.ID); got.State != jobs.Done || got.Attempt != 2 || w.count("old") != 1 {
			t.Fatalf("after the rescue: %+v, %d runs here", got, w.count("old"))
		}
		if got := get(t, q, fresh.ID); got.State != jobs.Running || w.count("fresh") != 0 {
			t.Fatalf("the job within its lease: %+v, %d runs here", got, w.count("fresh"))
		}
	})
}

func sqlstoreOpen(dsn string) (*sqlstore.DB, error) { return sqlstore.Open(context.Background(), dsn) }

// ageAttempt makes the running job id look started at at in the store, as
// River's rescuer reads it (SQLite keeps River's times as text in one
// format, UTC to the millisecond).
func ageAttempt(t *testing.T, dsn string, id int64, at time.Time) {
	t.Helper()
	db, err := sqlstoreOpen(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res sql.Result
	if db.Dialect() == sqlstore.Postgres {
		res, err = db.SQLDB().Exec(`UPDATE river_job SET attempted_at = $1 WHERE id = $2 AND state = 'running'`, at, id)
	} else {
		res, err = db.SQLDB().Exec(`UPDATE river_job SET attempted_at = ? WHERE id = ? AND state = 'running'`, at.UTC().Format("2006-01-02 15:04:05.000"), id)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("job %d not running after the kill", id)
	}
}
