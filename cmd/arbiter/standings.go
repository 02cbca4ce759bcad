package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/format"
	"arbiter/resultsfile"
	"arbiter/score"
	"arbiter/standings"
)

func init() {
	register(&command{
		name:    "standings",
		summary: "rank a stage from a results file with the stage's tiebreaks",
		run:     runStandings,
	})
}

const standingsSynopsis = `standings PRESET|FORMAT_FILE --stage NAME RESULTS_FILE [--json] [--edition 2024|2026] [--tiebreaks a,b,c]

Ranks the entrants of one stage by match points, then by the stage's
tiebreaks in order (each applied to the entrants still tied), and prints a
table with every tiebreak as a column. RESULTS_FILE is JSON (see
docs/results-file.md; "-" reads standard input). Tiebreak ids: see
docs/tiebreaks.md. Entrants no tiebreak separates share a rank ("2=").`

func runStandings(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "standings", standingsSynopsis)
	stageName := fs.String("stage", "", "stage `NAME` of the format (default: the results file's \"stage\", else the only or first stage)")
	asJSON := fs.Bool("json", false, "print JSON instead of a text table")
	edition := fs.String("edition", "", "FIDE C.07 `edition` for unplayed rounds: 2024 or 2026 (default: the file's, else 2026)")
	tbFlag := fs.String("tiebreaks", "", "comma-separated tiebreak `ids` replacing the stage's list")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fs.Usage()
		return usagef("want a format (preset name or file) and a results file, got %s", arbiter.Count(len(pos), "argument"))
	}
	f, err := standingsFormat(pos[0])
	if err != nil {
		return err
	}
	rf, err := standingsResults(e, pos[1])
	if err != nil {
		return err
	}
	name := *stageName
	if name == "" {
		name = rf.Stage
	}
	if name == "" {
		name = f.Stages[0].Name
	}
	stage := f.StageByName(name)
	if stage == nil {
		var names []string
		for _, s := range f.Stages {
			names = append(names, s.Name)
		}
		return arbiter.FieldError("--stage", "format.stages", "format %s has no stage %q (stages: %s)", f.Name, name, strings.Join(names, ", "))
	}
	ids := stage.Tiebreaks
	if *tbFlag != "" {
		ids = strings.Split(*tbFlag, ",")
	}
	tbs, err := standings.ParseTiebreaks(ids)
	if err != nil {
		if ae, ok := err.(*arbiter.Error); ok && *tbFlag != "" {
			ae.Field = "--tiebreaks"
		}
		return err
	}
	opts := standings.Options{Edition: rf.Edition, RoundRobin: stage.Kind == format.RoundRobin || stage.Kind == format.Pool, TotalRounds: rf.TotalRounds}
	editionField := "edition" // the results file's field
	if *edition != "" {
		opts.Edition, editionField = *edition, "--edition"
	}
	if opts.Edition == "" {
		opts.Edition = standings.Edition2026
	}
	if opts.Edition != standings.Edition2024 && opts.Edition != standings.Edition2026 {
		return arbiter.FieldError(editionField, "standings.edition", "unknown C.07 edition %q (want 2024 or 2026)", opts.Edition)
	}
	if rf.TotalRounds < 0 {
		return arbiter.FieldError("total_rounds", "results.total_rounds", "total_rounds %d is negative", rf.TotalRounds)
	}
	n := len(rf.Entrants)
	if opts.TotalRounds == 0 && stage.Kind == format.Swiss {
		if v, _, ok := stage.Rounds.Resolve(n); ok {
			opts.TotalRounds = v
		}
	}
	teamSize := 0
	if ts := f.TeamSize(n); ts != nil {
		teamSize = *ts
	}
	m := stage.Match
	maxPts := m.MaxPoints(teamSize)
	d := resultsfile.Defaults{
		Scoring: standings.Scoring{
			Win: m.MatchPoints.Win, Draw: m.MatchPoints.Draw, Loss: m.MatchPoints.Loss,
			SecondaryWin: maxPts, SecondaryDraw: maxPts / 2,
		},
		DoubleForfeitDraw: m.DoubleForfeit == "draw",
		DecideBySets:      m.Kind == format.TeamSets,
		SingleGame:        m.Kind == format.MatchIndividual && len(m.Parts) == 1 && m.Parts[0].Games == 1,
	}
	pools, err := rf.Inputs(d, standingsSheet(f, stage.Name, n))
	if err != nil {
		return err
	}
	out := standingsOutput{Format: f.Name, Stage: stage.Name, Kind: stage.Kind, Edition: opts.Edition, Tiebreaks: tbs}
	for _, p := range pools {
		tbl, err := standings.Compute(p.Input, tbs, opts)
		if err != nil {
			return err
		}
		out.Tables = append(out.Tables, standingsPool{Pool: p.Name, Rows: tbl.Rows})
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return out.writeText(e.stdout)
}

// standingsFormat loads a preset by name or a format file by path.
func standingsFormat(arg string) (*format.Format, error) {
	if f, err := format.Preset(arg); err == nil {
		return f, nil
	}
	r, err := os.Open(arg)
	if err != nil {
		return nil, arbiter.FieldError("FORMAT", "format.preset", "%q is neither a preset (%s) nor a readable format file", arg, strings.Join(format.Presets(), ", "))
	}
	defer r.Close()
	return format.Load(r)
}

func standingsResults(e *env, arg string) (*resultsfile.File, error) {
	var r io.Reader = e.stdin
	if arg != "-" {
		file, err := os.Open(arg)
		if err != nil {
			return nil, arbiter.FieldError("RESULTS", "results.file", "cannot read results file: %v", err)
		}
		defer file.Close()
		r = file
	}
	return resultsfile.Read(r)
}

type standingsOutput struct {
	Format    string               `json:"format"`
	Stage     string               `json:"stage"`
	Kind      string               `json:"kind"`
	Edition   string               `json:"edition"`
	Tiebreaks []standings.Tiebreak `json:"tiebreaks"`
	Tables    []standingsPool      `json:"tables"`
}

type standingsPool struct {
	Pool string          `json:"pool,omitempty"`
	Rows []standings.Row `json:"rows"`
}

func (o standingsOutput) writeText(w io.Writer) error {
	var ids []string
	for _, t := range o.Tiebreaks {
		ids = append(ids, t.String())
	}
	fmt.Fprintf(w, "%s, stage %s (%s); tiebreaks: %s; C.07 edition %s\n", o.Format, o.Stage, o.Kind, strings.Join(ids, ", "), o.Edition)
	for _, t := range o.Tables {
		fmt.Fprintln(w)
		if t.Pool != "" {
			fmt.Fprintf(w, "Pool %s\n", t.Pool)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := []string{"Rank", "ID", "Name", "Score"}
		head = append(head, ids...)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, r := range t.Rows {
			rank := fmt.Sprint(r.Rank)
			if r.Shared {
				rank += "="
			}
			cells := []string{rank, r.ID, r.Name, r.Score.String()}
			for _, v := range r.Values {
				cells = append(cells, v.String())
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, r := range t.Rows {
			if r.Shared {
				fmt.Fprintln(w, "= shared rank: no tiebreak separates these entrants; drawing of lots or the regulations decide (C.07 Art. 4.2)")
				break
			}
		}
	}
	return nil
}

// standingsSheet scores the match sheets inside a results file with
// package score (docs/match-sheet.md); errors are re-rooted at the
// sheet's JSON path in the results file.
func standingsSheet(f *format.Format, stage string, entrants int) resultsfile.SheetFunc {
	return func(field string, raw json.RawMessage) (standings.Result, error) {
		reroot := func(err error) error {
			var ae *arbiter.Error
			if errors.As(err, &ae) && ae.Code == arbiter.EINVALID {
				cp := *ae
				cp.Field = strings.TrimSuffix(field+"."+ae.Field, ".")
				return &cp
			}
			return err
		}
		sh, err := score.LoadSheet(bytes.NewReader(raw))
		if err != nil {
			return standings.Result{}, reroot(err)
		}
		ms, err := score.Score(f, stage, sh, score.Options{Entrants: entrants})
		if err != nil {
			return standings.Result{}, reroot(err)
		}
		return ms.Standings, nil
	}
}
