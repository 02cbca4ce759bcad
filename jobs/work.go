package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// WorkOptions adjust Work.
type WorkOptions struct {
	Workers int           // jobs run at once by this process (default 2)
	Poll    time.Duration // how often it looks for due jobs (default 1 s)
	// Stop is how long a shutdown waits for running jobs before cancelling
	// them (default 30 s); a cancelled job runs again later.
	Stop time.Duration
}

// Work runs due jobs until ctx ends, then stops cleanly: it takes no new
// job, lets the running ones finish for o.Stop, then cancels them. Several
// processes may Work on one database; River elects one of them to move
// scheduled jobs along and to rescue the jobs of dead processes.
func (q *Queue) Work(ctx context.Context, o WorkOptions) error {
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Stop <= 0 {
		o.Stop = 30 * time.Second
	}
	cfg := q.config(q.clock, map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.Workers}})
	cfg.PollOnly = true // the database/sql drivers have no LISTEN; polling is enough
	cfg.FetchPollInterval = o.Poll
	cfg.FetchCooldown = min(o.Poll, 100*time.Millisecond)
	c, err := river.NewClient(q.driver, cfg)
	if err != nil {
		return internal("start the job queue", err)
	}
	if err := c.Start(context.WithoutCancel(ctx)); err != nil {
		return internal("start the job queue", err)
	}
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.Background(), o.Stop)
	defer cancel()
	if err := c.Stop(stopCtx); err != nil {
		// Running jobs outlived the wait: cancel them (they run again later).
		cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer ccancel()
		return c.StopAndCancel(cctx)
	}
	return nil
}
