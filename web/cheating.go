package web

import (
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
)

// Private reports of suspected cheating (A6): a player or captain sends
// one from the event page; only the event's TDs read and close them, on
// the console and through the API.

// cheatingPost sends a report from the event page's form.
func (s *Server) cheatingPost(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.act(w, r, arbiter.RolePlayer, "/events/"+slug, func(a arbiter.Actor) (string, error) {
		_, err := s.app.ReportCheating(r.Context(), a, slug, app.CheatReportRequest{Suspect: r.FormValue("suspect"),
			Match: strings.TrimSpace(r.FormValue("match")), Text: r.FormValue("text")})
		return "Your report was sent to the TDs. Only they can read it.", err
	})
}

// tdCloseCheating records the TDs' conclusion on a report.
func (s *Server) tdCloseCheating(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		cr, err := s.app.CloseCheatReport(r.Context(), a, slug, r.PathValue("id"), strings.TrimSpace(r.FormValue("outcome")))
		return "Report " + cr.ID + " closed.", err
	})
}

type apiCheatReport struct {
	Suspect string `json:"suspect"`
	Match   string `json:"match"`
	Text    string `json:"text"`
}

// apiReportCheating: POST /api/events/{slug}/cheating (a player or captain
// of the event). The answer is only the report's ID and time: the
// reporter's copy is theirs already.
func (s *Server) apiReportCheating(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiActorAs(w, r, arbiter.RolePlayer)
	if !ok {
		return
	}
	var in apiCheatReport
	if err := decodeJSON(r, &in); err != nil {
		s.apiFail(w, r, err)
		return
	}
	cr, err := s.app.ReportCheating(r.Context(), a, r.PathValue("slug"), app.CheatReportRequest{Suspect: in.Suspect, Match: in.Match, Text: in.Text})
	s.apiAnswer(w, r, http.StatusCreated, map[string]any{"id": cr.ID, "at": cr.At}, err)
}

// apiCheatReports: GET /api/events/{slug}/cheating (TDs).
func (s *Server) apiCheatReports(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	crs, err := s.app.CheatReports(r.Context(), a, r.PathValue("slug"))
	if crs == nil {
		crs = []app.CheatReport{}
	}
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"reports": crs}, err)
}

type apiCloseCheating struct {
	Outcome string `json:"outcome"`
}

// apiCloseCheating: POST /api/events/{slug}/cheating/{id}/close (TDs).
func (s *Server) apiCloseCheating(w http.ResponseWriter, r *http.Request) {
	var in apiCloseCheating
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	cr, err := s.app.CloseCheatReport(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Outcome)
	s.apiAnswer(w, r, http.StatusOK, cr, err)
}
