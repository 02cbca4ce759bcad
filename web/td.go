package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
)

// The TD console (docs/web-td.md): the pages and forms a TD runs an event
// with, and the matching JSON API (td_api.go). Package app checks every
// permission again; the pages only decide what to show, and refuse
// non-TDs up front so that a captain sees 403, not a console.

// tdRoutes registers the TD console.
func (s *Server) tdRoutes() {
	s.handleFunc("GET /events/new", s.tdNewPage)
	s.handleFunc("POST /events/new", s.tdCreate)
	s.handleFunc("GET /events/{slug}/td", s.tdConsolePage)
	s.handleFunc("POST /events/{slug}/td/entrants/{id}", s.tdEntrantAction)
	s.handleFunc("POST /events/{slug}/td/registration", s.tdCloseRegistration)
	s.handleFunc("POST /events/{slug}/td/rounds", s.tdRoundAction)
	s.handleFunc("POST /events/{slug}/td/stages", s.tdAdvanceStage)
	s.handleFunc("POST /events/{slug}/td/officials", s.tdAddOfficial)
	s.handleFunc("POST /events/{slug}/td/forbidden", s.tdForbid)
	s.handleFunc("POST /events/{slug}/td/forbidden/{id}", s.tdRemoveForbidden)
	s.handleFunc("POST /events/{slug}/td/separated", s.tdSeparate)
	s.handleFunc("POST /events/{slug}/td/messages", s.tdMessages)
	s.handleFunc("POST /events/{slug}/td/bulk-pairing", s.tdBulkPairing)
	s.handleFunc("POST /events/{slug}/td/separated/{id}", s.tdRemoveSeparated)
	s.handleFunc("POST /events/{slug}/td/bans", s.tdBan)
	s.handleFunc("POST /events/{slug}/td/bans/{id}", s.tdLiftBan)
	s.handleFunc("POST /events/{slug}/td/cheating/{id}", s.tdCloseCheating)
	s.handleFunc("GET /events/{slug}/td/matches/{match}", s.tdMatchPage)
	s.handleFunc("POST /events/{slug}/td/matches/{match}", s.tdMatchAction)
	s.handleFunc("GET /events/{slug}/td/appeals", s.tdAppealsPage)
	s.handleFunc("POST /events/{slug}/td/appeals/{id}", s.tdDecideAppeal)
	s.handleFunc("GET /events/{slug}/td/sanctions", s.tdSanctionsPage)
	s.handleFunc("POST /events/{slug}/td/sanctions", s.tdSanction)
	s.handleFunc("POST /events/{slug}/td/replacements", s.tdReplacement)
	s.handleFunc("GET /events/{slug}/td/audit", s.tdAuditPage)
	s.handleFunc("POST /events/{slug}/td/entrants/{id}/values", s.tdEntrantValue)
	s.handleFunc("POST /events/{slug}/td/entrants/{id}/eligibility", s.tdCheckEligibility)
	s.handleFunc("POST /events/{slug}/td/entrants/{id}/team-rules", s.tdTeamRules)
	s.handleFunc("POST /events/{slug}/td/jobs/{id}", s.tdRetryJob)
	s.handleFunc("POST /events/{slug}/td/ratings", s.tdRefreshRatings)
	s.handleFunc("POST /events/{slug}/td/boards", s.tdRankBoards)
	s.tdPairingRoutes()     // td_pairing_edit.go
	s.tdEntrantEditRoutes() // td_entrant_edit.go
}

// tdGate lets a TD of the event through. Anyone else gets the answer a
// page owes them: sign in first (anonymous), 404 (no such event), 403
// (signed in, not a TD of this event).
func (s *Server) tdGate(w http.ResponseWriter, r *http.Request) (arbiter.Event, bool) {
	u := currentUser(r)
	if u == nil {
		s.signInFirst(w, r)
		return arbiter.Event{}, false
	}
	ctx := r.Context()
	slug := r.PathValue("slug")
	ev, err := s.app.Event(ctx, slug)
	if err != nil {
		s.fail(w, r, err)
		return ev, false
	}
	roles, err := s.app.RolesOf(ctx, slug, u.LichessUsername)
	if err != nil {
		s.fail(w, r, err)
		return ev, false
	}
	if !roles.TD {
		s.renderError(w, r, http.StatusForbidden, arbiter.EFORBIDDEN,
			"Only the TDs of "+ev.Name+" may use its console.")
		return ev, false
	}
	return ev, true
}

// tdAct runs a console form's action for a TD of the event (tdGate),
// then redirects to back with the outcome (s.act).
func (s *Server) tdAct(w http.ResponseWriter, r *http.Request, back string, fn func(a arbiter.Actor) (string, error)) {
	if _, ok := s.tdGate(w, r); !ok {
		return
	}
	s.act(w, r, arbiter.RoleTD, back, fn)
}

func consoleURL(slug string) string { return "/events/" + slug + "/td" }

// formVersion reads an optional record version (0: the current one) for
// optimistic locking.
func formVersion(r *http.Request, field string) (int64, error) {
	v := strings.TrimSpace(r.FormValue(field))
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, arbiter.FieldError(field, "web.version", "%s must be a whole number", field)
	}
	return n, nil
}

// splitList reads "a, b,c" or one item a line.
func splitList(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseUTC reads a time given in UTC: RFC 3339, the datetime-local
// form "2025-01-11T00:00", or a date (midnight).
func parseUTC(field, v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, arbiter.FieldError(field, "web.time", "%s is required", field)
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, arbiter.FieldError(field, "web.time", "%s must be a UTC time such as 2025-01-11T00:00 or a date such as 2025-01-07", field)
}

// currentRound is the event's latest round (the one being paired,
// reviewed or played), or nil before the first pairing.
func currentRound(rs []arbiter.Round) *arbiter.Round {
	if len(rs) == 0 {
		return nil
	}
	return &rs[len(rs)-1]
}

// checkRound refuses an action on a round that is not the current one:
// the use cases act on the current round, and a stale page or script
// must not publish or close a round other than the one it saw.
func (s *Server) checkRound(ctx context.Context, slug, id string) error {
	if id == "" {
		return nil
	}
	rs, err := s.app.Rounds(ctx, slug)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(rs, func(rd arbiter.Round) bool { return rd.ID == id }) {
		return arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no round %q", slug, id)
	}
	if cur := currentRound(rs); cur.ID != id {
		return arbiter.Errorf(arbiter.ECONFLICT, "round %s is not the current round (%s is): reload and try again", id, cur.ID)
	}
	return nil
}

// findMatch returns a match of the event by ID.
func (s *Server) findMatch(ctx context.Context, slug, id string) (arbiter.Match, error) {
	ms, err := s.app.Matches(ctx, slug, "")
	if err != nil {
		return arbiter.Match{}, err
	}
	for _, m := range ms {
		if m.ID == id {
			return m, nil
		}
	}
	return arbiter.Match{}, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no match %q", slug, id)
}

// entrantNames maps entrant IDs to names, for tables.
func (s *Server) entrantNames(ctx context.Context, slug string) (map[string]string, []arbiter.Entrant, error) {
	es, err := s.app.Entrants(ctx, slug)
	if err != nil {
		return nil, nil, err
	}
	names := make(map[string]string, len(es))
	for _, e := range es {
		names[e.ID] = e.Name
	}
	return names, es, nil
}

// resultInput builds a result from a form or JSON body: exactly one of a
// summary ("6-4", "forfeit:home", ...) or a match sheet (JSON).
func resultInput(outcome, summary, sheet string, wrongTC []string) (app.ResultInput, error) {
	in := app.ResultInput{WrongTimeControl: wrongTC}
	summary, sheet = strings.TrimSpace(summary), strings.TrimSpace(sheet)
	switch outcome {
	case "", "summary":
		if summary == "" && sheet != "" && outcome == "" {
			in.Sheet = []byte(sheet)
			return in, nil
		}
		if summary == "" {
			return in, arbiter.FieldError("summary", "web.result", "give the score, e.g. 6-4 or 4-0 3-3 5-3")
		}
		in.Summary = summary
	case "forfeit:home", "forfeit:away", "forfeit:double", "forfeit:full_draw":
		in.Summary = outcome
	case "sheet":
		if sheet == "" {
			return in, arbiter.FieldError("sheet", "web.result", "paste the match sheet (JSON, docs/match-sheet.md)")
		}
		in.Sheet = []byte(sheet)
	default:
		return in, arbiter.FieldError("outcome", "web.result", "outcome must be summary, sheet, forfeit:home, forfeit:away, forfeit:double or forfeit:full_draw")
	}
	return in, nil
}

// outcomeText is a result in one line: "1-0 (348-228)".
func outcomeText(o *arbiter.Outcome) string {
	if o == nil {
		return ""
	}
	t := o.Home.MatchPoints.String() + "-" + o.Away.MatchPoints.String() + " (" + o.Home.Points.String() + "-" + o.Away.Points.String() + ")"
	if o.Forfeit != "" {
		t += " forfeit " + o.Forfeit
	}
	return t
}

// appealResult is the corrected result given with an accepted appeal:
// none at all is allowed (app decides whether the appeal needs one).
func appealResult(outcome, summary, sheet string, accept bool) (app.ResultInput, error) {
	if !accept || (outcome == "" && strings.TrimSpace(summary) == "" && strings.TrimSpace(sheet) == "") || outcome == "none" {
		return app.ResultInput{}, nil
	}
	return resultInput(outcome, summary, sheet, nil)
}
