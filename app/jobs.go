package app

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Background jobs: the work that talks to Lichess runs outside the
// request that asks for it, in package jobs's durable queue. Each kind is
// one file (job_*.go) that adds itself to jobKinds: its arguments (a small
// struct naming the event and what to work on, with the key that makes it
// unique), how a TD reads it, and its body, which calls the use case that
// did the work in the request before (CheckEligibility, VerifyMatch), so
// the rules and their tests stay where they were.

// jobKind is one kind of job of the app.
type jobKind struct {
	name string
	add  func(s *Service, k *jobs.Kinds)
	// what says in plain words what a job of the kind does, from its
	// stored arguments: "Eligibility check of Flagged".
	what func(args json.RawMessage) string
}

// jobKinds are every kind, each added by its file's init.
var jobKinds = map[string]jobKind{}

func addJobKind(k jobKind) {
	if _, dup := jobKinds[k.name]; dup {
		panic("app: job kind added twice: " + k.name)
	}
	jobKinds[k.name] = k
}

// OpenJobs opens the job queue of the service's store, running every kind
// of the app, and makes the use cases that start jobs (a TD's eligibility
// check or verification, a registration) enqueue them instead of doing
// the work at once. log receives the queue's warnings (nil: none).
func (s *Service) OpenJobs(log *slog.Logger) (*jobs.Queue, error) {
	k := jobs.NewKinds()
	for _, kind := range jobKinds {
		kind.add(s, k)
	}
	q, err := jobs.Open(s.DB, k, s.now, log)
	if err != nil {
		return nil, err
	}
	s.queue = q
	s.watchChanges() // webhooks and Challonge pushes (integrations.go)
	return q, nil
}

// Jobs is the service's queue; nil until OpenJobs.
func (s *Service) Jobs() *jobs.Queue { return s.queue }

// Job is a background job as the TD console shows it.
type Job struct {
	jobs.Info
	What string `json:"what"` // in plain words: "Eligibility check of Flagged"
	// Outcome is what a job run at once (without a queue) found.
	Outcome string `json:"outcome,omitempty"`
}

func jobOf(in jobs.Info) Job {
	j := Job{Info: in, What: in.Kind}
	if k, ok := jobKinds[in.Kind]; ok {
		j.What = k.what(in.Args)
	}
	return j
}

// EventJobs lists the event's jobs in the given states (none: all),
// newest first. TD only.
func (s *Service) EventJobs(ctx context.Context, a arbiter.Actor, slug string, states ...jobs.State) ([]Job, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see the event's background jobs"); err != nil {
		return nil, err
	}
	if s.queue == nil {
		return nil, nil
	}
	infos, err := s.queue.List(ctx, jobs.Filter{Event: slug, States: states})
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(infos))
	for i, in := range infos {
		out[i] = jobOf(in)
	}
	return out, nil
}

// EventJob returns one of the event's jobs. TD only.
func (s *Service) EventJob(ctx context.Context, a arbiter.Actor, slug string, id int64) (Job, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see the event's background jobs"); err != nil {
		return Job{}, err
	}
	return s.eventJob(ctx, slug, id)
}

func (s *Service) eventJob(ctx context.Context, slug string, id int64) (Job, error) {
	if s.queue == nil {
		return Job{}, arbiter.Errorf(arbiter.ENOTFOUND, "job %d not found: this server runs no background jobs", id)
	}
	in, err := s.queue.Get(ctx, id)
	if err == nil && in.Event != slug {
		err = arbiter.Errorf(arbiter.ENOTFOUND, "job %d not found in %s", id, slug)
	}
	return jobOf(in), err
}

// JobRetry is the audit record of a TD's retries of one job.
type JobRetry struct {
	Job     int64     `json:"job"`
	What    string    `json:"what"`
	Key     string    `json:"key"`
	Retries int       `json:"retries"`
	By      string    `json:"by"` // the last TD to retry it
	At      time.Time `json:"at"`
	// Error is what the job had failed with when it was retried.
	Error string `json:"error,omitempty"`
}

const kindJobRetry = "job_retry"

// RetryJob makes a failed job of the event (or one waiting for its next
// attempt) run again at once, with one more attempt; audited. TD only. A
// running job is ECONFLICT, and so is a done one.
func (s *Service) RetryJob(ctx context.Context, a arbiter.Actor, slug string, id int64) (Job, error) {
	const what = "retry a background job"
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Job{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, what); err != nil {
		return Job{}, err
	}
	before, err := s.eventJob(ctx, slug, id)
	if err != nil {
		return Job{}, err
	}
	var out Job
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		if err := requireTD(ctx, tx, st, a, what); err != nil {
			return err
		}
		in, err := s.queue.Retry(ctx, tx, id)
		if err != nil {
			return err
		}
		out = jobOf(in)
		rec := strconv.FormatInt(id, 10)
		r := JobRetry{Job: id, What: before.What, Key: before.Key, By: normUser(a.Name), At: s.now(), Error: before.Error}
		ch := change(a, "job.retry", before.What+": "+orField(before.Error, string(before.State)), false)
		old, v, err := docJobRetry.read(ctx, tx, st.row.ID, rec)
		switch {
		case err == nil:
			r.Retries = old.Retries + 1
			_, err = docJobRetry.update(ctx, tx, ch, st, rec, v, r)
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
			r.Retries = 1
			_, err = docJobRetry.create(ctx, tx, ch, st, rec, r)
		}
		return err
	})
	return out, err
}

// latestJobs maps each key to the newest of the event's jobs with it.
func (s *Service) latestJobs(ctx context.Context, slug string) (map[string]Job, error) {
	out := map[string]Job{}
	if s.queue == nil {
		return out, nil
	}
	infos, err := s.queue.List(ctx, jobs.Filter{Event: slug})
	if err != nil {
		return nil, err
	}
	for _, in := range infos { // newest first
		if _, seen := out[in.Key]; !seen {
			out[in.Key] = jobOf(in)
		}
	}
	return out, nil
}

// jobKey is a context marker: the work runs as a job the app enqueued.
type jobKey struct{}

// systemJob is who acts in jobs nobody asked for by hand (the eligibility
// check a registration starts).
var systemJob = arbiter.Actor{Name: "arbiter", Role: arbiter.RoleSystem}

// asJob marks ctx as a job's: only the job runner sets it, so no request
// can pass for a job.
func asJob(ctx context.Context) context.Context { return context.WithValue(ctx, jobKey{}, true) }

// requireTDOrJob is requireTD, except for the system acting in a job the
// app enqueued itself.
func requireTDOrJob(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor, what string) error {
	if a.Role == arbiter.RoleSystem && ctx.Value(jobKey{}) != nil {
		return nil
	}
	return requireTD(ctx, q, st, a, what)
}

// jobActor is who a job acts as: the TD who asked (checked again as the
// job runs: a TD removed meanwhile is refused), else the system.
func jobActor(by string) arbiter.Actor {
	if by == "" {
		return systemJob
	}
	return arbiter.Actor{Name: by, Role: arbiter.RoleTD}
}

// jobError turns a use case's failure into the job's: a Lichess 429 makes
// the job wait what Lichess asks for (RateLimitPause, a minute), without holding a worker
// (and without counting an attempt); the rest is for jobs to classify.
func jobError(err error) error {
	if d := lichess.RetryAfter(err); d > 0 {
		return jobs.Snooze(d, err)
	}
	return err
}

// enqueue adds a job in tx (nil: on its own), when the service runs a
// queue; it reports whether it did.
func (s *Service) enqueue(ctx context.Context, tx *sqlstore.Tx, a jobs.Args) (Job, bool, error) {
	if s.queue == nil {
		return Job{}, false, nil
	}
	in, err := s.queue.Enqueue(ctx, tx, a, time.Time{})
	return jobOf(in), true, err
}
