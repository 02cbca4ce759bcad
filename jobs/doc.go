// Package jobs runs Arbiter's durable background jobs: the work that talks
// to other services (eligibility checks and result verification on
// Lichess, webhook deliveries, Challonge pushes) outside the request that
// asked for it, on SQLite and PostgreSQL alike, with several processes
// sharing one database.
//
// The queue is River's (github.com/riverqueue/river), in its own tables
// beside the store's (sqlstore migrates both) and on the store's own
// connection pool, so a job is enqueued in the same transaction as the
// change that asks for it. This package hides River behind a small API:
//
//   - a kind is a type implementing Args and a function run for each job
//     (Add), one small file per kind in package app;
//   - Enqueue stores a job, unique by its key: while a job with the key is
//     waiting, running or (for Once kinds) done or failed, enqueuing it
//     again returns that job instead of a second one;
//   - a job that fails is retried with exponential backoff (Backoff) up to
//     its kind's MaxAttempts, then is failed (River's "discarded"): the
//     dead letter a TD sees and may Retry;
//   - a job runs at or after its RunAt; Work runs a small pool of workers
//     until its context ends, RunDue runs what is due at one time and
//     returns (arbiter jobs run --now);
//   - a job whose process dies is run again once its lease (the kind's
//     Timeout plus a margin) has expired, by a serve process's workers;
//   - what a job did outside Arbiter is recorded under its key
//     (Job.RecordEffect) before the job finishes, and read first
//     (Job.Effect), so a re-run never repeats it.
//
// Time is the caller's clock everywhere (River's timestamps included), so
// tests and rehearsals run the queue at any time they like.
package jobs
