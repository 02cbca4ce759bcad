package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"arbiter"
	"arbiter/sqlstore"
)

// Args are a job's arguments: a kind's own struct, stored as JSON.
type Args interface {
	// Kind names the kind, stable across releases: "eligibility".
	Kind() string
	// Key makes the job unique: "challenge:EVENT:MATCH:GAME". It also
	// names the job's effect (Job.RecordEffect).
	Key() string
	// Event is the slug of the event the job belongs to ("" for none):
	// the TD console lists an event's jobs.
	Event() string
}

// Options are a kind's settings; zero fields take the defaults.
type Options struct {
	// MaxAttempts is how many times a failing job runs before it is
	// failed for good (default 5: over about 8 minutes with Backoff).
	MaxAttempts int
	// Timeout bounds one run (default 2 minutes); its context ends then.
	Timeout time.Duration
	// Repeatable kinds may be enqueued again once the last job with the
	// key is done or failed (an eligibility check asked for again); other
	// kinds run once per key for good (a challenge, a message).
	Repeatable bool
}

const (
	defaultMaxAttempts = 5
	defaultTimeout     = 2 * time.Minute
)

func (o Options) withDefaults() Options {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	return o
}

// Job is one run of a job, as its kind's function sees it.
type Job[A Args] struct {
	ID          int64
	Attempt     int // 1 on the first run
	MaxAttempts int
	Args        A
	q           *Queue
}

// Key is the job's key (Args.Key).
func (j *Job[A]) Key() string { return j.Args.Key() }

// Effect returns the external id recorded under the job's key by an
// earlier run (found false when none): a kind that acts outside Arbiter
// reads it first and, when found, does not act again.
func (j *Job[A]) Effect(ctx context.Context) (id string, found bool, err error) {
	e, found, err := sqlstore.GetJobEffect(ctx, j.q.db, j.Key())
	return e.Effect, found, err
}

// RecordEffect records the external id of what the job did (the Lichess
// challenge it created), in a transaction of its own, at once: if the
// process dies after this, a re-run finds it. Recording twice is
// ECONFLICT.
func (j *Job[A]) RecordEffect(ctx context.Context, id string) error {
	return j.q.db.Tx(ctx, func(tx *sqlstore.Tx) error {
		return sqlstore.RecordJobEffect(ctx, tx, sqlstore.JobEffect{Key: j.Key(), Effect: id, JobID: j.ID})
	})
}

// Snooze returns an error that makes the job wait d and run again without
// counting an attempt: for a Lichess 429 (wait the minute it asks for)
// instead of holding a worker meanwhile. why is shown to the TD.
func Snooze(d time.Duration, why error) error { return &snoozeError{d: d, why: why} }

type snoozeError struct {
	d   time.Duration
	why error
}

func (e *snoozeError) Error() string { return fmt.Sprintf("waiting %s: %v", e.d, e.why) }
func (e *snoozeError) Unwrap() error { return e.why }

// Permanent marks an error that trying again cannot fix: the job is failed
// at once (a TD may still retry it).
func Permanent(err error) error { return &permanentError{err} }

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// transient reports whether a failure may pass by itself: Lichess or the
// database unavailable (EUNAVAILABLE, EINTERNAL and errors without a
// code), or a write that met another (ECONFLICT). A rule broken, a record
// missing or a permission refused stays so until a person acts.
func transient(err error) bool {
	var p *permanentError
	if errors.As(err, &p) {
		return false
	}
	switch arbiter.ErrorCode(err) {
	case arbiter.EUNAVAILABLE, arbiter.EINTERNAL, arbiter.ECONFLICT:
		return true
	}
	return false
}

// envelope is what River stores: the kind's arguments with the key (the
// only field River's uniqueness looks at) and the event.
type envelope[A Args] struct {
	Key   string `json:"key" river:"unique"`
	Event string `json:"event,omitempty"`
	Args  A      `json:"args"`
}

func (e envelope[A]) Kind() string { var a A; return a.Kind() }

// Kinds is the set of kinds a queue runs, built before Open.
type Kinds struct {
	workers *river.Workers
	kinds   map[string]*kind
	q       *Queue // set by Open
}

type kind struct {
	name string
	opts Options
	wrap func(Args) river.JobArgs
}

// NewKinds returns an empty set of kinds.
func NewKinds() *Kinds { return &Kinds{workers: river.NewWorkers(), kinds: map[string]*kind{}} }

// Add registers a kind: run is called for each of its jobs. It panics if
// the kind is added twice (a programming error).
func Add[A Args](k *Kinds, o Options, run func(ctx context.Context, j *Job[A]) error) {
	var zero A
	name := zero.Kind()
	if _, dup := k.kinds[name]; dup {
		panic("jobs: kind added twice: " + name)
	}
	o = o.withDefaults()
	k.kinds[name] = &kind{name: name, opts: o, wrap: func(a Args) river.JobArgs {
		return envelope[A]{Key: a.Key(), Event: a.Event(), Args: a.(A)}
	}}
	river.AddWorker(k.workers, &worker[A]{k: k, opts: o, run: run})
}

// worker adapts a kind's function to River.
type worker[A Args] struct {
	river.WorkerDefaults[envelope[A]]
	k    *Kinds
	opts Options
	run  func(ctx context.Context, j *Job[A]) error
}

func (w *worker[A]) Timeout(*river.Job[envelope[A]]) time.Duration { return w.opts.Timeout }

func (w *worker[A]) Work(ctx context.Context, rj *river.Job[envelope[A]]) error {
	if log := runLogFrom(ctx); log != nil {
		log.start(rj.ID)
		defer log.finish(rj.ID)
	}
	j := &Job[A]{ID: rj.ID, Attempt: rj.Attempt, MaxAttempts: rj.MaxAttempts, Args: rj.Args.Args, q: w.k.q}
	err := w.run(ctx, j)
	var sn *snoozeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &sn):
		return river.JobSnooze(sn.d)
	case !transient(err):
		return river.JobCancel(err)
	}
	return err
}
