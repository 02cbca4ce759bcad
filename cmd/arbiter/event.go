package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/lineup"
	"arbiter/sqlstore"
)

func init() {
	register(&command{name: "event", summary: "run an event: create, register, approve, pair, publish, results, rounds, appeals, standings, audit", run: runEvent})
}

// localTD is who the CLI acts as without --as: the operator at the
// machine, a TD of every event created from the CLI. It is the web app's
// local TD account too, so that an event created on one can be run on
// the other.
const localTD = app.LocalTD

type eventSub struct {
	synopsis string
	summary  string
	run      func(ctx context.Context, e *env, c *eventCtx, pos []string) error
	// flags adds the subcommand's own flags.
	flags func(fs *flag.FlagSet, c *eventCtx)
	// args is the number of positional arguments (min, max).
	min, max int
}

// eventCtx holds the parsed common flags and the subcommands' own.
type eventCtx struct {
	svc   *app.Service
	actor arbiter.Actor
	json  bool
	str   map[string]*string
	num   map[string]*int
	flag  map[string]*bool
}

func (c *eventCtx) s(name string) string { return *c.str[name] }

var eventSubs = map[string]*eventSub{}

func init() {
	subs := map[string]*eventSub{
		"create": {synopsis: "create SLUG (--preset NAME | --format FILE) --start TIME [--name NAME] [--allow-past]", summary: "create an event from a preset or a format file; you become its TD",
			min: 1, max: 1, run: evCreate, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["preset"] = fs.String("preset", "", "built-in format: acwc-2023, antichess-team-cup, rkcc-team-three-tc")
				c.str["format"] = fs.String("format", "", "format file (JSON, see docs)")
				c.str["start"] = fs.String("start", "", "first round start with its zone: 2023-03-21T10:00Z (UTC) or 2023-03-21T12:00+02:00")
				c.str["name"] = fs.String("name", "", "event name (default: the format's title)")
				c.flag["allow-past"] = fs.Bool("allow-past", false, "accept a start in the past (the scheduler closes rounds whose deadline has passed)")
			}},
		"list": {synopsis: "list [--json]", summary: "list events", run: evList},
		"register": {synopsis: "register SLUG PLAYER [--rating N] | register SLUG --team NAME --captain USER --members A,B,C [--substitute USER] [--rating N]",
			summary: "register a player or a team (awaits TD approval)", min: 1, max: 2, run: evRegister, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.num["rating"] = fs.Int("rating", 0, "rating for the initial seeding")
				c.str["team"] = fs.String("team", "", "team name")
				c.str["captain"] = fs.String("captain", "", "team captain (one of the members)")
				c.str["members"] = fs.String("members", "", "comma-separated team members")
				c.str["substitute"] = fs.String("substitute", "", "optional substitute")
			}},
		"entrants": {synopsis: "entrants SLUG [--json]", summary: "list entrants with status and seed", min: 1, max: 1, run: evEntrants},
		"approve":  {synopsis: "approve SLUG ENTRANT...", summary: "approve entrants (TD)", min: 2, max: -1, run: evApprove},
		"reject": {synopsis: "reject SLUG ENTRANT --reason TEXT", summary: "reject an entrant with a reason (TD)", min: 2, max: 2, run: evReject,
			flags: reasonFlag},
		"close-registration": {synopsis: "close-registration SLUG [--initial-colour white|black --reason TEXT] [--allow-past]",
			summary: "size the stages, seed the entrants, compute the calendar, draw the round-1 colour (TD)", min: 1, max: 1, run: evCloseReg,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["initial-colour"] = fs.String("initial-colour", "", "the top seed's round-1 colour chosen by the TDs instead of the lot (needs --reason)")
				c.flag["allow-past"] = fs.Bool("allow-past", false, "close even if round 1's deadline has passed (its matches are then closed as unplayed)")
				reasonFlag(fs, c)
			}},
		"pair":    {synopsis: "pair SLUG", summary: "pair the next round for review (TD)", min: 1, max: 1, run: evPair},
		"discard": {synopsis: "discard SLUG --reason TEXT", summary: "throw away a paired, unpublished round to pair it again (TD)", min: 1, max: 1, run: evDiscard, flags: reasonFlag},
		"publish": {synopsis: "publish SLUG", summary: "publish the paired round (TD)", min: 1, max: 1, run: evPublish},

		"review-pairings": reviewPairingsSub, // event_pairing_edit.go
		"edit-pairing":    editPairingSub,    // event_pairing_edit.go
		"late-entry":      lateEntrySub,      // event_entrant_edit.go
		"edit-entrant":    editEntrantSub,    // event_entrant_edit.go

		"matches": {synopsis: "matches SLUG [ROUND] [--json]", summary: "list matches (ROUND such as s1r2)", min: 1, max: 2, run: evMatches},
		"result": {synopsis: "result SLUG MATCH (--summary \"6-4\" | --sheet FILE) [--override --reason TEXT]", summary: "report a result (player/captain), or set one (TD, --override)",
			min: 2, max: 2, run: evResult, flags: func(fs *flag.FlagSet, c *eventCtx) {
				resultFlags(fs, c)
				c.flag["override"] = fs.Bool("override", false, "TD decision replacing any report (needs --reason)")
				reasonFlag(fs, c)
				c.num["version"] = fs.Int("version", 0, "the match version you saw (refused if it changed since)")
			}},
		"confirm": {synopsis: "confirm SLUG MATCH [--dispute --reason TEXT]", summary: "confirm (or dispute) the opponent's report", min: 2, max: 2, run: evConfirm,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.flag["dispute"] = fs.Bool("dispute", false, "dispute the report instead (needs --reason)")
				reasonFlag(fs, c)
				c.num["version"] = fs.Int("version", 0, "the match version you saw (refused if it changed since)")
			}},
		"bring-forward": {synopsis: "bring-forward SLUG --to TIME", summary: "advance the open round's deadline once all its matches are finished (A4)", min: 1, max: 1, run: evBringForward,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["to"] = fs.String("to", "", "the new deadline: the instant the round ends, UTC (2025-01-11T00:00Z ends it after Friday 23:59)")
			}},
		"close-round": {synopsis: "close-round SLUG", summary: "close the round at its deadline: unplayed matches take their rulebook's result (R5 double forfeit; A5, W14 by the time negotiation, else held for the TDs)", min: 1, max: 1, run: evCloseRound},
		"forbid": {synopsis: "forbid SLUG ENTRANT ENTRANT... --reason TEXT [--stage N] | forbid SLUG --list | forbid SLUG --remove ID --reason TEXT",
			summary: "entrants who must not meet in a Swiss stage (same club, federation); list or lift (TD)", min: 1, max: -1, run: evForbid,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.num["stage"] = fs.Int("stage", 0, "stage number (1 = first; default: the current stage)")
				c.flag["list"] = fs.Bool("list", false, "list the event's forbidden pairings")
				c.str["remove"] = fs.String("remove", "", "lift the forbidden pairing with this ID (needs --reason)")
				reasonFlag(fs, c)
			}},
		"close-due": {synopsis: "close-due", summary: "close every event's round whose deadline has passed, as the scheduler (for cron)", run: evCloseDue},
		"appeal": {synopsis: "appeal SLUG MATCH --reason TEXT | appeal SLUG --accept ID (--summary S | --sheet FILE) --reason TEXT | appeal SLUG --reject ID --reason TEXT",
			summary: "file an appeal (player/captain) or decide one (TD)", min: 1, max: 2, run: evAppeal, flags: func(fs *flag.FlagSet, c *eventCtx) {
				reasonFlag(fs, c)
				resultFlags(fs, c)
				c.str["accept"] = fs.String("accept", "", "accept the appeal with this ID, setting the given result (TD)")
				c.str["reject"] = fs.String("reject", "", "reject the appeal with this ID (TD)")
			}},
		"standings": {synopsis: "standings SLUG [--stage N] [--pool NAME] [--after N] [--json]", summary: "stage standings with the format's tiebreaks, after a completed round", min: 1, max: 1, run: evStandings,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.num["stage"] = fs.Int("stage", 1, "stage number (1 = first)")
				c.num["after"] = fs.Int("after", 0, "the table after this completed round of the stage (default: the last completed)")
				c.str["pool"] = fs.String("pool", "", "pool of a pool stage (e.g. upper)")
			}},
		"audit": {synopsis: "audit SLUG [--json]", summary: "the event's audit log (TD)", min: 1, max: 1, run: evAudit},
		"sanction": {synopsis: "sanction SLUG ENTRANT [--player MEMBER] --kind KIND --reason TEXT [--not-for-cheating]", summary: "withdraw or disqualify an entrant; the rulebook decides its results (TD)",
			min: 2, max: 2, run: evSanction, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["kind"] = fs.String("kind", "", "withdrawal, disqualification, tos_violation, lichess_ban, ineligible, engine_mark, booster_mark")
				c.flag["not-for-cheating"] = fs.Bool("not-for-cheating", false, "a Lichess ban proven not for cheating (A8)")
				c.str["player"] = fs.String("player", "", "team events: the member sanctioned")
				reasonFlag(fs, c)
			}},
		"negotiate": {synopsis: "negotiate SLUG MATCH [--board N] (--offer T1,T2,T3 | --accept T | --none-suitable | --agree-draw | --expire | --fault ENTRANT|PLAYER|none --reason TEXT)",
			summary: "time offers for a match (A5, W14); TD rulings on fault and deadlines", min: 2, max: 2, run: evNegotiate,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["offer"] = fs.String("offer", "", "comma-separated start times offered (UTC, e.g. 2023-03-22T18:00Z)")
				c.str["accept"] = fs.String("accept", "", "accept the opponent's offered time")
				c.flag["none-suitable"] = fs.Bool("none-suitable", false, "none of the offers suits: more offers are due (A5)")
				c.flag["agree-draw"] = fs.Bool("agree-draw", false, "the sides agree a draw without playing (A5 forbids it; W14 has no such rule)")
				c.flag["expire"] = fs.Bool("expire", false, "apply the offer deadline's result (TD)")
				c.str["fault"] = fs.String("fault", "", "TD ruling after the weekend: the entrant (or the board's player) at fault, or none")
				c.num["board"] = fs.Int("board", 0, "the board, where each player negotiates with their board opponent (A5: the antichess cup)")
				reasonFlag(fs, c)
			}},
		"bid": {synopsis: "bid SLUG MATCH (--seconds N | --commitment HEX) | bid SLUG MATCH --reveal --seconds N --nonce HEX",
			summary: "sealed armageddon bid for White's time (A3, W12): commit, then reveal", min: 2, max: 2, run: evBid,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.num["seconds"] = fs.Int("seconds", 0, "your bid: White's clock in seconds")
				c.str["commitment"] = fs.String("commitment", "", "a commitment made elsewhere (64 hex digits)")
				c.flag["reveal"] = fs.Bool("reveal", false, "reveal your bid (after both sides committed)")
				c.str["nonce"] = fs.String("nonce", "", "the nonce printed when you committed")
			}},
		"lineup": {synopsis: "lineup SLUG TEAM --round N [--sets P1,P2,P3 | --wild-card X,Y]", summary: "submit (captain) or show a team's lineup for a round (RKCC R7)",
			min: 2, max: 2, run: evLineup, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.num["round"] = fs.Int("round", 0, "round number over the whole event (1 = first)")
				c.str["sets"] = fs.String("sets", "", "the player of each set, in the format's order; omit to show the lineup")
				c.str["wild-card"] = fs.String("wild-card", "", "the Swiss winner's swap of two players X,Y in a knockout round (R9)")
			}},
		"tiebreak-value": {synopsis: "tiebreak-value SLUG ENTRANT --key KEY --value V", summary: "enter a TD tiebreak value (td_value:KEY, e.g. W9 previous_final)",
			min: 2, max: 2, run: evTiebreakValue, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["key"] = fs.String("key", "", "the td_value key, e.g. previous_final")
				c.str["value"] = fs.String("value", "", "the value (higher is better), e.g. 2 or 1.5")
			}},
		"replace": {synopsis: "replace SLUG TEAM --replaced USER --player USER [--rating N --replaced-rating N --eligible --willing] --reason TEXT",
			summary: "name a replacement for a team member removed by a sanction (R14, R16, A15; TD)", min: 2, max: 2, run: evReplace,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["replaced"] = fs.String("replaced", "", "the member removed by a sanction")
				c.str["player"] = fs.String("player", "", "the replacement (Lichess username)")
				c.num["rating"] = fs.Int("rating", 0, "the replacement's rating (A15)")
				c.num["replaced-rating"] = fs.Int("replaced-rating", 0, "the replaced player's rating (A15: at least 100 above the replacement)")
				c.flag["eligible"] = fs.Bool("eligible", false, "the TDs checked the replacement's eligibility (A15)")
				c.flag["willing"] = fs.Bool("willing", false, "the replacement is willing to play, reopened matches included (A15)")
				reasonFlag(fs, c)
			}},
		"wrong-tc": {synopsis: "wrong-tc SLUG MATCH --set TC --reason TEXT", summary: "a set played in the wrong time control: grace or full-points draw (R6; TD)",
			min: 2, max: 2, run: evWrongTC, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["set"] = fs.String("set", "", "the set's (or part's) time control as on the sheet, e.g. 3+2")
				reasonFlag(fs, c)
			}},
		"verify": {synopsis: "verify SLUG MATCH [--lichess-url URL] [--json]", summary: "check a match's games on Lichess against the format and the report (R6, W2, W4; TD)",
			min: 2, max: 2, run: evVerify, flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["lichess-url"] = fs.String("lichess-url", "https://lichess.org", "Lichess's address ($LICHESS_TOKEN: optional API token)")
			}},
		"boards": {synopsis: "boards SLUG TEAM (--rank USER:RATING,... [--comm-banned U,...] [--comparable X/Y,...] | --order U1,U2,... | --sub IN,OUT)",
			summary: "antichess board lineups: TDs' ranking, captain's order, fifth-member substitution (A12-A16)", min: 2, max: 2, run: evBoards,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["rank"] = fs.String("rank", "", "TD: every member with a rating, e.g. a01:2100,cap01:2000")
				c.str["comm-banned"] = fs.String("comm-banned", "", "TD: members with a communication ban (A16)")
				c.str["comparable"] = fs.String("comparable", "", "TD: pairs allowed to trade places, e.g. a01/cap01,c01/s01")
				c.str["order"] = fs.String("order", "", "captain: the final board list, board 1 first (A12)")
				c.str["sub"] = fs.String("sub", "", "captain: IN,OUT — the fifth member replaces OUT for the next round (A14)")
			}},
		"captain-change": {synopsis: "captain-change SLUG TEAM USER [--reason TEXT]", summary: "a new captain from the next round (A13: the team once; TDs with a reason, A16)",
			min: 3, max: 3, run: evCaptainChange, flags: func(fs *flag.FlagSet, c *eventCtx) { reasonFlag(fs, c) }},
		"captain": {synopsis: "captain SLUG TEAM USER", summary: "name a team's captain among its members (TD)", min: 3, max: 3, run: evCaptain},
		"advance": {synopsis: "advance SLUG [--order A,B,C,... --reason TEXT]", summary: "end the current stage and fill the next from its standings (TD)", min: 1, max: 1, run: evAdvance,
			flags: func(fs *flag.FlagSet, c *eventCtx) {
				c.str["order"] = fs.String("order", "", "the TDs' order of everyone who advances, where the tiebreaks leave a tie that matters (e.g. drawing of lots); from pools, each pool's advancing entrants, pool after pool")
				reasonFlag(fs, c)
			}},
		"export": exportSub(),

		"webhooks": webhooksSub(), "challonge-push": challongePushSub(), // event_webhooks.go
	}
	for name, sub := range subs {
		eventSubs[name] = sub
	}
}

func reasonFlag(fs *flag.FlagSet, c *eventCtx) {
	c.str["reason"] = fs.String("reason", "", "why (recorded in the audit log)")
}

func resultFlags(fs *flag.FlagSet, c *eventCtx) {
	c.str["summary"] = fs.String("summary", "", `game score per part, home first: "6-4", "4-0 3-3 5-3", or forfeit:home|away|double|full_draw`)
	c.str["sheet"] = fs.String("sheet", "", "match sheet file (JSON; - for stdin)")
	c.str["wrong-tc"] = fs.String("wrong-tc", "", "sets played in the wrong time control, e.g. 3+2 (R6, applied when the result stands)")
}

func eventUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: arbiter event SUBCOMMAND [args] [--db DSN] [--as USER --role ROLE]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	for _, name := range []string{"create", "list", "register", "entrants", "approve", "reject", "late-entry", "edit-entrant", "close-registration", "pair", "review-pairings", "edit-pairing", "discard", "publish",
		"matches", "result", "confirm", "bring-forward", "close-round", "close-due", "forbid", "lineup", "negotiate", "bid", "wrong-tc", "verify", "boards", "captain-change", "team-rules", "appeal", "sanction", "replace", "captain", "tiebreak-value", "advance", "standings", "ranking", "odds", "export", "webhooks", "challonge-push", "officials", "audit"} {
		fmt.Fprintf(w, "  %-19s %s\n", name, eventSubs[name].summary)
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
	sub, ok := eventSubs[args[0]]
	if !ok {
		eventUsage(e.stderr)
		return usagef("unknown subcommand %q", args[0])
	}
	fs := newFlagSet(e, "event "+args[0], "event "+sub.synopsis)
	c := &eventCtx{str: map[string]*string{}, num: map[string]*int{}, flag: map[string]*bool{}}
	dsn := addDBFlag(fs)
	as := fs.String("as", localTD, "act as this user (Lichess username)")
	role := fs.String("role", arbiter.RoleTD, "the role you act in: td, captain, player")
	now := fs.String("now", "", "act at this UTC time instead of the clock (rehearsals, tests)")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if sub.flags != nil {
		sub.flags(fs, c)
	}
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
	return sub.run(ctx, e, c, pos)
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

func evCreate(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	req := app.NewEvent{Slug: pos[0], Name: c.s("name"), Preset: c.s("preset")}
	if f := c.s("format"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			return arbiter.FieldError("--format", "cli.file", "%v", err)
		}
		req.Format = data
	}
	if c.s("start") == "" {
		return usagef("--start is required")
	}
	t, err := parseZonedTime(c.s("start"))
	if err != nil {
		return arbiter.FieldError("--start", "cli.time", "%v", err)
	}
	req.Start, req.AllowPast = t, *c.flag["allow-past"]
	ev, err := c.svc.CreateEvent(ctx, c.actor, req)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ev)
	}
	fmt.Fprintf(e.stdout, "created %s (%s, format %s), first round from %s; registration open\n", ev.Slug, ev.Name, ev.Format, ev.Start.Format(time.RFC3339))
	return nil
}

func evList(ctx context.Context, e *env, c *eventCtx, _ []string) error {
	evs, err := c.svc.ListEvents(ctx)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, evs)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SLUG\tSTATUS\tFORMAT\tSTART\tNAME")
	for _, ev := range evs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ev.Slug, ev.Status, ev.Format, ev.Start.Format("2006-01-02 15:04"), ev.Name)
	}
	return tw.Flush()
}

func evRegister(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en := arbiter.Entrant{Rating: *c.num["rating"]}
	if team := c.s("team"); team != "" {
		if len(pos) != 1 {
			return usagef("a team is given by --team, not by an argument")
		}
		en.Kind, en.Name, en.Captain, en.Substitute = arbiter.EntrantTeam, team, c.s("captain"), c.s("substitute")
		for _, m := range strings.Split(c.s("members"), ",") {
			if m = strings.TrimSpace(m); m != "" {
				en.Members = append(en.Members, m)
			}
		}
	} else {
		if len(pos) != 2 {
			return usagef("give the player's username, or --team with --captain and --members")
		}
		en.Kind, en.Player = arbiter.EntrantPlayer, pos[1]
	}
	got, err := c.svc.Register(ctx, c.actor, pos[0], en)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "registered %s (%s), awaiting approval\n", got.ID, got.Kind)
	return nil
}

func evEntrants(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	es, err := c.svc.Entrants(ctx, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, es)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEED\tID\tSTATUS\tRATING\tMEMBERS\tREASON")
	for _, en := range es {
		seed := "-"
		if en.Seed > 0 {
			seed = fmt.Sprint(en.Seed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", seed, en.ID, en.Status, en.Rating, strings.Join(en.Members, ","), en.Reason)
	}
	return tw.Flush()
}

func evApprove(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	for _, id := range pos[1:] {
		en, err := c.svc.Approve(ctx, c.actor, pos[0], id, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "approved %s\n", en.ID)
	}
	return nil
}

func evReject(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.Reject(ctx, c.actor, pos[0], pos[1], c.s("reason"), 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "rejected %s: %s\n", en.ID, en.Reason)
	return nil
}

func evCloseReg(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	ev, err := c.svc.CloseRegistrationWith(ctx, c.actor, pos[0], app.CloseOptions{InitialColour: c.s("initial-colour"), Reason: c.s("reason"), AllowPast: *c.flag["allow-past"]})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ev)
	}
	fmt.Fprintf(e.stdout, "registration closed: %d entrants\n", ev.Entrants)
	for i, s := range ev.Stages {
		fmt.Fprintf(e.stdout, "stage %d %s (%s, %s): %d entrants, %d rounds", i+1, s.Name, s.Kind, s.Pairing, s.Entrants, s.Rounds)
		if s.Advance > 0 {
			fmt.Fprintf(e.stdout, ", %d advance", s.Advance)
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "initial colour: the top seed has %s in round 1 (%s)\n", ev.InitialColour, ev.InitialColourLot)
	for _, w := range ev.Calendar {
		fmt.Fprintf(e.stdout, "round %d (stage %d round %d): %s .. %s\n", w.Seq, w.Stage+1, w.Number,
			w.Start.Format("Mon 2006-01-02 15:04"), w.End.Add(-time.Minute).Format("Mon 2006-01-02 15:04 UTC"))
	}
	return nil
}

func printMatches(w io.Writer, ms []arbiter.Match) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tHOME\tAWAY\tSTATUS\tRESULT\tDECISION\tNOTE")
	for _, m := range ms {
		away, res := m.Away, ""
		if m.IsBye() {
			away = "(bye)"
		}
		if m.Result != nil {
			res = fmt.Sprintf("%s-%s (%s-%s)", m.Result.Home.MatchPoints, m.Result.Away.MatchPoints, m.Result.Home.Points, m.Result.Away.Points)
		}
		note := strings.TrimSpace(m.Pool + " " + m.Format)
		if m.Pool != "" {
			note = "pool " + note
		}
		if !m.ScheduledAt.IsZero() {
			note = strings.TrimSpace(note + " plays " + m.ScheduledAt.Format("Mon 2006-01-02 15:04 UTC"))
		}
		for i, at := range m.BoardTimes {
			if !at.IsZero() {
				note = strings.TrimSpace(note + fmt.Sprintf(" board %d plays %s", i+1, at.Format("Mon 2006-01-02 15:04 UTC")))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.ID, m.Home, away, m.Status, res, m.Decision, note)
	}
	return tw.Flush()
}

func evPair(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, ms, err := c.svc.PairRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"round": rd, "matches": ms})
	}
	fmt.Fprintf(e.stdout, "round %s paired (%s) for review; publish when ready\n", rd.ID, rd.Method)
	return printMatches(e.stdout, ms)
}

func evPublish(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.PublishRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s published; deadline %s\n", rd.ID, rd.End.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	return nil
}

func evMatches(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	round := ""
	if len(pos) > 1 {
		round = pos[1]
	}
	ms, err := c.svc.Matches(ctx, pos[0], round)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ms)
	}
	return printMatches(e.stdout, ms)
}

func readResult(e *env, c *eventCtx) (app.ResultInput, error) {
	in := app.ResultInput{Summary: c.s("summary"), WrongTimeControl: splitList(c.s("wrong-tc"))}
	switch f := c.s("sheet"); f {
	case "":
	case "-":
		data, err := io.ReadAll(e.stdin)
		if err != nil {
			return in, arbiter.FieldError("--sheet", "cli.file", "%v", err)
		}
		in.Sheet = data
	default:
		data, err := os.ReadFile(f)
		if err != nil {
			return in, arbiter.FieldError("--sheet", "cli.file", "%v", err)
		}
		in.Sheet = data
	}
	return in, nil
}

func evResult(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	in, err := readResult(e, c)
	if err != nil {
		return err
	}
	var m arbiter.Match
	if *c.flag["override"] {
		m, err = c.svc.OverrideResult(ctx, c.actor, pos[0], pos[1], in, c.s("reason"), int64(*c.num["version"]))
	} else {
		m, err = c.svc.ReportResult(ctx, c.actor, pos[0], pos[1], in)
	}
	if err != nil {
		return err
	}
	return printMatches(e.stdout, []arbiter.Match{m})
}

func evConfirm(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var m arbiter.Match
	var err error
	if *c.flag["dispute"] {
		m, err = c.svc.DisputeResult(ctx, c.actor, pos[0], pos[1], c.s("reason"), int64(*c.num["version"]))
	} else {
		m, err = c.svc.ConfirmResult(ctx, c.actor, pos[0], pos[1], int64(*c.num["version"]))
	}
	if err != nil {
		return err
	}
	return printMatches(e.stdout, []arbiter.Match{m})
}

func evCloseRound(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.CloseRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s closed", rd.ID)
	if !rd.AppealsUntil.IsZero() {
		fmt.Fprintf(e.stdout, "; appeals until %s", rd.AppealsUntil.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	} else if f, err := c.svc.Format(ctx, pos[0]); err == nil && f.Calendar.AppealMode() == format.AppealsTDDiscretion {
		fmt.Fprint(e.stdout, "; appeals to the TDs until the next round is published")
	}
	fmt.Fprintln(e.stdout)
	for _, n := range rd.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	ms, err := c.svc.Matches(ctx, pos[0], rd.ID)
	if err != nil {
		return err
	}
	return printMatches(e.stdout, ms)
}

// evCloseDue is the scheduler's job for cron users: it closes what is due
// in every event and prints one line per round closed (none: silent).
func evCloseDue(ctx context.Context, e *env, c *eventCtx, _ []string) error {
	rds, err := c.svc.CloseDueRounds(ctx)
	if c.json && err == nil {
		if rds == nil {
			rds = []arbiter.Round{}
		}
		return printJSON(e.stdout, rds)
	}
	for _, rd := range rds {
		fmt.Fprintf(e.stdout, "%s: round %s closed", rd.Event, rd.ID)
		if !rd.AppealsUntil.IsZero() {
			fmt.Fprintf(e.stdout, "; appeals until %s", rd.AppealsUntil.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
		}
		fmt.Fprintln(e.stdout)
		for _, n := range rd.Notes {
			fmt.Fprintf(e.stdout, "note: %s\n", n)
		}
	}
	return err
}

func evForbid(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug := pos[0]
	switch {
	case *c.flag["list"]:
		if len(pos) != 1 || c.s("remove") != "" {
			return usagef("--list takes only the event")
		}
	case c.s("remove") != "":
		if len(pos) != 1 {
			return usagef("--remove takes only the event and the ID")
		}
		fb, err := c.svc.RemoveForbidden(ctx, c.actor, slug, c.s("remove"), c.s("reason"))
		if err != nil {
			return err
		}
		if c.json {
			return printJSON(e.stdout, fb)
		}
		fmt.Fprintf(e.stdout, "%s lifted: %s may meet again\n", fb.ID, strings.Join(fb.Entrants, ", "))
		return nil
	default:
		if len(pos) < 3 {
			return usagef("name at least two entrants who must not meet")
		}
		stage := *c.num["stage"] - 1
		if stage < 0 {
			ev, err := c.svc.Event(ctx, slug)
			if err != nil {
				return err
			}
			stage = ev.Stage
		}
		fb, err := c.svc.Forbid(ctx, c.actor, slug, app.ForbidRequest{Stage: stage, Entrants: pos[1:], Reason: c.s("reason")})
		if err != nil {
			return err
		}
		if c.json {
			return printJSON(e.stdout, fb)
		}
		fmt.Fprintf(e.stdout, "%s: %s must not meet in stage %d\n", fb.ID, strings.Join(fb.Entrants, ", "), fb.Stage+1)
		return nil
	}
	fbs, err := c.svc.ForbiddenPairings(ctx, slug)
	if err != nil {
		return err
	}
	if c.json {
		if fbs == nil {
			fbs = []app.Forbidden{}
		}
		return printJSON(e.stdout, fbs)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTAGE\tENTRANTS\tSTATUS\tREASON")
	for _, fb := range fbs {
		status, reason := "standing", fb.Reason
		if fb.Removed {
			status, reason = "lifted", fb.Reason+" (lifted: "+fb.RemovedReason+")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", fb.ID, fb.Stage+1, strings.Join(fb.Entrants, ","), status, reason)
	}
	return tw.Flush()
}

func evAppeal(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	accept, reject := c.s("accept"), c.s("reject")
	var ap arbiter.Appeal
	var err error
	switch {
	case accept != "" && reject != "":
		return usagef("--accept and --reject exclude each other")
	case accept != "" || reject != "":
		if len(pos) != 1 {
			return usagef("deciding an appeal takes the event only: appeal SLUG --accept ID ...")
		}
		in, rerr := readResult(e, c)
		if rerr != nil {
			return rerr
		}
		id := accept + reject
		ap, err = c.svc.DecideAppeal(ctx, c.actor, pos[0], id, accept != "", in, c.s("reason"))
	default:
		if len(pos) != 2 {
			return usagef("give the event and the match: appeal SLUG MATCH --reason TEXT")
		}
		ap, err = c.svc.Appeal(ctx, c.actor, pos[0], pos[1], c.s("reason"))
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ap)
	}
	fmt.Fprintf(e.stdout, "appeal %s on %s: %s\n", ap.ID, ap.Match, ap.Status)
	return nil
}

func evStandings(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	tab, err := c.svc.StandingsAfter(ctx, pos[0], *c.num["stage"]-1, c.s("pool"), *c.num["after"])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, tab)
	}
	if tab.After == 0 {
		fmt.Fprintln(e.stdout, "before the first round: no round of the stage is completed yet")
	} else {
		fmt.Fprintf(e.stdout, "after round %d (%d completed)\n", tab.After, tab.Completed)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "RANK\tID\tSCORE")
	for _, tb := range tab.Tiebreaks {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(tb.String()))
	}
	fmt.Fprintln(tw)
	for _, r := range tab.Rows {
		rank := fmt.Sprint(r.Rank)
		if r.Shared {
			rank += "="
		}
		fmt.Fprintf(tw, "%s\t%s\t%s", rank, r.ID, r.Score)
		for _, v := range r.Values {
			fmt.Fprintf(tw, "\t%s", v)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func evAudit(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	log, err := c.svc.Audit(ctx, c.actor, pos[0], sqlstore.AuditFilter{})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, log)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tACTOR\tACTION\tRECORD\tVERSION\tREASON")
	for _, en := range log {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s\t%d\t%s\n", en.At.Format("2006-01-02 15:04:05"), en.Actor, en.Action, en.Kind, en.RecordID, en.Version, en.Reason)
	}
	return tw.Flush()
}

func evAdvance(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	opt := app.AdvanceOptions{Reason: c.s("reason")}
	for _, id := range strings.Split(c.s("order"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			opt.TieOrder = append(opt.TieOrder, strings.ToLower(id))
		}
	}
	ev, err := c.svc.AdvanceStage(ctx, c.actor, pos[0], opt)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ev)
	}
	stg := ev.Stages[ev.Stage]
	fmt.Fprintf(e.stdout, "stage %d %s (%s): %s\n", ev.Stage+1, stg.Name, stg.Kind, strings.Join(stg.Seeds, ", "))
	for _, p := range stg.Pools {
		fmt.Fprintf(e.stdout, "pool %s: %s\n", p.Name, strings.Join(p.Seeds, ", "))
	}
	return nil
}

func evSanction(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	x, changed, err := c.svc.Sanction(ctx, c.actor, pos[0], app.SanctionRequest{Entrant: pos[1], Player: c.s("player"), Kind: c.s("kind"),
		NotForCheating: *c.flag["not-for-cheating"], Reason: c.s("reason")})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"sanction": x, "changed": changed})
	}
	who := x.Entrant
	if x.Player != "" && x.Player != x.Entrant {
		who = x.Player + " of " + x.Entrant
	}
	fmt.Fprintf(e.stdout, "%s: %s %s (rule %s); %d matches changed\n", x.ID, who, x.Kind, x.Rule, len(changed))
	for _, n := range x.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	for _, m := range changed {
		for _, r := range m.Rulings {
			what := fmt.Sprintf("board %d", r.Board)
			if r.Set != "" {
				what = "set " + r.Set
			}
			fmt.Fprintf(e.stdout, "%s %s: %s (%s)\n", m.ID, what, r.Forfeit, r.Clause)
		}
	}
	if len(changed) > 0 {
		return printMatches(e.stdout, changed)
	}
	return nil
}

func evNegotiate(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var step app.NegotiationStep
	n := 0
	if o := c.s("offer"); o != "" {
		n++
		step.Kind = app.NegPropose
		for _, f := range strings.Split(o, ",") {
			t, err := parseZonedTime(strings.TrimSpace(f))
			if err != nil {
				return arbiter.FieldError("--offer", "cli.time", "%v", err)
			}
			step.Times = append(step.Times, t)
		}
	}
	if a := c.s("accept"); a != "" {
		n++
		t, err := parseZonedTime(a)
		if err != nil {
			return arbiter.FieldError("--accept", "cli.time", "%v", err)
		}
		step.Kind, step.At = app.NegAccept, t
	}
	if *c.flag["none-suitable"] {
		n++
		step.Kind = app.NegNoneSuitable
	}
	if *c.flag["agree-draw"] {
		n++
		step.Kind = app.NegAgreeDraw
	}
	if *c.flag["expire"] {
		n++
		step.Kind = app.NegExpire
	}
	if f := c.s("fault"); f != "" {
		n++
		step.Kind, step.Reason = app.NegRuleFault, c.s("reason")
		if f != "none" {
			step.AtFault = f
		}
	}
	if n != 1 {
		return usagef("give exactly one of --offer, --accept, --none-suitable, --agree-draw, --expire, --fault")
	}
	step.Board = *c.num["board"]
	neg, m, err := c.svc.Negotiate(ctx, c.actor, pos[0], pos[1], step)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"negotiation": neg, "match": m})
	}
	if neg.Board > 0 {
		fmt.Fprintf(e.stdout, "%s board %d: %d offers, %s", m.ID, neg.Board, len(neg.State.Offers), neg.State.Outcome)
		if b := neg.Board; b <= len(m.BoardTimes) && !m.BoardTimes[b-1].IsZero() {
			fmt.Fprintf(e.stdout, ", plays %s", m.BoardTimes[b-1].Format("Monday 2006-01-02 15:04 UTC"))
		}
		fmt.Fprintf(e.stdout, "; match %s\n", m.Status)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: %d offers, %s", m.ID, len(neg.State.Offers), neg.State.Outcome)
	if !m.ScheduledAt.IsZero() {
		fmt.Fprintf(e.stdout, ", plays %s", m.ScheduledAt.Format("Monday 2006-01-02 15:04 UTC"))
	}
	fmt.Fprintln(e.stdout)
	return nil
}

func evDiscard(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.DiscardRound(ctx, c.actor, pos[0], c.s("reason"))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s discarded; pair it again\n", rd.ID)
	return nil
}

func evBid(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	secs := *c.num["seconds"]
	var auc app.Armageddon
	var err error
	switch {
	case *c.flag["reveal"]:
		sec, perr := armageddon.ParseSecret(secs, c.s("nonce"))
		if perr != nil {
			return perr
		}
		auc, err = c.svc.BidArmageddon(ctx, c.actor, pos[0], pos[1], nil, &sec)
	case c.s("commitment") != "":
		cm, perr := armageddon.ParseCommitment(c.s("commitment"))
		if perr != nil {
			return perr
		}
		auc, err = c.svc.BidArmageddon(ctx, c.actor, pos[0], pos[1], &cm, nil)
	case secs > 0:
		// Seal here: the bid stays on this machine until the reveal; app
		// finds the side and the rules.
		_, cm, sec, serr := c.svc.SealBid(ctx, arbiter.NamedUser(c.actor.Name), pos[0], pos[1], time.Duration(secs)*time.Second, rand.Reader)
		if serr != nil {
			return serr
		}
		fmt.Fprintf(e.stdout, "sealed bid committed: %s\nkeep this to reveal: --seconds %d --nonce %s\n", cm, secs, sec.NonceHex())
		return nil
	default:
		return usagef("give --seconds (or --commitment), or --reveal with --seconds and --nonce")
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, auc)
	}
	if o := auc.Outcome; o != nil {
		white := "home"
		if o.White == armageddon.SideB {
			white = "away"
		}
		fmt.Fprintf(e.stdout, "%s: %s plays White with %s, Black %s with draw odds (flip: %v)\n", pos[1], white, o.WhiteTime, o.BlackTime, o.ByFlip)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: bid recorded; waiting for the other side\n", pos[1])
	return nil
}

func evLineup(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	seq := *c.num["round"]
	if seq < 1 {
		return usagef("--round is required (1 = the event's first round)")
	}
	if w := c.s("wild-card"); w != "" {
		x, y, ok := strings.Cut(w, ",")
		if !ok {
			return usagef("--wild-card takes two players: X,Y")
		}
		if _, err := c.svc.WildCard(ctx, c.actor, pos[0], pos[1], seq, strings.TrimSpace(x), strings.TrimSpace(y)); err != nil {
			return err
		}
	} else if sets := c.s("sets"); sets != "" {
		var names []string
		for _, n := range strings.Split(sets, ",") {
			names = append(names, strings.TrimSpace(n))
		}
		if _, err := c.svc.SubmitLineup(ctx, c.actor, pos[0], pos[1], seq, names); err != nil {
			return err
		}
	}
	l, from, err := c.svc.Lineup(ctx, arbiter.NamedUser(c.actor.Name), pos[0], pos[1], seq)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"sets": l.Sets, "submitted_for": from})
	}
	fmt.Fprintf(e.stdout, "%s round %d: %s (submitted for round %d)\n", pos[1], seq, strings.Join(l.Sets, ", "), from)
	return nil
}

func evBringForward(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if c.s("to") == "" {
		return usagef("--to is required")
	}
	t, err := parseZonedTime(c.s("to"))
	if err != nil {
		return arbiter.FieldError("--to", "cli.time", "%v", err)
	}
	rd, err := c.svc.BringForward(ctx, c.actor, pos[0], t)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s now ends %s; later rounds moved too\n", rd.ID, rd.End.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	return nil
}

func evTiebreakValue(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	v, err := arbiter.ParsePoints(c.s("value"))
	if err != nil {
		return arbiter.FieldError("--value", "cli.points", "%v", err)
	}
	en, err := c.svc.SetTiebreakValue(ctx, c.actor, pos[0], pos[1], c.s("key"), v)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: td_value:%s = %s\n", en.ID, c.s("key"), en.Values[c.s("key")])
	return nil
}

func evCaptain(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.SetCaptain(ctx, c.actor, pos[0], pos[1], pos[2])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: captain %s\n", en.ID, en.Captain)
	return nil
}

func evReplace(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.NameReplacement(ctx, c.actor, pos[0], app.ReplacementRequest{Entrant: pos[1], Replaced: c.s("replaced"), Player: c.s("player"),
		Rating: *c.num["rating"], ReplacedRating: *c.num["replaced-rating"], Eligible: *c.flag["eligible"], Willing: *c.flag["willing"], Reason: c.s("reason")})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, en)
	}
	fmt.Fprintf(e.stdout, "%s: %s replaces %s; members %s\n", en.ID, normName(c.s("player")), normName(c.s("replaced")), strings.Join(en.Members, ", "))
	return nil
}

func normName(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func evWrongTC(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if c.s("set") == "" {
		return usagef("--set is required")
	}
	m, grace, err := c.svc.WrongTimeControl(ctx, c.actor, pos[0], pos[1], c.s("set"), c.s("reason"))
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"grace": grace, "match": m})
	}
	if grace {
		fmt.Fprintf(e.stdout, "%s: the %s set counts normally (one-time grace used by both players)\n", m.ID, c.s("set"))
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: the %s set is a full-points draw; result %s-%s (%s-%s), final\n", m.ID, c.s("set"),
		m.Result.Home.MatchPoints, m.Result.Away.MatchPoints, m.Result.Home.Points, m.Result.Away.Points)
	return nil
}

func evVerify(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	games, err := gameSource(c.s("lichess-url"))
	if err != nil {
		return err
	}
	c.svc.SetGameSource(games)
	v, err := c.svc.VerifyMatch(ctx, c.actor, pos[0], pos[1])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, v)
	}
	printVerification(e.stdout, v)
	return nil
}

// printVerification prints a match's check on Lichess: one block per part
// and pair, its games and the discrepancies with their clauses.
func printVerification(w io.Writer, v app.MatchVerification) {
	state := v.Summary()
	against := "no report"
	if v.Report != "" {
		against = "report " + v.Report
	}
	fmt.Fprintf(w, "%s: %s games %s to %s, against %s: %s\n", v.Match, v.Variant, v.From.Format(time.RFC3339), v.To.Format(time.RFC3339), against, state)
	for _, c := range v.Checks {
		label := c.TC
		if c.Board > 0 {
			label = fmt.Sprintf("board %d %s", c.Board, c.TC)
		}
		games := "games"
		if c.Games == 1 {
			games = "game"
		}
		fmt.Fprintf(w, "%s (%d %s) %s-%s:", label, c.Games, games, orDash(c.HomePlayer), orDash(c.AwayPlayer))
		if c.Skipped != "" {
			fmt.Fprintf(w, " not checked: %s\n", c.Skipped)
			continue
		}
		if c.Reported != nil {
			fmt.Fprintf(w, " reported %s,", c.Reported)
		}
		fmt.Fprintf(w, " Lichess %s\n", c.Lichess)
		for _, g := range c.Found {
			fmt.Fprintf(w, "  %s %s %s %s\n", g.URL, g.HomeColor, g.Result, g.Status)
		}
		for _, g := range c.Extra {
			fmt.Fprintf(w, "  %s %s %s %s (after the part)\n", g.URL, g.HomeColor, g.Result, g.Status)
		}
		for _, g := range c.WrongTC {
			fmt.Fprintf(w, "  %s %s %s %s (%s)\n", g.URL, g.HomeColor, g.Result, g.Status, orDash(g.TC))
		}
		for _, d := range c.Discrepancies {
			fmt.Fprintf(w, "  ! %s %s: %s\n", d.Clause, d.Kind, d.Message)
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
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

func evBoards(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var bt app.BoardTeam
	var err error
	switch {
	case c.s("rank") != "":
		banned := splitList(c.s("comm-banned"))
		var members []lineup.Member
		for _, item := range splitList(c.s("rank")) {
			name, r, ok := strings.Cut(item, ":")
			rating, err := strconv.Atoi(r)
			if !ok || err != nil {
				return arbiter.FieldError("--rank", "cli.rank", "want USER:RATING, got %q", item)
			}
			members = append(members, lineup.Member{Name: name, Rating: rating, CommBanned: slices.Contains(banned, name)})
		}
		var comp lineup.Comparable
		for _, item := range splitList(c.s("comparable")) {
			x, y, ok := strings.Cut(item, "/")
			if !ok {
				return arbiter.FieldError("--comparable", "cli.comparable", "want X/Y, got %q", item)
			}
			comp = append(comp, lineup.Pair{strings.ToLower(x), strings.ToLower(y)})
		}
		bt, err = c.svc.RankBoards(ctx, c.actor, pos[0], pos[1], members, comp)
	case c.s("order") != "":
		bt, err = c.svc.SubmitBoards(ctx, c.actor, pos[0], pos[1], splitList(c.s("order")))
	case c.s("sub") != "":
		l := splitList(c.s("sub"))
		if len(l) != 2 {
			return usagef("--sub takes IN,OUT")
		}
		bt, err = c.svc.SubstituteBoard(ctx, c.actor, pos[0], pos[1], l[0], l[1])
	default:
		return usagef("give exactly one of --rank, --order, --sub")
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, bt)
	}
	fmt.Fprintf(e.stdout, "%s boards: %s (TDs' order %s)\n", bt.Entrant, strings.Join(bt.Team.Boards, ", "), strings.Join(bt.TDOrder, ", "))
	return nil
}

func evCaptainChange(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	bt, err := c.svc.ChangeCaptain(ctx, c.actor, pos[0], pos[1], pos[2], c.s("reason"))
	if err != nil {
		return err
	}
	last := bt.Team.Captains[len(bt.Team.Captains)-1]
	fmt.Fprintf(e.stdout, "%s: captain %s from round %d\n", bt.Entrant, last.Name, last.From)
	return nil
}
