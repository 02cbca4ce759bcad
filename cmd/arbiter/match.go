package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"arbiter"
	"arbiter/score"
)

func init() {
	register(&command{name: "match", summary: "score a match sheet against a format", run: runMatch})
}

const matchUsage = `Usage: arbiter match SUBCOMMAND [flags] [args]

Subcommands:
  score PRESET|FILE --stage NAME SHEET   score a match sheet (SHEET is a file or - for stdin) [--json] [--entrants N]

Run 'arbiter match score --help' for details; docs/match-sheet.md describes the sheet.
`

func runMatch(_ context.Context, e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, matchUsage)
		return usagef("missing subcommand")
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(e.stdout, matchUsage)
		return nil
	case "score":
		return runMatchScore(e, args[1:])
	}
	fmt.Fprint(e.stderr, matchUsage)
	return usagef("unknown subcommand %q", args[0])
}

func runMatchScore(e *env, args []string) error {
	fs := newFlagSet(e, "match score", "match score PRESET|FILE --stage NAME SHEET [--json] [--entrants N]")
	stage := fs.String("stage", "", "the stage the match belongs to (see 'arbiter format explain')")
	entrants := fs.Int("entrants", 0, "number of entrants of the event, when the team size depends on it")
	asJSON := fs.Bool("json", false, "print the scored match as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmtFlagError(err)
	}
	if len(pos) != 2 {
		fs.Usage()
		return usagef("want two arguments: a preset or format file, and a match sheet (or - for stdin)")
	}
	if *stage == "" {
		fs.Usage()
		return usagef("--stage NAME is required")
	}
	if *entrants < 0 {
		return usagef("--entrants N must be >= 0 (0: unknown), got %d", *entrants)
	}
	f, err := openFormat(pos[0])
	if err != nil {
		return err
	}
	var in io.Reader = e.stdin
	if pos[1] != "-" {
		if st, err := os.Stat(pos[1]); err == nil && st.IsDir() {
			return arbiter.FieldError("SHEET", "sheet.file", "%q is a directory, not a match sheet", pos[1])
		}
		fh, err := os.Open(pos[1])
		if err != nil {
			return arbiter.FieldError("SHEET", "sheet.file", "cannot read match sheet %q: %v", pos[1], errors.Unwrap(err))
		}
		defer fh.Close()
		in = fh
	}
	sh, err := score.LoadSheet(in)
	if err != nil {
		return err
	}
	ms, err := score.Score(f, *stage, sh, score.Options{Entrants: *entrants})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ms)
	}
	matchWriteScore(e.stdout, ms)
	return nil
}

func matchPartLine(p score.PartScore) string {
	s := fmt.Sprintf("%-6s %s-%s", p.TC, p.Home, p.Away)
	if p.Forfeit != "" {
		s += " (forfeit: " + p.Forfeit + ")"
	} else {
		s += fmt.Sprintf(" (games %s-%s", p.HomeGames, p.AwayGames)
		if p.Games < p.Of {
			s += fmt.Sprintf(", %d of %d played", p.Games, p.Of)
		}
		s += ")"
	}
	return s
}

func matchPlayers(h, a string) string {
	if h == "" && a == "" {
		return ""
	}
	return fmt.Sprintf(" [%s v %s]", h, a)
}

func matchWriteScore(w io.Writer, ms *score.MatchScore) {
	title := ms.Stage
	if ms.Match != "" {
		title += ", " + strings.ReplaceAll(ms.Match, "_", "-") + " match"
	}
	fmt.Fprintf(w, "%s v %s (%s, %s)\n", ms.Home, ms.Away, ms.Format, title)
	if ms.Forfeit != "" {
		fmt.Fprintf(w, "Match forfeit: %s\n", ms.Forfeit)
	}
	for _, p := range ms.Parts {
		fmt.Fprintf(w, "  Part %s\n", matchPartLine(p))
	}
	for _, p := range ms.Sets {
		fmt.Fprintf(w, "  Set %s%s\n", matchPartLine(p), matchPlayers(p.HomePlayer, p.AwayPlayer))
	}
	for _, b := range ms.Boards {
		fmt.Fprintf(w, "  Board %d%s: %s-%s\n", b.Board, matchPlayers(b.HomePlayer, b.AwayPlayer), b.Home, b.Away)
		for _, p := range b.Parts {
			fmt.Fprintf(w, "    %s\n", matchPartLine(p))
		}
	}
	if ms.ThresholdUnit == "sets" {
		fmt.Fprintf(w, "Sets: %d-%d; set points %s-%s (max %s)\n", ms.HomeSets, ms.AwaySets, ms.HomePoints, ms.AwayPoints, ms.MaxPoints)
	} else {
		fmt.Fprintf(w, "Total: %s-%s (max %s, %s decides)\n", ms.HomePoints, ms.AwayPoints, ms.MaxPoints, ms.WinThreshold)
	}
	if t := ms.Tie; t != nil {
		if t.AdvantagePoint != "" {
			fmt.Fprintf(w, "Tie: advantage point to %s (captains met on board %d)\n", t.AdvantagePoint, t.CaptainsBoard)
		}
		if t.Games != nil {
			fmt.Fprintf(w, "Tie: %d of %d games of %s: %s-%s\n", t.Games.Played, t.Games.Of, t.Games.TC, t.Games.Home, t.Games.Away)
		}
		if a := t.Armageddon; a != nil {
			fmt.Fprintf(w, "Tie: armageddon, bids %d s (home) / %d s (away), %s had White, result %s -> %s wins\n", a.HomeBid, a.AwayBid, a.White, a.Result, a.Winner)
		}
	}
	switch ms.Result {
	case score.HomeWin, score.AwayWin:
		fmt.Fprintf(w, "Winner: %s (by %s)\n", ms.Winner, strings.ReplaceAll(ms.DecidedBy, "_", " "))
	case score.Draw:
		fmt.Fprintln(w, "Result: draw")
	case score.DoubleLoss:
		fmt.Fprintln(w, "Result: double forfeit, a loss for both")
	case score.TieUnresolved:
		fmt.Fprintln(w, "Result: tied; the TDs decide")
	}
	switch {
	case ms.DecidedEarly && ms.GamesAfterDecision > 0:
		fmt.Fprintf(w, "Decided early: yes, at %s; %d games played after it, all counted\n", ms.DecidedAt, ms.GamesAfterDecision)
	case ms.DecidedEarly:
		fmt.Fprintf(w, "Decided early: yes, at %s; the match ended there\n", ms.DecidedAt)
	default:
		fmt.Fprintln(w, "Decided early: no")
	}
	for _, n := range ms.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	st := ms.Standings
	fmt.Fprintf(w, "Standings (%s): %s match points %s, secondary %s", st.Decision, st.A.ID, st.A.MatchPoints, st.A.Secondary)
	if ms.ThresholdUnit == "sets" {
		fmt.Fprintf(w, ", sets won %d", st.A.SetsWon)
	}
	fmt.Fprintf(w, "; %s match points %s, secondary %s", st.B.ID, st.B.MatchPoints, st.B.Secondary)
	if ms.ThresholdUnit == "sets" {
		fmt.Fprintf(w, ", sets won %d", st.B.SetsWon)
	}
	fmt.Fprintln(w)
}
