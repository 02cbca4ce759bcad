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

var teamRulesSub = &eventSub{name: "team-rules", synopsis: "team-rules SLUG TEAM [--titles USER:AGM,USER:ASGM,USER:none] [--lichess-url URL] [--json]",
	summary: "check a team against A11's team rules on Lichess (at most two AGM or higher, the board-4 cap); record titles (TD)", min: 2, max: 2, new: withFlags[teamRulesCmd]}

// teamRulesCmd holds the flags of "event team-rules".
type teamRulesCmd struct{ titles, lichessURL string }

func (cmd *teamRulesCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.titles, "titles", "", "the players' antichess titles the TDs record: USER:AGM, USER:ASGM or USER:none, comma-separated")
	fs.StringVar(&cmd.lichessURL, "lichess-url", "https://lichess.org", "Lichess's address ($LICHESS_TOKEN: optional API token)")
}

func (cmd *teamRulesCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	lc, err := lichessClient(cmd.lichessURL, os.Getenv("LICHESS_TOKEN"))
	if err != nil {
		return err
	}
	c.svc.SetAccountSource(lc)
	titles := map[string]string{}
	for _, f := range strings.Split(cmd.titles, ",") {
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
