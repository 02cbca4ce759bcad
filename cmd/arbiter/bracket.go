package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/pairing/knockout"
)

func init() {
	register(&command{name: "bracket", summary: "print a seeded knockout bracket (byes to the top seeds)", run: runBracket})
}

type bracketWinner struct {
	match string
	seed  int
}

func runBracket(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "bracket", "bracket N [--third-place] [--winner MATCH=SEED ...] [--json]")
	third := fs.Bool("third-place", false, "add a match between the semifinal losers")
	asJSON := fs.Bool("json", false, "print JSON")
	var winners []bracketWinner
	fs.Func("winner", "record a result, e.g. --winner R1-M2=5 (repeatable, applied in order)", func(v string) error {
		id, s, ok := strings.Cut(v, "=")
		seed, err := strconv.Atoi(s)
		if !ok || err != nil || id == "" {
			return fmt.Errorf("want MATCH=SEED, got %q", v)
		}
		winners = append(winners, bracketWinner{id, seed})
		return nil
	})
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("want exactly one argument, the number of entrants")
	}
	n, err := strconv.Atoi(pos[0])
	if err != nil {
		return usagef("the number of entrants must be an integer, got %q", pos[0])
	}
	b, err := knockout.New(n, knockout.Options{ThirdPlace: *third})
	if err != nil {
		return err
	}
	for _, w := range winners {
		if err := b.SetWinner(w.match, w.seed); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(b)
	}
	yes := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(e.stdout, "Knockout: %s, %d-line bracket, %s, third place: %s\n", arbiter.Count(b.Entrants, "entrant"), b.Slots, arbiter.Count(b.Slots-b.Entrants, "bye"), yes[*third])
	for _, r := range b.Rounds {
		fmt.Fprintf(e.stdout, "\n%s (round %d)\n", r.Name, r.Number)
		for _, m := range r.Matches {
			label := m.ID
			if m.ThirdPlace {
				label += " (third place)"
			}
			line := fmt.Sprintf("  %-20s %s v %s", label, sideText(m.Home, m.HomeSeed), sideText(m.Away, m.AwaySeed))
			switch {
			case m.Winner != 0 && m.Walkover:
				line += fmt.Sprintf("  -> %d advances without play", m.Winner)
			case m.Winner != 0:
				line += fmt.Sprintf("  -> winner %d", m.Winner)
			}
			fmt.Fprintln(e.stdout, line)
		}
	}
	if c := b.Champion(); c != 0 {
		fmt.Fprintf(e.stdout, "\nChampion: %d\n", c)
	}
	return nil
}

// sideText is the seed when known, else where it comes from.
func sideText(s knockout.Source, seed int) string {
	switch {
	case seed != 0:
		return strconv.Itoa(seed)
	case s.Kind == knockout.FromBye:
		return "bye"
	default:
		return "(" + s.String() + ")"
	}
}
