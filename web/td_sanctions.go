package web

import (
	"fmt"
	"net/http"
	"strconv"
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
		return fmt.Sprintf("Sanction %s recorded (%s, rule %s); %s changed.", x.ID, words(x.Kind), x.Rule, count(len(changed), "match", "matches")), err
	})
}

// tdReplacement names a replacement for a member a sanction removed
// (R14, A15); the TDs vouch for the ratings, eligibility and willingness.
func (s *Server) tdReplacement(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, "/events/"+slug+"/td/sanctions", func(a arbiter.Actor) (string, error) {
		rating, err := formInt(r, "rating")
		if err != nil {
			return "", err
		}
		replaced, err := formInt(r, "replaced_rating")
		if err != nil {
			return "", err
		}
		req := app.ReplacementRequest{Entrant: strings.TrimSpace(r.FormValue("entrant")), Replaced: strings.TrimSpace(r.FormValue("replaced")),
			Player: strings.TrimSpace(r.FormValue("player")), Rating: rating, ReplacedRating: replaced,
			Eligible: r.FormValue("eligible") != "", Willing: r.FormValue("willing") != "", Reason: strings.TrimSpace(r.FormValue("reason"))}
		e, err := s.app.NameReplacement(r.Context(), a, slug, req)
		return req.Player + " replaces " + req.Replaced + " in " + e.Name + ".", err
	})
}

// formInt reads a required whole number.
func formInt(r *http.Request, field string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(r.FormValue(field)))
	if err != nil {
		return 0, arbiter.FieldError(field, "web.number", "%s must be a whole number", field)
	}
	return n, nil
}
