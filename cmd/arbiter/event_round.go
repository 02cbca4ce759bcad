package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter"
	"arbiter/format"
)

// A round's life: paired for review, discarded or published, its matches,
// its deadline brought forward, closed (by hand or by the scheduler).

var pairSub = &eventSub{name: "pair", synopsis: "pair SLUG [--lichess-url URL]",
	summary: "pair the next round for review (TD); round 1 with the ratings refreshed from Lichess when --lichess-url is given",
	min:     1, max: 1, new: withFlags[pairCmd]}

// pairCmd holds the flags of "event pair".
type pairCmd struct{ lichessURL string }

func (cmd *pairCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.lichessURL, "lichess-url", "", "refresh the ratings from this Lichess before round 1 (https://lichess.org; a fake: arbiter lichess fake); without it round 1 uses the ratings last fetched")
}

func (cmd *pairCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if cmd.lichessURL != "" {
		lc, err := lichessClient(cmd.lichessURL, os.Getenv("LICHESS_TOKEN"))
		if err != nil {
			return err
		}
		c.svc.SetAccountSource(lc)
	}
	rd, ms, err := c.svc.PairRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, map[string]any{"round": rd, "matches": ms})
	}
	fmt.Fprintf(e.stdout, "round %s paired (%s) for review; publish when ready\n", rd.ID, rd.Method)
	if cmd.lichessURL != "" && rd.Stage == 0 && rd.Number == 1 {
		if rs, err := c.svc.Ratings(ctx, arbiter.NamedUser(c.actor.Name), pos[0]); err == nil && rs.Refresh != nil && rs.Refresh.Round1 {
			fmt.Fprintln(e.stdout, rs.Refresh.Summary()+".")
		}
	}
	return printMatches(e.stdout, ms)
}

var discardSub = &eventSub{name: "discard", synopsis: "discard SLUG --reason TEXT",
	summary: "throw away a paired, unpublished round to pair it again (TD)",
	min:     1, max: 1, new: withFlags[discardCmd]}

// discardCmd holds the flags of "event discard".
type discardCmd struct {
	reasonFlag
}

func (cmd *discardCmd) flags(fs *flag.FlagSet) {
	cmd.bindReason(fs)
}

func (cmd *discardCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.DiscardRound(ctx, c.actor, pos[0], cmd.reason)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s discarded; pair it again\n", rd.ID)
	return nil
}

var publishSub = &eventSub{name: "publish", synopsis: "publish SLUG",
	summary: "publish the paired round (TD)",
	min:     1, max: 1, new: plain(evPublish)}

func evPublish(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.PublishRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s published; deadline %s\n", rd.ID, rd.End.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	return nil
}

var matchesSub = &eventSub{name: "matches", synopsis: "matches SLUG [ROUND] [--json]",
	summary: "list matches (ROUND such as s1r2: as --as may see them, as on the round page)",
	min:     1, max: 2, new: plain(evMatches)}

func evMatches(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if len(pos) > 1 {
		return evRoundMatches(ctx, e, c, pos[0], pos[1])
	}
	ms, err := c.svc.Matches(ctx, pos[0], "")
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, ms)
	}
	return printMatches(e.stdout, ms)
}

// evRoundMatches prints one round's matches through the view the round
// page reads (app.RoundView): pairings under the TDs' review are shown to
// the event's TDs only.
func evRoundMatches(ctx context.Context, e *env, c *eventCtx, slug, round string) error {
	rv, err := c.svc.RoundView(ctx, arbiter.NamedUser(c.actor.Name), slug, round)
	if err != nil {
		return err
	}
	ms := rv.Matches
	if ms == nil {
		ms = []arbiter.Match{}
	}
	if c.json {
		return printJSON(e.stdout, ms)
	}
	if rv.Round != nil && !rv.Visible {
		fmt.Fprintf(e.stdout, "round %s is under the TDs' review: its pairings are shown once published\n", round)
		return nil
	}
	return printMatches(e.stdout, ms)
}

var bringForwardSub = &eventSub{name: "bring-forward", synopsis: "bring-forward SLUG --to TIME",
	summary: "advance the open round's deadline once all its matches are finished (A4)",
	min:     1, max: 1, new: withFlags[bringForwardCmd]}

// bringForwardCmd holds the flags of "event bring-forward".
type bringForwardCmd struct {
	to string
}

func (cmd *bringForwardCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.to, "to", "", "the new deadline: the instant the round ends, UTC (2025-01-11T00:00Z ends it after Friday 23:59)")
}

func (cmd *bringForwardCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if cmd.to == "" {
		return usagef("--to is required")
	}
	t, err := parseZonedTime(cmd.to)
	if err != nil {
		return arbiter.FieldError("--to", "cli.time", "%v", err)
	}
	rd, err := c.svc.BringForward(ctx, c.actor, pos[0], t)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s now ends %s; later rounds moved too\n", rd.ID, rd.End.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	return nil
}

var closeRoundSub = &eventSub{name: "close-round", synopsis: "close-round SLUG",
	summary: "close the round at its deadline: unplayed matches take their rulebook's result (R5 double forfeit; A5, W14 by the time negotiation, else held for the TDs)",
	min:     1, max: 1, new: plain(evCloseRound)}

func evCloseRound(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	rd, err := c.svc.CloseRound(ctx, c.actor, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "round %s closed", rd.ID)
	if !rd.AppealsUntil.IsZero() {
		fmt.Fprintf(e.stdout, "; appeals until %s", rd.AppealsUntil.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
	} else if f, err := c.svc.Format(ctx, pos[0]); err == nil && f.Calendar.AppealMode() == format.AppealsTDDiscretion {
		fmt.Fprint(e.stdout, "; appeals to the TDs until the next round is published")
	}
	fmt.Fprintln(e.stdout)
	for _, n := range rd.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	ms, err := c.svc.Matches(ctx, pos[0], rd.ID)
	if err != nil {
		return err
	}
	return printMatches(e.stdout, ms)
}

var closeDueSub = &eventSub{name: "close-due", synopsis: "close-due",
	summary: "close every event's round whose deadline has passed, as the scheduler (for cron)",
	new:     plain(evCloseDue)}

// evCloseDue is the scheduler's job for cron users: it closes what is due
// in every event and prints one line per round closed (none: silent).
func evCloseDue(ctx context.Context, e *env, c *eventCtx, _ []string) error {
	rds, err := c.svc.CloseDueRounds(ctx)
	if c.json && err == nil {
		if rds == nil {
			rds = []arbiter.Round{}
		}
		return printJSON(e.stdout, rds)
	}
	for _, rd := range rds {
		fmt.Fprintf(e.stdout, "%s: round %s closed", rd.Event, rd.ID)
		if !rd.AppealsUntil.IsZero() {
			fmt.Fprintf(e.stdout, "; appeals until %s", rd.AppealsUntil.Add(-time.Minute).Format("Monday 2006-01-02 15:04 UTC"))
		}
		fmt.Fprintln(e.stdout)
		for _, n := range rd.Notes {
			fmt.Fprintf(e.stdout, "note: %s\n", n)
		}
	}
	return err
}

func printMatches(w io.Writer, ms []arbiter.Match) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MATCH\tHOME\tAWAY\tSTATUS\tRESULT\tDECISION\tNOTE")
	for _, m := range ms {
		away, res := m.Away, ""
		if m.IsBye() {
			away = "(bye)"
		}
		if m.Result != nil {
			res = fmt.Sprintf("%s-%s (%s-%s)", m.Result.Home.MatchPoints, m.Result.Away.MatchPoints, m.Result.Home.Points, m.Result.Away.Points)
		}
		note := strings.TrimSpace(m.Pool + " " + m.Format)
		if m.Pool != "" {
			note = "pool " + note
		}
		if !m.ScheduledAt.IsZero() {
			note = strings.TrimSpace(note + " plays " + m.ScheduledAt.Format("Mon 2006-01-02 15:04 UTC"))
		}
		for i, at := range m.BoardTimes {
			if !at.IsZero() {
				note = strings.TrimSpace(note + fmt.Sprintf(" board %d plays %s", i+1, at.Format("Mon 2006-01-02 15:04 UTC")))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.ID, m.Home, away, m.Status, res, m.Decision, note)
	}
	return tw.Flush()
}
