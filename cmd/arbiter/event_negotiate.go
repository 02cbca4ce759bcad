package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"arbiter"
	"arbiter/app"
)

// 'arbiter event negotiate': time offers for a match and the TDs' rulings
// (A5, W14).

var negotiateSub = &eventSub{name: "negotiate", synopsis: "negotiate SLUG MATCH [--board N] (--offer T1,T2,T3 | --accept T | --none-suitable | --agree-draw | --expire | --fault ENTRANT|PLAYER|none --reason TEXT)",
	summary: "time offers for a match (A5, W14); TD rulings on fault and deadlines",
	min:     2, max: 2, new: withFlags[negotiateCmd]}

// negotiateCmd holds the flags of "event negotiate".
type negotiateCmd struct {
	offer        string
	accept       string
	noneSuitable bool
	agreeDraw    bool
	expire       bool
	fault        string
	board        int
	reasonFlag
}

func (cmd *negotiateCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.offer, "offer", "", "comma-separated start times offered (UTC, e.g. 2023-03-22T18:00Z)")
	fs.StringVar(&cmd.accept, "accept", "", "accept the opponent's offered time")
	fs.BoolVar(&cmd.noneSuitable, "none-suitable", false, "none of the offers suits: more offers are due (A5)")
	fs.BoolVar(&cmd.agreeDraw, "agree-draw", false, "the sides agree a draw without playing (A5 forbids it; W14 has no such rule)")
	fs.BoolVar(&cmd.expire, "expire", false, "apply the offer deadline's result (TD)")
	fs.StringVar(&cmd.fault, "fault", "", "TD ruling after the weekend: the entrant (or the board's player) at fault, or none")
	fs.IntVar(&cmd.board, "board", 0, "the board, where each player negotiates with their board opponent (A5: the antichess cup)")
	cmd.bindReason(fs)
}

func (cmd *negotiateCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	var step app.NegotiationStep
	n := 0
	if o := cmd.offer; o != "" {
		n++
		step.Kind = app.NegPropose
		for _, f := range strings.Split(o, ",") {
			t, err := parseZonedTime(strings.TrimSpace(f))
			if err != nil {
				return arbiter.FieldError("--offer", "cli.time", "%v", err)
			}
			step.Times = append(step.Times, t)
		}
	}
	if a := cmd.accept; a != "" {
		n++
		t, err := parseZonedTime(a)
		if err != nil {
			return arbiter.FieldError("--accept", "cli.time", "%v", err)
		}
		step.Kind, step.At = app.NegAccept, t
	}
	if cmd.noneSuitable {
		n++
		step.Kind = app.NegNoneSuitable
	}
	if cmd.agreeDraw {
		n++
		step.Kind = app.NegAgreeDraw
	}
	if cmd.expire {
		n++
		step.Kind = app.NegExpire
	}
	if f := cmd.fault; f != "" {
		n++
		step.Kind, step.Reason = app.NegRuleFault, cmd.reason
		if f != "none" {
			step.AtFault = f
		}
	}
	if n != 1 {
		return usagef("give exactly one of --offer, --accept, --none-suitable, --agree-draw, --expire, --fault")
	}
	step.Board = cmd.board
	neg, m, err := c.svc.Negotiate(ctx, c.actor, pos[0], pos[1], step)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"negotiation": neg, "match": m})
	}
	if neg.Board > 0 {
		fmt.Fprintf(e.stdout, "%s board %d: %d offers, %s", m.ID, neg.Board, len(neg.State.Offers), neg.State.Outcome)
		if b := neg.Board; b <= len(m.BoardTimes) && !m.BoardTimes[b-1].IsZero() {
			fmt.Fprintf(e.stdout, ", plays %s", m.BoardTimes[b-1].Format("Monday 2006-01-02 15:04 UTC"))
		}
		fmt.Fprintf(e.stdout, "; match %s\n", m.Status)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: %d offers, %s", m.ID, len(neg.State.Offers), neg.State.Outcome)
	if !m.ScheduledAt.IsZero() {
		fmt.Fprintf(e.stdout, ", plays %s", m.ScheduledAt.Format("Monday 2006-01-02 15:04 UTC"))
	}
	fmt.Fprintln(e.stdout)
	return nil
}
