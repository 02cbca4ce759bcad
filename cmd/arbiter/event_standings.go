package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
)

// Standings: a stage's table, the TDs' tiebreak values, and advancing to the
// next stage.

var standingsSub = &eventSub{name: "standings", synopsis: "standings SLUG [--stage N] [--pool NAME] [--after N] [--json]",
	summary: "stage standings with the format's tiebreaks, after a completed round",
	min:     1, max: 1, new: withFlags[standingsCmd]}

// standingsCmd holds the flags of "event standings".
type standingsCmd struct {
	stage int
	after int
	pool  string
}

func (cmd *standingsCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.stage, "stage", 1, "stage number (1 = first)")
	fs.IntVar(&cmd.after, "after", 0, "the table after this completed round of the stage (default: the last completed)")
	fs.StringVar(&cmd.pool, "pool", "", "pool of a pool stage (e.g. upper)")
}

func (cmd *standingsCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	tab, err := c.svc.StandingsAfter(ctx, pos[0], cmd.stage-1, cmd.pool, cmd.after)
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

var tiebreakValueSub = &eventSub{name: "tiebreak-value", synopsis: "tiebreak-value SLUG ENTRANT --key KEY --value V",
	summary: "enter a TD tiebreak value (td_value:KEY, e.g. W9 previous_final)",
	min:     2, max: 2, new: withFlags[tiebreakValueCmd]}

// tiebreakValueCmd holds the flags of "event tiebreak-value".
type tiebreakValueCmd struct {
	key   string
	value string
}

func (cmd *tiebreakValueCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.key, "key", "", "the td_value key, e.g. previous_final")
	fs.StringVar(&cmd.value, "value", "", "the value (higher is better), e.g. 2 or 1.5")
}

func (cmd *tiebreakValueCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	v, err := arbiter.ParsePoints(cmd.value)
	if err != nil {
		return arbiter.FieldError("--value", "cli.points", "%v", err)
	}
	en, err := c.svc.SetTiebreakValue(ctx, c.actor, pos[0], pos[1], cmd.key, v)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: td_value:%s = %s\n", en.ID, cmd.key, en.Values[cmd.key])
	return nil
}

var advanceSub = &eventSub{name: "advance", synopsis: "advance SLUG [--order A,B,C,... --reason TEXT]",
	summary: "end the current stage and fill the next from its standings (TD)",
	min:     1, max: 1, new: withFlags[advanceCmd]}

// advanceCmd holds the flags of "event advance".
type advanceCmd struct {
	order string
	reasonFlag
}

func (cmd *advanceCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.order, "order", "", "the TDs' order of everyone who advances, where the tiebreaks leave a tie that matters (e.g. drawing of lots); from pools, each pool's advancing entrants, pool after pool")
	cmd.bindReason(fs)
}

func (cmd *advanceCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	opt := app.AdvanceOptions{Reason: cmd.reason}
	for _, id := range strings.Split(cmd.order, ",") {
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
