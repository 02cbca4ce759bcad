package web

import (
	"context"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// teamRoutes registers captains' and players' pages: /me, registration,
// the match page and the captain's page, each with its POST forms
// (post/redirect/get through s.act). Package app checks every permission;
// these pages only choose the role to act in and which controls to show.
func (s *Server) teamRoutes() {
	s.handleFunc("GET /me", s.mePage)
	s.handleFunc("GET /events/{slug}/register", s.registerPage)
	s.handleFunc("POST /events/{slug}/register", s.registerPost)
	s.handleFunc("GET /events/{slug}/matches/{match}", s.matchPage)
	s.handleFunc("POST /events/{slug}/matches/{match}/offers", s.matchOfferPost)
	s.handleFunc("POST /events/{slug}/matches/{match}/report", s.matchReportPost)
	s.handleFunc("POST /events/{slug}/matches/{match}/confirm", s.matchConfirmPost)
	s.handleFunc("POST /events/{slug}/matches/{match}/dispute", s.matchDisputePost)
	s.handleFunc("POST /events/{slug}/matches/{match}/appeal", s.matchAppealPost)
	s.handleFunc("POST /events/{slug}/matches/{match}/armageddon", s.matchArmageddonPost)
	s.handleFunc("GET /events/{slug}/teams/{team}/captain", s.captainPage)
	s.handleFunc("POST /events/{slug}/teams/{team}/boards", s.boardsPost)
	s.handleFunc("POST /events/{slug}/teams/{team}/lineup", s.lineupPost)
	s.handleFunc("POST /events/{slug}/teams/{team}/wildcard", s.wildCardPost)
	s.handleFunc("POST /events/{slug}/teams/{team}/substitution", s.substitutionPost)
	s.handleFunc("POST /events/{slug}/cheating", s.cheatingPost)
}

// apiTeamRoutes are the API routes of captains' and players' pages
// (described in openapi/team.json).
var apiTeamRoutes = []apiRoute{
	{"GET /api/me/events", func(s *Server) http.HandlerFunc { return s.apiMyEvents }},
	{"POST /api/events/{slug}/cheating", func(s *Server) http.HandlerFunc { return s.apiReportCheating }},
	{"POST /api/events/{slug}/entrants", func(s *Server) http.HandlerFunc { return s.apiRegister }},
	{"GET /api/events/{slug}/matches/{match}", func(s *Server) http.HandlerFunc { return s.apiMatch }},
	{"GET /api/events/{slug}/matches/{match}/reports", func(s *Server) http.HandlerFunc { return s.apiReports }},
	{"POST /api/events/{slug}/matches/{match}/offers", func(s *Server) http.HandlerFunc { return s.apiOffer }},
	{"POST /api/events/{slug}/matches/{match}/reports", func(s *Server) http.HandlerFunc { return s.apiReport }},
	{"POST /api/events/{slug}/matches/{match}/confirm", func(s *Server) http.HandlerFunc { return s.apiConfirm }},
	{"POST /api/events/{slug}/matches/{match}/dispute", func(s *Server) http.HandlerFunc { return s.apiDispute }},
	{"POST /api/events/{slug}/matches/{match}/appeals", func(s *Server) http.HandlerFunc { return s.apiAppeal }},
	{"POST /api/events/{slug}/matches/{match}/armageddon", func(s *Server) http.HandlerFunc { return s.apiArmageddon }},
	{"PUT /api/events/{slug}/teams/{team}/boards", func(s *Server) http.HandlerFunc { return s.apiBoards }},
	{"PUT /api/events/{slug}/teams/{team}/lineups/{seq}", func(s *Server) http.HandlerFunc { return s.apiLineup }},
	{"POST /api/events/{slug}/teams/{team}/substitutions", func(s *Server) http.HandlerFunc { return s.apiSubstitution }},
}

// matchInfo is one match with what its pages need around it.
type matchInfo struct {
	Ev       arbiter.Event
	F        *format.Format
	M        arbiter.Match
	Round    arbiter.Round
	Home     arbiter.Entrant
	Away     arbiter.Entrant // zero for a bye
	Entrants map[string]arbiter.Entrant
}

// loadMatch reads a match of an event with its round and entrants. A
// match of a round not yet published is not public: it is not found
// unless the viewer is a TD of the event.
func (s *Server) loadMatch(ctx context.Context, slug, id string, roles app.Roles) (*matchInfo, error) {
	ev, err := s.app.Event(ctx, slug)
	if err != nil {
		return nil, err
	}
	f, err := s.app.Format(ctx, slug)
	if err != nil {
		return nil, err
	}
	ms, err := s.app.Matches(ctx, slug, roundOfMatch(id))
	if err != nil {
		return nil, err
	}
	mi := &matchInfo{Ev: ev, F: f}
	found := false
	for _, m := range ms {
		if m.ID == id {
			mi.M, found = m, true
		}
	}
	if found {
		found = false
		rs, err := s.app.Rounds(ctx, slug)
		if err != nil {
			return nil, err
		}
		for _, rd := range rs {
			if rd.Stage == mi.M.Stage && rd.Number == mi.M.Round {
				mi.Round, found = rd, roles.SeesRound(rd)
			}
		}
	}
	if !found {
		return nil, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no published match %q", slug, id)
	}
	es, err := s.app.Entrants(ctx, slug)
	if err != nil {
		return nil, err
	}
	mi.Entrants = map[string]arbiter.Entrant{}
	for _, e := range es {
		mi.Entrants[e.ID] = e
	}
	mi.Home, mi.Away = mi.Entrants[mi.M.Home], mi.Entrants[mi.M.Away]
	return mi, nil
}

// roundOfMatch is the round ID of a match ID ("s1r3b2" → "s1r3"), so that
// only one round's matches are read; "" (every round) when it has no board.
func roundOfMatch(id string) string {
	if i := strings.LastIndexByte(id, 'b'); i > 0 && strings.HasPrefix(id, "s") {
		return id[:i]
	}
	return ""
}

// rolesOf is the signed-in user's roles in the event (none when
// anonymous).
func (s *Server) rolesOf(r *http.Request, slug string) (app.Roles, error) {
	u := currentUser(r)
	if u == nil {
		return app.Roles{}, nil
	}
	return s.app.RolesOf(r.Context(), slug, u.LichessUsername)
}

// matchSide is the side ("home", "away") the user acts for in match m and
// the role to act in: a team's captain acts as captain, an individual
// entrant as player; "" when the user is neither.
func matchSide(roles app.Roles, m arbiter.Match) (side, role string) { return roles.MatchSide(m) }

// actingRole is the role a user's match action claims: their side's
// (captain of a team, player of an individual event). Anyone else claims
// the event's ordinary role and app refuses them; a TD's decisions on a
// match belong to the TD console, never to these pages.
func (s *Server) actingRole(r *http.Request, slug, matchID string) string {
	ctx := r.Context()
	if roles, err := s.rolesOf(r, slug); err == nil {
		if ms, err := s.app.Matches(ctx, slug, roundOfMatch(matchID)); err == nil {
			for _, m := range ms {
				if m.ID != matchID {
					continue
				}
				if _, role := matchSide(roles, m); role != "" {
					return role
				}
			}
		}
	}
	if f, err := s.app.Format(ctx, slug); err == nil && f.Entrant == "team" {
		return arbiter.RoleCaptain
	}
	return arbiter.RolePlayer
}
