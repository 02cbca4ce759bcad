package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"arbiter/app"
)

// 'arbiter event forbid': entrants who must not meet in a Swiss stage.

var forbidSub = &eventSub{name: "forbid", synopsis: "forbid SLUG ENTRANT ENTRANT... --reason TEXT [--stage N] | forbid SLUG --list | forbid SLUG --remove ID --reason TEXT",
	summary: "entrants who must not meet in a Swiss stage (same club, federation); list or lift (TD)",
	min:     1, max: -1, new: withFlags[forbidCmd]}

// forbidCmd holds the flags of "event forbid".
type forbidCmd struct {
	stage  int
	list   bool
	remove string
	reasonFlag
}

func (cmd *forbidCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.stage, "stage", 0, "stage number (1 = first; default: the current stage)")
	fs.BoolVar(&cmd.list, "list", false, "list the event's forbidden pairings")
	fs.StringVar(&cmd.remove, "remove", "", "lift the forbidden pairing with this ID (needs --reason)")
	cmd.bindReason(fs)
}

func (cmd *forbidCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug := pos[0]
	switch {
	case cmd.list:
		if len(pos) != 1 || cmd.remove != "" {
			return usagef("--list takes only the event")
		}
	case cmd.remove != "":
		if len(pos) != 1 {
			return usagef("--remove takes only the event and the ID")
		}
		fb, err := c.svc.RemoveForbidden(ctx, c.actor, slug, cmd.remove, cmd.reason)
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
		stage := cmd.stage - 1
		if stage < 0 {
			ev, err := c.svc.Event(ctx, slug)
			if err != nil {
				return err
			}
			stage = ev.Stage
		}
		fb, err := c.svc.Forbid(ctx, c.actor, slug, app.ForbidRequest{Stage: stage, Entrants: pos[1:], Reason: cmd.reason})
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
