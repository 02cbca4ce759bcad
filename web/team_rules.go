package web

import (
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
)

// A11's team rules on the TD console and in the API: the TD records the
// members' antichess titles (Lichess does not show AGM or ASGM) and checks
// the team on Lichess's ratings and histories (app.CheckTeamRules).

func init() {
	apiTDRoutes = append(apiTDRoutes,
		apiRoute{"POST /api/events/{slug}/entrants/{id}/team-rules", func(s *Server) http.HandlerFunc { return s.apiTeamRules }})
}

// apiTeamRulesIn is the TD's record of titles (player to AGM, ASGM or
// none), optional.
type apiTeamRulesIn struct {
	Titles map[string]string `json:"titles"`
}

func (apiTeamRulesIn) optional() {}

func (s *Server) apiTeamRules(w http.ResponseWriter, r *http.Request) {
	var in apiTeamRulesIn
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	c, err := s.app.CheckTeamRules(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), app.TeamRulesRequest{Titles: in.Titles})
	s.apiAnswer(w, r, http.StatusOK, c, err)
}

// tdTeamRules is the console's form: "cap01:AGM, a01:ASGM, b01:none".
func (s *Server) tdTeamRules(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		titles, err := parseTitles(r.FormValue("titles"))
		if err != nil {
			return "", err
		}
		c, err := s.app.CheckTeamRules(r.Context(), a, slug, id, app.TeamRulesRequest{Titles: titles})
		return "A11 team rules of " + c.Entrant + ": " + c.Summary() + ".", err
	})
}

// parseTitles reads "user:AGM, user:none" (empty: none given).
func parseTitles(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		u, t, ok := strings.Cut(strings.TrimSpace(f), ":")
		if !ok || strings.TrimSpace(u) == "" {
			return nil, arbiter.FieldError("titles", "web.titles", "write each title as user:AGM, user:ASGM or user:none, got %q", strings.TrimSpace(f))
		}
		out[strings.TrimSpace(u)] = strings.TrimSpace(t)
	}
	return out, nil
}
