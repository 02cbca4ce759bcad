package web

import (
	"net/http"

	"arbiter"
	"arbiter/app"
)

// roundData is the page of one round: its window and its pairings.
type roundData struct {
	Ev          arbiter.Event
	Nav         []navLink
	ID          string
	StageName   string
	StageNumber int
	Number      int
	Seq         int
	// Status is the round's state, or "scheduled" before its pairing.
	Status          string
	Start, Deadline stamp
	// Notice replaces the pairings while there are none to show; Review
	// tells a TD that the pairings shown are still under their review.
	Notice, Review string
	Pools          bool // a pool stage: the rows name their pool
	Rows           []pairingRow
	Prev, Next     *roundLink
}

type roundLink struct {
	ID, Label string
}

// pairingRow is one match of the round.
type pairingRow struct {
	ID        string
	Board     int
	Pool      string
	Format    string // final or third_place in a knockout
	Home      entrantLink
	Away      entrantLink // empty for a bye
	Result    string      // "348–228, Team 01 won"; "" without a final result
	Status    string
	Scheduled stamp
	// BoardTimes are the boards' agreed start times where each board is
	// negotiated apart (A5).
	BoardTimes []boardStamp
}

// boardStamp is one board's agreed start time.
type boardStamp struct {
	Board int
	At    stamp
}

type entrantLink struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// roundPage shows a round of the calendar: its start and deadline (UTC,
// and the viewer's local time with JavaScript), and its pairings with
// their results and agreed start times once the viewer may see them
// (app.RoundView decides: published, or under review for the TDs). A
// round of the calendar not paired yet is shown without pairings; an ID
// that is not a round of the calendar is not found.
func (s *Server) roundPage(w http.ResponseWriter, r *http.Request) {
	rv, err := s.app.RoundView(r.Context(), currentUser(r), r.PathValue("slug"), r.PathValue("round"))
	if err == nil && rv.Window == nil {
		err = arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no round %q", rv.Event.Slug, rv.ID)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := newEventView(rv.Event, rv.Format, rv.Entrants, rv.Rounds, rv.Matches)
	win := *rv.Window
	d := roundData{Ev: v.Ev, Nav: v.nav("Pairings"), ID: rv.ID, StageNumber: win.Stage + 1, Number: win.Number, Seq: win.Seq,
		Status: "scheduled", Start: stampOf(win.Start), Deadline: deadlineStamp(deadlineOf(win.End))}
	if win.Stage < len(v.Ev.Stages) {
		d.StageName = v.Ev.Stages[win.Stage].Name
		d.Pools = len(v.Ev.Stages[win.Stage].Pools) > 0
	}
	link := func(w arbiter.RoundWindow) *roundLink {
		return &roundLink{ID: roundID(w.Stage, w.Number), Label: "Round " + itoa(w.Seq)}
	}
	for i, w := range v.Ev.Calendar {
		if roundID(w.Stage, w.Number) != rv.ID {
			continue
		}
		if i > 0 {
			d.Prev = link(v.Ev.Calendar[i-1])
		}
		if i+1 < len(v.Ev.Calendar) {
			d.Next = link(v.Ev.Calendar[i+1])
		}
	}
	rd := rv.Round
	switch {
	case rd == nil:
		d.Notice = "This round is not paired yet: the pairings are published here."
	case !rv.Visible:
		d.Status = rd.Status
		d.Notice = "The TDs are reviewing this round's pairings: they are shown here once published."
	default:
		d.Status = rd.Status
		d.Start, d.Deadline = stampOf(rd.Start), deadlineStamp(deadlineOf(rd.End))
		if !app.PublicRound(*rd) {
			d.Review = "These pairings are under your review: only the TDs see them until they are published."
		}
		for _, m := range rv.Matches {
			d.Rows = append(d.Rows, v.pairingRow(m))
		}
		if len(d.Rows) == 0 {
			d.Notice = "This round has no matches."
		}
	}
	title := "Round " + itoa(win.Seq) + ": " + v.Ev.Name
	s.render(w, r, http.StatusOK, "round", page{Title: title, Nav: "home", Live: liveURL(v.Ev.Slug), Data: d})
}

// pairingRow is match m as the round page lists it.
func (v *eventView) pairingRow(m arbiter.Match) pairingRow {
	row := pairingRow{ID: m.ID, Board: m.Board, Pool: m.Pool, Format: m.Format, Status: m.Status,
		Home: entrantLink{m.Home, v.name(m.Home)}, Scheduled: stampOf(m.ScheduledAt)}
	for i, at := range m.BoardTimes {
		if !at.IsZero() {
			row.BoardTimes = append(row.BoardTimes, boardStamp{Board: i + 1, At: stampOf(at)})
		}
	}
	if m.Decision == "disregarded" {
		row.Status = "disregarded"
	}
	if !m.IsBye() {
		row.Away = entrantLink{m.Away, v.name(m.Away)}
	}
	row.Result = matchLine(m, row.Home.Name, row.Away.Name)
	return row
}
