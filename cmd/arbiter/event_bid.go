package main

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
)

// 'arbiter event bid': sealed armageddon bids, committed then revealed (A3,
// W12).

var bidSub = &eventSub{name: "bid", synopsis: "bid SLUG MATCH (--seconds N | --commitment HEX) | bid SLUG MATCH --reveal --seconds N --nonce HEX",
	summary: "sealed armageddon bid for White's time (A3, W12): commit, then reveal",
	min:     2, max: 2, new: withFlags[bidCmd]}

// bidCmd holds the flags of "event bid".
type bidCmd struct {
	seconds    int
	commitment string
	reveal     bool
	nonce      string
}

func (cmd *bidCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.seconds, "seconds", 0, "your bid: White's clock in seconds")
	fs.StringVar(&cmd.commitment, "commitment", "", "a commitment made elsewhere (64 hex digits)")
	fs.BoolVar(&cmd.reveal, "reveal", false, "reveal your bid (after both sides committed)")
	fs.StringVar(&cmd.nonce, "nonce", "", "the nonce printed when you committed")
}

func (cmd *bidCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	secs := cmd.seconds
	var auc app.Armageddon
	var err error
	switch {
	case cmd.reveal:
		sec, perr := armageddon.ParseSecret(secs, cmd.nonce)
		if perr != nil {
			return perr
		}
		auc, err = c.svc.BidArmageddon(ctx, c.actor, pos[0], pos[1], nil, &sec)
	case cmd.commitment != "":
		cm, perr := armageddon.ParseCommitment(cmd.commitment)
		if perr != nil {
			return perr
		}
		auc, err = c.svc.BidArmageddon(ctx, c.actor, pos[0], pos[1], &cm, nil)
	case secs > 0:
		// Seal here: the bid stays on this machine until the reveal; app
		// finds the side and the rules.
		_, cm, sec, serr := c.svc.SealBid(ctx, arbiter.NamedUser(c.actor.Name), pos[0], pos[1], time.Duration(secs)*time.Second, rand.Reader)
		if serr != nil {
			return serr
		}
		fmt.Fprintf(e.stdout, "sealed bid committed: %s\nkeep this to reveal: --seconds %d --nonce %s\n", cm, secs, sec.NonceHex())
		return nil
	default:
		return usagef("give --seconds (or --commitment), or --reveal with --seconds and --nonce")
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, auc)
	}
	if o := auc.Outcome; o != nil {
		white := "home"
		if o.White == armageddon.SideB {
			white = "away"
		}
		fmt.Fprintf(e.stdout, "%s: %s plays White with %s, Black %s with draw odds (flip: %v)\n", pos[1], white, o.WhiteTime, o.BlackTime, o.ByFlip)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: bid recorded; waiting for the other side\n", pos[1])
	return nil
}
