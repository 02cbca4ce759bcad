package main

import (
	"context"
	"log/slog"

	"arbiter/app"
	"arbiter/jobs"
)

// startJobs opens the app's job queue and, unless workers is 0, runs that
// many of its jobs at a time until ctx ends (SIGINT, SIGTERM). Several
// serve processes on one database share the jobs: none is run twice. On
// shutdown, running jobs get jobs.WorkOptions's grace to finish, then are
// cancelled and run again later. stop ends the workers (if ctx has not)
// and waits for them: serve defers it, so they stop however serve returns.
func startJobs(ctx context.Context, svc *app.Service, workers int, log *slog.Logger) (stop func(), err error) {
	q, err := svc.OpenJobs(log)
	if err != nil {
		return nil, err
	}
	if workers <= 0 {
		log.Info("background jobs: no workers in this process (--job-workers 0)")
		return func() {}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := q.Work(ctx, jobs.WorkOptions{Workers: workers}); err != nil {
			log.Error("background jobs", slog.String("err", err.Error()))
		}
	}()
	log.Info("background jobs: workers started", slog.Int("workers", workers))
	return func() { cancel(); <-done }, nil
}
