package web

import (
	"fmt"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
)

// sanctionKinds are app.SanctionRequest's kinds, in the form's order.
var sanctionKinds = []string{"withdrawal", "disqualification", "tos_violation", "lichess_ban", "ineligible", "engine_mark", "booster_mark"}

type tdSanctionsData struct {
	Ev        arbiter.Event
	Here      string
	Sanctions []arbiter.Sanction
	Entrants  []arbiter.Entrant
	Kinds     []string
	Team      bool
}

func (s *Server) tdSanctionsPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	xs, err := s.app.Sanctions(ctx, ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	_, es, err := s.entrantNames(ctx, ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdSanctionsData{Ev: ev, Here: "sanctions", Sanctions: xs, Kinds: sanctionKinds}
	for _, e := range es {
		if e.Status == arbiter.EntrantApproved {
			d.Entrants = append(d.Entrants, e)
			d.Team = d.Team || e.Kind == arbiter.EntrantTeam
		}
	}
	s.render(w, r, http.StatusOK, "td_sanctions", page{Title: "Sanctions: " + ev.Name, Nav: "home", Data: d})
}

// tdSanction records a withdrawal, disqualification or ban and applies
// what the rulebook says happens to the entrant's matches.
func (s *Server) tdSanction(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, "/events/"+slug+"/td/sanctions", func(a arbiter.Actor) (string, error) {
		req := app.SanctionRequest{Entrant: strings.TrimSpace(r.FormValue("entrant")), Player: strings.TrimSpace(r.FormValue("player")),
			Kind: r.FormValue("kind"), NotForCheating: r.FormValue("not_for_cheating") != "", Reason: strings.TrimSpace(r.FormValue("reason"))}
		x, changed, err := s.app.Sanction(r.Context(), a, slug, req)
		return fmt.Sprintf("Sanction %s recorded (%s, rule %s); %d matches changed.", x.ID, x.Kind, x.Rule, len(changed)), err
	})
}
