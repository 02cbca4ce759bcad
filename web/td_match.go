package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/app"
)

// tdMatchData is a match as the TDs see it.
type tdMatchData struct {
	Ev      arbiter.Event
	Here    string
	M       arbiter.Match
	Home    string
	Away    string
	Result  string
	Reports []tdReportRow
	Appeals []arbiter.Appeal
	// Negotiation is the time negotiation, if one started; Armageddon
	// the sealed bids, if any.
	Negotiation *app.Negotiation
	// Boards are the boards' negotiations where each board is negotiated
	// apart (A5): one entry per board, nil before its first offer;
	// BoardNumbers numbers them for the ruling form.
	Boards       []*app.Negotiation
	BoardNumbers []int
	Armageddon   *app.Armageddon
	Parts        []arbiter.PartResult
	// Verification is the last check of the games on Lichess, if any.
	Verification *app.MatchVerification
	// VerifyJob is the latest verification job, if one was asked for.
	VerifyJob *tdJobRow
	// Import is the match's last import of its games from Lichess, if
	// any: what was counted and every finding the TD must look at.
	Import *app.LichessImport
	// Entry is the override's result form (match_entry.go).
	Entry *entryView
}

type tdReportRow struct {
	R      arbiter.Report
	Result string
	Sheet  string // indented JSON
}

func (s *Server) tdMatchPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	d, err := s.tdMatchView(r, ev, nil, nil)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "td_match", page{Title: "Match " + d.M.ID + ": " + d.Home + " – " + d.Away, Nav: "home", Data: d})
}

// tdMatchView gathers the TD's match page; vals and refusal are a result
// form sent back with its refusal (nil: the form as the layout fills it).
func (s *Server) tdMatchView(r *http.Request, ev arbiter.Event, vals map[string]string, refusal error) (tdMatchData, error) {
	ctx := r.Context()
	slug := ev.Slug
	m, err := s.findMatch(ctx, slug, r.PathValue("match"))
	if err != nil {
		return tdMatchData{}, err
	}
	names, _, err := s.entrantNames(ctx, slug)
	if err != nil {
		return tdMatchData{}, err
	}
	d := tdMatchData{Ev: ev, M: m, Home: nameOr(names, m.Home), Away: nameOr(names, m.Away), Result: outcomeText(m.Result)}
	if m.Result != nil {
		d.Parts = append(m.Result.Parts, m.Result.Sets...)
	}
	reps, err := s.app.Reports(ctx, currentUser(r), slug, m.ID)
	if err != nil {
		return d, err
	}
	for _, rp := range reps {
		row := tdReportRow{R: rp, Result: outcomeText(&rp.Result)}
		if b, err := json.MarshalIndent(rp.Sheet, "", "  "); err == nil && rp.Sheet != nil {
			row.Sheet = string(b)
		}
		d.Reports = append(d.Reports, row)
	}
	aps, err := s.app.Appeals(ctx, slug)
	if err != nil {
		return d, err
	}
	for _, ap := range aps {
		if ap.Match == m.ID {
			d.Appeals = append(d.Appeals, ap)
		}
	}
	// None yet is not an error.
	if d.Negotiation, err = s.app.NegotiationOf(ctx, ev.Slug, m.ID); err != nil {
		return d, err
	}
	if d.Boards, err = s.app.BoardNegotiations(ctx, ev.Slug, m.ID); err != nil {
		return d, err
	}
	for i := range d.Boards {
		d.BoardNumbers = append(d.BoardNumbers, i+1)
	}
	if d.Verification, err = s.app.Verification(ctx, currentUser(r), slug, m.ID); err != nil {
		return d, err
	}
	td, _ := actorAs(r, arbiter.RoleTD) // tdGate let only a TD through
	switch im, err := s.app.ImportedSheet(ctx, td, slug, m.ID); arbiter.ErrorCode(err) {
	case "":
		d.Import = &im
	case arbiter.ENOTFOUND:
	default:
		return d, err
	}
	if j, err := s.app.VerificationJob(ctx, slug, m.ID); err != nil {
		return d, err
	} else if j != nil {
		row := jobRow(*j)
		d.VerifyJob = &row
	}
	auc, err := s.app.ArmageddonOf(ctx, slug, m.ID)
	switch arbiter.ErrorCode(err) {
	case "":
		d.Armageddon = &auc
	case arbiter.ENOTFOUND:
	default:
		return d, err
	}
	if m.Away != "" {
		a, err := actorAs(r, arbiter.RoleTD)
		if err != nil {
			return d, err
		}
		l, err := s.app.ResultLayout(ctx, a, slug, m.ID)
		if err != nil {
			return d, err
		}
		var problem *app.EntryProblem
		if refusal != nil {
			problem = l.Problem(refusal, vals)
		}
		d.Entry = newEntryView(l, d.Home, d.Away, vals, problem)
		back := "/events/" + slug + "/td/matches/" + m.ID
		d.Entry.ID, d.Entry.Action, d.Entry.Check, d.Entry.Submit = "override-entry", back, matchURL(slug, m.ID)+"/check", "Override the result"
		d.Entry.TD, d.Entry.Version = true, m.Version
		if vals != nil {
			d.Entry.Reason = r.PostFormValue("reason")
		}
	}
	return d, nil
}

// tdOverrideEntry overrides a result with the result form; a refusal
// comes back on the page, the form as typed and the problem at its cell.
func (s *Server) tdOverrideEntry(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	slug, id := ev.Slug, r.PathValue("match")
	back := "/events/" + slug + "/td/matches/" + id
	a, err := actorAs(r, arbiter.RoleTD)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	vals := entryValues(r)
	v, err := formVersion(r, "version")
	var m arbiter.Match
	if err == nil {
		m, err = s.app.OverrideResult(r.Context(), a, slug, id, app.ResultInput{Entry: vals}, strings.TrimSpace(r.PostFormValue("reason")), v)
	}
	if err == nil {
		s.setFlash(w, r, false, "Result of "+m.ID+" set to "+outcomeText(m.Result)+".")
		http.Redirect(w, r, back, http.StatusSeeOther)
		return
	}
	if arbiter.ErrorCode(err) == arbiter.EINTERNAL || arbiter.RetryAfter(err) > 0 {
		s.fail(w, r, err)
		return
	}
	d, verr := s.tdMatchView(r, ev, vals, err)
	if verr != nil {
		s.setFlash(w, r, true, userMessage(err))
		http.Redirect(w, r, back, http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusUnprocessableEntity, "td_match", page{Title: "Match " + d.M.ID + ": " + d.Home + " – " + d.Away, Nav: "home", Data: d,
		Flash: &flash{Error: true, Message: userMessage(err)}})
}

// tdMatchAction overrides a result (with a reason), applies the wrong
// time control rule (R6) to a set, confirms a reported result, or checks
// the games on Lichess.
func (s *Server) tdMatchAction(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	back := "/events/" + slug + "/td/matches/" + id
	if r.PostFormValue("entry") != "" && r.PostFormValue("action") == "override" {
		s.tdOverrideEntry(w, r)
		return
	}
	s.tdAct(w, r, back, func(a arbiter.Actor) (string, error) {
		ctx := r.Context()
		v, err := formVersion(r, "version")
		if err != nil {
			return "", err
		}
		switch r.FormValue("action") {
		case "override":
			reason := strings.TrimSpace(r.FormValue("reason"))
			if reason == "" {
				return "", arbiter.FieldError("reason", "web.reason", "an override needs a reason (it is kept in the audit log)")
			}
			in, err := resultInput(r.FormValue("outcome"), r.FormValue("summary"), r.FormValue("sheet"), splitList(r.FormValue("wrong_tc")))
			if err != nil {
				return "", err
			}
			m, err := s.app.OverrideResult(ctx, a, slug, id, in, reason, v)
			return "Result of " + m.ID + " set to " + outcomeText(m.Result) + ".", err
		case "wrong-tc":
			m, grace, err := s.app.WrongTimeControl(ctx, a, slug, id, strings.TrimSpace(r.FormValue("tc")), strings.TrimSpace(r.FormValue("reason")))
			if grace {
				return fmt.Sprintf("%s: the set counts normally (both players' one-time grace used).", m.ID), err
			}
			return fmt.Sprintf("%s: the set is a full-points draw; result %s.", m.ID, outcomeText(m.Result)), err
		case "rule-fault", "expire":
			step := app.NegotiationStep{Kind: app.NegExpire}
			if b, err := strconv.Atoi(strings.TrimSpace(r.FormValue("board"))); err == nil && r.FormValue("action") == "expire" {
				step.Board = b
			}
			if r.FormValue("action") == "rule-fault" {
				step = app.NegotiationStep{Kind: app.NegRuleFault, Reason: strings.TrimSpace(r.FormValue("reason"))}
				m, err := s.findMatch(ctx, slug, id)
				if err != nil {
					return "", err
				}
				if b := strings.TrimSpace(r.FormValue("board")); b != "" {
					n, err := strconv.Atoi(b)
					if err != nil || n < 1 {
						return "", arbiter.FieldError("board", "web.board", "board must be a board number")
					}
					step.Board = n
				}
				switch r.FormValue("at_fault") {
				case "home":
					step.AtFault = m.Home
				case "away":
					step.AtFault = m.Away
				case "nobody":
				default:
					return "", arbiter.FieldError("at_fault", "web.negotiation", "at_fault must be home, away or nobody")
				}
			}
			neg, m, err := s.app.Negotiate(ctx, a, slug, id, step)
			if step.Board > 0 {
				return fmt.Sprintf("Negotiation of %s, board %d: %s; match %s.", m.ID, step.Board, neg.State.Outcome, m.Status), err
			}
			return fmt.Sprintf("Negotiation of %s: %s; match %s.", m.ID, neg.State.Outcome, m.Status), err
		case "confirm":
			m, err := s.app.ConfirmResult(ctx, a, slug, id, v)
			return "Result of " + m.ID + " confirmed.", err
		case "verify":
			if s.app.Jobs() != nil { // a background job (td_jobs.go)
				j, err := s.app.RequestVerification(ctx, a, slug, id)
				return queuedMessage(j), err
			}
			vr, err := s.app.VerifyMatch(ctx, a, slug, id)
			if err != nil {
				return "", err
			}
			return "Games of " + vr.Match + " checked on Lichess: " + vr.Summary() + ".", nil
		}
		return "", arbiter.FieldError("action", "web.action", "action must be override, wrong-tc, rule-fault, expire, confirm or verify")
	})
}
