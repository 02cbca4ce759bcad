package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"arbiter"
)

// 'arbiter event lineup': a team's lineup for a round (RKCC R7, R9).

var lineupSub = &eventSub{name: "lineup", synopsis: "lineup SLUG TEAM --round N [--sets P1,P2,P3 | --wild-card X,Y]",
	summary: "submit (captain) or show a team's lineup for a round (RKCC R7)",
	min:     2, max: 2, new: withFlags[lineupCmd]}

// lineupCmd holds the flags of "event lineup".
type lineupCmd struct {
	round    int
	sets     string
	wildCard string
}

func (cmd *lineupCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.round, "round", 0, "round number over the whole event (1 = first)")
	fs.StringVar(&cmd.sets, "sets", "", "the player of each set, in the format's order; omit to show the lineup")
	fs.StringVar(&cmd.wildCard, "wild-card", "", "the Swiss winner's swap of two players X,Y in a knockout round (R9)")
}

func (cmd *lineupCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	seq := cmd.round
	if seq < 1 {
		return usagef("--round is required (1 = the event's first round)")
	}
	if w := cmd.wildCard; w != "" {
		x, y, ok := strings.Cut(w, ",")
		if !ok {
			return usagef("--wild-card takes two players: X,Y")
		}
		if _, err := c.svc.WildCard(ctx, c.actor, pos[0], pos[1], seq, strings.TrimSpace(x), strings.TrimSpace(y)); err != nil {
			return err
		}
	} else if sets := cmd.sets; sets != "" {
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
