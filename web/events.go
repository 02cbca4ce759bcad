package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// eventData is the public summary of an event.
type eventData struct {
	Ev arbiter.Event
	F  *format.Format
	// X is the format worked out for the event's entrants once
	// registration has closed and the stages are sized; nil before.
	X      *format.Explanation
	Rounds []roundRow
	// Nav links the event's public pages; Part is the signed-in user's
	// part in the event (nil when anonymous).
	Nav  []navLink
	Part *partBox
	// Podium is the final ranking of a finished event (nil before).
	Podium *podium
	// Now is where a running event stands (event_now.go; nil otherwise).
	Now *eventNow
}

// roundRow is one round of the calendar with its state.
type roundRow struct {
	ID       string // "s1r2": the round page's address
	Seq      int
	Stage    string
	Number   int
	Start    time.Time
	Deadline time.Time // the last minute of the window (End is exclusive)
	Status   string    // a round status, or "scheduled" before pairing
}

// eventPage shows an event: status, format, stages as sized and the
// calendar of rounds, links to its public pages and, for a signed-in
// user, their part in it. Read-only and public.
func (s *Server) eventPage(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadEvent(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ev, f := v.Ev, v.F
	d := eventData{Ev: ev, F: f, Nav: v.nav("Event")}
	if ev.Status != arbiter.EventRegistration {
		x, err := f.Explain(ev.Entrants)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		d.X = &x
	}
	if u := currentUser(r); u != nil {
		if d.Part, err = s.partOf(r, v, u.LichessUsername); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if d.Podium, err = s.podiumOf(r.Context(), ev); err != nil {
		s.fail(w, r, err)
		return
	}
	d.Now = s.nowOf(r.Context(), v)
	status := map[[2]int]string{}
	for _, rd := range v.all {
		status[[2]int{rd.Stage, rd.Number}] = rd.Status
	}
	for _, win := range ev.Calendar {
		row := roundRow{ID: roundID(win.Stage, win.Number), Seq: win.Seq, Number: win.Number, Start: win.Start, Deadline: deadlineOf(win.End), Status: "scheduled"}
		if win.Stage < len(ev.Stages) {
			row.Stage = ev.Stages[win.Stage].Name
		}
		if st, ok := status[[2]int{win.Stage, win.Number}]; ok {
			row.Status = st
		}
		d.Rounds = append(d.Rounds, row)
	}
	s.render(w, r, http.StatusOK, "event", page{Title: ev.Name, Nav: "home", Live: liveURL(ev.Slug), Data: d})
}

// standingsData is the standings of one stage: one table, or one per pool.
type standingsData struct {
	Ev     arbiter.Event
	Stage  int // 0-based
	Tables []poolTable
	// Notice replaces the tables when there are none yet.
	Notice string
	// After is the round the tables stand after (0: none completed);
	// Completed lists the stage's completed rounds, to show any of them.
	After     int
	Completed []int
	// Playing is the stage's round being played, if any: its results
	// count once it is completed.
	Playing *roundProgress
	// Odds are the simulated chances of the stage being played (odds.go).
	Odds *oddsView
	Nav  []navLink // the event's public pages
}

// roundProgress is how far a published round has come.
type roundProgress struct {
	Number    int
	Final, Of int
	Deadline  time.Time
}

type poolTable struct {
	Pool  string // "" outside pool stages
	Table standings.Table
}

// standingsPage shows a stage's standings (?stage=N, 1-based; default the
// stage being played) with every tiebreak of the stage as a column.
func (s *Server) standingsPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	ev, err := s.reads.event(ctx, s.app, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := standingsData{Ev: ev, Stage: ev.Stage}
	if v, err := s.loadEvent(ctx, slug); err == nil {
		d.Nav = v.nav("Standings")
	}
	title := "Standings: " + ev.Name
	if ev.Status == arbiter.EventRegistration {
		d.Notice = "Registration is open: there are standings once it closes and the first round is played."
		s.render(w, r, http.StatusOK, "standings", page{Title: title, Nav: "home", Live: liveURL(slug), Data: d})
		return
	}
	if v := r.URL.Query().Get("stage"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > len(ev.Stages) {
			s.fail(w, r, arbiter.FieldError("stage", "web.stage", "stage must be a number from 1 to %d", len(ev.Stages)))
			return
		}
		d.Stage = n - 1
	}
	sg := ev.Stages[d.Stage]
	after, err := afterParam(r.URL.Query().Get("after"), sg.Rounds)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pools := []string{""}
	if sg.Kind == format.Pool {
		pools = pools[:0]
		for _, p := range sg.Pools {
			pools = append(pools, p.Name)
		}
	}
	for _, p := range pools {
		t, err := s.reads.standings(ctx, s.app, slug, d.Stage, p, after)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		d.Tables = append(d.Tables, poolTable{Pool: p, Table: t.Table})
		d.After, d.Completed = t.After, nil
		for n := 1; n <= t.Completed; n++ {
			d.Completed = append(d.Completed, n)
		}
	}
	if d.Playing, err = s.roundProgress(ctx, slug, d.Stage); err != nil {
		s.fail(w, r, err)
		return
	}
	if len(d.Tables) == 0 {
		d.Notice = fmt.Sprintf("Stage %s has no entrants yet.", sg.Name)
	} else {
		d.Odds = s.standingsOdds(ctx, ev, d.Stage)
		if d.Odds != nil && (d.Odds.Pending || d.Odds.Stale) {
			// The simulation ends without a change to the event: the
			// page must not be kept until the next one.
			w.Header().Set("Cache-Control", "no-store")
		}
	}
	s.render(w, r, http.StatusOK, "standings", page{Title: title, Nav: "home", Live: liveURL(slug), Data: d})
}

// roundProgress is the stage's published round and how many of its
// matches (byes aside) have a final result; nil when none is being played.
func (s *Server) roundProgress(ctx context.Context, slug string, stage int) (*roundProgress, error) {
	rs, err := s.reads.rounds(ctx, s.app, slug)
	if err != nil {
		return nil, err
	}
	for _, rd := range rs {
		if rd.Stage != stage || rd.Status != arbiter.RoundPublished {
			continue
		}
		ms, err := s.reads.matches(ctx, s.app, slug, rd.ID)
		if err != nil {
			return nil, err
		}
		p := &roundProgress{Number: rd.Number, Deadline: deadlineOf(rd.End)}
		for _, m := range ms {
			if m.IsBye() {
				continue
			}
			p.Of++
			if m.Status == arbiter.MatchFinal {
				p.Final++
			}
		}
		return p, nil
	}
	return nil, nil
}

// utcTime shows an instant as "Mon 13 Jan 2025 23:59 UTC".
func utcTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
}
