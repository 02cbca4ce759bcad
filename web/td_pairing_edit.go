package web

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"arbiter"
	"arbiter/app"
)

// The pairing review page of the TD console (docs/web-td.md, "Reviewing
// and editing the pairings"): what a TD checks on each board of the
// current round, and the forms that swap opponents, move the bye, force or
// forbid a pair before publication.

// tdPairingRoutes registers the page and its form.
func (s *Server) tdPairingRoutes() {
	s.handleFunc("GET /events/{slug}/td/pairings", s.tdPairingsPage)
	s.handleFunc("POST /events/{slug}/td/pairings", s.tdEditPairing)
}

// tdPairingsData is the review page. Form keeps what the TD typed when
// the page comes back from a preview or a refusal; Preview is the edit
// previewed (or refused for want of a confirmation) with its matches.
type tdPairingsData struct {
	Ev       arbiter.Event
	Here     string
	Review   app.PairingReview
	Entrants []arbiter.Entrant // of the round, for the form's lists
	Form     pairingForm
	Kinds    []pairingKind
	Preview  *app.PairingEdit
	Changed  []arbiter.Match
	// NeedsConfirm: the edit was refused because it breaks an absolute
	// criterion; the form asks for the confirmation.
	NeedsConfirm bool
}

// pairingForm is the edit form's fields.
type pairingForm struct {
	Kind, A, B, Reason string
	Confirm            bool
}

type pairingKind struct{ Value, Label string }

// pairingKinds are the edit form's choices, in order.
var pairingKinds = []pairingKind{
	{app.EditSwap, "Swap: the two exchange their opponents"},
	{app.EditBye, "Bye: the first gets the bye, their opponent meets the bye's holder"},
	{app.EditForce, "Force: the two meet; the others are paired again"},
	{app.EditForbid, "Forbid: the two do not meet in this round; it is paired again"},
}

func (s *Server) tdPairingsPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	s.renderPairings(w, r, ev, http.StatusOK, tdPairingsData{Form: pairingForm{Kind: app.EditSwap}}, nil)
}

// renderPairings renders the review with d's form state; flash, when set,
// is shown at once instead of the stored one.
func (s *Server) renderPairings(w http.ResponseWriter, r *http.Request, ev arbiter.Event, status int, d tdPairingsData, fl *flash) {
	a, _ := actorAs(r, arbiter.RoleTD)
	rv, err := s.app.ReviewPairings(r.Context(), a, ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Ev, d.Here, d.Review, d.Kinds = ev, "pairings", rv, pairingKinds
	for _, b := range rv.Boards {
		d.Entrants = append(d.Entrants, arbiter.Entrant{ID: b.Home.Entrant, Name: b.Home.Name, Seed: b.Home.Seed})
		if b.Away != nil {
			d.Entrants = append(d.Entrants, arbiter.Entrant{ID: b.Away.Entrant, Name: b.Away.Name, Seed: b.Away.Seed})
		}
	}
	slices.SortFunc(d.Entrants, func(x, y arbiter.Entrant) int { return x.Seed - y.Seed })
	title := fmt.Sprintf("Pairings of round %s: %s", rv.Round.ID, ev.Name)
	s.render(w, r, status, "td_pairings", page{Title: title, Nav: "home", Data: d, Flash: fl})
}

// tdEditPairing previews or applies an edit. Applied, it goes back to the
// review with the outcome and its warnings; a preview, or a refusal, shows
// the page again with the form as typed (and, for an edit breaking an
// absolute criterion, the box to confirm it).
func (s *Server) tdEditPairing(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, err := actorAs(r, arbiter.RoleTD)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	f := pairingForm{Kind: r.FormValue("kind"), A: strings.TrimSpace(r.FormValue("a")), B: strings.TrimSpace(r.FormValue("b")),
		Reason: strings.TrimSpace(r.FormValue("reason")), Confirm: r.FormValue("confirm") != ""}
	d := tdPairingsData{Form: f}
	if err := s.checkRound(r.Context(), ev.Slug, strings.TrimSpace(r.FormValue("round"))); err != nil {
		s.renderPairings(w, r, ev, httpStatus(arbiter.ErrorCode(err)), d, &flash{Error: true, Message: userMessage(err)})
		return
	}
	req := app.PairingEditRequest{Kind: f.Kind, Entrants: []string{f.A}, Reason: f.Reason, Confirm: f.Confirm,
		Preview: r.FormValue("action") == "preview"}
	if f.Kind != app.EditBye {
		req.Entrants = append(req.Entrants, f.B)
	}
	ed, ms, err := s.app.EditPairing(r.Context(), a, ev.Slug, req)
	switch {
	case arbiter.ErrorCode(err) == arbiter.EINTERNAL:
		s.internal(w, r, err)
	case err != nil:
		// A refusal for an absolute criterion: preview it to show what it
		// breaks, and ask for the confirmation.
		if e, ok := err.(*arbiter.Error); ok && strings.HasPrefix(e.Rule, "C.04.3 ") {
			req.Preview = true
			if p, changed, perr := s.app.EditPairing(r.Context(), a, ev.Slug, req); perr == nil {
				d.Preview, d.Changed, d.NeedsConfirm = &p, changed, true
			}
		}
		s.renderPairings(w, r, ev, httpStatus(arbiter.ErrorCode(err)), d, &flash{Error: true, Message: userMessage(err)})
	case req.Preview:
		d.Preview, d.Changed = &ed, ms
		s.renderPairings(w, r, ev, http.StatusOK, d, nil)
	default:
		s.setFlash(w, r, false, editOutcome(ed))
		http.Redirect(w, r, "/events/"+ev.Slug+"/td/pairings", http.StatusSeeOther)
	}
}

// editOutcome is the flash after an edit: what changed and what it breaks.
func editOutcome(ed app.PairingEdit) string {
	var what string
	switch ed.Kind {
	case app.EditSwap:
		what = "Swapped the opponents of " + strings.Join(ed.Entrants, " and ")
	case app.EditBye:
		what = "Gave the bye to " + ed.Entrants[0]
	case app.EditForce:
		what = "Paired " + strings.Join(ed.Entrants, " with ") + " and the others again"
	case app.EditForbid:
		what = "Paired the round again without " + strings.Join(ed.Entrants, " v ")
	}
	var boards []string
	for _, b := range ed.Boards {
		boards = append(boards, fmt.Sprint(b))
	}
	msg := what + " (" + plural(len(boards), "board ", "boards ") + strings.Join(boards, ", ") + ")."
	if len(ed.Warnings) == 0 {
		return msg + " No pairing criterion is broken."
	}
	var ws []string
	for _, w := range ed.Warnings {
		ws = append(ws, w.Text)
	}
	return msg + " Warning: " + strings.Join(ws, "; ") + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
