package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
)

// 'arbiter event late-entry' and 'edit-entrant': the TDs' entries after
// registration closed and corrections of an entrant
// (docs/running-an-event.md).

var lateEntrySub = &eventSub{name: "late-entry", synopsis: "late-entry SLUG PLAYER [--rating N] --reason TEXT | late-entry SLUG --team NAME --captain USER --members A,B,C [--substitute USER] [--rating N] --reason TEXT",
	summary: "enter a player or team after registration closed, approved at once (TD; R8, first-stage Swiss only)",
	min:     1, max: 2, new: withFlags[lateEntryCmd]}

// lateEntryCmd holds the flags of "event late-entry".
type lateEntryCmd struct {
	rating                             int
	team, captain, members, substitute string
	reasonFlag
}

func (cmd *lateEntryCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.rating, "rating", 0, "rating: gives the pairing number among the others (C.04.2)")
	fs.StringVar(&cmd.team, "team", "", "team name")
	fs.StringVar(&cmd.captain, "captain", "", "team captain (one of the members)")
	fs.StringVar(&cmd.members, "members", "", "comma-separated team members")
	fs.StringVar(&cmd.substitute, "substitute", "", "optional substitute")
	cmd.bindReason(fs)
}

var editEntrantSub = &eventSub{name: "edit-entrant", synopsis: "edit-entrant SLUG ENTRANT [--name NAME] [--rating N] [--members A,B,C] [--substitute USER | --no-substitute] --reason TEXT",
	summary: "correct an entrant's name, rating, members or substitute (TD; membership rules A11, A15, R14, R16)",
	min:     2, max: 2, new: withFlags[editEntrantCmd]}

// editEntrantCmd holds the flags of "event edit-entrant". The rating is a
// string so that leaving it out differs from 0.
type editEntrantCmd struct {
	name, rating, members, substitute string
	noSubstitute                      bool
	version                           int
	reasonFlag
}

func (cmd *editEntrantCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.name, "name", "", "the new name (the entrant's ID stays)")
	fs.StringVar(&cmd.rating, "rating", "", "the new rating (does not reseed a running event)")
	fs.StringVar(&cmd.members, "members", "", "the team's new members, comma separated (the captain among them)")
	fs.StringVar(&cmd.substitute, "substitute", "", "the team's new substitute")
	fs.BoolVar(&cmd.noSubstitute, "no-substitute", false, "remove the team's substitute")
	fs.IntVar(&cmd.version, "version", 0, "the entrant version you saw (refused if it changed since)")
	cmd.bindReason(fs)
}

func splitComma(v string) []string {
	var out []string
	for _, m := range strings.Split(v, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func (cmd *lateEntryCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en := arbiter.Entrant{Rating: cmd.rating}
	if team := cmd.team; team != "" {
		if len(pos) != 1 {
			return usagef("a team is given by --team, not by an argument")
		}
		en.Kind, en.Name, en.Captain, en.Substitute, en.Members = arbiter.EntrantTeam, team, cmd.captain, cmd.substitute, splitComma(cmd.members)
	} else {
		if len(pos) != 2 {
			return usagef("give the player's username, or --team with --captain and --members")
		}
		en.Kind, en.Player = arbiter.EntrantPlayer, pos[1]
	}
	got, err := c.svc.LateEntry(ctx, c.actor, pos[0], en, cmd.reason)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, got)
	}
	if got.Seed > 0 {
		fmt.Fprintf(e.stdout, "entered %s late, approved, seed %d; the rounds already paired count as unplayed (no points)\n", got.ID, got.Seed)
	} else {
		fmt.Fprintf(e.stdout, "entered %s late, approved; seeded when registration closes\n", got.ID)
	}
	return nil
}

func (cmd *editEntrantCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	req := app.EntrantEdit{Reason: cmd.reason, Version: int64(cmd.version)}
	if v := cmd.name; v != "" {
		req.Name = &v
	}
	if v := strings.TrimSpace(cmd.rating); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return arbiter.FieldError("--rating", "cli.number", "--rating must be a whole number")
		}
		req.Rating = &n
	}
	req.Members = splitComma(cmd.members)
	switch v := cmd.substitute; {
	case v != "" && cmd.noSubstitute:
		return usagef("give --substitute or --no-substitute, not both")
	case v != "":
		req.Substitute = &v
	case cmd.noSubstitute:
		none := ""
		req.Substitute = &none
	}
	got, err := c.svc.EditEntrant(ctx, c.actor, pos[0], pos[1], req)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, got)
	}
	fmt.Fprintf(e.stdout, "edited %s: %s\n", got.Entrant.ID, strings.Join(got.Changes, "; "))
	for _, n := range got.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	return nil
}
