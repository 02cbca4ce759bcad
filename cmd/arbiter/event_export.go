package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"os"
	"strings"

	"arbiter"
	"arbiter/export"
)

// exportSub is `arbiter event export`: an event in a format other tools
// read, on standard output (docs/exports.md).
func exportSub() *eventSub {
	return &eventSub{
		synopsis: "export SLUG --format markdown|csv|trf|ics|challonge [--what standings|pairings|results|entrants|state] [--stage N] [--round N] [--trf-version 2016|2026] [--entrant ID | --player USER] [--base-url URL]",
		summary:  "write forum posts, CSV, TRF, a calendar or Challonge files to standard output",
		min:      1, max: 1, run: evExport,
		flags: func(fs *flag.FlagSet, c *eventCtx) {
			c.str["format"] = fs.String("format", "", "markdown (forum posts), csv, trf, ics (calendar) or challonge")
			c.str["what"] = fs.String("what", "", "markdown: state (default), pairings, results, standings, entrants; csv: standings (default), pairings, results, entrants; challonge: results (default), entrants")
			c.num["stage"] = fs.Int("stage", 0, "stage number (1 = first; default: the stage being played, or the format's kind of stage)")
			c.num["round"] = fs.Int("round", 0, "round number within the stage (default: the latest; trf: the last round written)")
			c.num["trf-version"] = fs.Int("trf-version", 0, "trf: 2026 (default) or 2016")
			c.str["entrant"] = fs.String("entrant", "", "ics: the calendar of one team or player (entrant ID)")
			c.str["player"] = fs.String("player", "", "ics: the calendar of a Lichess user's matches, for whichever entrant they play")
			c.str["base-url"] = fs.String("base-url", "", "the web app's address for links (default $ARBITER_BASE_URL, else http://localhost:8080)")
		},
	}
}

func evExport(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	base := c.s("base-url")
	if base == "" {
		base = os.Getenv("ARBITER_BASE_URL")
	}
	if base == "" {
		base = "http://localhost:8080"
	}
	snap, err := c.svc.ExportSnapshot(ctx, c.actor.Name, pos[0], base)
	if err != nil {
		return err
	}
	o, err := export.Resolve(snap, export.Options{Format: c.s("format"), What: c.s("what"), Stage: *c.num["stage"], Round: *c.num["round"],
		TRFVersion: *c.num["trf-version"], Entrant: c.s("entrant"), Player: c.s("player")})
	if err != nil {
		return asFlag(err)
	}
	w := bufio.NewWriter(e.stdout)
	if err := export.Write(w, snap, o); err != nil {
		return asFlag(err)
	}
	return w.Flush()
}

// asFlag names an export option's field as the CLI flag it came from.
func asFlag(err error) error {
	var ae *arbiter.Error
	if errors.As(err, &ae) && ae.Field != "" && !strings.HasPrefix(ae.Field, "--") {
		c := *ae
		c.Field = "--" + ae.Field
		return &c
	}
	return err
}
