package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// t0 is the tests' start: every clock here is a parameter.
var t0 = time.Date(2030, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// task is the test kind: Fail says how many runs fail (-1: all), Effect
// makes the job act "outside" (count an external call) once per key.
type task struct {
	Name   string `json:"name"`
	Fail   int    `json:"fail,omitempty"`
	Effect bool   `json:"effect,omitempty"`
	Crash  bool   `json:"crash,omitempty"` // fail after recording the effect
	Block  string `json:"block,omitempty"` // a file to create, then block until cancelled
	Rule   bool   `json:"rule,omitempty"`  // fail with a rule error (permanent)
	Slug   string `json:"slug,omitempty"`
}

func (task) Kind() string    { return "task" }
func (t task) Key() string   { return "task:" + t.Name }
func (t task) Event() string { return t.Slug }
func (again) Kind() string   { return "again" }
func (a again) Key() string  { return "again:" + a.Name }
func (again) Event() string  { return "" }

// again is a Repeatable kind.
type again struct {
	Name string `json:"name"`
}

// world records what the test kinds did.
type world struct {
	mu       sync.Mutex
	runs     map[string]int
	external map[string]int // "Lichess calls"
	running  map[string]bool
	overlaps []string
}

func newWorld() *world {
	return &world{runs: map[string]int{}, external: map[string]int{}, running: map[string]bool{}}
}

func (w *world) kinds() *jobs.Kinds {
	k := jobs.NewKinds()
	jobs.Add(k, jobs.Options{MaxAttempts: 3, Timeout: time.Minute}, func(ctx context.Context, j *jobs.Job[task]) error {
		a := j.Args
		w.mu.Lock()
		w.runs[a.Name]++
		n := w.runs[a.Name]
		if w.running[a.Name] {
			w.overlaps = append(w.overlaps, a.Name)
		}
		w.running[a.Name] = true
		w.mu.Unlock()
		defer func() { w.mu.Lock(); w.running[a.Name] = false; w.mu.Unlock() }()
		if _, err := os.Stat(a.Block); a.Block != "" && err != nil { // the first run only
			os.WriteFile(a.Block, []byte("started"), 0o644)
			<-ctx.Done()
			return ctx.Err()
		}
		time.Sleep(2 * time.Millisecond) // long enough for two workers to meet
		if a.Effect {
			if _, found, err := j.Effect(ctx); err != nil {
				return err
			} else if !found {
				w.mu.Lock()
				w.external[a.Name]++
				id := fmt.Sprintf("ext-%s-%d", a.Name, w.external[a.Name])
				w.mu.Unlock()
				if err := j.RecordEffect(ctx, id); err != nil {
					return err
				}
			}
			if a.Crash && n == 1 {
				return errors.New("lost the connection after acting")
			}
		}
		if a.Rule {
			return arbiter.RuleError("R1", "not allowed")
		}
		if a.Fail < 0 || n <= a.Fail {
			return &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: fmt.Sprintf("Lichess is down (run %d)", n)}
		}
		return nil
	})
	jobs.Add(k, jobs.Options{Repeatable: true}, func(ctx context.Context, j *jobs.Job[again]) error {
		w.mu.Lock()
		w.runs["again:"+j.Args.Name]++
		w.mu.Unlock()
		return nil
	})
	return k
}

func (w *world) count(name string) int { w.mu.Lock(); defer w.mu.Unlock(); return w.runs[name] }

// each runs f on SQLite and, with $ARBITER_TEST_POSTGRES, PostgreSQL.
func each(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); f(t, storetest.SQLiteDSN(t)) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); f(t, storetest.PostgresDSN(t)) })
}

// open opens a queue on dsn: each call is one "process".
func open(t *testing.T, dsn string, w *world, c *clock) *jobs.Queue {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var log *slog.Logger
	if os.Getenv("JOBS_DEBUG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	q, err := jobs.Open(db, w.kinds(), c.Now, log)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func enqueue(t *testing.T, q *jobs.Queue, a jobs.Args, at time.Time) jobs.Info {
	t.Helper()
	in, err := q.Enqueue(context.Background(), nil, a, at)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func runDue(t *testing.T, q *jobs.Queue, at time.Time) string {
	t.Helper()
	res, err := q.RunDue(context.Background(), at, 2)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		out = append(out, fmt.Sprintf("%s=%s/%d", r.Key, r.State, r.Attempt))
	}
	return strings.Join(sorted(out), " ")
}

func sorted(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func get(t *testing.T, q *jobs.Queue, id int64) jobs.Info {
	t.Helper()
	in, err := q.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
