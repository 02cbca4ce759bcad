package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"arbiter"
	"arbiter/format"
)

func init() {
	register(&command{name: "format", summary: "list, show and explain competition formats (presets or files)", run: runFormat})
}

const formatUsage = `Usage: arbiter format SUBCOMMAND [flags] [args]

Subcommands:
  list                                  list the built-in presets
  show PRESET|FILE                      print the format file (canonical JSON; loads back unchanged)
  explain PRESET|FILE --entrants N      what the event is for N entrants [--json]

Run 'arbiter format SUBCOMMAND --help' for details.
`

func runFormat(_ context.Context, e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, formatUsage)
		return usagef("missing subcommand")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(e.stdout, formatUsage)
		return nil
	case "list":
		return runFormatList(e, args[1:])
	case "show":
		return runFormatShow(e, args[1:])
	case "explain":
		return runFormatExplain(e, args[1:])
	}
	fmt.Fprint(e.stderr, formatUsage)
	return usagef("unknown subcommand %q", args[0])
}

// cliFlagError keeps --help (exit 0) and turns other flag errors into usage errors (exit 2).
func fmtFlagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &exitError{code: 2}
}

// openFormat resolves a preset name or a format file path. A name that
// is neither gets an error saying which of the two it looked like.
func openFormat(nameOrPath string) (*format.Format, error) {
	if slices.Contains(format.Presets(), nameOrPath) {
		return format.Preset(nameOrPath)
	}
	presets := strings.Join(format.Presets(), ", ")
	st, err := os.Stat(nameOrPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(nameOrPath, `/\.`):
		return nil, arbiter.FieldError("FORMAT", "format.preset", "no preset %q (presets: %s) and no such file", nameOrPath, presets)
	case errors.Is(err, fs.ErrNotExist):
		return nil, arbiter.FieldError("FORMAT", "format.file", "no format file %q (or give a preset: %s)", nameOrPath, presets)
	case err != nil:
		return nil, arbiter.FieldError("FORMAT", "format.file", "cannot read %q: %v", nameOrPath, errors.Unwrap(err))
	case st.IsDir():
		return nil, arbiter.FieldError("FORMAT", "format.file", "%q is a directory, not a format file", nameOrPath)
	}
	fh, err := os.Open(nameOrPath)
	if err != nil {
		return nil, arbiter.FieldError("FORMAT", "format.file", "cannot read %q: %v", nameOrPath, errors.Unwrap(err))
	}
	defer fh.Close()
	return format.Load(fh)
}

func runFormatList(e *env, args []string) error {
	fs := newFlagSet(e, "format list", "format list")
	if err := fs.Parse(args); err != nil {
		return fmtFlagError(err)
	}
	if fs.NArg() != 0 {
		return usagef("format list takes no arguments")
	}
	for _, name := range format.Presets() {
		f, err := format.Preset(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%-22s %s\n", name, f.Title)
	}
	return nil
}

func runFormatShow(e *env, args []string) error {
	fs := newFlagSet(e, "format show", "format show PRESET|FILE")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmtFlagError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("want exactly one argument, a preset name or a format file")
	}
	f, err := openFormat(pos[0])
	if err != nil {
		return err
	}
	return format.Write(e.stdout, f)
}

func runFormatExplain(e *env, args []string) error {
	fs := newFlagSet(e, "format explain", "format explain PRESET|FILE --entrants N [--json]")
	n := fs.Int("entrants", -1, "number of entrants (players or teams)")
	asJSON := fs.Bool("json", false, "print the explanation as a JSON object")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmtFlagError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("want exactly one argument, a preset name or a format file")
	}
	if *n < 0 {
		return usagef("--entrants N is required (N >= 0)")
	}
	f, err := openFormat(pos[0])
	if err != nil {
		return err
	}
	x, err := f.Explain(*n)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(x)
	}
	fmtWriteExplanation(e.stdout, f, x)
	return nil
}

func fmtOrText(p *int, none string) string {
	if p == nil {
		return none
	}
	return fmt.Sprint(*p)
}

func fmtWriteExplanation(w io.Writer, f *format.Format, x format.Explanation) {
	fmt.Fprintf(w, "%s (%s): %d entrants\n", f.Title, f.Name, x.Entrants)
	if x.Runs {
		fmt.Fprintln(w, "Runs: yes")
	} else {
		fmt.Fprintf(w, "Runs: no: %s\n", x.Reason)
	}
	if f.Team != nil {
		fmt.Fprintf(w, "Team size: %s players per match", fmtOrText(x.TeamSize, "decided by the TDs"))
		if x.Substitutes != nil {
			fmt.Fprintf(w, " (+%d substitute)", *x.Substitutes)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Duration: %s\n", fmtOrText(x.Weeks, "not set by the rulebook")+map[bool]string{true: " weeks", false: ""}[x.Weeks != nil])
	fmtWriteCalendar(w, x.Calendar, x.Armageddon)
	for i, s := range x.Stages {
		fmt.Fprintf(w, "\nStage %d: %s (%s, %s pairing)\n", i+1, s.Name, strings.ReplaceAll(s.Kind, "_", " "), s.Pairing)
		if s.BreakWeeksBefore > 0 {
			fmt.Fprintf(w, "  Starts after a break of %s\n", arbiter.Count(s.BreakWeeksBefore, "week"))
		}
		fmt.Fprintf(w, "  Entrants: %s; rounds: %s", fmtOrText(s.Entrants, "set by the TDs"), fmtOrText(s.Rounds, "set by the TDs"))
		if s.Cycles == 2 {
			fmt.Fprint(w, " (double round robin)")
		}
		if s.Advance != nil {
			fmt.Fprintf(w, "; top %d advance", *s.Advance)
		} else if i < len(x.Stages)-1 {
			fmt.Fprint(w, "; advance set by the TDs")
		}
		fmt.Fprintln(w)
		for _, p := range s.Pools {
			fmt.Fprintf(w, "  Pool %s: places %s; top %d advance\n", p.Name, fmtJoinInts(p.Places), p.Advance)
		}
		if s.Seeding != "" {
			seed := map[string]string{"standings": "by the previous stage's standings (1 v N, 2 v N-1, ...)", "cross_pool": "cross-pool: each pool winner v the other pool's runner-up"}[s.Seeding]
			fmt.Fprintf(w, "  Seeding: %s\n", seed)
		}
		if s.ThirdPlace {
			fmt.Fprintln(w, "  Third-place match: yes")
		}
		if len(s.Tiebreaks) > 0 {
			fmt.Fprintf(w, "  Tiebreaks: %s\n", strings.Join(s.Tiebreaks, ", "))
		}
		label := "Match"
		if s.Final != nil {
			label = "Matches before the final"
		}
		fmtWriteMatch(w, label, s.Match)
		if s.Final != nil {
			fmtWriteMatch(w, "Final", *s.Final)
		}
		if s.ThirdMatch != nil {
			fmtWriteMatch(w, "Third-place match", *s.ThirdMatch)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  Note: %s\n", n)
		}
	}
	if len(x.Notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for _, n := range x.Notes {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
}

func fmtJoinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func fmtWriteMatch(w io.Writer, label string, m format.MatchExplanation) {
	kind := map[string]string{format.MatchIndividual: "individual", format.TeamBoards: fmt.Sprintf("%d boards, team score = sum of the boards", m.Boards), format.TeamSets: "sets, each played by its own players"}[m.Kind]
	fmt.Fprintf(w, "  %s: %s\n", label, kind)
	for _, p := range m.Parts {
		if p.Factor != nil {
			fmt.Fprintf(w, "    %-6s %2d games, game score x %s = %s\n", p.TC, p.Games, *p.Factor, p.MaxPoints)
		} else {
			fmt.Fprintf(w, "    %-6s %2d games, win %s / draw %s = %s\n", p.TC, p.Games, p.Win, p.Draw, p.MaxPoints)
		}
	}
	if m.ThresholdUnit == format.UnitSets {
		fmt.Fprintf(w, "    Max %s set points; decided by sets won (%s of %d), set points break a tie\n", m.MaxPoints, m.WinThreshold, len(m.Parts))
	} else {
		fmt.Fprintf(w, "    Max %s points; %s decides\n", m.MaxPoints, m.WinThreshold)
	}
	if m.PlayAllGames {
		fmt.Fprintln(w, "    All games are played, even once decided")
	} else {
		fmt.Fprintln(w, "    The match ends as soon as it is decided")
	}
	fmt.Fprintf(w, "    Match points: win %s, draw %s, loss %s\n", m.MatchPoints.Win, m.MatchPoints.Draw, m.MatchPoints.Loss)
	if len(m.Tie) > 0 {
		var steps []string
		for _, t := range m.Tie {
			switch t.Kind {
			case format.TieCaptainsAdvantage:
				steps = append(steps, "advantage point to the winning captain if the captains met")
			case format.TieGames:
				who := ""
				if t.Players == "captains" {
					who = " between the captains"
				}
				steps = append(steps, fmt.Sprintf("%d games of %s%s", t.Games, t.TC, who))
			case format.TieArmageddon:
				steps = append(steps, "armageddon")
			}
		}
		fmt.Fprintf(w, "    Tie: %s\n", strings.Join(steps, " -> "))
	}
}

func fmtWeekTime(t *format.WeekTime) string {
	return fmt.Sprintf("%s %s UTC", strings.ToUpper(t.Day[:1])+t.Day[1:], t.Time)
}

func fmtWriteCalendar(w io.Writer, c format.Calendar, a *format.Armageddon) {
	parts := []string{arbiter.Count(c.RoundsPerWeek, "round") + " per week"}
	if c.RoundStart != nil {
		parts = append(parts, "rounds open "+fmtWeekTime(c.RoundStart))
	}
	if c.PairingsBy != nil {
		parts = append(parts, "pairings by "+fmtWeekTime(c.PairingsBy))
	}
	parts = append(parts, "deadline "+fmtWeekTime(&c.Deadline))
	switch {
	case c.AppealHours > 0:
		parts = append(parts, fmt.Sprintf("appeals within %d h", c.AppealHours))
	case c.AppealMode() == format.AppealsTDDiscretion:
		parts = append(parts, "appeals to the TDs until the next round is published")
	}
	fmt.Fprintf(w, "Calendar: %s\n", strings.Join(parts, "; "))
	if n := c.Negotiation; n != nil {
		parts = []string{fmt.Sprintf("at least %d offers, %d h apart", n.MinOffers, n.MinGapHours)}
		if n.NotAllWithinHours > 0 {
			parts = append(parts, fmt.Sprintf("not all within %d h", n.NotAllWithinHours))
		}
		if n.MaxPerDate > 0 {
			parts = append(parts, fmt.Sprintf("at most %d on one date", n.MaxPerDate))
		}
		if n.OfferDeadline.Weekly != nil {
			parts = append(parts, "due by "+fmtWeekTime(n.OfferDeadline.Weekly))
		} else {
			parts = append(parts, fmt.Sprintf("due within %d h of the previous round's end", n.OfferDeadline.HoursAfterPreviousRound))
		}
		if n.ReplyHours > 0 {
			parts = append(parts, fmt.Sprintf("reply within %d h", n.ReplyHours))
		}
		if n.RetryOffers > 0 {
			parts = append(parts, fmt.Sprintf("%d more each if none suits", n.RetryOffers))
		}
		parts = append(parts, "no agreement and nobody at fault: "+strings.ReplaceAll(n.NoFaultResult, "_", " "))
		fmt.Fprintf(w, "Negotiation: %s\n", strings.Join(parts, "; "))
	}
	if a != nil {
		draw := ""
		if a.BlackDrawOdds {
			draw = " and draw odds"
		}
		fmt.Fprintf(w, "Armageddon: Black %s%s; the lowest bid for White's time plays White; equal bids: %s\n", a.Black, draw, strings.ReplaceAll(a.EqualBids, "_", " "))
	}
}
