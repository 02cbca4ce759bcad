package export

import (
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/format"
)

// What a markdown post or a CSV file holds.
const (
	State     = "state" // a short "state of the event" post
	Pairings  = "pairings"
	Results   = "results"
	Standings = "standings"
	Entrants  = "entrants"
)

// Options say what to write. The field names of the errors Resolve
// returns are the CLI flags and API query parameters without dashes:
// format, what, stage, round, trf-version, entrant, player.
type Options struct {
	Format string
	What   string
	// Stage is 1-based; 0 picks the format's default (the stage being
	// played, or the first stage of the kind the format needs).
	Stage int
	// Round is the round number within the stage; 0 picks the latest
	// round the viewer may see.
	Round int
	// TRFVersion is 2026 (the default) or 2016.
	TRFVersion int
	// Entrant narrows a calendar to one team's or player's matches;
	// Player to the matches of every entrant a user plays for.
	Entrant string
	Player  string
}

// Resolve checks o against the snapshot and fills in the defaults: a
// format, a what, a stage and a round that fit each other and the event.
// Errors are EINVALID naming the option (as a CLI flag or API parameter
// without dashes), or ENOTFOUND for a round the viewer may not see.
func Resolve(s *Snapshot, o Options) (Options, error) {
	o.Format = strings.ToLower(strings.TrimSpace(o.Format))
	o.What = strings.ToLower(strings.TrimSpace(o.What))
	spec, ok := specOf(o.Format)
	allowed := spec.whats
	if !ok {
		if o.Format == "" {
			return o, arbiter.FieldError("format", "export.format", "give a format: %s", strings.Join(Formats, ", "))
		}
		return o, arbiter.FieldError("format", "export.format", "unknown format %q (formats: %s)", o.Format, strings.Join(Formats, ", "))
	}
	switch {
	case len(allowed) == 0 && o.What != "":
		return o, arbiter.FieldError("what", "export.what", "%s holds %s: what does not apply to it", o.Format, wholeOf(o.Format))
	case o.What == "" && len(allowed) > 0:
		o.What = allowed[0]
	case o.What != "" && !slices.Contains(allowed, o.What):
		return o, arbiter.FieldError("what", "export.what", "%s exports %s, not %q", o.Format, strings.Join(allowed, ", "), o.What)
	}
	if o.TRFVersion != 0 && o.Format != TRF {
		return o, arbiter.FieldError("trf-version", "export.trf_version", "trf-version goes with format trf, not %s", o.Format)
	}
	if o.Format == TRF {
		if o.TRFVersion == 0 {
			o.TRFVersion = 2026
		}
		if o.TRFVersion != 2026 && o.TRFVersion != 2016 {
			return o, arbiter.FieldError("trf-version", "export.trf_version", "trf-version is 2026 or 2016, not %d", o.TRFVersion)
		}
	}
	if (o.Entrant != "" || o.Player != "") && o.Format != ICS {
		f := "entrant"
		if o.Entrant == "" {
			f = "player"
		}
		return o, arbiter.FieldError(f, "export."+f, "%s narrows a calendar (format ics), not %s", f, o.Format)
	}
	if o.Entrant != "" && o.Player != "" {
		return o, arbiter.FieldError("player", "export.player", "give entrant or player, not both")
	}
	if o.Stage < 0 {
		return o, arbiter.FieldError("stage", "export.stage", "stage is a stage number from 1")
	}
	if o.Round < 0 {
		return o, arbiter.FieldError("round", "export.round", "round is a round number from 1")
	}
	if s.Event.Status == arbiter.EventRegistration && needsStages(o) {
		f := "format"
		if o.What != "" && len(allowed) > 0 {
			f = "what"
		}
		return o, arbiter.FieldError(f, "export."+f, "event %s is still in registration: there are no stages, rounds or standings to export yet", s.Event.Slug)
	}
	var err error
	switch {
	case o.Format == ICS:
		err = resolveCalendar(s, &o)
	case o.Format == TRF:
		err = resolveStageRounds(s, &o, format.Swiss)
	case o.Format == Challonge && o.What == Results:
		err = resolveStageRounds(s, &o, format.Knockout)
		if err == nil && o.Round != 0 {
			err = arbiter.FieldError("round", "export.round", "Challonge takes the whole bracket: round does not apply")
		}
	case o.Format == Challonge:
		err = resolveStageRounds(s, &o, format.Knockout)
		if err == nil && o.Round != 0 {
			err = arbiter.FieldError("round", "export.round", "the participants are the stage's: round does not apply")
		}
	case o.What == Entrants || o.What == State:
		if o.Stage != 0 {
			err = arbiter.FieldError("stage", "export.stage", "%s cover the whole event: stage does not apply", o.What)
		} else if o.Round != 0 {
			err = arbiter.FieldError("round", "export.round", "%s cover the whole event: round does not apply", o.What)
		}
	case o.What == Standings:
		if o.Round != 0 {
			err = arbiter.FieldError("round", "export.round", "standings count every round so far: round does not apply")
		} else {
			err = resolveStage(s, &o)
		}
	case o.Format == CSV && o.Round == 0: // pairings, results: every round of the stage
		err = resolveStage(s, &o)
	default: // pairings, results of one round
		err = resolveRound(s, &o)
	}
	return o, err
}

// needsStages tells whether o reads stages, rounds or standings.
func needsStages(o Options) bool {
	switch {
	case o.Format == ICS, o.What == State:
		return false
	case o.What == Entrants && o.Format != Challonge:
		return false
	}
	return true
}

func wholeOf(f string) string {
	if f == TRF {
		return "a whole Swiss stage"
	}
	return "the event's calendar"
}

// resolveStage checks o.Stage (1-based) or picks the stage being played.
func resolveStage(s *Snapshot, o *Options) error {
	n := s.stageCount()
	if o.Stage == 0 {
		o.Stage = s.Event.Stage + 1
		return nil
	}
	if o.Stage > n {
		return arbiter.FieldError("stage", "export.stage", "event %s has stages 1 to %d, not %d", s.Event.Slug, n, o.Stage)
	}
	if o.Stage-1 > s.Event.Stage {
		return arbiter.FieldError("stage", "export.stage", "stage %d (%s) has not begun", o.Stage, s.stageName(o.Stage-1))
	}
	return nil
}

// resolveRound checks o.Round within o.Stage, or picks the stage's latest
// round the viewer may see.
func resolveRound(s *Snapshot, o *Options) error {
	if err := resolveStage(s, o); err != nil {
		return err
	}
	si := o.Stage - 1
	rounds := s.stageRounds(si)
	if o.Round == 0 {
		if len(rounds) == 0 {
			return arbiter.FieldError("round", "export.round", "stage %d (%s) has no %s round yet", o.Stage, s.stageName(si), publishedWord(s))
		}
		o.Round = rounds[len(rounds)-1].Number
		return nil
	}
	for _, r := range rounds {
		if r.Number == o.Round {
			return nil
		}
	}
	if _, ok := s.window(si, o.Round); !ok {
		total := 0
		if si < len(s.Event.Stages) {
			total = s.Event.Stages[si].Rounds
		}
		return arbiter.FieldError("round", "export.round", "stage %d (%s) has rounds 1 to %d, not %d", o.Stage, s.stageName(si), total, o.Round)
	}
	return &arbiter.Error{Code: arbiter.ENOTFOUND, Field: "round", Rule: "export.round",
		Message: fmt.Sprintf("round %d of stage %d (%s) is not %s yet", o.Round, o.Stage, s.stageName(si), publishedWord(s))}
}

func publishedWord(s *Snapshot) string {
	if s.TD {
		return "paired"
	}
	return "published"
}

// resolveStageRounds picks a stage of kind (the one being played if it
// is of that kind, else the first) or checks the one given; o.Round, if
// given, must be a visible round of it (the file then stops there).
func resolveStageRounds(s *Snapshot, o *Options, kind string) error {
	n := s.stageCount()
	defaulted := o.Stage == 0
	if defaulted {
		cur := s.Event.Stage
		if s.stageKind(cur) == kind {
			o.Stage = cur + 1
		} else {
			for i := 0; i < n; i++ {
				if s.stageKind(i) == kind {
					o.Stage = i + 1
					break
				}
			}
		}
		if o.Stage == 0 {
			return arbiter.FieldError("format", "export.format", "%s needs a %s stage and event %s has none", o.Format, words(kind), s.Event.Slug)
		}
	} else if o.Stage > n {
		return arbiter.FieldError("stage", "export.stage", "event %s has stages 1 to %d, not %d", s.Event.Slug, n, o.Stage)
	}
	si := o.Stage - 1
	if si > s.Event.Stage && defaulted {
		return arbiter.FieldError("format", "export.format", "%s needs the %s stage (stage %d, %s), which has not begun", o.Format, words(kind), o.Stage, s.stageName(si))
	}
	if k := s.stageKind(si); k != kind {
		return arbiter.FieldError("stage", "export.stage", "%s needs a %s stage; stage %d (%s) is a %s", o.Format, words(kind), o.Stage, s.stageName(si), words(k))
	}
	if si > s.Event.Stage {
		return arbiter.FieldError("stage", "export.stage", "stage %d (%s) has not begun", o.Stage, s.stageName(si))
	}
	if o.Round == 0 {
		return nil
	}
	return resolveRound(s, o)
}

// resolveCalendar checks a calendar's entrant or player.
func resolveCalendar(s *Snapshot, o *Options) error {
	if o.Stage != 0 {
		return arbiter.FieldError("stage", "export.stage", "a calendar covers the whole event: stage does not apply")
	}
	if o.Round != 0 {
		return arbiter.FieldError("round", "export.round", "a calendar covers the whole event: round does not apply")
	}
	if o.Entrant != "" {
		o.Entrant = strings.ToLower(strings.TrimSpace(o.Entrant))
		if e := s.entrant(o.Entrant); e == nil || !admitted(e) {
			return arbiter.FieldError("entrant", "export.entrant", "%q is not an entrant of %s", o.Entrant, s.Event.Slug)
		}
	}
	if o.Player != "" {
		o.Player = strings.ToLower(strings.TrimSpace(o.Player))
		if len(entrantsOf(s, o.Player)) == 0 {
			return arbiter.FieldError("player", "export.player", "%s plays for no entrant of %s", o.Player, s.Event.Slug)
		}
	}
	return nil
}

// admitted tells whether an entrant was approved (and maybe later removed).
func admitted(e *arbiter.Entrant) bool {
	return e.Status == arbiter.EntrantApproved || e.Status == arbiter.EntrantRemoved
}

// entrantsOf lists the admitted entrants user plays for.
func entrantsOf(s *Snapshot, user string) []string {
	var out []string
	for i := range s.Entrants {
		e := &s.Entrants[i]
		if !admitted(e) {
			continue
		}
		for _, u := range append(e.Users(), e.Captain) {
			if u != "" && strings.EqualFold(u, user) {
				out = append(out, e.ID)
				break
			}
		}
	}
	return out
}

func words(s string) string { return strings.ReplaceAll(s, "_", " ") }

// Write writes the export o (as Resolve returned it) of the snapshot.
func Write(w io.Writer, s *Snapshot, o Options) error {
	if spec, ok := specOf(o.Format); ok {
		return spec.write(w, s, o)
	}
	return arbiter.FieldError("format", "export.format", "unknown format %q", o.Format)
}

// ContentType is the media type of a format's output.
func ContentType(o Options) string {
	if spec, ok := specOf(o.Format); ok {
		return spec.contentType
	}
	return "text/plain; charset=utf-8"
}

// Filename is the name a download of o is saved under, e.g.
// "acwc-2023-s1r3-pairings.md".
func Filename(s *Snapshot, o Options) string {
	parts := []string{s.Event.Slug}
	switch {
	case o.Format == ICS && o.Entrant != "":
		parts = append(parts, o.Entrant)
	case o.Format == ICS && o.Player != "":
		parts = append(parts, o.Player)
	case o.Round != 0:
		parts = append(parts, roundID(o.Stage-1, o.Round))
	case o.Stage != 0:
		parts = append(parts, fmt.Sprintf("s%d", o.Stage))
	}
	if o.What != "" {
		parts = append(parts, o.What)
	}
	spec, _ := specOf(o.Format)
	ext := spec.ext
	if o.Format == TRF && o.TRFVersion == 2016 {
		ext = "-2016.trf"
	}
	return strings.Join(parts, "-") + ext
}

// Available lists the exports the snapshot offers, each as Resolve
// returned it: the state post and the entrants; for every stage begun
// its standings (and its TRF if a Swiss, its Challonge files if a
// knockout); for every round the viewer may see its pairings and
// results; the event's calendar.
func Available(s *Snapshot) []Options {
	var want []Options
	add := func(o Options) { want = append(want, o) }
	add(Options{Format: Markdown, What: State})
	add(Options{Format: Markdown, What: Entrants})
	add(Options{Format: CSV, What: Entrants})
	add(Options{Format: ICS})
	for si := 0; si <= s.Event.Stage && si < len(s.Event.Stages) && s.Event.Status != arbiter.EventRegistration; si++ {
		switch s.stageKind(si) {
		case format.Swiss:
			add(Options{Format: TRF, Stage: si + 1})
			add(Options{Format: TRF, Stage: si + 1, TRFVersion: 2016})
		case format.Knockout:
			add(Options{Format: Challonge, What: Results, Stage: si + 1})
			add(Options{Format: Challonge, What: Entrants, Stage: si + 1})
		}
		if len(s.stageTables(si)) > 0 {
			add(Options{Format: Markdown, What: Standings, Stage: si + 1})
			add(Options{Format: CSV, What: Standings, Stage: si + 1})
		}
		for _, r := range s.stageRounds(si) {
			for _, f := range []string{Markdown, CSV} {
				for _, w := range []string{Pairings, Results} {
					add(Options{Format: f, What: w, Stage: si + 1, Round: r.Number})
				}
			}
		}
	}
	var out []Options
	for _, o := range want {
		if r, err := Resolve(s, o); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// Query is o as the API's query string ("format=csv&what=results&stage=1&round=3").
func (o Options) Query() string {
	q := url.Values{"format": {o.Format}}
	if o.What != "" {
		q.Set("what", o.What)
	}
	if o.Stage != 0 {
		q.Set("stage", strconv.Itoa(o.Stage))
	}
	if o.Round != 0 {
		q.Set("round", strconv.Itoa(o.Round))
	}
	if o.Format == TRF && o.TRFVersion != 0 {
		q.Set("trf-version", strconv.Itoa(o.TRFVersion))
	}
	if o.Entrant != "" {
		q.Set("entrant", o.Entrant)
	}
	if o.Player != "" {
		q.Set("player", o.Player)
	}
	return q.Encode()
}
