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

var lateEntrySub = &eventSub{synopsis: "late-entry SLUG PLAYER [--rating N] --reason TEXT | late-entry SLUG --team NAME --captain USER --members A,B,C [--substitute USER] [--rating N] --reason TEXT",
	summary: "enter a player or team after registration closed, approved at once (TD; R8, first-stage Swiss only)",
	min:     1, max: 2, run: evLateEntry, flags: func(fs *flag.FlagSet, c *eventCtx) {
		c.num["rating"] = fs.Int("rating", 0, "rating: gives the pairing number among the others (C.04.2)")
		c.str["team"] = fs.String("team", "", "team name")
		c.str["captain"] = fs.String("captain", "", "team captain (one of the members)")
		c.str["members"] = fs.String("members", "", "comma-separated team members")
		c.str["substitute"] = fs.String("substitute", "", "optional substitute")
		reasonFlag(fs, c)
	}}

var editEntrantSub = &eventSub{synopsis: "edit-entrant SLUG ENTRANT [--name NAME] [--rating N] [--members A,B,C] [--substitute USER | --no-substitute] --reason TEXT",
	summary: "correct an entrant's name, rating, members or substitute (TD; membership rules A11, A15, R14, R16)",
	min:     2, max: 2, run: evEditEntrant, flags: func(fs *flag.FlagSet, c *eventCtx) {
		c.str["name"] = fs.String("name", "", "the new name (the entrant's ID stays)")
		c.str["rating"] = fs.String("rating", "", "the new rating (does not reseed a running event)")
		c.str["members"] = fs.String("members", "", "the team's new members, comma separated (the captain among them)")
		c.str["substitute"] = fs.String("substitute", "", "the team's new substitute")
		c.flag["no-substitute"] = fs.Bool("no-substitute", false, "remove the team's substitute")
		c.num["version"] = fs.Int("version", 0, "the entrant version you saw (refused if it changed since)")
		reasonFlag(fs, c)
	}}

func splitComma(v string) []string {
	var out []string
	for _, m := range strings.Split(v, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func evLateEntry(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en := arbiter.Entrant{Rating: *c.num["rating"]}
	if team := c.s("team"); team != "" {
		if len(pos) != 1 {
			return usagef("a team is given by --team, not by an argument")
		}
		en.Kind, en.Name, en.Captain, en.Substitute, en.Members = arbiter.EntrantTeam, team, c.s("captain"), c.s("substitute"), splitComma(c.s("members"))
	} else {
		if len(pos) != 2 {
			return usagef("give the player's username, or --team with --captain and --members")
		}
		en.Kind, en.Player = arbiter.EntrantPlayer, pos[1]
	}
	got, err := c.svc.LateEntry(ctx, c.actor, pos[0], en, c.s("reason"))
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

func evEditEntrant(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	req := app.EntrantEdit{Reason: c.s("reason"), Version: int64(*c.num["version"])}
	if v := c.s("name"); v != "" {
		req.Name = &v
	}
	if v := strings.TrimSpace(c.s("rating")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return arbiter.FieldError("--rating", "cli.number", "--rating must be a whole number")
		}
		req.Rating = &n
	}
	req.Members = splitComma(c.s("members"))
	switch v := c.s("substitute"); {
	case v != "" && *c.flag["no-substitute"]:
		return usagef("give --substitute or --no-substitute, not both")
	case v != "":
		req.Substitute = &v
	case *c.flag["no-substitute"]:
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
