package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter"
	"arbiter/app"
)

// Registration: entries, the TDs' approval, and closing it (stages sized,
// seeds, calendar, the round-1 colour).

var registerSub = &eventSub{name: "register", synopsis: "register SLUG PLAYER [--rating N] | register SLUG --team NAME --captain USER --members A,B,C [--substitute USER] [--rating N]",
	summary: "register a player or a team (awaits TD approval)",
	min:     1, max: 2, new: withFlags[registerCmd]}

// registerCmd holds the flags of "event register".
type registerCmd struct {
	rating     int
	team       string
	captain    string
	members    string
	substitute string
}

func (cmd *registerCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.rating, "rating", 0, "rating for the initial seeding")
	fs.StringVar(&cmd.team, "team", "", "team name")
	fs.StringVar(&cmd.captain, "captain", "", "team captain (one of the members)")
	fs.StringVar(&cmd.members, "members", "", "comma-separated team members")
	fs.StringVar(&cmd.substitute, "substitute", "", "optional substitute")
}

func (cmd *registerCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en := arbiter.Entrant{Rating: cmd.rating}
	if team := cmd.team; team != "" {
		if len(pos) != 1 {
			return usagef("a team is given by --team, not by an argument")
		}
		en.Kind, en.Name, en.Captain, en.Substitute = arbiter.EntrantTeam, team, cmd.captain, cmd.substitute
		for _, m := range strings.Split(cmd.members, ",") {
			if m = strings.TrimSpace(m); m != "" {
				en.Members = append(en.Members, m)
			}
		}
	} else {
		if len(pos) != 2 {
			return usagef("give the player's username, or --team with --captain and --members")
		}
		en.Kind, en.Player = arbiter.EntrantPlayer, pos[1]
	}
	got, err := c.svc.Register(ctx, c.actor, pos[0], en)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "registered %s (%s), awaiting approval\n", got.ID, got.Kind)
	return nil
}

var entrantsSub = &eventSub{name: "entrants", synopsis: "entrants SLUG [--json]",
	summary: "list entrants with status and seed",
	min:     1, max: 1, new: plain(evEntrants)}

func evEntrants(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	es, err := c.svc.Entrants(ctx, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, es)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEED\tID\tSTATUS\tRATING\tMEMBERS\tREASON")
	for _, en := range es {
		seed := "-"
		if en.Seed > 0 {
			seed = fmt.Sprint(en.Seed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", seed, en.ID, en.Status, en.Rating, strings.Join(en.Members, ","), en.Reason)
	}
	return tw.Flush()
}

var approveSub = &eventSub{name: "approve", synopsis: "approve SLUG ENTRANT...",
	summary: "approve entrants (TD)",
	min:     2, max: -1, new: plain(evApprove)}

func evApprove(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	for _, id := range pos[1:] {
		en, err := c.svc.Approve(ctx, c.actor, pos[0], id, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "approved %s\n", en.ID)
	}
	return nil
}

var rejectSub = &eventSub{name: "reject", synopsis: "reject SLUG ENTRANT --reason TEXT",
	summary: "reject an entrant with a reason (TD)",
	min:     2, max: 2, new: withFlags[rejectCmd]}

// rejectCmd holds the flags of "event reject".
type rejectCmd struct {
	reasonFlag
}

func (cmd *rejectCmd) flags(fs *flag.FlagSet) {
	cmd.bindReason(fs)
}

func (cmd *rejectCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	en, err := c.svc.Reject(ctx, c.actor, pos[0], pos[1], cmd.reason, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "rejected %s: %s\n", en.ID, en.Reason)
	return nil
}

var closeRegistrationSub = &eventSub{name: "close-registration", synopsis: "close-registration SLUG [--initial-colour white|black --reason TEXT] [--allow-past]",
	summary: "size the stages, seed the entrants, compute the calendar, draw the round-1 colour (TD)",
	min:     1, max: 1, new: withFlags[closeRegistrationCmd]}

// closeRegistrationCmd holds the flags of "event close-registration".
type closeRegistrationCmd struct {
	initialColour string
	allowPast     bool
	reasonFlag
}

func (cmd *closeRegistrationCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.initialColour, "initial-colour", "", "the top seed's round-1 colour chosen by the TDs instead of the lot (needs --reason)")
	fs.BoolVar(&cmd.allowPast, "allow-past", false, "close even if round 1's deadline has passed (its matches are then closed as unplayed)")
	cmd.bindReason(fs)
}

func (cmd *closeRegistrationCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	ev, err := c.svc.CloseRegistrationWith(ctx, c.actor, pos[0], app.CloseOptions{InitialColour: cmd.initialColour, Reason: cmd.reason, AllowPast: cmd.allowPast})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ev)
	}
	fmt.Fprintf(e.stdout, "registration closed: %d entrants\n", ev.Entrants)
	for i, s := range ev.Stages {
		fmt.Fprintf(e.stdout, "stage %d %s (%s, %s): %d entrants, %d rounds", i+1, s.Name, s.Kind, s.Pairing, s.Entrants, s.Rounds)
		if s.Advance > 0 {
			fmt.Fprintf(e.stdout, ", %d advance", s.Advance)
		}
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprintf(e.stdout, "initial colour: the top seed has %s in round 1 (%s)\n", ev.InitialColour, ev.InitialColourLot)
	for _, w := range ev.Calendar {
		fmt.Fprintf(e.stdout, "round %d (stage %d round %d): %s .. %s\n", w.Seq, w.Stage+1, w.Number,
			w.Start.Format("Mon 2006-01-02 15:04"), w.End.Add(-time.Minute).Format("Mon 2006-01-02 15:04 UTC"))
	}
	return nil
}
