package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
	"arbiter/odds"
)

var oddsSub = &eventSub{name: "odds", synopsis: "odds SLUG [--sims N] [--seed S] [--fix MATCH=RESULT ...] [--json]",
	summary: "each entrant's chances to qualify and win, simulated with the event's engines and rules",
	min:     1, max: 1, new: withFlags[oddsCmd]}

// oddsCmd holds the flags of "event odds".
type oddsCmd struct {
	sims  int
	seed  string
	fixes []string
}

func (cmd *oddsCmd) flags(fs *flag.FlagSet) {
	fs.IntVar(&cmd.sims, "sims", 0, "simulated runs (default: as many as a few seconds allow, at most 2000)")
	fs.StringVar(&cmd.seed, "seed", "", "random seed: the same seed gives the same answer (default 1)")
	fs.Func("fix", "a result fixed by hand, repeatable: MATCH=home|away|draw|WINNER (s1r5b3=home) or HOME:AWAY=RESULT whenever they meet (alice:bob=draw)",
		func(v string) error {
			cmd.fixes = append(cmd.fixes, v)
			return nil
		})
}

// oddsEntry is one line of `event odds --json`: an entrant's chances.
type oddsEntry struct {
	Entrant string `json:"entrant"`
	Name    string `json:"name"`
	// Qualify is the chance of the first band (Band).
	Qualify float64 `json:"qualify"`
	Band    string  `json:"band"`
	// Bands are the chances by band ID; Exact names the bands the exact
	// check decided (clinched or eliminated).
	Bands         map[string]float64 `json:"bands"`
	Exact         map[string]string  `json:"exact,omitempty"`
	ExpectedPlace float64            `json:"expected_place"`
	Next          *odds.Next         `json:"next,omitempty"`
	Sims          int                `json:"sims"`
	Seed          uint64             `json:"seed"`
}

// oddsGCPercent is the collector's target for the simulation at the
// command line (unless GOGC says otherwise): its live data is small and
// it allocates fast (mostly the Dutch engine's scratch), so the default
// target of 100% collects every few pairings and takes a quarter of the
// CPU; at 400% the heap stays in tens of megabytes.
const oddsGCPercent = 400

func (cmd *oddsCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(oddsGCPercent))
	}
	req := app.OddsRequest{Sims: cmd.sims, Unbounded: true}
	if req.Sims < 0 {
		return arbiter.FieldError("--sims", "odds.sims", "a number of runs >= 1, got %d", req.Sims)
	}
	if v := cmd.seed; v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil || seed == 0 {
			return arbiter.FieldError("--seed", "odds.seed", "a whole number >= 1, got %q", v)
		}
		req.Seed = seed
	}
	for _, v := range cmd.fixes {
		if v == "" {
			continue
		}
		f, err := odds.ParseFixed(v)
		if err != nil {
			return err
		}
		req.Fixed = append(req.Fixed, f)
	}
	o, err := c.svc.Odds(ctx, pos[0], req)
	if err != nil {
		return err
	}
	if c.json {
		out := make([]oddsEntry, 0, len(o.Entrants))
		for _, en := range o.Entrants {
			x := oddsEntry{Entrant: en.Entrant, Name: en.Name, Qualify: en.Qualify, Bands: map[string]float64{},
				ExpectedPlace: en.ExpectedPlace, Next: en.Next, Sims: o.Sims, Seed: o.Seed}
			for k, b := range o.Bands {
				x.Bands[b.ID] = en.Bands[k].P
				if ex := en.Bands[k].Exact; ex != "" {
					if x.Exact == nil {
						x.Exact = map[string]string{}
					}
					x.Exact[b.ID] = ex
				}
			}
			if len(o.Bands) > 0 {
				x.Band = o.Bands[0].ID
			}
			out = append(out, x)
		}
		return printJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "Simulation of the rest of %s from stage %s: %d runs, seed %d (same seed, same figures).\n", o.Event, o.Stage, o.Sims, o.Seed)
	for _, f := range o.Fixed {
		if f.Match != "" {
			fmt.Fprintf(e.stdout, "Fixed by hand: %s = %s\n", f.Match, f.Result)
		} else {
			fmt.Fprintf(e.stdout, "Fixed by hand: %s v %s = %s\n", f.Home, f.Away, f.Result)
		}
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "ENTRANT\tRATING")
	for _, b := range o.Bands {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(b.Name))
	}
	fmt.Fprintln(tw, "\tEXP. PLACE\tNEXT MATCH: IF WIN / DRAW / LOSS")
	for _, en := range o.Entrants {
		fmt.Fprintf(tw, "%s\t%d", en.Entrant, en.Rating)
		for _, ch := range en.Bands {
			fmt.Fprintf(tw, "\t%s", odds.Percent(ch))
		}
		fmt.Fprintf(tw, "\t%.1f\t%s\n", en.ExpectedPlace, nextText(en.Next))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "100% and 0% are certain (an exact check on match points); other figures are simulated frequencies. See docs/odds.md.")
	return nil
}

// nextText is "v bob: 91% / 70% / 30%" (the first band's chance after
// each result of the next match).
func nextText(n *odds.Next) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	switch {
	case n.Opponent != "" && n.Predicted:
		fmt.Fprintf(&b, "v %s (if paired as now): ", n.Opponent)
	case n.Opponent != "":
		fmt.Fprintf(&b, "v %s: ", n.Opponent)
	default:
		b.WriteString("next match: ")
	}
	var parts []string
	for _, r := range n.If {
		c := odds.Chance{P: r.Qualify}
		if len(r.Bands) > 0 {
			c = r.Bands[0]
		}
		parts = append(parts, r.Result+" "+odds.Verdict(c))
	}
	b.WriteString(strings.Join(parts, " / "))
	return b.String()
}
