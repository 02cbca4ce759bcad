package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"arbiter"
	"arbiter/app"
)

func init() {
	eventSubs["team-rules"] = &eventSub{synopsis: "team-rules SLUG TEAM [--titles USER:AGM,USER:ASGM,USER:none] [--lichess-url URL] [--json]",
		summary: "check a team against A11's team rules on Lichess (at most two AGM or higher, the board-4 cap); record titles (TD)", min: 2, max: 2, run: evTeamRules,
		flags: func(fs *flag.FlagSet, c *eventCtx) {
			c.str["titles"] = fs.String("titles", "", "the players' antichess titles the TDs record: USER:AGM, USER:ASGM or USER:none, comma-separated")
			c.str["lichess-url"] = fs.String("lichess-url", "https://lichess.org", "Lichess's address ($LICHESS_TOKEN: optional API token)")
		}}
}

func evTeamRules(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	lc, err := lichessClient(c.s("lichess-url"), os.Getenv("LICHESS_TOKEN"))
	if err != nil {
		return err
	}
	c.svc.SetAccountSource(lc)
	titles := map[string]string{}
	for _, f := range strings.Split(c.s("titles"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		u, t, ok := strings.Cut(f, ":")
		if !ok {
			return arbiter.FieldError("--titles", "cli.titles", "write each title as USER:AGM, USER:ASGM or USER:none, got %q", f)
		}
		titles[strings.TrimSpace(u)] = strings.TrimSpace(t)
	}
	tc, err := c.svc.CheckTeamRules(ctx, c.actor, pos[0], pos[1], app.TeamRulesRequest{Titles: titles})
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, tc)
	}
	fmt.Fprintf(e.stdout, "%s: A11 team rules %s\n", tc.Entrant, tc.Status)
	for _, ch := range tc.Checks {
		fmt.Fprintf(e.stdout, "  %-8s %s: %s (%s)\n", ch.Status, ch.Rule, ch.Detail, ch.Text)
	}
	return nil
}
