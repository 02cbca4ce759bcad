package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// publicRoutes registers the public event pages: pairings, crosstable, bracket, pools, player and team pages.
func (s *Server) publicRoutes() {
	s.handleFunc("GET /events/{slug}/rounds/{round}", s.roundPage)
	s.handleFunc("GET /events/{slug}/crosstable", s.crosstablePage)
	s.handleFunc("GET /events/{slug}/bracket", s.bracketPage)
	s.handleFunc("GET /events/{slug}/pools", s.poolsPage)
	s.handleFunc("GET /events/{slug}/entrants", s.entrantsPage)
	s.handleFunc("GET /events/{slug}/entrants/{id}", s.entrantPage)
}

// apiPublicRoutes are the API routes of the public event pages: pairings, crosstable, bracket, pools, player and team pages.
var apiPublicRoutes = []apiRoute{
	{"GET /api/events/{slug}/entrants", func(s *Server) http.HandlerFunc { return s.apiEntrants }},
	{"GET /api/events/{slug}/entrants/{id}", func(s *Server) http.HandlerFunc { return s.apiEntrant }},
	{"GET /api/events/{slug}/crosstable", func(s *Server) http.HandlerFunc { return s.apiCrosstable }},
	{"GET /api/events/{slug}/bracket", func(s *Server) http.HandlerFunc { return s.apiBracket }},
	{"GET /api/events/{slug}/pools", func(s *Server) http.HandlerFunc { return s.apiPools }},
}

// eventView is what every public page of an event reads first: the event,
// its format, its entrants and its public rounds and matches.
type eventView struct {
	Ev       arbiter.Event
	F        *format.Format
	Entrants []arbiter.Entrant
	byID     map[string]*arbiter.Entrant
	// Rounds are the rounds whose pairings are public (published or
	// closed): a round still under the TDs' review stays hidden. (Built
	// from one of app's views, they are the rounds its user sees.)
	Rounds []arbiter.Round
	// Matches are the matches of those rounds, by round and board.
	Matches []arbiter.Match
	// all is every paired round, public or not, for their states.
	all []arbiter.Round
}

// loadEvent reads the event and everything its public pages show, kept
// while the event stands still (readCache): callers share the view and
// must not change it.
func (s *Server) loadEvent(ctx context.Context, slug string) (*eventView, error) {
	return cachedRead(s.reads, ctx, slug, "view", func() (*eventView, error) { return s.readEvent(ctx, slug) })
}

// readEvent reads the event and everything its public pages show.
func (s *Server) readEvent(ctx context.Context, slug string) (*eventView, error) {
	ev, err := s.app.Event(ctx, slug)
	if err != nil {
		return nil, err
	}
	f, err := s.app.Format(ctx, slug)
	if err != nil {
		return nil, err
	}
	es, err := s.app.Entrants(ctx, slug)
	if err != nil {
		return nil, err
	}
	v := newEventView(ev, f, es, nil, nil)
	rounds, err := s.app.Rounds(ctx, slug)
	if err != nil {
		return nil, err
	}
	v.all = rounds
	public := map[string]bool{}
	for _, rd := range rounds {
		if isPublicRound(rd) {
			v.Rounds = append(v.Rounds, rd)
			public[rd.ID] = true
		}
	}
	if len(v.Rounds) > 0 {
		ms, err := s.app.Matches(ctx, slug, "")
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if public[roundID(m.Stage, m.Round)] {
				v.Matches = append(v.Matches, m)
			}
		}
	}
	return v, nil
}

// newEventView is an eventView of what one of app's views read: the
// rounds and matches are those its user sees.
func newEventView(ev arbiter.Event, f *format.Format, es []arbiter.Entrant, rounds []arbiter.Round, ms []arbiter.Match) *eventView {
	v := &eventView{Ev: ev, F: f, Entrants: es, byID: make(map[string]*arbiter.Entrant, len(es)), Rounds: rounds, Matches: ms}
	for i := range v.Entrants {
		v.byID[v.Entrants[i].ID] = &v.Entrants[i]
	}
	return v
}

// isPublicRound: pairings under the TDs' review are not shown yet
// (app.PublicRound decides).
func isPublicRound(rd arbiter.Round) bool { return app.PublicRound(rd) }

// roundID is a round's ID from its 0-based stage and 1-based number.
func roundID(stage, number int) string { return fmt.Sprintf("s%dr%d", stage+1, number) }

// name is an entrant's display name (its ID when unknown).
func (v *eventView) name(id string) string {
	if e, ok := v.byID[id]; ok && e.Name != "" {
		return e.Name
	}
	return id
}

// stageEntrants are the entrants of stage si in stage seed order: the
// approved (or later removed) entrants by seed for the first stage, the
// previous stage's qualifiers after that (empty until it ends).
func (v *eventView) stageEntrants(si int) []string {
	if si > 0 {
		return v.Ev.Stages[si].Seeds
	}
	var out []string
	for _, e := range v.Entrants {
		if e.Seed > 0 && (e.Status == arbiter.EntrantApproved || e.Status == arbiter.EntrantRemoved) {
			out = append(out, e.ID)
		}
	}
	return out
}

// stageKinds are the kinds of the event's stages: as sized once
// registration closed, from the format before.
func (v *eventView) stageKinds() []stageRef {
	var out []stageRef
	if len(v.Ev.Stages) > 0 {
		for i, sg := range v.Ev.Stages {
			out = append(out, stageRef{Index: i, Name: sg.Name, Kind: sg.Kind})
		}
		return out
	}
	for i, sg := range v.F.Stages {
		out = append(out, stageRef{Index: i, Name: sg.Name, Kind: sg.Kind})
	}
	return out
}

// stageRef names one stage (Index is 0-based).
type stageRef struct {
	Index      int
	Name, Kind string
}

// Number is the 1-based stage number of ?stage=N.
func (s stageRef) Number() int { return s.Index + 1 }

// pickStage reads ?stage=N (1-based) among the stages, or takes the
// default: the stage being played if it is of a wanted kind, else the
// first stage of a wanted kind. ok is false when no stage qualifies. A
// value that is not a positive number is bad input (400); a number past
// the last stage names no stage (404).
func (v *eventView) pickStage(r *http.Request, kinds ...string) (ref stageRef, ok bool, err error) {
	stages := v.stageKinds()
	wanted := func(k string) bool {
		for _, w := range kinds {
			if k == w {
				return true
			}
		}
		return false
	}
	if q := r.URL.Query(); q.Has("stage") {
		n, err := strconv.Atoi(q.Get("stage"))
		if err != nil || n < 1 {
			return ref, false, arbiter.FieldError("stage", "web.stage", "stage must be a stage number from 1 to %d", len(stages))
		}
		if n > len(stages) {
			return ref, false, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no stage %d (it has %d)", v.Ev.Slug, n, len(stages))
		}
		return stages[n-1], wanted(stages[n-1].Kind), nil
	}
	if cur := v.Ev.Stage; len(v.Ev.Stages) > 0 && cur < len(stages) && wanted(stages[cur].Kind) {
		return stages[cur], true, nil
	}
	for _, sg := range stages {
		if wanted(sg.Kind) {
			return sg, true, nil
		}
	}
	return ref, false, nil
}

// stamp is an instant as the pages show it: RFC 3339 for the datetime
// attribute (and localtime.js), and the UTC text every reader gets.
type stamp struct {
	ISO, Text string
}

func stampOf(t time.Time) stamp {
	if t.IsZero() {
		return stamp{}
	}
	return stamp{ISO: t.UTC().Format(time.RFC3339), Text: utcTime(t)}
}

// pointsText shows a side's secondary score pair "348–228".
func pointsText(own, opp arbiter.Points) string {
	return own.String() + "–" + opp.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
