package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"arbiter"
	"arbiter/app"
)

// 'arbiter event create' and 'list': a new event from a preset or a format
// file, and the events there are.

var createSub = &eventSub{name: "create", synopsis: "create SLUG (--preset NAME | --format FILE) --start TIME [--name NAME] [--allow-past]",
	summary: "create an event from a preset or a format file; you become its TD",
	min:     1, max: 1, new: withFlags[createCmd]}

// createCmd holds the flags of "event create".
type createCmd struct {
	preset    string
	format    string
	start     string
	name      string
	allowPast bool
}

func (cmd *createCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.preset, "preset", "", "built-in format: acwc-2023, antichess-team-cup, rkcc-team-three-tc")
	fs.StringVar(&cmd.format, "format", "", "format file (JSON, see docs)")
	fs.StringVar(&cmd.start, "start", "", "first round start with its zone: 2023-03-21T10:00Z (UTC) or 2023-03-21T12:00+02:00")
	fs.StringVar(&cmd.name, "name", "", "event name (default: the format's title)")
	fs.BoolVar(&cmd.allowPast, "allow-past", false, "accept a start in the past (the scheduler closes rounds whose deadline has passed)")
}

func (cmd *createCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	req := app.NewEvent{Slug: pos[0], Name: cmd.name, Preset: cmd.preset}
	if f := cmd.format; f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			return arbiter.FieldError("--format", "cli.file", "%v", err)
		}
		req.Format = data
	}
	if cmd.start == "" {
		return usagef("--start is required")
	}
	t, err := parseZonedTime(cmd.start)
	if err != nil {
		return arbiter.FieldError("--start", "cli.time", "%v", err)
	}
	req.Start, req.AllowPast = t, cmd.allowPast
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

var listSub = &eventSub{name: "list", synopsis: "list [--json]",
	summary: "list events",
	new:     plain(evList)}

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
