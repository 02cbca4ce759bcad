package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"strconv"
	"time"

	"arbiter/app"
)

// The periodic tasks of 'arbiter serve' (the queued Lichess jobs are
// serve_jobs.go's). Several serve processes may share one database: the
// deadline job runs in one of them at a time (the holder of its lease in
// the database), the clean-up in each (its deletes are idempotent and
// cheap).

// deadlineLease names the deadline job's lease.
const deadlineLease = "deadline-job"

// processID names this process in leases: host, pid and a random part
// (a pid alone repeats across containers).
func processID() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b)
	return host + "/" + strconv.Itoa(os.Getpid()) + "/" + hex.EncodeToString(b)
}

// closeDueRounds is the deadline job: every tick, while this process
// holds the job's lease, it closes the rounds whose deadline has passed
// (unplayed matches become double forfeits and the appeal window opens,
// R5). The lease lasts three ticks, so a stopped holder is replaced
// within three ticks; it is released at shutdown. app.CloseDueRounds is
// safe to run twice anyway: the lease only spares the others the work
// and the database the contention.
func closeDueRounds(ctx context.Context, svc *app.Service, every time.Duration, log *slog.Logger) {
	me := processID()
	defer func() { _ = svc.ReleaseLease(context.WithoutCancel(ctx), deadlineLease, me) }()
	t := time.NewTicker(every)
	defer t.Stop()
	holding := false
	for {
		held, err := svc.Lease(ctx, deadlineLease, me, 3*every)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("deadline job: lease", slog.String("err", err.Error()))
		case held != holding:
			holding = held
			if held {
				log.Info("deadline job runs in this process", slog.String("process", me))
			} else {
				log.Info("deadline job runs in another process")
			}
		}
		if held {
			rounds, err := svc.CloseDueRounds(ctx)
			if err != nil && ctx.Err() == nil {
				log.Error("deadline job", slog.String("err", err.Error()))
			}
			for _, r := range rounds {
				log.Info("round closed at its deadline", slog.String("event", r.Event), slog.String("round", r.ID))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweep deletes expired sessions and stale sign-in and rate-limit
// counters every period.
func sweep(ctx context.Context, svc *app.Service, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := svc.Sweep(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("clean-up", slog.String("err", err.Error()))
			continue
		}
		if n.Sessions > 0 || n.Counters > 0 {
			log.Info("clean-up", slog.Int64("expired_sessions", n.Sessions), slog.Int64("stale_counters", n.Counters))
		}
	}
}
