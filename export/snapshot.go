// Package export writes an event in the formats other tools read: forum
// posts in markdown (markdown.go), CSV for spreadsheets (csv.go), FIDE
// TRF-2016/2026 for rating officers and pairing engines (trf.go),
// iCalendar feeds (ics.go) and the CSV that Challonge's bulk import and
// score dialog take (challonge_csv.go). One file per format, in the manner
// of lila's SwissTrf and SwissCsv; formats.go lists them, and a new format
// is its own file plus one entry there.
//
// The package is pure: it takes a Snapshot, plain domain values that
// package app gathers in one read transaction (app/export.go) with what
// the viewer may see already decided, and writes to an io.Writer. It
// never touches the store. See docs/exports.md.
package export

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// Snapshot is an event as one viewer may see it at one instant.
type Snapshot struct {
	Event  arbiter.Event
	Format *format.Format
	// BaseURL is the web app's address ("https://arbiter.example"),
	// without a trailing slash, for links to match and round pages.
	BaseURL string
	// Now is when the snapshot was taken (UTC): the iCalendar DTSTAMP.
	Now time.Time
	// TD is true when the viewer is a TD of the event: Rounds then
	// include pairings still under review.
	TD bool
	// Officials are the event's TDs (usernames), for the TRF header.
	Officials []string
	// Entrants are every registered entrant, by seed (unseeded last).
	Entrants []arbiter.Entrant
	// StageEntrants[i] are the entrant IDs of stage i in pairing order
	// (the seed order within the stage); empty until the stage is filled.
	StageEntrants [][]string
	// Rounds are the rounds the viewer may see, by stage and number:
	// published and closed ones, and for a TD the paired one too.
	Rounds []arbiter.Round
	// Matches are the matches of Rounds, by stage, round and board.
	Matches []arbiter.Match
	// Standings are the tables of every stage that has begun: one per
	// stage, or one per pool of a pool stage.
	Standings []Table
	// Forbidden are the TDs' forbidden pairings (lifted ones included).
	Forbidden []Forbidden
	// Games are the Lichess games found for a match (by match ID) by the
	// TDs' check of its games, for links.
	Games map[string][]Game
}

// Table is the standings of one stage (0-based) or of one of its pools.
type Table struct {
	Stage int
	Pool  string
	Table standings.Table
}

// Forbidden is a group of entrants that may not meet in a Swiss stage,
// from At until RemovedAt (zero while it stands).
type Forbidden struct {
	Stage     int
	Entrants  []string
	At        time.Time
	RemovedAt time.Time
}

// Game is one Lichess game of a match.
type Game struct {
	URL string
	// Label says which game it is on the match sheet, e.g. "3+2 game 2".
	Label string
}

// entrant returns the entrant with ID id, or nil.
func (s *Snapshot) entrant(id string) *arbiter.Entrant {
	for i := range s.Entrants {
		if s.Entrants[i].ID == id {
			return &s.Entrants[i]
		}
	}
	return nil
}

// name is an entrant's display name (its ID when unknown).
func (s *Snapshot) name(id string) string {
	if e := s.entrant(id); e != nil && e.Name != "" {
		return e.Name
	}
	return id
}

// team tells whether the event's entrants are teams.
func (s *Snapshot) team() bool { return s.Format != nil && s.Format.Entrant == format.Team }

// stageRounds lists the visible rounds of stage si in order.
func (s *Snapshot) stageRounds(si int) []arbiter.Round {
	var out []arbiter.Round
	for _, r := range s.Rounds {
		if r.Stage == si {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b arbiter.Round) int { return a.Number - b.Number })
	return out
}

// roundMatches lists the matches of round number of stage si by board.
func (s *Snapshot) roundMatches(si, number int) []arbiter.Match {
	var out []arbiter.Match
	for _, m := range s.Matches {
		if m.Stage == si && m.Round == number {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b arbiter.Match) int { return a.Board - b.Board })
	return out
}

// window returns the calendar window of round number of stage si.
func (s *Snapshot) window(si, number int) (arbiter.RoundWindow, bool) {
	for _, w := range s.Event.Calendar {
		if w.Stage == si && w.Number == number {
			return w, true
		}
	}
	return arbiter.RoundWindow{}, false
}

// stageTables returns the standings tables of stage si.
func (s *Snapshot) stageTables(si int) []Table {
	var out []Table
	for _, t := range s.Standings {
		if t.Stage == si {
			out = append(out, t)
		}
	}
	return out
}

// stageMatch is the match format of stage si.
func (s *Snapshot) stageMatch(si int) *format.Match {
	if s.Format == nil || si < 0 || si >= len(s.Format.Stages) {
		return nil
	}
	return &s.Format.Stages[si].Match
}

// stageName names stage si ("qualification"); "" when unknown.
func (s *Snapshot) stageName(si int) string {
	if si >= 0 && si < len(s.Event.Stages) {
		return s.Event.Stages[si].Name
	}
	if s.Format != nil && si >= 0 && si < len(s.Format.Stages) {
		return s.Format.Stages[si].Name
	}
	return ""
}

// stageKind is the kind of stage si (swiss, round_robin, knockout, pool).
func (s *Snapshot) stageKind(si int) string {
	if si >= 0 && si < len(s.Event.Stages) {
		return s.Event.Stages[si].Kind
	}
	if s.Format != nil && si >= 0 && si < len(s.Format.Stages) {
		return s.Format.Stages[si].Kind
	}
	return ""
}

// stageCount is the number of stages (sized, or from the format before).
func (s *Snapshot) stageCount() int {
	if len(s.Event.Stages) > 0 {
		return len(s.Event.Stages)
	}
	if s.Format != nil {
		return len(s.Format.Stages)
	}
	return 0
}

// matchURL is the address of a match's page ("" without a base URL).
func (s *Snapshot) matchURL(id string) string { return s.url("/matches/" + id) }

// roundURL is the address of a round's page.
func (s *Snapshot) roundURL(stage, number int) string {
	return s.url("/rounds/" + roundID(stage, number))
}

// url is an address under the event's pages.
func (s *Snapshot) url(path string) string {
	if s.BaseURL == "" {
		return ""
	}
	return strings.TrimRight(s.BaseURL, "/") + "/events/" + s.Event.Slug + path
}

// roundID is "s1r3" for stage index 0, round 3.
func roundID(stage, number int) string {
	return "s" + strconv.Itoa(stage+1) + "r" + strconv.Itoa(number)
}

// utc formats an instant as the pages and posts show it.
func utc(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }

// deadlineOf is the instant a round's deadline is written as: one minute
// before its exclusive end (the rulebooks' "23:59").
func deadlineOf(end time.Time) time.Time { return end.Add(-time.Minute) }

// played tells whether a final result was played over the board.
func played(o *arbiter.Outcome) bool { return o.Decision == "" || o.Decision == "played" }
