package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"arbiter"
	"arbiter/sqlstore"
)

// Queue is the job queue of one store. It is safe for concurrent use.
type Queue struct {
	db     *sqlstore.DB
	kinds  *Kinds
	clock  func() time.Time
	log    *slog.Logger
	driver riverdriver.Driver[*sql.Tx]
	// client enqueues, lists and retries; it works no jobs (Work and
	// RunDue make clients of their own).
	client *river.Client[*sql.Tx]
}

// Open returns the queue of db (migrated by sqlstore.Open) running kinds,
// on clock (nil: time.Now). log receives River's warnings (nil: none).
func Open(db *sqlstore.DB, kinds *Kinds, clock func() time.Time, log *slog.Logger) (*Queue, error) {
	if clock == nil {
		clock = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	q := &Queue{db: db, kinds: kinds, clock: clock, log: log}
	if db.Dialect() == sqlstore.Postgres {
		q.driver = riverdatabasesql.New(db.SQLDB())
	} else {
		q.driver = riversqlite.New(db.SQLDB())
	}
	c, err := river.NewClient(q.driver, q.config(clock, nil))
	if err != nil {
		return nil, internal("start the job queue", err)
	}
	q.client = c
	kinds.q = q
	return q, nil
}

// config is the River configuration of a client on clock working queues
// (nil: none).
func (q *Queue) config(clock func() time.Time, queues map[string]river.QueueConfig) *river.Config {
	return &river.Config{
		Logger:      q.log,
		Workers:     q.kinds.workers,
		Queues:      queues,
		RetryPolicy: Backoff{Now: clock},
		JobTimeout:  defaultTimeout,
		// The lease: a job still running this long after it started is
		// taken to belong to a dead process and is run again. It must
		// exceed every kind's Timeout.
		RescueStuckJobsAfter: Lease,
		// Failed jobs stay until a TD retries them; done ones are kept a
		// while for the record (the outcome lives in the event's records).
		CompletedJobRetentionPeriod: 30 * 24 * time.Hour,
		CancelledJobRetentionPeriod: -1,
		DiscardedJobRetentionPeriod: -1,
		Test:                        river.TestConfig{Time: riverClock(clock)},
	}
}

// Lease is how long a job may run before it is taken for lost (its
// process killed) and run again.
const Lease = 10 * time.Minute

// riverClock makes River read time from clock, in Go and in SQL alike, to
// the microsecond (what both databases store): a time with nanoseconds
// would be rounded one way when stored and another when compared, and a
// job due at exactly that time might not be seen as due.
type riverClock func() time.Time

func (c riverClock) Now() time.Time       { return c().Truncate(time.Microsecond) }
func (c riverClock) NowOrNil() *time.Time { t := c.Now(); return &t }

// State is a job's state as a TD sees it.
type State string

// The states. River's available, scheduled, pending and retryable are
// all "queued" (RunAt says when); cancelled and discarded are "failed".
const (
	Queued  State = "queued"
	Running State = "running"
	Done    State = "done"
	Failed  State = "failed"
)

func stateOf(s rivertype.JobState) State {
	switch s {
	case rivertype.JobStateRunning:
		return Running
	case rivertype.JobStateCompleted:
		return Done
	case rivertype.JobStateCancelled, rivertype.JobStateDiscarded:
		return Failed
	}
	return Queued
}

func riverStates(s State) []rivertype.JobState {
	switch s {
	case Queued:
		return []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStatePending, rivertype.JobStateRetryable}
	case Running:
		return []rivertype.JobState{rivertype.JobStateRunning}
	case Done:
		return []rivertype.JobState{rivertype.JobStateCompleted}
	case Failed:
		return []rivertype.JobState{rivertype.JobStateCancelled, rivertype.JobStateDiscarded}
	}
	return nil
}

// Info is a stored job.
type Info struct {
	ID          int64           `json:"id"`
	Kind        string          `json:"kind"`
	Key         string          `json:"key"`
	Event       string          `json:"event,omitempty"`
	Args        json.RawMessage `json:"args"`
	State       State           `json:"state"`
	Attempt     int             `json:"attempt"` // runs so far
	MaxAttempts int             `json:"max_attempts"`
	RunAt       time.Time       `json:"run_at"` // when it runs (next), or ran last
	CreatedAt   time.Time       `json:"created_at"`
	FinishedAt  time.Time       `json:"finished_at,omitzero"`
	// Error is the last run's error, if it failed.
	Error string `json:"error,omitempty"`
	// Duplicate is set by Enqueue when a job with the key existed: Info
	// is that job's, and nothing was added.
	Duplicate bool `json:"duplicate,omitempty"`
}

func infoOf(r *rivertype.JobRow) Info {
	var env struct {
		Key   string          `json:"key"`
		Event string          `json:"event"`
		Args  json.RawMessage `json:"args"`
	}
	json.Unmarshal(r.EncodedArgs, &env) // written by Enqueue; a foreign row shows empty fields
	in := Info{ID: r.ID, Kind: r.Kind, Key: env.Key, Event: env.Event, Args: env.Args, State: stateOf(r.State),
		Attempt: r.Attempt, MaxAttempts: r.MaxAttempts, RunAt: r.ScheduledAt.UTC(), CreatedAt: r.CreatedAt.UTC()}
	if r.FinalizedAt != nil {
		in.FinishedAt = r.FinalizedAt.UTC()
	}
	if n := len(r.Errors); n > 0 && in.State != Done {
		in.Error = r.Errors[n-1].Error
	}
	return in
}

// Enqueue stores a job to run at runAt (zero: now), in tx when given (the
// job then exists only if tx commits). While a job with the same key is
// queued or running (or, for kinds not Repeatable, done or failed), it
// returns that job with Duplicate set instead of adding one.
func (q *Queue) Enqueue(ctx context.Context, tx *sqlstore.Tx, a Args, runAt time.Time) (Info, error) {
	k, ok := q.kinds.kinds[a.Kind()]
	if !ok {
		return Info{}, arbiter.Errorf(arbiter.EINTERNAL, "job kind %q is not registered", a.Kind())
	}
	if a.Key() == "" {
		return Info{}, arbiter.Errorf(arbiter.EINTERNAL, "a %s job needs a key", a.Kind())
	}
	meta, _ := json.Marshal(map[string]string{"event": a.Event(), "key": a.Key()})
	opts := &river.InsertOpts{MaxAttempts: k.opts.MaxAttempts, Metadata: meta, ScheduledAt: runAt,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: uniqueStates(k.opts.Repeatable)}}
	var res *rivertype.JobInsertResult
	var err error
	if tx != nil {
		res, err = q.client.InsertTx(ctx, tx.SQLTx(), k.wrap(a), opts)
	} else {
		res, err = q.client.Insert(ctx, k.wrap(a), opts)
	}
	if err != nil {
		return Info{}, internal("enqueue "+a.Key(), err)
	}
	in := infoOf(res.Job)
	in.Duplicate = res.UniqueSkippedAsDuplicate
	return in, nil
}

// uniqueStates are the states in which a job's key blocks another.
// River requires available, pending, running and scheduled.
func uniqueStates(repeatable bool) []rivertype.JobState {
	s := []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateScheduled, rivertype.JobStateRetryable}
	if !repeatable {
		s = append(s, rivertype.JobStateCompleted, rivertype.JobStateDiscarded, rivertype.JobStateCancelled)
	}
	return s
}

// Get returns the job id; ENOTFOUND when there is none.
func (q *Queue) Get(ctx context.Context, id int64) (Info, error) {
	r, err := q.client.JobGet(ctx, id)
	if errors.Is(err, river.ErrNotFound) {
		return Info{}, arbiter.Errorf(arbiter.ENOTFOUND, "job %d not found", id)
	}
	if err != nil {
		return Info{}, internal("read job", err)
	}
	return infoOf(r), nil
}

// Filter narrows List. Zero fields match everything.
type Filter struct {
	Event  string
	Key    string
	States []State
	Limit  int // default 500
}

// List returns the jobs matching f, newest first.
func (q *Queue) List(ctx context.Context, f Filter) ([]Info, error) {
	p := river.NewJobListParams().OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(500)
	if f.Limit > 0 {
		p = p.First(f.Limit)
	}
	var states []rivertype.JobState
	for _, s := range f.States {
		states = append(states, riverStates(s)...)
	}
	if len(states) > 0 {
		p = p.States(states...)
	}
	// River's Metadata filter is PostgreSQL's only; ->> with a bare label
	// reads a field of the JSON on both databases. (No argument's name may
	// begin another's: River replaces them as text.)
	if f.Event != "" {
		p = p.Where("metadata ->> @jf_event = @jv_event", river.NamedArgs{"jf_event": "event", "jv_event": f.Event})
	}
	if f.Key != "" {
		p = p.Where("metadata ->> @jf_key = @jv_key", river.NamedArgs{"jf_key": "key", "jv_key": f.Key})
	}
	res, err := q.client.JobList(ctx, p)
	if err != nil {
		return nil, internal("list jobs", err)
	}
	out := make([]Info, 0, len(res.Jobs))
	for _, r := range res.Jobs {
		out = append(out, infoOf(r))
	}
	return out, nil
}

// Retry makes a queued or failed job run at once (a failed one gets one
// more attempt), in tx when given. A running job is ECONFLICT (it may
// still succeed), and so is a done one (its work is done).
func (q *Queue) Retry(ctx context.Context, tx *sqlstore.Tx, id int64) (Info, error) {
	var cur *rivertype.JobRow
	var err error
	if tx != nil {
		cur, err = q.client.JobGetTx(ctx, tx.SQLTx(), id)
	} else {
		cur, err = q.client.JobGet(ctx, id)
	}
	if errors.Is(err, river.ErrNotFound) {
		return Info{}, arbiter.Errorf(arbiter.ENOTFOUND, "job %d not found", id)
	}
	if err != nil {
		return Info{}, internal("read job", err)
	}
	switch stateOf(cur.State) {
	case Running:
		return Info{}, arbiter.Errorf(arbiter.ECONFLICT, "job %d is running: wait for it to finish", id)
	case Done:
		return Info{}, arbiter.Errorf(arbiter.ECONFLICT, "job %d is done: there is nothing to retry", id)
	}
	var r *rivertype.JobRow
	if tx != nil {
		r, err = q.client.JobRetryTx(ctx, tx.SQLTx(), id)
	} else {
		r, err = q.client.JobRetry(ctx, id)
	}
	if err != nil {
		return Info{}, internal("retry job", err)
	}
	return infoOf(r), nil
}

func internal(what string, err error) error {
	if arbiter.ErrorCode(err) != arbiter.EINTERNAL {
		return err
	}
	return &arbiter.Error{Code: arbiter.EINTERNAL, Message: what, Err: err}
}
