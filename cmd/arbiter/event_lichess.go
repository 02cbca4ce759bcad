package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
)

// What the TD console does for Lichess, from the command line: import a
// match's or a round's games now and see the findings, and turn the
// event's Lichess messages on or off, and check the organiser's token
// and its scopes.

var lichessImportSub = &eventSub{name: "lichess-import",
	synopsis: "lichess-import SLUG MATCH|ROUND [--lichess-url URL] [--lichess-token-file FILE] [--json]",
	summary:  "import a match's or a round's (s1r2) games from Lichess now and print the findings; a sheet without findings is entered as a report from Lichess (TD)",
	min:      2, max: 2, new: withFlags[lichessImportCmd]}

// lichessImportCmd holds the flags of "event lichess-import".
type lichessImportCmd struct {
	lichessURL, tokenFile string
}

func (cmd *lichessImportCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.lichessURL, "lichess-url", "https://lichess.org", "Lichess's address (a fake: arbiter lichess fake)")
	fs.StringVar(&cmd.tokenFile, "lichess-token-file", "", "file holding the organiser's Lichess token (default $LICHESS_TOKEN)")
}

// roundIDRe is how a round is named (s1r2); anything else is a match.
var roundIDRe = regexp.MustCompile(`^s[0-9]+r[0-9]+$`)

func (cmd *lichessImportCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	token, err := organiserToken(cmd.tokenFile)
	if err != nil {
		return err
	}
	lc, err := lichessClient(cmd.lichessURL, token)
	if err != nil {
		return err
	}
	c.svc.SetLichess(lc)
	var out []app.RoundImport
	if roundIDRe.MatchString(pos[1]) {
		out, err = c.svc.ImportRound(ctx, c.actor, pos[0], pos[1])
	} else {
		var im app.LichessImport
		im, err = c.svc.ImportMatch(ctx, c.actor, pos[0], pos[1])
		if err == nil {
			out = []app.RoundImport{{Match: im.Match, Import: &im}}
		}
	}
	if c.json && err == nil {
		return printJSON(e.stdout, out)
	}
	printImports(e.stdout, out)
	return err
}

// printImports prints each match's import: the games counted, whether
// the sheet was entered, and every finding that kept a game out.
func printImports(w io.Writer, out []app.RoundImport) {
	for _, r := range out {
		if r.Import == nil {
			fmt.Fprintf(w, "%s: not imported: %s\n", r.Match, r.Error)
			continue
		}
		im := r.Import
		counted := 0
		for _, g := range im.Games {
			if g.Counted {
				counted++
			}
		}
		fmt.Fprintf(w, "%s: %s of %d counted, %s", r.Match, arbiter.Count(counted, "game"), len(im.Games), arbiter.Count(len(im.Findings), "finding"))
		switch {
		case im.Report != "":
			fmt.Fprintf(w, "; entered as report %s (final after the confirmation window unless a side disputes it)\n", im.Report)
		case im.Skipped != "":
			fmt.Fprintf(w, "; not entered: %s\n", im.Skipped)
		default:
			fmt.Fprintln(w)
		}
		for _, f := range im.Findings {
			where := f.Kind
			if f.Game != "" {
				where += " " + f.Game
			}
			if f.Board > 0 {
				where += fmt.Sprintf(" (board %d)", f.Board)
			}
			fmt.Fprintf(w, "  %s: %s\n", where, f.Message)
		}
	}
}

var messagesSub = &eventSub{name: "messages", synopsis: "messages SLUG on|off",
	summary: "turn the event's messages on Lichess on or off: the players' inbox and the announcements to the event's Lichess team (TD; audited)",
	min:     2, max: 2, new: plain(evMessages)}

func evMessages(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var on bool
	switch pos[1] {
	case "on":
		on = true
	case "off":
	default:
		return usagef("messages takes on or off, not %q", pos[1])
	}
	ev, err := c.svc.SetMessages(ctx, c.actor, pos[0], on)
	if err != nil || c.json {
		return orJSON(e, c, ev, err, nil)
	}
	if ev.Messages {
		fmt.Fprintf(e.stdout, "messages on Lichess are on for %s: players hear of their pairings, offers, start times, results to confirm, deadlines and appeals (each may opt out)\n", ev.Slug)
	} else {
		fmt.Fprintf(e.stdout, "messages on Lichess are off for %s: nothing more is sent\n", ev.Slug)
	}
	return nil
}

var lichessTokenSub = &eventSub{name: "lichess-token",
	synopsis: "lichess-token SLUG [--lichess-url URL] [--lichess-token-file FILE] [--json]",
	summary:  "check the organiser's Lichess token: its owner, its scopes and what each missing scope turns off, as the TD console shows them (TD)",
	min:      1, max: 1, new: withFlags[lichessTokenCmd]}

// lichessTokenCmd holds the flags of "event lichess-token".
type lichessTokenCmd struct {
	lichessURL, tokenFile string
}

func (cmd *lichessTokenCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.lichessURL, "lichess-url", "https://lichess.org", "Lichess's address (a fake: arbiter lichess fake)")
	fs.StringVar(&cmd.tokenFile, "lichess-token-file", "", "file holding the organiser's Lichess token (default $LICHESS_TOKEN)")
}

func (cmd *lichessTokenCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	token, err := organiserToken(cmd.tokenFile)
	if err != nil {
		return err
	}
	lc, err := lichessClient(cmd.lichessURL, token)
	if err != nil {
		return err
	}
	org, err := checkOrganiser(ctx, lc, token, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	c.svc.SetOrganiser(org)
	acc, err := c.svc.LichessAccessOf(ctx, c.actor, pos[0])
	if err != nil || c.json {
		return orJSON(e, c, acc, err, nil)
	}
	switch {
	case !acc.Token:
		fmt.Fprintln(e.stdout, "no organiser's Lichess token (give --lichess-token-file or $LICHESS_TOKEN)")
	case acc.Unchecked != "":
		fmt.Fprintf(e.stdout, "the organiser's Lichess token could not be checked: %s\n", acc.Unchecked)
	default:
		fmt.Fprintf(e.stdout, "the organiser's Lichess token belongs to %s; scopes: %s\n", acc.User, orDash(strings.Join(acc.Scopes, ", ")))
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FEATURE\tSCOPE\tSTATE")
	for _, f := range acc.Features {
		state := "on"
		if !f.Enabled {
			state = "off: " + f.Disabled
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, orDash(f.Scope), state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "event %s: games created on Lichess: %s; results imported: %s\n", pos[0], yesNo(acc.CreatesGames), yesNo(acc.ImportsResults))
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
