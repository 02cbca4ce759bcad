package main

import (
	"context"
	"flag"
	"fmt"

	"arbiter/app"
)

// 'arbiter event sanction': withdrawals and disqualifications; the rulebook
// decides their results.

var sanctionSub = &eventSub{name: "sanction", synopsis: "sanction SLUG ENTRANT [--player MEMBER] --kind KIND --reason TEXT [--not-for-cheating]",
	summary: "withdraw or disqualify an entrant; the rulebook decides its results (TD)",
	min:     2, max: 2, new: withFlags[sanctionCmd]}

// sanctionCmd holds the flags of "event sanction".
type sanctionCmd struct {
	kind           string
	notForCheating bool
	player         string
	reasonFlag
}

func (cmd *sanctionCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.kind, "kind", "", "withdrawal, disqualification, tos_violation, lichess_ban, ineligible, engine_mark, booster_mark")
	fs.BoolVar(&cmd.notForCheating, "not-for-cheating", false, "a Lichess ban proven not for cheating (A8)")
	fs.StringVar(&cmd.player, "player", "", "team events: the member sanctioned")
	cmd.bindReason(fs)
}

func (cmd *sanctionCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	x, changed, err := c.svc.Sanction(ctx, c.actor, pos[0], app.SanctionRequest{Entrant: pos[1], Player: cmd.player, Kind: cmd.kind,
		NotForCheating: cmd.notForCheating, Reason: cmd.reason})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"sanction": x, "changed": changed})
	}
	who := x.Entrant
	if x.Player != "" && x.Player != x.Entrant {
		who = x.Player + " of " + x.Entrant
	}
	fmt.Fprintf(e.stdout, "%s: %s %s (rule %s); %d matches changed\n", x.ID, who, x.Kind, x.Rule, len(changed))
	for _, n := range x.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	for _, m := range changed {
		for _, r := range m.Rulings {
			what := fmt.Sprintf("board %d", r.Board)
			if r.Set != "" {
				what = "set " + r.Set
			}
			fmt.Fprintf(e.stdout, "%s %s: %s (%s)\n", m.ID, what, r.Forfeit, r.Clause)
		}
	}
	if len(changed) > 0 {
		return printMatches(e.stdout, changed)
	}
	return nil
}
