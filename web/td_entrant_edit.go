package web

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// The TD console's entrant forms (docs/web-td.md): correcting an
// entrant (from its row in the console) and entering one late (from the
// registrations). A refused form comes back with what was typed and the
// error beside its field.

func (s *Server) tdEntrantEditRoutes() {
	s.handleFunc("GET /events/{slug}/td/entrants/{id}/edit", s.tdEntrantEditPage)
	s.handleFunc("POST /events/{slug}/td/entrants/{id}/edit", s.tdEditEntrant)
	s.handleFunc("GET /events/{slug}/td/late-entry", s.tdLateEntryPage)
	s.handleFunc("POST /events/{slug}/td/late-entry", s.tdLateEntry)
}

// tdEntrantForm is the edit or late-entry form as shown and as typed.
type tdEntrantForm struct {
	Ev   arbiter.Event
	Here string
	Late bool // the late-entry form; else the edit of entrant ID
	Team bool
	ID   string
	// Was is the entrant before the edit.
	Was                                                     arbiter.Entrant
	Name, Player, Rating, Captain, Members, Substitute, Why string
	Version                                                 int64
	Error, Field                                            string
}

func (s *Server) tdEntrantEditPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	e, err := s.entrantOf(r, ev.Slug, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdEntrantForm{ID: e.ID, Was: e, Team: e.Kind == arbiter.EntrantTeam, Name: e.Name, Rating: strconv.Itoa(e.Rating),
		Members: strings.Join(e.Members, ", "), Substitute: e.Substitute, Version: e.Version}
	s.renderEntrantForm(w, r, ev, http.StatusOK, d)
}

func (s *Server) entrantOf(r *http.Request, slug, id string) (arbiter.Entrant, error) {
	_, es, err := s.entrantNames(r.Context(), slug)
	if err != nil {
		return arbiter.Entrant{}, err
	}
	i := slices.IndexFunc(es, func(e arbiter.Entrant) bool { return e.ID == strings.ToLower(id) })
	if i < 0 {
		return arbiter.Entrant{}, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no entrant %q", slug, id)
	}
	return es[i], nil
}

func (s *Server) renderEntrantForm(w http.ResponseWriter, r *http.Request, ev arbiter.Event, status int, d tdEntrantForm) {
	d.Ev, d.Here = ev, "console"
	title := "Edit " + d.Was.Name
	if d.Late {
		title = "Late entry"
	}
	s.render(w, r, status, "td_entrant_edit", page{Title: title + ": " + ev.Name, Nav: "home", Data: d})
}

// formError puts err beside its field on the form.
func (d *tdEntrantForm) formError(err error) {
	d.Error = userMessage(err)
	var e *arbiter.Error
	if errors.As(err, &e) {
		d.Field = strings.SplitN(e.Field, "[", 2)[0]
	}
}

func (s *Server) tdEditEntrant(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, err := actorAs(r, arbiter.RoleTD)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	was, err := s.entrantOf(r, ev.Slug, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdEntrantForm{ID: was.ID, Was: was, Team: was.Kind == arbiter.EntrantTeam, Name: strings.TrimSpace(r.FormValue("name")),
		Rating: strings.TrimSpace(r.FormValue("rating")), Members: r.FormValue("members"), Substitute: strings.TrimSpace(r.FormValue("substitute")),
		Why: strings.TrimSpace(r.FormValue("reason"))}
	if d.Version, err = formVersion(r, "version"); err != nil {
		d.formError(err)
		s.renderEntrantForm(w, r, ev, http.StatusBadRequest, d)
		return
	}
	// Only what the TD changed is sent: an unchanged field, or one left
	// blank (or out of the form), is no edit; a blank substitute removes it.
	req := app.EntrantEdit{Reason: d.Why, Version: d.Version}
	if d.Name == "" {
		d.Name = was.Name
	}
	if d.Name != was.Name {
		req.Name = &d.Name
	}
	if d.Rating != "" && d.Rating != strconv.Itoa(was.Rating) {
		n, err := strconv.Atoi(d.Rating)
		if err != nil {
			d.formError(arbiter.FieldError("rating", "web.number", "the rating is a whole number"))
			s.renderEntrantForm(w, r, ev, http.StatusBadRequest, d)
			return
		}
		req.Rating = &n
	}
	if d.Team {
		if ms := splitList(d.Members); len(ms) > 0 && !slices.Equal(lower(ms), was.Members) {
			req.Members = ms
		}
		if _, sent := r.PostForm["substitute"]; sent && strings.ToLower(d.Substitute) != was.Substitute {
			req.Substitute = &d.Substitute
		}
	}
	out, err := s.app.EditEntrant(r.Context(), a, ev.Slug, was.ID, req)
	if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
		s.internal(w, r, err)
		return
	}
	if err != nil {
		d.formError(err)
		s.renderEntrantForm(w, r, ev, httpStatus(arbiter.ErrorCode(err)), d)
		return
	}
	msg := "Edited " + out.Entrant.Name + ": " + strings.Join(out.Changes, "; ") + "."
	for _, n := range out.Notes {
		msg += " Note: " + n + "."
	}
	s.setFlash(w, r, false, msg)
	http.Redirect(w, r, consoleURL(ev.Slug)+"#entrant-"+out.Entrant.ID, http.StatusSeeOther)
}

func lower(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

func (s *Server) tdLateEntryPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	f, err := s.app.Format(r.Context(), ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.renderEntrantForm(w, r, ev, http.StatusOK, tdEntrantForm{Late: true, Team: f.Entrant == format.Team})
}

func (s *Server) tdLateEntry(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, err := actorAs(r, arbiter.RoleTD)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	f, err := s.app.Format(r.Context(), ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdEntrantForm{Late: true, Team: f.Entrant == format.Team, Name: strings.TrimSpace(r.FormValue("name")), Player: strings.TrimSpace(r.FormValue("player")),
		Rating: strings.TrimSpace(r.FormValue("rating")), Captain: strings.TrimSpace(r.FormValue("captain")), Members: r.FormValue("members"),
		Substitute: strings.TrimSpace(r.FormValue("substitute")), Why: strings.TrimSpace(r.FormValue("reason"))}
	e := arbiter.Entrant{Player: d.Player}
	if d.Team {
		e = arbiter.Entrant{Kind: arbiter.EntrantTeam, Name: d.Name, Captain: d.Captain, Members: splitList(d.Members), Substitute: d.Substitute}
	}
	if d.Rating != "" {
		if e.Rating, err = strconv.Atoi(d.Rating); err != nil {
			d.formError(arbiter.FieldError("rating", "web.number", "the rating is a whole number"))
			s.renderEntrantForm(w, r, ev, http.StatusBadRequest, d)
			return
		}
	}
	got, err := s.app.LateEntry(r.Context(), a, ev.Slug, e, d.Why)
	if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
		s.internal(w, r, err)
		return
	}
	if err != nil {
		d.formError(err)
		s.renderEntrantForm(w, r, ev, httpStatus(arbiter.ErrorCode(err)), d)
		return
	}
	msg := fmt.Sprintf("Entered %s late and approved it.", got.Name)
	if got.Seed > 0 {
		msg += fmt.Sprintf(" Seed %d; the rounds already paired count as unplayed, with no points.", got.Seed)
	}
	s.setFlash(w, r, false, msg)
	http.Redirect(w, r, consoleURL(ev.Slug)+"#entrant-"+got.ID, http.StatusSeeOther)
}
