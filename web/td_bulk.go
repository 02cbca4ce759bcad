package web

import (
	"net/http"

	"arbiter"
)

// tdBulkPairing turns bulk pairing on Lichess on or off for the event
// (app.SetBulkPairing, audited).
func (s *Server) tdBulkPairing(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		on := r.FormValue("on") == "1"
		_, err := s.app.SetBulkPairing(r.Context(), a, slug, on)
		if on {
			return "Bulk pairing is on: players who sign in with Lichess from the event's pages are asked for challenge:write.", err
		}
		return "Bulk pairing is off: every game is an open challenge.", err
	})
}
