package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"arbiter"
	"arbiter/format"
)

// maxEntrants bounds ?entrants= on the format page: far above any real
// event, low enough that nobody can ask for absurd work.
const maxEntrants = 10000

type homeData struct {
	Events  []arbiter.Event
	Presets []presetRow
}

// home lists the events in the store and links to the formats.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	events, err := s.app.EventList(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	presets, err := presetRows()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "home", page{Title: "Arbiter", Nav: "home", Data: homeData{Events: events, Presets: presets}})
}

// presetRow is one built-in format in a list.
type presetRow struct {
	Name, Title, Entrant, Rulebook string
	Stages                         []format.Stage
}

// presetRows are the built-in formats, read once: they are embedded in the
// binary, and parsing them on every home page cost more than the rest of
// the page (docs/load.md). Callers must not change the rows.
var presetRows = sync.OnceValues(readPresetRows)

func readPresetRows() ([]presetRow, error) {
	var rows []presetRow
	for _, name := range format.Presets() {
		f, err := format.Preset(name)
		if err != nil {
			return nil, err
		}
		rows = append(rows, presetRow{Name: f.Name, Title: f.Title, Entrant: f.Entrant, Rulebook: f.Rulebook, Stages: f.Stages})
	}
	return rows, nil
}

// formats lists the built-in presets.
func (s *Server) formats(w http.ResponseWriter, r *http.Request) {
	rows, err := presetRows()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "formats", page{Title: "Formats", Nav: "formats", Data: rows})
}

// formatData is the format page: the format, the entrants asked for and,
// when they are valid, the explanation.
type formatData struct {
	F           *format.Format
	Entrants    string // as typed, to refill the form
	EntrantsErr string // user-safe message for the entrants field
	Explanation *format.Explanation
	EntrantNoun string // "teams" or "players"
}

// formatPage shows a preset and, with ?entrants=N, what the event is for
// N entrants (format.Explain): stages, rounds, advance, match parts and
// totals, calendar. A bad N re-renders the form with the error (400).
func (s *Server) formatPage(w http.ResponseWriter, r *http.Request) {
	f, err := format.Preset(r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := formatData{F: f, EntrantNoun: "players"}
	if f.Entrant == format.Team {
		d.EntrantNoun = "teams"
	}
	status := http.StatusOK
	if q := r.URL.Query(); q.Has("entrants") {
		d.Entrants = strings.TrimSpace(q.Get("entrants"))
		n, err := parseEntrants(d.Entrants)
		if err == nil {
			var x format.Explanation
			x, err = f.Explain(n)
			d.Explanation = &x
		}
		if err != nil {
			if arbiter.ErrorCode(err) != arbiter.EINVALID {
				s.fail(w, r, err)
				return
			}
			d.Explanation, d.EntrantsErr, status = nil, fieldMessage(err), http.StatusBadRequest
		}
	}
	title := f.Title
	if d.Explanation != nil {
		title = fmt.Sprintf("%s: %d %s", f.Title, d.Explanation.Entrants, d.EntrantNoun)
	}
	// The heading stays the format's title: htmx swaps only the form and
	// the explanation, so a heading naming N would go stale.
	s.render(w, r, status, "format", page{Title: title, Heading: f.Title, Nav: "formats", Data: d})
}

// fieldMessage is the message of a field error without the field's name,
// for showing next to the field itself.
func fieldMessage(err error) string {
	var e *arbiter.Error
	if errors.As(err, &e) && e.Code != arbiter.EINTERNAL {
		return e.Message
	}
	return arbiter.ErrorMessage(err)
}

func parseEntrants(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > maxEntrants {
		return 0, arbiter.FieldError("entrants", "web.entrants", "enter a whole number from 0 to %d", maxEntrants)
	}
	return n, nil
}

// intOr is the template function for optional counts.
func intOr(p *int, none string) string {
	if p == nil {
		return none
	}
	return strconv.Itoa(*p)
}

// weekTime shows a weekly time as "Monday 23:59 UTC".
func weekTime(t *format.WeekTime) string {
	if t == nil || t.Day == "" {
		return ""
	}
	return strings.ToUpper(t.Day[:1]) + t.Day[1:] + " " + t.Time + " UTC"
}

// matchBlock is one match table: a caption and the worked-out format.
type matchBlock struct {
	Caption string
	M       format.MatchExplanation
}

// stageMatches lists the match formats of stage i: its regular match and,
// for a knockout, the final and the third-place match when they differ.
func stageMatches(i int, s format.StageExplanation) []matchBlock {
	label := fmt.Sprintf("Stage %d", i+1)
	main := label + " match"
	if s.Final != nil {
		main = label + " matches before the final"
	}
	out := []matchBlock{{Caption: main, M: s.Match}}
	if s.Final != nil {
		out = append(out, matchBlock{Caption: label + " final", M: *s.Final})
	}
	if s.ThirdMatch != nil {
		out = append(out, matchBlock{Caption: label + " third-place match", M: *s.ThirdMatch})
	}
	return out
}
