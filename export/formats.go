package export

import "io"

// The formats. A new export format is one file with its writer (like
// csv.go) and one entry in specs below; Resolve, Write, ContentType,
// Filename, the CLI's --format and the API's ?format= follow from it.
// Options that only it takes are checked in Resolve; what it offers on
// the event's export page is listed in Available.
const (
	Markdown  = "markdown"  // forum posts (Lichess forum markdown)
	CSV       = "csv"       // RFC 4180, for spreadsheets
	TRF       = "trf"       // FIDE TRF-2026 or TRF-2016
	ICS       = "ics"       // iCalendar (RFC 5545)
	Challonge = "challonge" // the CSV of Challonge's bulk import and score dialog
)

// formatSpec is what the package knows of one format.
type formatSpec struct {
	name string
	// whats are the values of Options.What it takes, the default first;
	// none: it always holds the whole of what it is (a stage, a calendar).
	whats       []string
	contentType string
	ext         string // of a download's file name
	write       func(w io.Writer, s *Snapshot, o Options) error
}

// specs are the formats in the order the docs give them.
var specs = []formatSpec{
	{Markdown, []string{State, Pairings, Results, Standings, Entrants}, "text/markdown; charset=utf-8", ".md", WriteMarkdown},
	{CSV, []string{Standings, Pairings, Results, Entrants}, "text/csv; charset=utf-8", ".csv", WriteCSV},
	{TRF, nil, "text/plain; charset=utf-8", ".trf", WriteTRF},
	{ICS, nil, "text/calendar; charset=utf-8", ".ics", WriteICS},
	{Challonge, []string{Results, Entrants}, "text/csv; charset=utf-8", "-challonge.csv", WriteChallonge},
}

// Formats lists every format in the order the docs give them.
var Formats = func() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.name
	}
	return out
}()

func specOf(name string) (formatSpec, bool) {
	for _, s := range specs {
		if s.name == name {
			return s, true
		}
	}
	return formatSpec{}, false
}
