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
// read, on standard output (docs/exports.md). The formats are in package
// export, one file each.
var exportSub = &eventSub{name: "export",
	synopsis: "export SLUG --format markdown|csv|trf|ics|challonge [--what standings|pairings|results|entrants|state] [--stage N] [--round N] [--trf-version 2016|2026] [--entrant ID | --player USER] [--base-url URL]",
	summary:  "write forum posts, CSV, TRF, a calendar or Challonge files to standard output",
	min:      1, max: 1, new: withFlags[exportCmd]}

// exportCmd holds the flags of "event export".
type exportCmd struct {
	format, what, entrant, player, baseURL string
	stage, round, trfVersion               int
}

func (cmd *exportCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.format, "format", "", "markdown (forum posts), csv, trf, ics (calendar) or challonge")
	fs.StringVar(&cmd.what, "what", "", "markdown: state (default), pairings, results, standings, entrants; csv: standings (default), pairings, results, entrants; challonge: results (default), entrants")
	fs.IntVar(&cmd.stage, "stage", 0, "stage number (1 = first; default: the stage being played, or the format's kind of stage)")
	fs.IntVar(&cmd.round, "round", 0, "round number within the stage (default: the latest; trf: the last round written)")
	fs.IntVar(&cmd.trfVersion, "trf-version", 0, "trf: 2026 (default) or 2016")
	fs.StringVar(&cmd.entrant, "entrant", "", "ics: the calendar of one team or player (entrant ID)")
	fs.StringVar(&cmd.player, "player", "", "ics: the calendar of a Lichess user's matches, for whichever entrant they play")
	fs.StringVar(&cmd.baseURL, "base-url", "", "the web app's address for links (default $ARBITER_BASE_URL, else http://localhost:8080)")
}

func (cmd *exportCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	base := cmd.baseURL
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
	o, err := export.Resolve(snap, export.Options{Format: cmd.format, What: cmd.what, Stage: cmd.stage, Round: cmd.round,
		TRFVersion: cmd.trfVersion, Entrant: cmd.entrant, Player: cmd.player})
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
