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

// serveOddsSims, when not 0, are the runs of the simulation a standings
// page starts (app.SetOddsSims); 0 keeps production's suggested runs. The
// tests lower it (serve_odds_test.go).
var serveOddsSims int

// runServe opens (and if needed creates and migrates) the database, then
// serves the web app until ctx is cancelled by SIGINT or SIGTERM, when it
// drains in-flight requests and exits 0. Logs go to stderr, one
// structured line per request.
func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "serve", "serve [--addr :8080] [--db DSN] [--db-max-conns N] [--behind-proxy] [--log-format text|json] [--demo] [--job-workers N]")
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
	behindProxy := fs.Bool("behind-proxy", false, "a reverse proxy forwards every request: the client's address is the last X-Forwarded-For entry (sign-in throttles, live streams per client)")
	maxConns := fs.Int("db-max-conns", 0, "bound of this process's PostgreSQL connection pool (0: the server's max_connections less its reserve, divided by 4, from 2 to 32); beyond it requests queue, then get 503")
	sweepEvery := fs.Duration("sweep", 10*time.Minute, "how often expired sessions and stale sign-in and rate-limit counts are deleted (0 turns it off)")
	integ := addIntegrationFlags(fs) // integrations.go: webhooks and Challonge
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
	db, err := sqlstore.OpenWith(ctx, *dsn, sqlstore.Options{MaxConns: *maxConns})
	if err != nil {
		return err
	}
	defer db.Close()
	svc := app.New(db, time.Now)
	if serveOddsSims != 0 {
		svc.SetOddsSims(serveOddsSims)
	}
	token, err := organiserToken(*tokenFile)
	if err != nil {
		return err
	}
	lc, err := jobsLichessClient(*lichessURL, token) // jobs.go: a 429 makes the job wait, not its worker
	if err != nil {
		return err
	}
	org, err := checkOrganiser(ctx, lc, token, log)
	if err != nil {
		return err
	}
	svc.SetOrganiser(org)                           // its scopes on the TD console
	svc.SetGameSource(app.LichessGames{Client: lc}) // result verification (background jobs)
	svc.SetLichess(lc)                              // games created, results imported (background jobs)
	svc.SetBaseURL(os.Getenv("ARBITER_BASE_URL"))   // links in Lichess messages
	if err := integ.apply(svc, log); err != nil {
		return err
	}
	// First start: the local TD account, for offline use. Its password is
	// $ARBITER_TD_PASSWORD or a random one, shown once on standard output
	// (never in the log).
	pw, err := svc.EnsureLocalTD(ctx, os.Getenv("ARBITER_TD_PASSWORD"))
	if err != nil {
		return err
	}
	switch {
	case pw != "" && os.Getenv("ARBITER_TD_PASSWORD") != "":
		// The operator chose it: no need to echo it where terminals and CI logs keep it.
		fmt.Fprintf(e.stdout, "Created the local TD account %s with the password in $ARBITER_TD_PASSWORD\n(sign in at /login)\n", app.LocalTD)
	case pw != "":
		fmt.Fprintf(e.stdout, "Created the local TD account %s with password %s\n(shown only now; sign in at /login)\n", app.LocalTD, pw)
	}
	if *seedDemo {
		log.Info("loading demo events")
		if err := demo.SeedAll(ctx, svc, time.Now()); err != nil {
			return err
		}
		// The local TD runs the demo events too.
		for _, slug := range demo.Slugs() {
			if err := svc.AddTD(ctx, demo.TD, slug, app.LocalTD); err != nil && arbiter.ErrorCode(err) != arbiter.ECONFLICT {
				return err
			}
		}
	}
	// After the demo seeding: the demo's made-up players are not looked
	// up on Lichess (nor their ratings refreshed as the demo pairs round 1).
	svc.SetAccountSource(lc)                               // eligibility checks, ratings (background jobs; round 1's refresh)
	stopJobs, err := startJobs(ctx, svc, *jobWorkers, log) // serve_jobs.go
	if err != nil {
		return err
	}
	defer stopJobs()
	h, err := web.New(web.Config{App: svc, Logger: log, SecureCookies: *secureCookies, DemoSignIn: *seedDemo, TrustProxy: *behindProxy,
		Lichess: web.LichessAuth{BaseURL: *lichessURL, ClientID: *clientID}})
	if err != nil {
		return err
	}
	if *tick > 0 {
		go closeDueRounds(ctx, svc, *tick, log) // serve_background.go
	}
	if *sweepEvery > 0 {
		go sweep(ctx, svc, *sweepEvery, log)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return &arbiter.Error{Code: arbiter.EINVALID, Field: "--addr", Message: "cannot listen on " + *addr + ": " + err.Error(), Err: err}
	}
	// db.String() names the database without any password.
	log.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("db", db.String()), slog.Int("db_max_conns", db.MaxConns()))
	return web.Serve(ctx, ln, h, log)
}
