package jobs

import (
	"context"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Result is one job RunDue ran, as it stands afterwards.
type Result struct {
	Info
	Took time.Duration
}

// RunDue runs every job due at now once, with up to workers at a time,
// and returns what it ran, in the order the runs ended. A job that fails
// is scheduled again after now (Backoff), so it is not run twice; a job
// running in another process is left to it. This is 'arbiter jobs run
// --now': rehearsals, cron and tests.
//
// RunDue takes no part in electing the queue's leader (which rescues the
// jobs of dead processes and moves scheduled jobs along on the real
// clock): a rehearsal at a future time must not take that role from the
// serve processes.
func (q *Queue) RunDue(ctx context.Context, now time.Time, workers int) ([]Result, error) {
	now = now.UTC().Truncate(time.Microsecond) // as River stores it (see riverClock)
	clock := func() time.Time { return now }
	cfg := q.config(clock, map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: max(workers, 1)}})
	cfg.LeaderElectionDisabled = true
	cfg.PollOnly = true
	cfg.FetchCooldown = 5 * time.Millisecond
	cfg.FetchPollInterval = 20 * time.Millisecond
	c, err := river.NewClient(q.driver, cfg)
	if err != nil {
		return nil, internal("start the job queue", err)
	}
	// Jobs whose time has come but that only the leader would make
	// available (scheduled ones, failed ones waiting for their retry) are
	// made available now; that is all River's JobRetry does to them.
	waiting, err := q.client.JobList(ctx, river.NewJobListParams().
		States(rivertype.JobStateScheduled, rivertype.JobStateRetryable).
		OrderBy(river.JobListOrderByScheduledAt, river.SortOrderAsc).First(10000))
	if err != nil {
		return nil, internal("list due jobs", err)
	}
	for _, r := range waiting.Jobs {
		if r.ScheduledAt.After(now) {
			break
		}
		if _, err := c.JobRetry(ctx, r.ID); err != nil {
			return nil, internal("make job due", err)
		}
	}
	log := &runLog{began: map[int64]time.Time{}}
	runCtx, cancel := context.WithCancel(withRunLog(context.WithoutCancel(ctx), log))
	defer cancel()
	if err := c.Start(runCtx); err != nil {
		return nil, internal("start the job queue", err)
	}
	idle := 0
	for idle < 2 && ctx.Err() == nil { // two quiet looks in a row: nothing due, nothing running here
		time.Sleep(cfg.FetchPollInterval)
		due, err := q.dueAvailable(ctx, now)
		if err != nil {
			c.StopAndCancel(context.Background())
			return nil, err
		}
		if due == 0 && log.idle() {
			idle++
		} else {
			idle = 0
		}
	}
	// Stop lets every job fetched finish and its outcome be stored.
	stopCtx, stop := context.WithTimeout(context.Background(), Lease)
	defer stop()
	if err := c.Stop(stopCtx); err != nil {
		return nil, internal("stop the job queue", err)
	}
	var out []Result
	for _, r := range log.done {
		in, err := q.Get(context.WithoutCancel(ctx), r.id)
		if err != nil {
			return out, err
		}
		out = append(out, Result{Info: in, Took: r.took})
	}
	return out, ctx.Err()
}

// dueAvailable counts the jobs available to run at now.
func (q *Queue) dueAvailable(ctx context.Context, now time.Time) (int, error) {
	res, err := q.client.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateAvailable).
		OrderBy(river.JobListOrderByScheduledAt, river.SortOrderAsc).First(1))
	if err != nil {
		return 0, internal("list due jobs", err)
	}
	if len(res.Jobs) == 0 || res.Jobs[0].ScheduledAt.After(now) {
		return 0, nil
	}
	return len(res.Jobs), nil
}

// runLog records the runs of one RunDue, through the workers' context.
type runLog struct {
	mu    sync.Mutex
	began map[int64]time.Time
	done  []struct {
		id   int64
		took time.Duration
	}
}

type runLogKey struct{}

func withRunLog(ctx context.Context, l *runLog) context.Context {
	return context.WithValue(ctx, runLogKey{}, l)
}

func runLogFrom(ctx context.Context) *runLog {
	l, _ := ctx.Value(runLogKey{}).(*runLog)
	return l
}

func (l *runLog) start(id int64) {
	l.mu.Lock()
	l.began[id] = time.Now()
	l.mu.Unlock()
}

func (l *runLog) finish(id int64) {
	l.mu.Lock()
	l.done = append(l.done, struct {
		id   int64
		took time.Duration
	}{id, time.Since(l.began[id])})
	delete(l.began, id)
	l.mu.Unlock()
}

func (l *runLog) idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.began) == 0
}
