package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"arbiter"
	"arbiter/pairing/berger"
)

func init() {
	register(&command{name: "roundrobin", summary: "print a round-robin schedule from the FIDE Berger tables", run: runRoundRobin})
}

// roundRobinJSON is the --json output of roundrobin.
type roundRobinJSON struct {
	Entrants int            `json:"entrants"`
	Cycles   int            `json:"cycles"`
	Swapped  bool           `json:"last_two_rounds_swapped"`
	Rounds   []berger.Round `json:"rounds"`
}

func runRoundRobin(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "roundrobin", "roundrobin N [--double | --cycles K] [--keep-order] [--json]")
	double := fs.Bool("double", false, "double round robin (same as --cycles 2)")
	cycles := fs.Int("cycles", 0, "number of cycles (default 1, or 2 with --double)")
	keep := fs.Bool("keep-order", false, "do not swap the last two rounds of a cycle that another follows (C.05 Annex 1 recommends the swap)")
	asJSON := fs.Bool("json", false, "print JSON")
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
	c := *cycles
	switch {
	case *double && c != 0 && c != 2:
		return usagef("--double conflicts with --cycles %d", c)
	case *double:
		c = 2
	case c == 0:
		c = 1
	}
	rounds, err := berger.Generate(n, berger.Options{Cycles: c, KeepOrder: *keep})
	if err != nil {
		return err
	}
	size := n + n%2
	swapped := c > 1 && !*keep && size-1 >= 3
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(roundRobinJSON{Entrants: n, Cycles: c, Swapped: swapped, Rounds: rounds})
	}
	fmt.Fprintf(e.stdout, "Round robin: %s, %s, %s (FIDE Berger table for %d", arbiter.Count(n, "entrant"), arbiter.Count(c, "cycle"), arbiter.Count(len(rounds), "round"), size)
	if n%2 == 1 {
		fmt.Fprintf(e.stdout, "; whoever meets %d has the bye", size)
	}
	if swapped {
		fmt.Fprint(e.stdout, "; the last two rounds of every cycle but the last are swapped")
	}
	fmt.Fprintln(e.stdout, ")")
	for _, r := range rounds {
		fmt.Fprintf(e.stdout, "\nRound %d (cycle %d, table round %d)\n", r.Number, r.Cycle, r.TableRound)
		for i, p := range r.Pairs {
			fmt.Fprintf(e.stdout, "  board %d: %d - %d\n", i+1, p.White, p.Black)
		}
		if r.Bye != 0 {
			fmt.Fprintf(e.stdout, "  bye: %d\n", r.Bye)
		}
	}
	return nil
}

// flagError turns a flag parse error (already printed with the usage by
// the flag package) into exit status 2; --help stays a success.
func flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &exitError{code: 2}
}
