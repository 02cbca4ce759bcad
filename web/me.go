package web

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// meData is the signed-in user's page: every event they take part in and
// their current pairings with what is expected from them.
type meData struct {
	Events []meEvent
}

type meEvent struct {
	Ev      arbiter.Event
	Roles   app.Roles
	Captain []arbiter.Entrant // teams the user captains (links to their pages)
	// Names are the display names of the event's entrants by ID.
	Names    map[string]string
	Pairings []mePairing
	// Register links to the registration page while it is open.
	Register bool
	// LineupDue is the next round whose set lineup (R7) the user's teams
	// owe, due at its start; zero outside set-lineup formats.
	LineupDue   time.Time
	LineupRound int
}

// mePairing is one current match of one of the user's entrants.
type mePairing struct {
	M           arbiter.Match
	Round       string
	Mine        string // the user's entrant
	Opponent    string
	ScheduledAt time.Time
	State       string
	Expect      []string // what the user should do next
}

func (s *Server) mePage(w http.ResponseWriter, r *http.Request) {
	if currentUser(r) == nil {
		s.signInFirst(w, r)
		return
	}
	d, err := s.meData(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "me", page{Title: "My events", Nav: "me", Data: d})
}

// meData lists every event in which the signed-in user has a part.
func (s *Server) meData(r *http.Request) (meData, error) {
	var d meData
	ctx := r.Context()
	evs, err := s.app.ListEvents(ctx)
	if err != nil {
		return d, err
	}
	for _, ev := range evs {
		roles, err := s.app.RolesOf(ctx, ev.Slug, currentUser(r).LichessUsername)
		if err != nil {
			return d, err
		}
		if !roles.Any() {
			continue
		}
		me, err := s.meEvent(r, ev, roles)
		if err != nil {
			return d, err
		}
		d.Events = append(d.Events, me)
	}
	return d, nil
}

// apiMyEvents is /me as JSON: the user's events, roles and current
// pairings with what is expected from them.
func (s *Server) apiMyEvents(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.apiActorAs(w, r, arbiter.RolePlayer); !ok {
		return
	}
	d, err := s.meData(r)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	type pairing struct {
		Match       string    `json:"match"`
		Round       string    `json:"round"`
		Entrant     string    `json:"entrant"`
		Opponent    string    `json:"opponent"`
		ScheduledAt time.Time `json:"scheduled_at,omitzero"`
		Status      string    `json:"status"`
		Expect      []string  `json:"expect"`
	}
	type event struct {
		Slug     string    `json:"slug"`
		Name     string    `json:"name"`
		Status   string    `json:"status"`
		Roles    app.Roles `json:"roles"`
		Pairings []pairing `json:"pairings"`
	}
	out := []event{}
	for _, e := range d.Events {
		ev := event{Slug: e.Ev.Slug, Name: e.Ev.Name, Status: e.Ev.Status, Roles: e.Roles, Pairings: []pairing{}}
		for _, p := range e.Pairings {
			ev.Pairings = append(ev.Pairings, pairing{Match: p.M.ID, Round: p.Round, Entrant: p.Mine, Opponent: p.Opponent,
				ScheduledAt: p.ScheduledAt, Status: p.State, Expect: append([]string{}, p.Expect...)})
		}
		out = append(out, ev)
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"events": out})
}

// meEvent gathers the user's pairings in the event's current round (the
// published one, else the last closed one).
func (s *Server) meEvent(r *http.Request, ev arbiter.Event, roles app.Roles) (meEvent, error) {
	ctx := r.Context()
	out := meEvent{Ev: ev, Roles: roles, Register: ev.Status == arbiter.EventRegistration, Names: map[string]string{}}
	es, err := s.app.Entrants(ctx, ev.Slug)
	if err != nil {
		return out, err
	}
	byID := map[string]arbiter.Entrant{}
	for _, e := range es {
		byID[e.ID] = e
		out.Names[e.ID] = entrantName(e)
		if slices.Contains(roles.Captain, e.ID) {
			out.Captain = append(out.Captain, e)
		}
	}
	f, err := s.app.Format(ctx, ev.Slug)
	if err != nil {
		return out, err
	}
	if f.Lineups == format.LineupSets && len(roles.Captain) > 0 {
		for _, w := range ev.Calendar {
			if w.Start.After(s.app.Now()) {
				out.LineupDue, out.LineupRound = w.Start, w.Seq
				break
			}
		}
	}
	mine := slices.Concat(roles.Player, roles.Captain, roles.Member)
	rs, err := s.app.Rounds(ctx, ev.Slug)
	if err != nil {
		return out, err
	}
	var cur *arbiter.Round
	for i := range rs {
		if rs[i].Status == arbiter.RoundPublished || (rs[i].Status == arbiter.RoundClosed && (cur == nil || cur.Status == arbiter.RoundClosed)) {
			cur = &rs[i]
		}
	}
	if cur == nil {
		return out, nil
	}
	ms, err := s.app.Matches(ctx, ev.Slug, cur.ID)
	if err != nil {
		return out, err
	}
	for _, m := range ms {
		var my, opp string
		switch {
		case slices.Contains(mine, m.Home):
			my, opp = m.Home, m.Away
		case m.Away != "" && slices.Contains(mine, m.Away):
			my, opp = m.Away, m.Home
		default:
			continue
		}
		p := mePairing{M: m, Round: cur.ID, Mine: entrantName(byID[my]), Opponent: "bye", ScheduledAt: m.ScheduledAt, State: m.Status}
		if opp != "" {
			p.Opponent = entrantName(byID[opp])
		}
		if p.Expect, err = s.expected(r, ev, f, m, cur); err != nil {
			return out, err
		}
		out.Pairings = append(out.Pairings, p)
	}
	return out, nil
}

// expected lists what the user should do in match m: answer the
// opponent's time offers, offer times, report, confirm or dispute.
func (s *Server) expected(r *http.Request, ev arbiter.Event, f *format.Format, m arbiter.Match, rd *arbiter.Round) ([]string, error) {
	d, err := s.matchView(r, ev.Slug, m.ID)
	if err != nil || d.Side == "" {
		return nil, err
	}
	var out []string
	if d.Open {
		switch {
		case len(d.Accept) > 0 || slices.ContainsFunc(d.Boards, func(b boardNegotiation) bool { return b.CanAct && len(b.Accept) > 0 }):
			out = append(out, "offer to answer")
		case len(d.Boards) > 0:
			// Board by board (A5): times to offer on a board the user acts
			// for that has neither a time nor the user's side's offers.
			if slices.ContainsFunc(d.Boards, func(b boardNegotiation) bool {
				return b.CanAct && b.AgreedAt.IsZero() && !slices.ContainsFunc(b.Offers, func(o offerRow) bool { return o.Mine })
			}) {
				out = append(out, "offer times")
			}
		case d.HasNegotiation && m.ScheduledAt.IsZero() && !slices.ContainsFunc(d.Offers, func(o offerRow) bool { return o.Mine }):
			out = append(out, "offer times")
		}
		out = append(out, "result to report")
	}
	if d.CanAnswer {
		out = append(out, "result to confirm")
	}
	if d.OwnReport {
		out = append(out, "waiting for the opponent's confirmation")
	}
	if f.Lineups == format.LineupSets && d.Role == arbiter.RoleCaptain {
		for _, w := range ev.Calendar {
			if w.Start.After(s.app.Now()) {
				out = append(out, "lineup due "+utcTime(w.Start)+" (round "+strconv.Itoa(w.Seq)+")")
				break
			}
		}
	}
	return out, nil
}
