package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/jobs"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

func init() {
	register(&command{name: "jobs", summary: "list, run and retry the background jobs (Lichess checks)", run: runJobs})
}

func jobsUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: arbiter jobs SUBCOMMAND [flags]

Subcommands:
  list    list jobs: [--state pending|failed|done|all] [--event SLUG] [--json]
  run     run every job due at --now (default: the clock) once, print a
          line per job and exit: [--now TIME] [--lichess-url URL]
          [--lichess-token-file FILE] [--workers N]
          [--challonge-key-file FILE] [--webhooks-allow-private]
  retry   run a failed job again (one more attempt): ID [--as TD] [--now TIME]

Every subcommand takes --db DSN. 'arbiter serve' runs the jobs continuously;
see docs/jobs.md.
`)
}

func runJobs(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		jobsUsage(e.stderr)
		return usagef("missing subcommand: list, run or retry")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		jobsUsage(e.stdout)
		return flag.ErrHelp
	case "list":
		return runJobsList(ctx, e, args[1:])
	case "run":
		return runJobsRun(ctx, e, args[1:])
	case "retry":
		return runJobsRetry(ctx, e, args[1:])
	}
	jobsUsage(e.stderr)
	return usagef("unknown subcommand %q: want list, run or retry", args[0])
}

// openJobs opens the database and the app's job queue on clock.
func openJobs(ctx context.Context, dsn string, clock func() time.Time) (*app.Service, *jobs.Queue, func(), error) {
	db, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		return nil, nil, nil, err
	}
	svc := app.New(db, clock)
	q, err := svc.OpenJobs(nil)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	return svc, q, func() { db.Close() }, nil
}

// jobStates reads --state: pending is queued or running.
func jobStates(s string) ([]jobs.State, error) {
	switch s {
	case "pending":
		return []jobs.State{jobs.Queued, jobs.Running}, nil
	case "failed":
		return []jobs.State{jobs.Failed}, nil
	case "done":
		return []jobs.State{jobs.Done}, nil
	case "all":
		return nil, nil
	}
	return nil, arbiter.FieldError("--state", "cli.jobs", "--state must be pending, failed, done or all, not %q", s)
}

func runJobsList(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "jobs list", "jobs list [--db DSN] [--state pending|failed|done|all] [--event SLUG] [--json]")
	dsn := addDBFlag(fs)
	state := fs.String("state", "all", "which jobs: pending (queued or running), failed, done or all")
	event := fs.String("event", "", "only this event's jobs (its slug)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	states, err := jobStates(*state)
	if err != nil {
		return err
	}
	_, q, done, err := openJobs(ctx, *dsn, time.Now)
	if err != nil {
		return err
	}
	defer done()
	list, err := q.List(ctx, jobs.Filter{Event: *event, States: states})
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			list = []jobs.Info{}
		}
		return printJSON(e.stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no jobs")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tTRIES\tRUN AT\tKEY\tLAST ERROR")
	for _, j := range list {
		fmt.Fprintf(tw, "%d\t%s\t%d/%d\t%s\t%s\t%s\n", j.ID, j.State, j.Attempt, j.MaxAttempts,
			j.RunAt.Format("2006-01-02 15:04:05"), j.Key, oneLine(j.Error))
	}
	return tw.Flush()
}

func runJobsRun(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "jobs run", "jobs run [--db DSN] [--lichess-url URL] [--lichess-token-file FILE] [--now TIME] [--workers N]")
	dsn := addDBFlag(fs)
	lichessURL := fs.String("lichess-url", "https://lichess.org", "Lichess's address (a fake: arbiter lichess fake)")
	tokenFile := fs.String("lichess-token-file", "", "file holding the organiser's Lichess token (default $LICHESS_TOKEN)")
	nowFlag := fs.String("now", "", "run what is due at this UTC time instead of the clock's (rehearsals, tests)")
	workers := fs.Int("workers", 2, "jobs run at once")
	integ := addIntegrationFlags(fs) // integrations.go: webhooks and Challonge
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	now := time.Now().UTC()
	if *nowFlag != "" {
		t, err := parseTime(*nowFlag)
		if err != nil {
			return arbiter.FieldError("--now", "cli.time", "%v", err)
		}
		now = t
	}
	svc, q, done, err := openJobs(ctx, *dsn, func() time.Time { return now })
	if err != nil {
		return err
	}
	defer done()
	token, err := organiserToken(*tokenFile)
	if err != nil {
		return err
	}
	lc, err := jobsLichessClient(*lichessURL, token)
	if err != nil {
		return err
	}
	svc.SetGameSource(app.LichessGames{Client: lc}) // result verification
	svc.SetAccountSource(lc)                        // eligibility checks
	svc.SetLichess(lc)                              // games created, results imported (background jobs)
	svc.SetBaseURL(os.Getenv("ARBITER_BASE_URL"))   // links in Lichess messages
	if err := integ.apply(svc, nil); err != nil {
		return err
	}
	res, err := q.RunDue(ctx, now, *workers)
	for _, r := range res {
		fmt.Fprintln(e.stdout, jobLine(r))
	}
	if err != nil {
		return err
	}
	if len(res) == 0 {
		fmt.Fprintf(e.stdout, "no job due at %s\n", now.Format(time.RFC3339))
	}
	return nil
}

// jobLine is one job run: "job 3 eligibility:wc:flagged: done (try 1 of
// 5, 0.21 s)", with the error and the next try when it failed.
func jobLine(r jobs.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "job %d %s: %s (try %d of %d, %.2f s)", r.ID, r.Key, r.State, r.Attempt, r.MaxAttempts, r.Took.Seconds())
	if r.State == jobs.Queued {
		fmt.Fprintf(&b, ", next try at %s", r.RunAt.Format(time.RFC3339))
	}
	if r.Error != "" && r.State != jobs.Done {
		b.WriteString(": " + oneLine(r.Error))
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// jobsLichessClient is lichessClient for background jobs: a 429 is not
// retried inside the client, which would hold the worker for Lichess's
// minute; the job waits instead (see docs/jobs.md).
func jobsLichessClient(baseURL, token string) (*lichess.Client, error) {
	lc, err := lichess.New(lichess.Options{BaseURL: baseURL, Token: token, Retries429: -1, MinInterval: lichessMinInterval})
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-url", Message: "cannot use " + baseURL + " as Lichess's address: want an absolute http(s) URL", Err: err}
	}
	return lc, nil
}

func runJobsRetry(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "jobs retry", "jobs retry ID [--db DSN] [--as TD] [--now TIME]")
	dsn := addDBFlag(fs)
	as := fs.String("as", "", "retry as this TD of the job's event (checked and audited); without it, as the operator")
	nowFlag := fs.String("now", "", "retry at this UTC time instead of the clock's: the job is due then (rehearsals, tests)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("give one job ID")
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return arbiter.FieldError("id", "cli.jobs", "a job ID is a positive number, not %q", pos[0])
	}
	clock := time.Now
	if *nowFlag != "" {
		t, err := parseTime(*nowFlag)
		if err != nil {
			return arbiter.FieldError("--now", "cli.time", "%v", err)
		}
		clock = func() time.Time { return t }
	}
	svc, q, done, err := openJobs(ctx, *dsn, clock)
	if err != nil {
		return err
	}
	defer done()
	var in jobs.Info
	if *as != "" {
		cur, err := q.Get(ctx, id)
		if err != nil {
			return err
		}
		j, err := svc.RetryJob(ctx, arbiter.Actor{Name: *as, Role: arbiter.RoleTD}, cur.Event, id)
		if err != nil {
			return err
		}
		in = j.Info
	} else if in, err = q.Retry(ctx, nil, id); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "job %d %s: %s, runs at %s (try %d of %d)\n", in.ID, in.Key, in.State, in.RunAt.Format(time.RFC3339), in.Attempt+1, in.MaxAttempts)
	return nil
}
