package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"arbiter"
)

var ratingsSub = &eventSub{name: "ratings", synopsis: "ratings SLUG [--refresh] [--lichess-url URL] [--json]",
	summary: "show each entrant's rating from Lichess with its date, a team's rule and Lichess team check; --refresh fetches them all again now (TD)",
	min:     1, max: 1, new: withFlags[ratingsCmd]}

// ratingsCmd holds the flags of "event ratings".
type ratingsCmd struct {
	refresh    bool
	lichessURL string
}

func (cmd *ratingsCmd) flags(fs *flag.FlagSet) {
	fs.BoolVar(&cmd.refresh, "refresh", false, "fetch every entrant's rating from Lichess now (one request per 300 players)")
	fs.StringVar(&cmd.lichessURL, "lichess-url", "https://lichess.org", "Lichess's address ($LICHESS_TOKEN: optional API token)")
}

func (cmd *ratingsCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug := pos[0]
	if cmd.refresh {
		lc, err := lichessClient(cmd.lichessURL, os.Getenv("LICHESS_TOKEN"))
		if err != nil {
			return err
		}
		c.svc.SetAccountSource(lc)
		if _, err := c.svc.RefreshRatings(ctx, c.actor, slug); err != nil {
			return err
		}
	}
	rs, err := c.svc.Ratings(ctx, arbiter.NamedUser(c.actor.Name), slug)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, rs)
	}
	es, err := c.svc.Entrants(ctx, slug)
	if err != nil {
		return err
	}
	if rs.Perf == "" {
		fmt.Fprintln(e.stdout, "Ratings are typed at registration (the format names no Lichess rating).")
	} else {
		fmt.Fprintf(e.stdout, "Ratings: Lichess %s.\n", rs.Perf)
	}
	if rs.Refresh != nil {
		fmt.Fprintln(e.stdout, rs.Refresh.Summary()+".")
	}
	for _, en := range es {
		r, ok := rs.ByID[en.ID]
		if !ok {
			from := "typed"
			if rs.Perf != "" {
				from = "not fetched from Lichess yet"
			}
			fmt.Fprintf(e.stdout, "%-20s %5d  %s\n", en.ID, en.Rating, from)
			continue
		}
		fmt.Fprintf(e.stdout, "%-20s %5d  Lichess %s, %s\n", en.ID, en.Rating, r.Perf, r.At.Format("2006-01-02 15:04 UTC"))
		if r.Rule != "" {
			fmt.Fprintf(e.stdout, "  team rating: %s\n", r.Rule)
		}
		var players []string
		for _, p := range r.Players {
			s := fmt.Sprintf("%s %d", p.Username, p.Rating)
			switch {
			case p.Missing != "":
				s += " (" + p.Missing + ")"
			case !p.Listed:
				s += " (no rated game: Lichess's starting rating)"
			case p.Provisional:
				s += "?"
			}
			players = append(players, s)
		}
		if en.Kind == arbiter.EntrantTeam {
			fmt.Fprintf(e.stdout, "  players: %s\n", strings.Join(players, ", "))
		} else if len(players) == 1 && players[0] != fmt.Sprintf("%s %d", en.ID, en.Rating) {
			fmt.Fprintf(e.stdout, "  %s\n", players[0])
		}
		if r.Team != "" {
			var out []string
			for _, m := range r.Members {
				if m.Status != "pass" {
					out = append(out, m.Username+": "+m.Detail)
				}
			}
			line := fmt.Sprintf("  Lichess team %s: %s", r.Team, r.TeamStatus)
			if len(out) > 0 {
				line += " (" + strings.Join(out, "; ") + ")"
			}
			fmt.Fprintln(e.stdout, line)
		}
	}
	return nil
}
