package app

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/score"
	"arbiter/sqlstore"
)

// ResultInput is a result as reported: a match sheet (package score's
// JSON, docs/match-sheet.md) or a summary. A summary is the game score of
// each part in the format's order, "6-4" or "4-0 3-3 5-3" (individual
// matches only: it assumes as few draws as the score allows and the
// loser's games first, so use a sheet when the exact games matter), or a
// match forfeit "forfeit:home", "forfeit:away", "forfeit:double",
// "forfeit:full_draw".
type ResultInput struct {
	Sheet   []byte
	Summary string
	// Entry is a filled-in result form (EntryLayout's fields), the
	// sheet as a grid; it replaces Sheet and Summary.
	Entry map[string]string
	// WrongTimeControl names the sets (by time control, e.g. "3+2")
	// played in the wrong time control; R6 is applied to them once the
	// result stands (formats with wrong_time_control only).
	WrongTimeControl []string
}

// scored is a result checked and scored: the match sheet (validated
// against the match, its rulings and the format), the summary it was
// built from if any, its outcome and the sets marked as played in the
// wrong time control. A report stores exactly this; nothing reads the
// sheet again from bytes.
type scored struct {
	sheet   *arbiter.Sheet
	summary string
	outcome arbiter.Outcome
	wrongTC []string
}

// readResult turns a result as given (the result form, a sheet's JSON or a
// summary) into a sheet: the one place a reported result is parsed.
func (st *state) readResult(m *arbiter.Match, in ResultInput) (*arbiter.Sheet, error) {
	if in.Entry != nil {
		if len(in.Sheet) > 0 || in.Summary != "" {
			return nil, arbiter.FieldError("result", "app.result", "give the result form, a match sheet or a summary, not two of them")
		}
		if m.IsBye() {
			return nil, arbiter.RuleError("app.result", "match %s is a bye", m.ID)
		}
		var err error
		if in.Sheet, err = st.entryInput(m, in.Entry); err != nil {
			return nil, err
		}
	}
	switch {
	case len(in.Sheet) > 0 && in.Summary != "":
		return nil, arbiter.FieldError("result", "app.result", "give a match sheet or a summary, not both")
	case len(in.Sheet) > 0:
		return score.LoadSheet(bytes.NewReader(in.Sheet))
	case in.Summary != "":
		return summarySheet(st.f.Stages[m.Stage].MatchFor(m.Format), in.Summary)
	}
	return nil, arbiter.FieldError("result", "app.result", "no result given (a match sheet or a summary such as 6-4)")
}

// score reads and scores a result as given.
func (st *state) score(m *arbiter.Match, in ResultInput) (scored, error) {
	sh, err := st.readResult(m, in)
	if err != nil {
		return scored{}, err
	}
	return st.scoreSheet(m, sh, in.Summary, in.WrongTimeControl)
}

// scoreSheet validates a sheet against the match (its entrants, board
// players, captains, rulings) and scores it with the event's format: the
// one place a sheet is validated. The match's rulings are applied to sh.
func (st *state) scoreSheet(m *arbiter.Match, sh *arbiter.Sheet, summary string, wrongTC []string) (scored, error) {
	if m.IsBye() {
		return scored{}, arbiter.RuleError("app.result", "match %s is a bye", m.ID)
	}
	if sh.Home == "" && sh.Away == "" {
		sh.Home, sh.Away = m.Home, m.Away
	}
	if sh.Match == "" {
		sh.Match = m.Format
	}
	if sh.Match != m.Format {
		return scored{}, arbiter.FieldError("match", "app.result", "match %s is a %q match, the sheet says %q", m.ID, m.Format, sh.Match)
	}
	if sh.Home != m.Home || sh.Away != m.Away {
		return scored{}, arbiter.FieldError("home", "app.result", "match %s is %s v %s, the sheet says %s v %s", m.ID, m.Home, m.Away, sh.Home, sh.Away)
	}
	if err := checkBoardPlayers(m, sh); err != nil {
		return scored{}, err
	}
	if err := checkCaptainsBoard(st.f, m, sh); err != nil {
		return scored{}, err
	}
	applyRulings(m, sh)
	ms, err := score.Score(st.f, st.ev.Stages[m.Stage].Name, sh, score.Options{Entrants: st.ev.Entrants})
	if err != nil {
		return scored{}, err
	}
	sc := scored{sheet: sh, summary: summary, outcome: ms.Outcome()}
	if len(wrongTC) > 0 {
		if st.f.WrongTimeControl == nil {
			return scored{}, arbiter.RuleError("format.wrong_time_control", "format %s has no wrong time control rule", st.f.Name)
		}
		tcs := map[string]bool{}
		for _, p := range append(slices.Clone(sh.Sets), sh.Parts...) {
			tcs[p.TC] = true
		}
		for i, tc := range wrongTC {
			if !tcs[strings.TrimSpace(tc)] {
				return scored{}, arbiter.FieldError(fmt.Sprintf("wrong_time_control[%d]", i), "app.result", "the sheet has no set %q", tc)
			}
			sc.wrongTC = append(sc.wrongTC, strings.TrimSpace(tc))
		}
	}
	return sc, nil
}

// summarySheet builds a match sheet from a summary.
func summarySheet(mf *format.Match, summary string) (*score.Sheet, error) {
	summary = strings.TrimSpace(summary)
	if f, ok := strings.CutPrefix(summary, "forfeit:"); ok {
		switch f {
		case score.ForfeitHome, score.ForfeitAway, score.ForfeitDouble, score.ForfeitFullDraw:
			return &score.Sheet{Forfeit: f}, nil
		}
		return nil, arbiter.FieldError("summary", "app.summary", "unknown forfeit %q (home, away, double, full_draw)", f)
	}
	if mf.Kind != format.MatchIndividual {
		return nil, arbiter.FieldError("summary", "app.summary", "a %s match needs a match sheet (a summary only covers individual matches and forfeits)", mf.Kind)
	}
	fields := strings.Fields(summary)
	if len(fields) != len(mf.Parts) {
		return nil, arbiter.FieldError("summary", "app.summary", "give one score per part (%d parts), got %q", len(mf.Parts), summary)
	}
	sh := &score.Sheet{}
	for i, fld := range fields {
		hs, as, ok := strings.Cut(fld, "-")
		h, err1 := arbiter.ParsePoints(hs)
		a, err2 := arbiter.ParsePoints(as)
		if !ok || err1 != nil || err2 != nil || h < 0 || a < 0 {
			return nil, arbiter.FieldError(fmt.Sprintf("summary[%d]", i), "app.summary", "want a game score such as 6-4 or 5.5-4.5, got %q", fld)
		}
		draws := int64(0)
		if h%arbiter.Point != 0 || a%arbiter.Point != 0 {
			if h%arbiter.Point != arbiter.Point/2 || a%arbiter.Point != arbiter.Point/2 {
				return nil, arbiter.FieldError(fmt.Sprintf("summary[%d]", i), "app.summary", "game scores are whole or half points, got %q", fld)
			}
			draws = 1
		}
		hw := int64(h-arbiter.Points(draws)*arbiter.Point/2) / int64(arbiter.Point)
		aw := int64(a-arbiter.Points(draws)*arbiter.Point/2) / int64(arbiter.Point)
		if int(hw+aw+draws) > mf.Parts[i].Games {
			return nil, arbiter.FieldError(fmt.Sprintf("summary[%d]", i), "app.summary", "%q needs %d games, the part has %d", fld, hw+aw+draws, mf.Parts[i].Games)
		}
		// The loser's wins first, the winner's last, so that the match is
		// decided at its last game (W4 ends a match once decided).
		first, last := "0", "1"
		nFirst, nLast := aw, hw
		if aw > hw {
			first, last, nFirst, nLast = "1", "0", hw, aw
		}
		var res score.Results
		for range nFirst {
			res = append(res, first)
		}
		for range draws {
			res = append(res, "=")
		}
		for range nLast {
			res = append(res, last)
		}
		sh.Parts = append(sh.Parts, score.PartSheet{TC: mf.Parts[i].TC.String(), Results: res})
	}
	return sh, nil
}

// sideOf says which side of m the actor plays for, or "" (players report
// in individual events, captains in team events; a removed entrant no
// longer acts).
func sideOf(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor, m *arbiter.Match) (arbiter.Side, error) {
	me := normUser(a.Name)
	for _, side := range arbiter.Sides {
		id := m.Entrant(side)
		if id == "" {
			continue
		}
		e, err := docEntrant.get(ctx, q, st, id)
		if err != nil {
			return "", err
		}
		if e.Status == arbiter.EntrantApproved && a.Role != "" && sideRole(e, me) == a.Role {
			return side, nil
		}
	}
	return "", nil
}

// sideRole is the role user me acts in for entrant e: captain of a team,
// player of an individual entrant, "" for anyone else. The one answer to
// "which side am I": sideOf (writes) and Roles (pages) both ask it.
func sideRole(e arbiter.Entrant, me string) string {
	switch {
	case me == "":
		return ""
	case e.Kind == arbiter.EntrantPlayer && normUser(e.Player) == me:
		return arbiter.RolePlayer
	case e.Kind == arbiter.EntrantTeam && normUser(e.Captain) == me:
		return arbiter.RoleCaptain
	}
	return ""
}

// matchInRound loads a match and its round.
func matchInRound(ctx context.Context, q sqlstore.Queryer, st *state, id string) (arbiter.Match, arbiter.Round, error) {
	m, err := docMatch.get(ctx, q, st, id)
	if err != nil {
		return m, arbiter.Round{}, err
	}
	rd, err := docRound.get(ctx, q, st, roundID(m.Stage, m.Round))
	return m, rd, err
}

func (st *state) roundClause() string {
	r, err := calendarRules(st.f)
	if err != nil || r.RoundClause == "" {
		return "app.round"
	}
	return r.RoundClause
}

func (s *Service) newReport(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match) (string, error) {
	rs, err := docReport.list(ctx, q, st)
	if err != nil {
		return "", err
	}
	n := 1
	for _, r := range rs {
		if r.Match == m.ID {
			n++
		}
	}
	return fmt.Sprintf("%s-%d", m.ID, n), nil
}

// ReportResult records a result reported by a player (individual events)
// or captain (team events) of the match, while the round is open. The
// opponent then confirms or disputes it. The result is scored at once, so
// an impossible result is refused with the rule it breaks.
func (s *Service) ReportResult(ctx context.Context, a arbiter.Actor, slug, matchID string, in ResultInput) (arbiter.Match, error) {
	var m arbiter.Match
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		var rd arbiter.Round
		m, rd, err = matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		side, err := sideOf(ctx, tx, st, a, &m)
		if err != nil {
			return err
		}
		if side == "" {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may report only their own match (a player in individual events, a captain in team events); a TD enters results with override", a)
		}
		if rd.Status != arbiter.RoundPublished {
			return arbiter.RuleError(st.roundClause(), "round %d is %s: results are reported while it is published and open", rd.Number, rd.Status)
		}
		if now := s.now(); !now.Before(rd.End) {
			return arbiter.RuleError(st.roundClause(), "round %d ended %s; results after the deadline go to the TDs", rd.Number, calendar.Format(rd.End.Add(-1)))
		}
		if m.Status != arbiter.MatchScheduled {
			return arbiter.RuleError("app.result", "match %s is already %s; the opponent confirms or disputes, a TD decides disputes", m.ID, m.Status)
		}
		sc, err := st.score(&m, in)
		if err != nil {
			return err
		}
		if err := checkArmageddon(ctx, tx, st, &m, sc.sheet); err != nil {
			return err
		}
		if err := checkLineups(ctx, tx, st, &m, sc.sheet); err != nil {
			return err
		}
		id, err := s.newReport(ctx, tx, st, &m)
		if err != nil {
			return err
		}
		rep := arbiter.Report{ID: id, Match: m.ID, By: normUser(a.Name), Role: a.Role, Side: side, At: s.now(),
			Sheet: sc.sheet, Summary: sc.summary, WrongTC: sc.wrongTC, Result: sc.outcome, Status: arbiter.ReportPending}
		ch := change(a, "result.report", "", false)
		if _, err := docReport.create(ctx, tx, ch, st, rep.ID, rep); err != nil {
			return err
		}
		m.Status, m.Result, m.Report = arbiter.MatchReported, &sc.outcome, rep.ID
		m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
		return err
	})
	return m, err
}

// ConfirmResult makes a reported result final. The opponent of the
// reporting side confirms (never the reporter's own side); a TD may
// confirm too. expect is the match version the confirmer saw (0: current).
func (s *Service) ConfirmResult(ctx context.Context, a arbiter.Actor, slug, matchID string, expect int64) (arbiter.Match, error) {
	return s.answerReport(ctx, a, slug, matchID, "", expect, true)
}

// DisputeResult contests a reported result; a TD then decides with
// OverrideResult. Only the opponent of the reporting side disputes, with
// a reason.
func (s *Service) DisputeResult(ctx context.Context, a arbiter.Actor, slug, matchID, reason string, expect int64) (arbiter.Match, error) {
	if err := requireReason(reason, "a dispute"); err != nil {
		return arbiter.Match{}, err
	}
	return s.answerReport(ctx, a, slug, matchID, reason, expect, false)
}

func (s *Service) answerReport(ctx context.Context, a arbiter.Actor, slug, matchID, reason string, expect int64, confirm bool) (arbiter.Match, error) {
	var m arbiter.Match
	if err := checkExpect(expect); err != nil {
		return m, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		m, _, err = matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		// Who acts is checked before the match's state, so that anyone
		// but the opponent of the report's side (or a TD confirming) is
		// refused whatever the state: the reporter of a disputed result
		// may not confirm it either.
		td, err := isTD(ctx, tx, st, a)
		if err != nil {
			return err
		}
		tdConfirm := td && confirm
		decision, side := "confirmed", arbiter.Side("")
		if tdConfirm {
			if err := requireNotOwnMatch(ctx, tx, st, a, &m, "confirm its result as a TD"); err != nil {
				return err
			}
			decision = "td_confirmed"
		} else {
			if side, err = sideOf(ctx, tx, st, a, &m); err != nil {
				return err
			}
			if side == "" {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "%s does not play in match %s", a, m.ID)
			}
		}
		var rep arbiter.Report
		if m.Report != "" {
			if rep, err = docReport.get(ctx, tx, st, m.Report); err != nil {
				return err
			}
			if !tdConfirm && (side == rep.Side || normUser(a.Name) == rep.By) {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "%s cannot confirm or dispute their own side's report: the opponent does", a)
			}
		}
		if expect > 0 && expect != m.Version {
			return arbiter.Errorf(arbiter.ECONFLICT, "match %s was changed by someone else (version %d, you had %d); reload and try again", m.ID, m.Version, expect)
		}
		if m.Status != arbiter.MatchReported {
			return arbiter.RuleError("app.result", "match %s is %s: only a reported result can be confirmed or disputed", m.ID, m.Status)
		}
		rep.ActedBy, rep.Reason = normUser(a.Name), reason
		action := "result.confirm"
		if confirm {
			rep.Status = arbiter.ReportConfirmed
			m.Status, m.Decision = arbiter.MatchFinal, decision
		} else {
			action = "result.dispute"
			rep.Status = arbiter.ReportDisputed
			m.Status = arbiter.MatchDisputed
		}
		ch := change(a, action, reason, false)
		if _, err := docReport.update(ctx, tx, ch, st, rep.ID, rep.Version, rep); err != nil {
			return err
		}
		if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
			return err
		}
		if confirm {
			// R6 marks on the report apply once the result stands.
			m, err = s.ruleMarkedSets(ctx, tx, st, arbiter.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, m)
		}
		return err
	})
	return m, err
}

// OverrideResult is a TD's decision on a match's result (a dispute, a
// late or wrong report, a correction), with the reason recorded in the
// audit log. It works in open and closed rounds. expect is the match
// version the TD saw (0: current), so two TDs cannot overwrite each other.
func (s *Service) OverrideResult(ctx context.Context, a arbiter.Actor, slug, matchID string, in ResultInput, reason string, expect int64) (arbiter.Match, error) {
	if err := requireReason(reason, "a TD override"); err != nil {
		return arbiter.Match{}, err
	}
	if err := checkExpect(expect); err != nil {
		return arbiter.Match{}, err
	}
	var m arbiter.Match
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "override a result"); err != nil {
			return err
		}
		var rd arbiter.Round
		m, rd, err = matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		if err := requireNotOwnMatch(ctx, tx, st, a, &m, "override its result"); err != nil {
			return err
		}
		if rd.Status == arbiter.RoundPaired {
			return arbiter.RuleError("app.result", "round %d is not published yet", rd.Number)
		}
		sh, err := st.readResult(&m, in)
		if err != nil {
			return err
		}
		if sh, err = reopenedSheet(ctx, tx, st, &m, sh); err != nil {
			return err
		}
		sc, err := st.scoreSheet(&m, sh, in.Summary, in.WrongTimeControl)
		if err != nil {
			return err
		}
		if err := checkArmageddon(ctx, tx, st, &m, sc.sheet); err != nil {
			return err
		}
		if m, err = s.setResult(ctx, tx, st, a, m, sc, "override", reason, expect); err != nil {
			return err
		}
		m, err = s.ruleMarkedSets(ctx, tx, st, a, m)
		return err
	})
	return m, err
}

// setResult stores a TD-decided result as a confirmed report, superseding
// the match's current report whatever its state: a match has one
// confirmed report at a time, so an earlier decision (confirmed) is
// superseded by the next as a pending or disputed report is.
func (s *Service) setResult(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, sc scored, decision, reason string, expect int64) (arbiter.Match, error) {
	ch := change(a, "result."+decision, reason, true)
	if m.Report != "" {
		old, err := docReport.get(ctx, tx, st, m.Report)
		if err != nil {
			return m, err
		}
		if old.Status != arbiter.ReportSuperseded {
			old.Status = arbiter.ReportSuperseded
			if _, err := docReport.update(ctx, tx, ch, st, old.ID, old.Version, old); err != nil {
				return m, err
			}
		}
	}
	id, err := s.newReport(ctx, tx, st, &m)
	if err != nil {
		return m, err
	}
	rep := arbiter.Report{ID: id, Match: m.ID, By: normUser(a.Name), Role: a.Role, At: s.now(), Sheet: sc.sheet,
		Summary: sc.summary, WrongTC: sc.wrongTC, Result: sc.outcome, Status: arbiter.ReportConfirmed, Reason: reason}
	if _, err := docReport.create(ctx, tx, ch, st, rep.ID, rep); err != nil {
		return m, err
	}
	m.Status, m.Result, m.Report, m.Decision = arbiter.MatchFinal, &sc.outcome, rep.ID, decision
	m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, expected(expect, m.Version), m)
	return m, err
}

// Reports lists the reports of one match (every match when empty) that
// user u may see: a match's reports are its sides' (captains, players,
// members) and the TDs'. Every match's are the TDs' only.
func (s *Service) Reports(ctx context.Context, u *arbiter.User, slug, matchID string) ([]arbiter.Report, error) {
	var out []arbiter.Report
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		if matchID == "" {
			if !v.roles.TD {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of %s sees every match's reports", slug)
			}
		} else {
			m, err := docMatch.get(ctx, q, st, matchID)
			if err != nil {
				return err
			}
			if !v.roles.InMatch(m) {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "the reports of match %s are for its sides and the TDs", matchID)
			}
		}
		var err error
		out, err = matchReports(ctx, q, st, matchID)
		return err
	})
	return out, err
}

// matchReports lists the reports of one match (every match when empty).
func matchReports(ctx context.Context, q sqlstore.Queryer, st *state, matchID string) ([]arbiter.Report, error) {
	rs, err := docReport.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	out := rs[:0]
	for _, r := range rs {
		if matchID == "" || r.Match == matchID {
			out = append(out, r)
		}
	}
	return out, nil
}
