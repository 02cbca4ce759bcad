package web

import (
	"net/http"

	"arbiter"
	"arbiter/app"
)

// apiPairingEditRoutes are the API of the pairing review and edits, late
// entries and entrant corrections (web/openapi/pairing_edit.json): the
// same use cases as the console's forms, acting as TD.
var apiPairingEditRoutes = []apiRoute{
	{"GET /api/events/{slug}/rounds/{round}/review", func(s *Server) http.HandlerFunc { return s.apiReviewPairings }},
	{"POST /api/events/{slug}/rounds/{round}/edits", func(s *Server) http.HandlerFunc { return s.apiEditPairing }},
	{"POST /api/events/{slug}/late-entries", func(s *Server) http.HandlerFunc { return s.apiLateEntry }},
	{"POST /api/events/{slug}/entrants/{id}/edit", func(s *Server) http.HandlerFunc { return s.apiEditEntrant }},
}

func (s *Server) apiReviewPairings(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	ctx, slug := r.Context(), r.PathValue("slug")
	if err := s.checkRound(ctx, slug, r.PathValue("round")); err != nil {
		s.apiFail(w, r, err)
		return
	}
	rv, err := s.app.ReviewPairings(ctx, a, slug)
	s.apiAnswer(w, r, http.StatusOK, rv, err)
}

type apiPairingEdit struct {
	Kind     string   `json:"kind"`
	Entrants []string `json:"entrants"`
	Reason   string   `json:"reason"`
	Confirm  bool     `json:"confirm"`
	Preview  bool     `json:"preview"`
}

type apiPairingEdited struct {
	Edit    app.PairingEdit `json:"edit"`
	Matches []arbiter.Match `json:"matches"`
}

// apiEditPairing applies (201) or previews (200) an edit of the round in
// the path, which must be the current one.
func (s *Server) apiEditPairing(w http.ResponseWriter, r *http.Request) {
	var in apiPairingEdit
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	ctx, slug := r.Context(), r.PathValue("slug")
	if err := s.checkRound(ctx, slug, r.PathValue("round")); err != nil {
		s.apiFail(w, r, err)
		return
	}
	ed, ms, err := s.app.EditPairing(ctx, a, slug, app.PairingEditRequest{Kind: in.Kind, Entrants: in.Entrants, Reason: in.Reason,
		Confirm: in.Confirm, Preview: in.Preview})
	if ms == nil {
		ms = []arbiter.Match{}
	}
	status := http.StatusCreated
	if in.Preview {
		status = http.StatusOK
	}
	s.apiAnswer(w, r, status, apiPairingEdited{Edit: ed, Matches: ms}, err)
}

type apiLateEntry struct {
	Player     string   `json:"player"`
	Name       string   `json:"name"`
	Captain    string   `json:"captain"`
	Members    []string `json:"members"`
	Substitute string   `json:"substitute"`
	Rating     int      `json:"rating"`
	Reason     string   `json:"reason"`
}

func (s *Server) apiLateEntry(w http.ResponseWriter, r *http.Request) {
	var in apiLateEntry
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	e := arbiter.Entrant{Player: in.Player, Name: in.Name, Captain: in.Captain, Members: in.Members, Substitute: in.Substitute, Rating: in.Rating}
	got, err := s.app.LateEntry(r.Context(), a, r.PathValue("slug"), e, in.Reason)
	if err == nil {
		w.Header().Set("Location", "/api/events/"+r.PathValue("slug")+"/entrants/"+got.ID)
	}
	s.apiAnswer(w, r, http.StatusCreated, got, err)
}

type apiEntrantEdit struct {
	Name       *string  `json:"name"`
	Rating     *int     `json:"rating"`
	Members    []string `json:"members"`
	Substitute *string  `json:"substitute"`
	Reason     string   `json:"reason"`
	Version    int64    `json:"version"`
}

func (s *Server) apiEditEntrant(w http.ResponseWriter, r *http.Request) {
	var in apiEntrantEdit
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	out, err := s.app.EditEntrant(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), app.EntrantEdit{Name: in.Name, Rating: in.Rating,
		Members: in.Members, Substitute: in.Substitute, Reason: in.Reason, Version: in.Version})
	s.apiAnswer(w, r, http.StatusOK, out, err)
}
