package web

import (
	"net/http"

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
	s.handleFunc("POST /events/{slug}/matches/{match}/check", s.matchCheckPost)
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

// rolesOf is the signed-in user's roles in the event (none when
// anonymous).
func (s *Server) rolesOf(r *http.Request, slug string) (app.Roles, error) {
	u := currentUser(r)
	if u == nil {
		return app.Roles{}, nil
	}
	return s.app.RolesOf(r.Context(), slug, u.LichessUsername)
}

// actingRole is the role a user's match action claims: their side's
// (captain of a team, player of an individual event). Anyone else claims
// the event's ordinary role and app refuses them; a TD's decisions on a
// match belong to the TD console, never to these pages.
func (s *Server) actingRole(r *http.Request, slug, matchID string) string {
	a, err := s.app.ActorFor(r.Context(), currentUser(r), slug, matchID)
	if err != nil {
		return arbiter.RolePlayer // the event is unknown: the use case says so
	}
	return a.Role
}
