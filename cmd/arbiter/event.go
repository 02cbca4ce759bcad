package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/sqlstore"
)

// 'arbiter event': one subcommand per step of running an event. Each
// subcommand lives in its own file (event_*.go, several related ones may
// share a file) as an eventSub with a typed flags struct; eventSubs below
// lists them in the order of the help.

func init() {
	register(&command{name: "event", summary: "run an event: create, register, approve, pair, publish, results, rounds, appeals, standings, audit", run: runEvent})
}

// localTD is who the CLI acts as without --as: the operator at the
// machine, a TD of every event created from the CLI. It is the web app's
// local TD account too, so that an event created on one can be run on
// the other.
const localTD = app.LocalTD

// eventSub is one subcommand of 'arbiter event'.
type eventSub struct {
	name     string
	synopsis string // after "arbiter event", starting with the name
	summary  string
	// min and max bound the number of positional arguments (max -1: no bound).
	min, max int
	// new returns a fresh command for one run: its fields hold its flags.
	new func() eventCommand
}

// eventCommand is a subcommand's flags, bound to typed fields, and its run.
type eventCommand interface {
	flags(fs *flag.FlagSet)
	run(ctx context.Context, e *env, c *eventCtx, pos []string) error
}

// withFlags makes the commands of a flags struct type T (whose pointer
// has the flags and run methods): eventSub.new for a command with flags.
func withFlags[T any, P interface {
	*T
	eventCommand
}]() eventCommand {
	return P(new(T))
}

// eventRun runs a subcommand that has no flags of its own.
type eventRun func(ctx context.Context, e *env, c *eventCtx, pos []string) error

func (eventRun) flags(*flag.FlagSet) {}
func (r eventRun) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	return r(ctx, e, c, pos)
}

// plain is eventSub.new for a command without flags of its own.
func plain(r eventRun) func() eventCommand {
	return func() eventCommand { return r }
}

// eventCtx holds what every subcommand gets: the service, who acts and
// the common --json flag.
type eventCtx struct {
	svc   *app.Service
	actor arbiter.Actor
	json  bool
}

// eventSubs are the subcommands in the order of 'arbiter event --help'.
// A new subcommand goes here, at its place in the help
// (TestEventHelpOrder checks the help against this list).
var eventSubs = []*eventSub{
	createSub, listSub, registerSub, entrantsSub, ratingsSub, approveSub, rejectSub, lateEntrySub, editEntrantSub,
	closeRegistrationSub, pairSub, reviewPairingsSub, editPairingSub, discardSub, publishSub,
	matchesSub, resultSub, confirmSub, bringForwardSub, closeRoundSub, closeDueSub, forbidSub,
	lineupSub, negotiateSub, bidSub, wrongTCSub, verifySub, lichessImportSub, messagesSub, lichessTokenSub, boardsSub, captainChangeSub, teamRulesSub,
	appealSub, sanctionSub, replaceSub, captainSub, tiebreakValueSub, advanceSub, standingsSub,
	rankingSub, oddsSub, exportSub, webhooksSub, challongePushSub, officialsSub, auditSub,
}

// eventSubNamed returns the subcommand called name, or nil.
func eventSubNamed(name string) *eventSub {
	for _, s := range eventSubs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// reasonFlag is the --reason flag, recorded in the audit log.
type reasonFlag struct{ reason string }

func (r *reasonFlag) bindReason(fs *flag.FlagSet) {
	fs.StringVar(&r.reason, "reason", "", "why (recorded in the audit log)")
}

func eventUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: arbiter event SUBCOMMAND [args] [--db DSN] [--as USER --role ROLE]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	for _, s := range eventSubs {
		fmt.Fprintf(w, "  %-19s %s\n", s.name, s.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Without --as the CLI acts as the local TD %q. --now sets the clock (UTC) for rehearsals.\n", localTD)
	fmt.Fprintln(w, "Run 'arbiter event SUBCOMMAND --help' for its flags. Walkthrough: docs/running-an-event.md.")
}

func runEvent(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		eventUsage(e.stderr)
		return usagef("missing subcommand")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		eventUsage(e.stdout)
		return flag.ErrHelp
	}
	sub := eventSubNamed(args[0])
	if sub == nil {
		eventUsage(e.stderr)
		return usagef("unknown subcommand %q", args[0])
	}
	fs := newFlagSet(e, "event "+args[0], "event "+sub.synopsis)
	c := &eventCtx{}
	cmd := sub.new()
	dsn := addDBFlag(fs)
	as := fs.String("as", localTD, "act as this user (Lichess username)")
	role := fs.String("role", arbiter.RoleTD, "the role you act in: td, captain, player")
	now := fs.String("now", "", "act at this UTC time instead of the clock (rehearsals, tests)")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	cmd.flags(fs)
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return flagError(err)
	}
	if len(pos) < sub.min || sub.max >= 0 && len(pos) > sub.max {
		fs.Usage()
		return usagef("wrong number of arguments")
	}
	clock := time.Now
	if *now != "" {
		t, err := parseTime(*now)
		if err != nil {
			return arbiter.FieldError("--now", "cli.time", "%v", err)
		}
		clock = func() time.Time { return t }
	}
	db, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	c.svc = app.New(db, clock)
	if _, err := c.svc.OpenJobs(nil); err != nil { // a registration enqueues its eligibility check
		return err
	}
	c.actor = arbiter.Actor{Name: *as, Role: *role}
	return cmd.run(ctx, e, c, pos)
}

// parseTime reads a UTC time: RFC 3339, "2006-01-02T15:04Z", "2006-01-02 15:04" or a date.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot read time %q (want UTC such as 2023-03-21T10:00Z or 2023-03-21)", s)
}

// parseZonedTime reads a time that will be stored (a start, a deadline,
// an offered time): it must carry its zone (Z for UTC, or an offset), so
// that a local time typed without thinking is never stored as if it were
// UTC. The result is in UTC.
func parseZonedTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if _, err := parseTime(s); err == nil {
		return time.Time{}, fmt.Errorf("%q has no zone: write it in UTC with a Z, such as 2023-03-21T10:00Z, or with an offset such as 2023-03-21T12:00+02:00", s)
	}
	return time.Time{}, fmt.Errorf("cannot read time %q (want a time with its zone, such as 2023-03-21T10:00Z)", s)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func splitList(v string) []string {
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
