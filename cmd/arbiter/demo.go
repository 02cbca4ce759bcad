package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
	"arbiter/demo"
	"arbiter/format"
	"arbiter/sqlstore"
)

func init() {
	register(&command{name: "demo", summary: "simulate a complete event of a preset with random legal play (deterministic by --seed)", run: runDemo})
}

const demoSynopsis = "demo PRESET --entrants N [--seed S] [--db DSN] [--stop-after ROUND|STAGE] [--json]"

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "demo", demoSynopsis)
	entrants := fs.Int("entrants", 0, "number of players or teams (required)")
	seed := fs.Int64("seed", 1, "random seed: the same seed gives the same event")
	dsn := fs.String("db", "", "database: a SQLite file path or a postgres:// URL (default: a new temporary SQLite file)")
	stop := fs.String("stop-after", "", "stop once this round (s1r3 = stage 1, round 3) or stage (by name) is closed")
	slug := fs.String("slug", "", "event slug (default demo-PRESET-SEED)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err != nil {
		return usagef("%v", err) // a bad flag is a usage error (exit 2)
	}
	if len(pos) != 1 {
		return usagef("want one preset (%s), got %d arguments", strings.Join(format.Presets(), ", "), len(pos))
	}
	if *entrants <= 0 {
		return usagef("--entrants N is required (a positive number)")
	}
	path := *dsn
	if path == "" {
		dir, err := os.MkdirTemp("", "arbiter-demo-")
		if err != nil {
			return arbiter.Errorf(arbiter.EINTERNAL, "temporary directory: %v", err)
		}
		path = filepath.Join(dir, "arbiter.db")
	}
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := app.New(db, nil)
	bar := &progressBar{w: e.stderr}
	sum, err := demo.Run(ctx, svc, demo.Options{Preset: pos[0], Entrants: *entrants, Seed: *seed, StopAfter: *stop,
		Slug: *slug, Progress: bar.update})
	bar.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e.stdout, map[string]any{"db": db.String(), "summary": sum})
	}
	inspect := path
	if strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://") {
		inspect = "DSN"
	}
	return writeDemo(e.stdout, db.String(), inspect, sum)
}

// progressBar draws "[#####.....] 12/40 matches" on one terminal line.
type progressBar struct {
	w    io.Writer
	last string
}

func (p *progressBar) update(done, total int) {
	const width = 30
	n := 0
	if total > 0 {
		n = done * width / total
	}
	s := fmt.Sprintf("[%s%s] %d/%d matches", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
	if s != p.last {
		fmt.Fprint(p.w, "\r"+s)
		p.last = s
	}
}

func (p *progressBar) finish() {
	if p.last != "" {
		fmt.Fprintln(p.w)
	}
}

// writeDemo prints the summary: db names the database (no password),
// dsn is what to pass to --db to inspect it.
func writeDemo(w io.Writer, db, dsn string, s demo.Summary) error {
	fmt.Fprintf(w, "Event %s (%s, %d entrants): %s", s.Slug, s.Preset, s.Entrants, s.Status)
	if s.Stopped != "" {
		fmt.Fprintf(w, ", stopped after %s", s.Stopped)
	}
	fmt.Fprintln(w)
	for _, st := range s.Stages {
		fmt.Fprintf(w, "\nStage %s (%s): %d of %d rounds closed\n", st.Name, st.Kind, st.Played, st.Rounds)
		for _, pt := range st.Tables {
			if pt.Pool != "" {
				fmt.Fprintf(w, "Pool %s\n", pt.Pool)
			}
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			head := []string{"#", "entrant", "pts"}
			for _, tb := range pt.Table.Tiebreaks {
				head = append(head, tb.String())
			}
			fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
			for _, r := range pt.Table.Rows {
				rank := fmt.Sprint(r.Rank)
				if r.Shared {
					rank += "="
				}
				cells := []string{rank, r.Name, r.Score.String()}
				for _, v := range r.Values {
					cells = append(cells, v.String())
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	if len(s.Bracket) > 0 {
		fmt.Fprintln(w, "\nBracket")
		for _, m := range s.Bracket {
			fmt.Fprintf(w, "  %s %-5s %s v %s: %s\n", m.ID, m.Bracket, m.Home, m.Away, matchText(m))
		}
	}
	if s.Final != nil && s.Final.Result != nil {
		winner := s.Final.Home
		if s.Final.Result.Result == "away_win" {
			winner = s.Final.Away
		}
		fmt.Fprintf(w, "\nWinner: %s\n", winner)
	}
	c := s.Counts
	fmt.Fprintf(w, "\nMatches %d (byes %d, not played over the board %d), times agreed by offers %d, lineups %d, unplayed at a deadline %d (double forfeits %d, held for the TDs %d), disputes %d, appeals %d, sanctions %d, armageddons %d, tie orders %d\n",
		c.Matches, c.Byes, c.Forfeits, c.Negotiations, c.Lineups, c.Unplayed, c.DoubleForfeits, c.Held, c.Disputes, c.Appeals, c.Sanctions, c.Armageddons, c.TieOrders)
	for _, n := range s.Notes {
		fmt.Fprintf(w, "Not simulated: %s\n", n)
	}
	fmt.Fprintf(w, "\nDatabase: %s\nInspect it: arbiter event standings %s --db %s\n            arbiter serve --db %s\n", db, s.Slug, dsn, dsn)
	return nil
}

func matchText(m arbiter.Match) string {
	o := m.Result
	if o == nil {
		return m.Status
	}
	s := fmt.Sprintf("%s-%s %s", o.Home.Points, o.Away.Points, o.Result)
	if o.DecidedBy != "" {
		s += " (" + o.DecidedBy + ")"
	}
	if m.Format != "" {
		s += " [" + m.Format + "]"
	}
	return s
}
