package main

import (
	"context"
	"fmt"
	"text/tabwriter"
)

var rankingSub = &eventSub{name: "ranking", synopsis: "ranking SLUG [--json]",
	summary: "the final ranking of a finished event across its stages, and how each place was decided", min: 1, max: 1, new: plain(evRanking)}

func evRanking(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	ps, err := c.svc.Ranking(ctx, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ps)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tENTRANT\tNAME\tHOW")
	for _, p := range ps {
		rank := fmt.Sprint(p.Rank)
		if p.Shared {
			rank += "="
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rank, p.Entrant, p.Name, p.How)
	}
	return tw.Flush()
}
