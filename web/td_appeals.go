package web

import (
	"net/http"
	"strings"

	"arbiter"
)

// tdAppealsData lists an event's appeals, pending first.
type tdAppealsData struct {
	Ev      arbiter.Event
	Here    string
	Pending []tdAppealRow
	Decided []tdAppealRow
}

type tdAppealRow struct {
	A      arbiter.Appeal
	Result string // the result the TD set, if accepted
}

func (s *Server) tdAppealsPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	aps, err := s.app.Appeals(r.Context(), ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdAppealsData{Ev: ev, Here: "appeals"}
	for _, ap := range aps {
		row := tdAppealRow{A: ap, Result: outcomeText(ap.Result)}
		if ap.Status == arbiter.AppealPending {
			d.Pending = append(d.Pending, row)
		} else {
			d.Decided = append(d.Decided, row)
		}
	}
	s.render(w, r, http.StatusOK, "td_appeals", page{Title: "Appeals: " + ev.Name, Nav: "home", Data: d})
}

// tdDecideAppeal accepts (optionally with the corrected result) or
// rejects an appeal, with a reason.
func (s *Server) tdDecideAppeal(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, "/events/"+slug+"/td/appeals", func(a arbiter.Actor) (string, error) {
		var accept bool
		switch r.FormValue("action") {
		case "accept":
			accept = true
		case "reject":
		default:
			return "", arbiter.FieldError("action", "web.action", "action must be accept or reject")
		}
		reason := strings.TrimSpace(r.FormValue("reason"))
		if reason == "" {
			return "", arbiter.FieldError("reason", "web.reason", "a decision on an appeal needs a reason")
		}
		in, err := appealResult(r.FormValue("outcome"), r.FormValue("summary"), r.FormValue("sheet"), accept)
		if err != nil {
			return "", err
		}
		ap, err := s.app.DecideAppeal(r.Context(), a, slug, id, accept, in, reason)
		return "Appeal " + ap.ID + " " + ap.Status + ".", err
	})
}
