package web

import (
	"errors"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// tdNewData is the create-event form, refilled after an error.
type tdNewData struct {
	Presets []presetRow
	Slug    string
	Name    string
	Preset  string
	Format  string
	Start   string
	Error   string // user-safe, naming the field
	Field   string // the field at fault
	// Past asks the TD to confirm a start in the past; StartUTC is the
	// start as it will be stored, spelled out in UTC.
	Past     bool
	StartUTC string
}

// tdNewPage is the form to create an event; any signed-in user may, and
// becomes its TD.
func (s *Server) tdNewPage(w http.ResponseWriter, r *http.Request) {
	if currentUser(r) == nil {
		s.signInFirst(w, r)
		return
	}
	s.renderNew(w, r, http.StatusOK, tdNewData{Preset: format.Presets()[0]})
}

func (s *Server) renderNew(w http.ResponseWriter, r *http.Request, status int, d tdNewData) {
	rows, err := presetRows()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Presets = rows
	s.render(w, r, status, "td_new", page{Title: "New event", Nav: "home", Data: d})
}

// tdCreate creates the event (registration open) and opens its console.
// A refused form is shown again with the error beside the field, so the
// TD keeps what they typed.
func (s *Server) tdCreate(w http.ResponseWriter, r *http.Request) {
	a, err := actorAs(r, arbiter.RoleTD)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	d := tdNewData{Slug: strings.TrimSpace(r.FormValue("slug")), Name: strings.TrimSpace(r.FormValue("name")),
		Preset: strings.TrimSpace(r.FormValue("preset")), Format: strings.TrimSpace(r.FormValue("format")),
		Start: strings.TrimSpace(r.FormValue("start"))}
	req := app.NewEvent{Slug: d.Slug, Name: d.Name}
	if d.Format != "" {
		req.Format = []byte(d.Format) // a pasted format file wins over the preset list
	} else {
		req.Preset = d.Preset
	}
	req.Start, err = parseUTC("start", d.Start)
	req.AllowPast = r.FormValue("allow_past") == "yes"
	var ev arbiter.Event
	if err == nil {
		ev, err = s.createEvent(r, a, req)
	}
	var e *arbiter.Error
	if errors.As(err, &e) && e.Rule == app.PastRule {
		// A start in the past is a mistake more often than not: the TD
		// sees it spelled out in UTC and confirms it, or corrects it.
		d.Past, d.StartUTC = true, utcTime(req.Start)
	}
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		d.Error = userMessage(err)
		var e *arbiter.Error
		if errors.As(err, &e) {
			d.Field = e.Field
		}
		s.renderNew(w, r, httpStatus(arbiter.ErrorCode(err)), d)
		return
	}
	s.setFlash(w, r, false, "Created "+ev.Name+"; registration is open.")
	http.Redirect(w, r, consoleURL(ev.Slug), http.StatusSeeOther)
}

// createEvent is app.CreateEvent for a form or request body: an unknown
// preset is bad input naming the field, not a missing page.
func (s *Server) createEvent(r *http.Request, a arbiter.Actor, req app.NewEvent) (arbiter.Event, error) {
	ev, err := s.app.CreateEvent(r.Context(), a, req)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND && req.Preset != "" {
		return ev, arbiter.FieldError("preset", "format.preset", "%s", arbiter.ErrorMessage(err))
	}
	return ev, err
}
