package web

import (
	"fmt"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
)

// The result form (app.EntryLayout) as a page: a grid of cells, one a
// game from the home side's view, by board and part (antichess cup), by
// set (RKCC) or by game (ACWC), with the knockout's tie games and
// armageddon where the match has them. entry.js checks it while it is
// typed through POST .../check (app.CheckResult: running totals, the
// clinch, the rule that would refuse it); without JavaScript the form
// posts as it is and a refusal comes back on the same page, next to its
// cell, with what was typed.

// entryView is one result form on a page.
type entryView struct {
	ID         string // the form's id: report-result, override-result
	Action     string // where it posts
	Check      string // the check URL for entry.js
	Home, Away string
	L          app.EntryLayout
	Boards     []entryBoardRow
	Tie        *entryTieRow
	Values     map[string]string
	Problem    *app.EntryProblem
	// ProblemSlot is where the problem shows (slotOf its cell).
	ProblemSlot string
	// TD: the override's version and reason fields.
	TD      bool
	Version int64
	Reason  string
	Submit  string
}

type entryBoardRow struct {
	Number       int
	Label        string // "Board 1: cap01 – cap06"; "" without boards
	Ruling       string
	ForfeitField string
	Forfeit      string
	Parts        []entryPartRow
}

type entryPartRow struct {
	Slot  string // err-B-P
	Total string // tot-B-P
	Label string // "0+2"
	Note  string // "8 games; a win 6, a draw 3"
	Cells []entryCell
}

type entryCell struct {
	Name, Label, Value string
	Invalid            bool
}

type entryTieRow struct {
	Captains     bool
	CaptainsOpts []int
	Captain      string
	Games        []entryCell
	GamesTC      string
	Armageddon   bool
	HomeBid      string
	AwayBid      string
	White        string
	Result       string
	EqualBids    string
	Clause       string
}

// slotOf is the id of the element that shows a problem of a field: its
// part's row for a game, the board for a board's forfeit, the tie, the
// armageddon, the match forfeit, or the form as a whole.
func slotOf(cell string) string {
	switch {
	case strings.HasPrefix(cell, "r-"):
		parts := strings.Split(cell, "-")
		if len(parts) == 4 {
			return "err-" + parts[1] + "-" + parts[2]
		}
	case strings.HasPrefix(cell, "forfeit-"):
		return "err-board-" + strings.TrimPrefix(cell, "forfeit-")
	case strings.HasPrefix(cell, "tie-"):
		return "err-tie"
	case strings.HasPrefix(cell, "arm-"):
		return "err-arm"
	case cell == app.FieldForfeit:
		return "err-forfeit"
	}
	return "err-form"
}

// newEntryView lays out a form; vals are what to show in it (the
// layout's prefill when nil).
func newEntryView(l app.EntryLayout, home, away string, vals map[string]string, problem *app.EntryProblem) *entryView {
	if vals == nil {
		vals = l.Values
	}
	v := &entryView{L: l, Home: home, Away: away, Values: vals, Problem: problem}
	if problem != nil {
		v.ProblemSlot = slotOf(problem.Cell)
	}
	invalid := func(name string) bool { return problem != nil && problem.Cell == name }
	for _, b := range l.Boards {
		row := entryBoardRow{Number: b.Number, Ruling: b.Ruling}
		if b.Number > 0 {
			row.Label = fmt.Sprintf("Board %d", b.Number)
			if b.HomePlayer != "" || b.AwayPlayer != "" {
				row.Label += ": " + orDash(b.HomePlayer) + " – " + orDash(b.AwayPlayer)
			}
			row.ForfeitField = app.BoardForfeitField(b.Number)
			row.Forfeit = vals[row.ForfeitField]
			if b.Ruling != "" {
				row.Ruling = forfeitWords(b.Ruling) + " (" + b.RulingClause + ")"
			}
		}
		for _, p := range l.Parts {
			pr := entryPartRow{Slot: fmt.Sprintf("err-%d-%d", b.Number, p.Index), Total: fmt.Sprintf("tot-%d-%d", b.Number, p.Index),
				Label: p.TC, Note: fmt.Sprintf("%d games; a win %s, a draw %s", p.Games, p.Win, p.Draw)}
			if l.Kind == "team_sets" {
				pr.Label = fmt.Sprintf("Set %d (%s)", p.Index+1, p.TC)
				pr.Note += fmt.Sprintf("; %s wins the set", p.SetThreshold)
			}
			for g := range p.Games {
				name := app.Cell(b.Number, p.Index, g)
				where := fmt.Sprintf("%s game %d", p.TC, g+1)
				if b.Number > 0 {
					where = fmt.Sprintf("Board %d, %s", b.Number, where)
				}
				pr.Cells = append(pr.Cells, entryCell{Name: name, Label: where, Value: vals[name], Invalid: invalid(name)})
			}
			row.Parts = append(row.Parts, pr)
		}
		v.Boards = append(v.Boards, row)
	}
	if t := l.Tie; t != nil {
		tr := &entryTieRow{Captains: t.CaptainsAdvantage, GamesTC: t.GamesTC, Armageddon: t.Armageddon, Clause: t.Clause,
			Captain: vals[app.FieldCaptainsBoard], HomeBid: vals[app.FieldHomeBid], AwayBid: vals[app.FieldAwayBid],
			White: vals[app.FieldWhite], Result: vals[app.FieldArmResult], EqualBids: strings.ReplaceAll(t.EqualBids, "_", " ")}
		for _, b := range l.Boards {
			if b.Number > 0 {
				tr.CaptainsOpts = append(tr.CaptainsOpts, b.Number)
			}
		}
		for g := range t.Games {
			name := app.TieCell(g)
			tr.Games = append(tr.Games, entryCell{Name: name, Label: fmt.Sprintf("Tiebreak game %d", g+1), Value: vals[name], Invalid: invalid(name)})
		}
		v.Tie = tr
	}
	return v
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// entryValues reads a result form's fields.
func entryValues(r *http.Request) map[string]string {
	vals := map[string]string{}
	for k, vs := range r.PostForm {
		if len(vs) == 0 {
			continue
		}
		if strings.HasPrefix(k, "r-") || strings.HasPrefix(k, "tie-") || strings.HasPrefix(k, "arm-") || strings.HasPrefix(k, "forfeit") {
			vals[k] = strings.TrimSpace(vs[0])
		}
	}
	return vals
}

// entryCheckJSON is the answer of POST .../check: the running totals by
// part (tot-B-P) and board (tot-B), the match's, the clinch and the
// problem, all in words.
type entryCheckJSON struct {
	Totals    map[string]string `json:"totals"`
	Home      string            `json:"home"`
	Away      string            `json:"away"`
	Threshold string            `json:"threshold"`
	Status    string            `json:"status"`
	// Clinched names the cell at which the match was decided.
	Clinched string            `json:"clinched,omitempty"`
	Outcome  string            `json:"outcome,omitempty"`
	Problem  *entryProblemJSON `json:"problem,omitempty"`
}

type entryProblemJSON struct {
	Cell       string `json:"cell,omitempty"`
	Slot       string `json:"slot"`
	Clause     string `json:"clause,omitempty"`
	Message    string `json:"message"`
	Incomplete bool   `json:"incomplete"`
}

// matchCheckPost checks a result form as it is typed (entry.js); it
// stores nothing.
func (s *Server) matchCheckPost(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("match")
	if err := r.ParseForm(); err != nil {
		s.apiFail(w, r, arbiter.FieldError("body", "web.form", "the form cannot be read"))
		return
	}
	a, err := actorAs(r, s.actingRole(r, slug, id))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	vals := entryValues(r)
	chk, err := s.app.CheckResult(r.Context(), a, slug, id, vals)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, entryCheckAnswer(chk))
}

func entryCheckAnswer(chk app.EntryCheck) entryCheckJSON {
	out := entryCheckJSON{Totals: map[string]string{}}
	if t := chk.Tally; t != nil {
		out.Home, out.Away, out.Threshold = t.HomePoints.String(), t.AwayPoints.String(), t.WinThreshold.String()
		pair := func(h, a arbiter.Points) string { return h.String() + " – " + a.String() }
		for i, p := range append(t.Parts, t.Sets...) {
			out.Totals[fmt.Sprintf("tot-0-%d", i)] = pair(p.Home, p.Away)
		}
		for _, b := range t.Boards {
			out.Totals[fmt.Sprintf("tot-%d", b.Board)] = pair(b.Home, b.Away)
			for i, p := range b.Parts {
				out.Totals[fmt.Sprintf("tot-%d-%d", b.Board, i)] = pair(p.Home, p.Away)
			}
		}
		unit := "points"
		if t.ThresholdUnit == "sets" {
			unit = "sets"
			out.Home, out.Away = fmt.Sprint(t.HomeSets), fmt.Sprint(t.AwaySets)
		}
		out.Status = fmt.Sprintf("%s – %s; %s %s decide the match.", out.Home, out.Away, out.Threshold, unit)
		if t.Decided {
			out.Status = fmt.Sprintf("%s – %s: the match is decided (%s %s reached).", out.Home, out.Away, out.Threshold, unit)
		}
	}
	out.Clinched = chk.DecidedCell
	if o := chk.Outcome; o != nil {
		out.Outcome = "Ready to send: " + outcomeText(o) + "."
	}
	if p := chk.Problem; p != nil {
		out.Problem = &entryProblemJSON{Cell: p.Cell, Slot: slotOf(p.Cell), Clause: p.Clause, Message: p.Message, Incomplete: p.Incomplete}
	}
	return out
}

// matchEntryPost reports a result form. A refusal comes back on the match
// page itself (422), the form as it was typed and the problem next to its
// cell, so that nothing typed is lost without JavaScript.
func (s *Server) matchEntryPost(w http.ResponseWriter, r *http.Request, slug, id string) {
	a, err := actorAs(r, s.actingRole(r, slug, id))
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	vals := entryValues(r)
	_, err = s.app.ReportResult(r.Context(), a, slug, id, app.ResultInput{Entry: vals})
	if err == nil {
		s.setFlash(w, r, false, "Result reported: your opponent confirms or disputes it.")
		http.Redirect(w, r, matchURL(slug, id), http.StatusSeeOther)
		return
	}
	if arbiter.ErrorCode(err) == arbiter.EINTERNAL || arbiter.RetryAfter(err) > 0 {
		s.fail(w, r, err)
		return
	}
	d, verr := s.matchView(r, slug, id)
	if verr != nil || d.Entry == nil {
		s.setFlash(w, r, true, userMessage(err))
		http.Redirect(w, r, matchURL(slug, id), http.StatusSeeOther)
		return
	}
	e := d.Entry
	d.Entry = newEntryView(e.L, e.Home, e.Away, vals, e.L.Problem(err, vals))
	d.Entry.ID, d.Entry.Action, d.Entry.Check, d.Entry.Submit = e.ID, e.Action, e.Check, e.Submit
	title := fmt.Sprintf("Match %s: %s – %s", d.M.ID, entrantName(d.Home), entrantName(d.Away))
	s.render(w, r, http.StatusUnprocessableEntity, "match", page{Title: title, Nav: "home", Data: d, Flash: &flash{Error: true, Message: userMessage(err)}})
}
