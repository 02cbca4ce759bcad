package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
)

// 'arbiter event review-pairings' and 'edit-pairing': the TDs' review and
// edits of a paired round before publication (docs/running-an-event.md).

var reviewPairingsSub = &eventSub{name: "review-pairings", synopsis: "review-pairings SLUG [--json]",
	summary: "the current round's pairings with scores, colours, preferences, floats and the bye's reasons (TD)",
	min:     1, max: 1, new: plain(evReviewPairings)}

var editPairingSub = &eventSub{name: "edit-pairing", synopsis: "edit-pairing SLUG (--swap A,B | --bye ENTRANT | --force A,B | --forbid A,B) --reason TEXT [--confirm] [--preview]",
	summary: "edit a paired round before publishing it; warns of each pairing criterion broken (TD)",
	min:     1, max: 1, new: withFlags[editPairingCmd]}

// editPairingCmd holds the flags of "event edit-pairing".
type editPairingCmd struct {
	swap, bye, force, forbid string
	confirm, preview         bool
	reasonFlag
}

func (cmd *editPairingCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.swap, "swap", "", "A,B: the two entrants exchange their opponents (with the bye's holder: the bye moves)")
	fs.StringVar(&cmd.bye, "bye", "", "the entrant who gets the bye; its opponent meets the bye's holder")
	fs.StringVar(&cmd.force, "force", "", "A,B: they meet; the others are paired again by the engine")
	fs.StringVar(&cmd.forbid, "forbid", "", "A,B: they do not meet in this round; the round is paired again by the engine")
	fs.BoolVar(&cmd.confirm, "confirm", false, "apply an edit that breaks an absolute criterion (C1-C3: rematch, second bye, absolute colour preference)")
	fs.BoolVar(&cmd.preview, "preview", false, "show the edit and its warnings without applying it")
	cmd.bindReason(fs)
}

func (cmd *editPairingCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	req := app.PairingEditRequest{Reason: cmd.reason, Confirm: cmd.confirm, Preview: cmd.preview}
	for _, kv := range [][2]string{{app.EditSwap, cmd.swap}, {app.EditBye, cmd.bye}, {app.EditForce, cmd.force}, {app.EditForbid, cmd.forbid}} {
		k, v := kv[0], strings.TrimSpace(kv[1])
		if v == "" {
			continue
		}
		if req.Kind != "" {
			return usagef("give one of --swap, --bye, --force and --forbid")
		}
		req.Kind = k
		for _, id := range strings.Split(v, ",") {
			req.Entrants = append(req.Entrants, strings.TrimSpace(id))
		}
	}
	if req.Kind == "" {
		return usagef("give one of --swap, --bye, --force and --forbid")
	}
	ed, ms, err := c.svc.EditPairing(ctx, c.actor, pos[0], req)
	var ae *arbiter.Error
	if errors.As(err, &ae) && strings.HasPrefix(ae.Rule, "C.04.3 ") {
		ae.Message += " (--confirm)"
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"edit": ed, "matches": ms})
	}
	verb := map[string]string{app.EditSwap: "swapped", app.EditBye: "bye to", app.EditForce: "forced", app.EditForbid: "forbidden"}[ed.Kind]
	if req.Preview {
		fmt.Fprintf(e.stdout, "preview (nothing changed): %s %s\n", verb, strings.Join(ed.Entrants, ", "))
	} else {
		fmt.Fprintf(e.stdout, "%s: %s %s\n", ed.ID, verb, strings.Join(ed.Entrants, ", "))
	}
	printWarnings(e.stdout, ed.Warnings)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tHOME\tAWAY")
	for _, m := range ms {
		away := m.Away
		if away == "" {
			away = "(bye)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.ID, m.Home, away)
	}
	return tw.Flush()
}

func printWarnings(w io.Writer, ws []app.PairingWarning) {
	if len(ws) == 0 {
		fmt.Fprintln(w, "no pairing criterion broken")
		return
	}
	fmt.Fprintln(w, "warning: this edit breaks")
	for _, x := range ws {
		abs := ""
		if x.Absolute {
			abs = "absolute: "
		}
		fmt.Fprintf(w, "  - %s%s\n", abs, x.Text)
	}
}

func evReviewPairings(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rv, err := c.svc.ReviewPairings(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, rv)
	}
	state := "published"
	if rv.Editable {
		state = "paired, not published: edit-pairing may change it"
	} else if rv.Round.Status != "published" {
		state = rv.Round.Status
	}
	fmt.Fprintf(e.stdout, "round %s of %s (%s)\n", rv.Round.ID, rv.Stage, state)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tSIDE\tSEED\tRATING\tSCORE\tCOLOURS\tPREFERENCE\tFLOATS")
	row := func(id string, s app.ReviewSide) {
		pref := s.Preference
		if pref != "" {
			pref += " (" + s.Strength + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", id, s.Entrant, s.Seed, s.Rating, s.Score, strings.Join(s.History, " "), pref, strings.Join(s.Floats, ", "))
	}
	for _, b := range rv.Boards {
		row(b.Match.ID, b.Home)
		if b.Away != nil {
			row("", *b.Away)
		} else {
			fmt.Fprintf(tw, "\t(bye)\t\t\t\t\t\t\n")
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, b := range rv.Boards {
		for _, w := range b.Warnings {
			fmt.Fprintf(e.stdout, "%s: %s\n", b.Match.ID, w.Text)
		}
		if len(b.ByeReasons) > 0 {
			fmt.Fprintf(e.stdout, "bye to %s: %s\n", b.Home.Entrant, strings.Join(b.ByeReasons, "; "))
		}
	}
	for _, ed := range rv.Edits {
		fmt.Fprintf(e.stdout, "edit %s by %s: %s %s — %s\n", ed.ID, ed.By, ed.Kind, strings.Join(ed.Entrants, ", "), ed.Reason)
	}
	return nil
}
