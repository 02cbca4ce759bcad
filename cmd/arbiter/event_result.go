package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"arbiter"
	"arbiter/app"
)

// Results: a report and its confirmation or dispute, the TDs' override,
// appeals, a set in the wrong time control and the check of a match's games
// on Lichess.

// resultFlags are the flags that give a result: a summary or a sheet.
type resultFlags struct {
	summary, sheet, wrongTC string
}

func (r *resultFlags) bindResult(fs *flag.FlagSet) {
	fs.StringVar(&r.summary, "summary", "", `game score per part, home first: "6-4", "4-0 3-3 5-3", or forfeit:home|away|double|full_draw`)
	fs.StringVar(&r.sheet, "sheet", "", "match sheet file (JSON; - for stdin)")
	fs.StringVar(&r.wrongTC, "wrong-tc", "", "sets played in the wrong time control, e.g. 3+2 (R6, applied when the result stands)")
}

// read returns the result given by the flags, reading the sheet file.
func (r *resultFlags) read(e *env) (app.ResultInput, error) {
	in := app.ResultInput{Summary: r.summary, WrongTimeControl: splitList(r.wrongTC)}
	switch f := r.sheet; f {
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

var resultSub = &eventSub{name: "result", synopsis: "result SLUG MATCH (--summary \"6-4\" | --sheet FILE) [--override --reason TEXT]",
	summary: "report a result (player/captain), or set one (TD, --override)",
	min:     2, max: 2, new: withFlags[resultCmd]}

// resultCmd holds the flags of "event result".
type resultCmd struct {
	resultFlags
	override bool
	reasonFlag
	version int
}

func (cmd *resultCmd) flags(fs *flag.FlagSet) {
	cmd.bindResult(fs)
	fs.BoolVar(&cmd.override, "override", false, "TD decision replacing any report (needs --reason)")
	cmd.bindReason(fs)
	fs.IntVar(&cmd.version, "version", 0, "the match version you saw (refused if it changed since)")
}

func (cmd *resultCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	in, err := cmd.read(e)
	if err != nil {
		return err
	}
	var m arbiter.Match
	if cmd.override {
		m, err = c.svc.OverrideResult(ctx, c.actor, pos[0], pos[1], in, cmd.reason, int64(cmd.version))
	} else {
		m, err = c.svc.ReportResult(ctx, c.actor, pos[0], pos[1], in)
	}
	if err != nil {
		return err
	}
	return printMatches(e.stdout, []arbiter.Match{m})
}

var confirmSub = &eventSub{name: "confirm", synopsis: "confirm SLUG MATCH [--dispute --reason TEXT]",
	summary: "confirm (or dispute) the opponent's report",
	min:     2, max: 2, new: withFlags[confirmCmd]}

// confirmCmd holds the flags of "event confirm".
type confirmCmd struct {
	dispute bool
	reasonFlag
	version int
}

func (cmd *confirmCmd) flags(fs *flag.FlagSet) {
	fs.BoolVar(&cmd.dispute, "dispute", false, "dispute the report instead (needs --reason)")
	cmd.bindReason(fs)
	fs.IntVar(&cmd.version, "version", 0, "the match version you saw (refused if it changed since)")
}

func (cmd *confirmCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var m arbiter.Match
	var err error
	if cmd.dispute {
		m, err = c.svc.DisputeResult(ctx, c.actor, pos[0], pos[1], cmd.reason, int64(cmd.version))
	} else {
		m, err = c.svc.ConfirmResult(ctx, c.actor, pos[0], pos[1], int64(cmd.version))
	}
	if err != nil {
		return err
	}
	return printMatches(e.stdout, []arbiter.Match{m})
}

var appealSub = &eventSub{name: "appeal", synopsis: "appeal SLUG MATCH --reason TEXT | appeal SLUG --accept ID (--summary S | --sheet FILE) --reason TEXT | appeal SLUG --reject ID --reason TEXT",
	summary: "file an appeal (player/captain) or decide one (TD)",
	min:     1, max: 2, new: withFlags[appealCmd]}

// appealCmd holds the flags of "event appeal".
type appealCmd struct {
	reasonFlag
	resultFlags
	accept string
	reject string
}

func (cmd *appealCmd) flags(fs *flag.FlagSet) {
	cmd.bindReason(fs)
	cmd.bindResult(fs)
	fs.StringVar(&cmd.accept, "accept", "", "accept the appeal with this ID, setting the given result (TD)")
	fs.StringVar(&cmd.reject, "reject", "", "reject the appeal with this ID (TD)")
}

func (cmd *appealCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	accept, reject := cmd.accept, cmd.reject
	var ap arbiter.Appeal
	var err error
	switch {
	case accept != "" && reject != "":
		return usagef("--accept and --reject exclude each other")
	case accept != "" || reject != "":
		if len(pos) != 1 {
			return usagef("deciding an appeal takes the event only: appeal SLUG --accept ID ...")
		}
		in, rerr := cmd.read(e)
		if rerr != nil {
			return rerr
		}
		id := accept + reject
		ap, err = c.svc.DecideAppeal(ctx, c.actor, pos[0], id, accept != "", in, cmd.reason)
	default:
		if len(pos) != 2 {
			return usagef("give the event and the match: appeal SLUG MATCH --reason TEXT")
		}
		ap, err = c.svc.Appeal(ctx, c.actor, pos[0], pos[1], cmd.reason)
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

var wrongTCSub = &eventSub{name: "wrong-tc", synopsis: "wrong-tc SLUG MATCH --set TC --reason TEXT",
	summary: "a set played in the wrong time control: grace or full-points draw (R6; TD)",
	min:     2, max: 2, new: withFlags[wrongTCCmd]}

// wrongTCCmd holds the flags of "event wrong-tc".
type wrongTCCmd struct {
	set string
	reasonFlag
}

func (cmd *wrongTCCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.set, "set", "", "the set's (or part's) time control as on the sheet, e.g. 3+2")
	cmd.bindReason(fs)
}

func (cmd *wrongTCCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if cmd.set == "" {
		return usagef("--set is required")
	}
	m, grace, err := c.svc.WrongTimeControl(ctx, c.actor, pos[0], pos[1], cmd.set, cmd.reason)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"grace": grace, "match": m})
	}
	if grace {
		fmt.Fprintf(e.stdout, "%s: the %s set counts normally (one-time grace used by both players)\n", m.ID, cmd.set)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: the %s set is a full-points draw; result %s-%s (%s-%s), final\n", m.ID, cmd.set,
		m.Result.Home.MatchPoints, m.Result.Away.MatchPoints, m.Result.Home.Points, m.Result.Away.Points)
	return nil
}

var verifySub = &eventSub{name: "verify", synopsis: "verify SLUG MATCH [--lichess-url URL] [--json]",
	summary: "check a match's games on Lichess against the format and the report (R6, W2, W4; TD)",
	min:     2, max: 2, new: withFlags[verifyCmd]}

// verifyCmd holds the flags of "event verify".
type verifyCmd struct {
	lichessURL string
}

func (cmd *verifyCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.lichessURL, "lichess-url", "https://lichess.org", "Lichess's address ($LICHESS_TOKEN: optional API token)")
}

func (cmd *verifyCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	games, err := gameSource(cmd.lichessURL)
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
