package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
)

var officialsSub = &eventSub{name: "officials", synopsis: "officials SLUG [add|remove USER] [--reason TEXT] [--json]",
	summary: "list the event's TDs, or add or remove a co-TD (TD)", min: 1, max: 3, new: withFlags[officialsCmd]}

// officialsCmd holds the flags of "event officials".
type officialsCmd struct{ reasonFlag }

func (cmd *officialsCmd) flags(fs *flag.FlagSet) { cmd.bindReason(fs) }

func (cmd *officialsCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug := pos[0]
	switch {
	case len(pos) == 1:
	case len(pos) == 3 && pos[1] == "add":
		if err := c.svc.AddTD(ctx, c.actor, slug, pos[2]); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is now a TD of %s\n", strings.ToLower(pos[2]), slug)
		return nil
	case len(pos) == 3 && pos[1] == "remove":
		if err := c.svc.RemoveTD(ctx, c.actor, slug, pos[2], cmd.reason); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is no longer a TD of %s\n", strings.ToLower(pos[2]), slug)
		return nil
	default:
		return usagef("want: officials SLUG, officials SLUG add USER or officials SLUG remove USER")
	}
	os, err := c.svc.Officials(ctx, slug)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, os)
	}
	for _, o := range os {
		fmt.Fprintf(e.stdout, "%s\t%s\n", o.User, strings.Join(o.Roles, ","))
	}
	return nil
}
