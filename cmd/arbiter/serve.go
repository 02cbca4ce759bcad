package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/demo"
	"arbiter/sqlstore"
	"arbiter/web"
)

func init() {
	register(&command{name: "serve", summary: "run the web app (HTTP server) until interrupted", run: runServe})
}

// runServe opens (and if needed creates and migrates) the database, then
// serves the web app until ctx is cancelled by SIGINT or SIGTERM, when it
// drains in-flight requests and exits 0. Logs go to stderr, one
// structured line per request.
func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "serve", "serve [--addr :8080] [--db DSN] [--log-format text|json] [--demo] [--job-workers N]")
	addr := fs.String("addr", ":8080", "TCP address to listen on (host:port; port 0 picks a free one)")
	dsn := addDBFlag(fs)
	logFormat := fs.String("log-format", "text", "log lines as text (key=value) or json")
	seedDemo := fs.Bool("demo", false, "load one demo event of each preset, in the middle of its first stage (skipped for events already there), and allow password-less demo sign-in as any user")
	tick := fs.Duration("deadline-check", time.Minute, "how often rounds past their deadline are closed (0 turns the job off)")
	lichessURL := fs.String("lichess-url", "https://lichess.org", "Lichess's address, for signing in with Lichess (OAuth2 with PKCE), checking results against its games and entrants' eligibility (a fake: arbiter lichess fake)")
	tokenFile := fs.String("lichess-token-file", "", "file holding the organiser's Lichess token (default $LICHESS_TOKEN), checked at start; its scopes say what Arbiter may do on Lichess")
	clientID := fs.String("oauth-client-id", web.DefaultOAuthClientID, "the OAuth client id Lichess shows on its consent page")
	jobWorkers := fs.Int("job-workers", 2, "background jobs (Lichess checks) this process runs at once; 0 runs none here (another process does)")
	secureCookies := fs.Bool("secure-cookies", false, "mark cookies Secure even on plain HTTP (behind a TLS proxy that sends no X-Forwarded-Proto)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{code: 2} // the flag package has printed the problem and the usage
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	var log *slog.Logger
	switch *logFormat {
	case "text":
		log = slog.New(slog.NewTextHandler(e.stderr, nil))
	case "json":
		log = slog.New(slog.NewJSONHandler(e.stderr, nil))
	default:
		return usagef("--log-format must be text or json, not %q", *logFormat)
	}
	db, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := app.New(db, time.Now)
	token, err := organiserToken(*tokenFile)
	if err != nil {
		return err
	}
	lc, err := jobsLichessClient(*lichessURL, token) // jobs.go: a 429 makes the job wait, not its worker
	if err != nil {
		return err
	}
	if _, err := checkOrganiser(ctx, lc, token, log); err != nil {
		return err
	}
	svc.SetGameSource(app.LichessGames{Client: lc}) // result verification (background jobs)
	svc.SetAccountSource(lc)                        // eligibility checks (background jobs)
	// First start: the local TD account, for offline use. Its password is
	// $ARBITER_TD_PASSWORD or a random one, shown once on standard output
	// (never in the log).
	pw, err := web.EnsureLocalTD(ctx, db, os.Getenv("ARBITER_TD_PASSWORD"))
	if err != nil {
		return err
	}
	switch {
	case pw != "" && os.Getenv("ARBITER_TD_PASSWORD") != "":
		// The operator chose it: no need to echo it where terminals and CI logs keep it.
		fmt.Fprintf(e.stdout, "Created the local TD account %s with the password in $ARBITER_TD_PASSWORD\n(sign in at /login)\n", web.LocalTD)
	case pw != "":
		fmt.Fprintf(e.stdout, "Created the local TD account %s with password %s\n(shown only now; sign in at /login)\n", web.LocalTD, pw)
	}
	if *seedDemo {
		log.Info("loading demo events")
		if err := demo.SeedAll(ctx, svc, time.Now()); err != nil {
			return err
		}
		// The local TD runs the demo events too.
		for _, slug := range demo.Slugs() {
			if err := svc.AddTD(ctx, demo.TD, slug, web.LocalTD); err != nil && arbiter.ErrorCode(err) != arbiter.ECONFLICT {
				return err
			}
		}
	}
	// After the demo seeding: the demo's made-up players are not looked
	// up on Lichess.
	stopJobs, err := startJobs(ctx, svc, *jobWorkers, log) // serve_jobs.go
	if err != nil {
		return err
	}
	defer stopJobs()
	h, err := web.New(web.Config{DB: db, App: svc, Logger: log, SecureCookies: *secureCookies, DemoSignIn: *seedDemo,
		Lichess: web.LichessAuth{BaseURL: *lichessURL, ClientID: *clientID}})
	if err != nil {
		return err
	}
	if *tick > 0 {
		go closeDueRounds(ctx, svc, *tick, log)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return &arbiter.Error{Code: arbiter.EINVALID, Field: "--addr", Message: "cannot listen on " + *addr + ": " + err.Error(), Err: err}
	}
	// db.String() names the database without any password.
	log.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("db", db.String()))
	return web.Serve(ctx, ln, h, log)
}

// closeDueRounds is the deadline job: every tick it closes the rounds whose
// deadline has passed (unplayed matches become double forfeits and the
// appeal window opens, R5). Several serve processes on one PostgreSQL
// database may run it at once: app.CloseDueRounds lets exactly one win.
func closeDueRounds(ctx context.Context, svc *app.Service, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		rounds, err := svc.CloseDueRounds(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("deadline job", slog.String("err", err.Error()))
		}
		for _, r := range rounds {
			log.Info("round closed at its deadline", slog.String("event", r.Event), slog.String("round", r.ID))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
