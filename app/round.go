package app

import (
	"context"
	"fmt"
	"strings"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/sanction"
	"arbiter/sqlstore"
)

// appealClause is the rule behind a format's appeal window: the clause it
// names for unplayed matches (R5: an appeal within 24 h may overturn the
// automatic double forfeits), else the field.
func appealClause(st *state) string {
	return orField(st.f.Clauses.Unplayed, "format.calendar.appeal_hours")
}

// CloseRound closes the current round once its deadline has passed: every
// match with no result takes its rulebook's result (unplayedAtDeadline:
// R5's double forfeit where there are no time offers; W14's draw when
// both sides failed to offer; otherwise held for the TDs with the fault
// shown), a reported but unconfirmed result stands as reported, a
// disputed one waits for a TD. If the format has an appeal window it
// opens now. A TD or the scheduler (role system) closes rounds.
func (s *Service) CloseRound(ctx context.Context, a arbiter.Actor, slug string) (arbiter.Round, error) {
	var rd arbiter.Round
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if a.Role != arbiter.RoleSystem {
			if err := requireTD(ctx, tx, st, a, "close a round"); err != nil {
				return err
			}
		} else if err := requireActor(a); err != nil {
			return err
		}
		rd, err = s.closeCurrent(ctx, tx, st, a)
		return err
	})
	return rd, err
}

// closeCurrent closes the stage's open round for a (permissions already
// checked): refused before the deadline and when no round is published.
func (s *Service) closeCurrent(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor) (arbiter.Round, error) {
	var rd arbiter.Round
	err := func() error {
		rounds, err := stageRounds(ctx, tx, st, st.ev.Stage)
		if err != nil {
			return err
		}
		if len(rounds) == 0 || rounds[len(rounds)-1].Status != arbiter.RoundPublished {
			return arbiter.RuleError("app.round", "no published round is open")
		}
		rd = rounds[len(rounds)-1]
		now := s.now()
		if now.Before(rd.End) {
			return arbiter.RuleError(st.roundClause(), "round %d runs until %s; it closes at its deadline", rd.Number, calendar.Format(rd.End.Add(-1)))
		}
		rules, err := calendarRules(st.f)
		if err != nil {
			return err
		}
		var held []string
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, tx, st, id)
			if err != nil {
				return err
			}
			switch m.Status {
			case arbiter.MatchScheduled:
				note, err := s.unplayedAtDeadline(ctx, tx, st, a, m, rd)
				if err != nil {
					return err
				}
				if note != "" {
					held = append(held, note)
				}
			case arbiter.MatchReported:
				rep, err := docReport.get(ctx, tx, st, m.Report)
				if err != nil {
					return err
				}
				ch := change(a, "result.accept_at_deadline", "reported and not disputed by the round deadline", false)
				rep.Status = arbiter.ReportConfirmed
				if _, err := docReport.update(ctx, tx, ch, st, rep.ID, rep.Version, rep); err != nil {
					return err
				}
				m.Status, m.Decision = arbiter.MatchFinal, "accepted_at_deadline"
				if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
					return err
				}
				if _, err := s.ruleMarkedSets(ctx, tx, st, a, m); err != nil {
					return err
				}
			}
		}
		rd.Status, rd.ClosedAt = arbiter.RoundClosed, now
		if rd.Notes, err = forfeitNotes(ctx, tx, st); err != nil {
			return err
		}
		rd.Notes = append(held, rd.Notes...)
		if rules.AppealWindow > 0 {
			rd.AppealsUntil = rules.Appeals(rd.End).End
		}
		ch := change(a, "round.close", "", false)
		if rd.Version, err = docRound.update(ctx, tx, ch, st, rd.ID, rd.Version, rd); err != nil {
			return err
		}
		if si := st.ev.Stage; si == len(st.ev.Stages)-1 && rd.Number == st.ev.Stages[si].Rounds {
			st.ev.Status = arbiter.EventFinished // the last round of the last stage
			return st.save(ctx, tx, ch)
		}
		return nil
	}()
	return rd, err
}

// Appeal asks the TDs to overturn the result of a match in a closed
// round. Only a side of the match appeals (its player or captain). With
// an appeal window (R5: 24 h after the round end) later appeals are
// refused naming R5; in formats that leave disputes to the TDs
// (calendar.appeals "td_discretion") an appeal is taken until the next
// round is published, then refused naming format.appeals.
func (s *Service) Appeal(ctx context.Context, a arbiter.Actor, slug, matchID, reason string) (arbiter.Appeal, error) {
	var ap arbiter.Appeal
	if err := requireReason(reason, "an appeal"); err != nil {
		return ap, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		m, rd, err := matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		side, err := sideOf(ctx, tx, st, a, &m)
		if err != nil {
			return err
		}
		if side == "" {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may appeal only their own match's result", a)
		}
		tdCall := st.f.Calendar.AppealMode() == format.AppealsTDDiscretion
		if rd.Status != arbiter.RoundClosed {
			clause := appealClause(st)
			if tdCall {
				clause = tdAppealClause
			}
			return arbiter.RuleError(clause, "round %d is not closed: appeals follow the round's end", rd.Number)
		}
		if tdCall {
			if err := s.tdDiscretionOpen(ctx, tx, st, rd); err != nil {
				return err
			}
		} else {
			if rd.AppealsUntil.IsZero() {
				return arbiter.RuleError(appealClause(st), "the format %s has no appeal window", st.f.Name)
			}
			win := calendar.Window{Start: rd.End, End: rd.AppealsUntil}
			if err := win.Require(s.now(), appealClause(st), fmt.Sprintf("appeals against round %d", rd.Number)); err != nil {
				return err
			}
		}
		aps, err := docAppeal.list(ctx, tx, st)
		if err != nil {
			return err
		}
		n := 1
		for _, p := range aps {
			if p.Match == m.ID {
				n++
				if p.Status == arbiter.AppealPending {
					return arbiter.Errorf(arbiter.ECONFLICT, "appeal %s on match %s is still pending", p.ID, m.ID)
				}
			}
		}
		ap = arbiter.Appeal{ID: fmt.Sprintf("%s-a%d", m.ID, n), Match: m.ID, By: normUser(a.Name), At: s.now(),
			Reason: strings.TrimSpace(reason), Status: arbiter.AppealPending}
		ap.Version, err = docAppeal.create(ctx, tx, change(a, "appeal.file", reason, false), st, ap.ID, ap)
		return err
	})
	return ap, err
}

// tdAppealClause names the rule behind appeals in formats that leave
// disputes to the TDs (antichess cup §1, ACWC §1): CLAUSES.md gives that
// boilerplate clause no ID, so the format's own field is cited.
const tdAppealClause = "format.appeals"

// tdDiscretionOpen refuses an appeal against closed round rd once a later
// round has been published: the next round of rd's stage or, after a
// stage's last round, the next stage's first. Until then the TDs take
// the appeal and make the final call.
func (s *Service) tdDiscretionOpen(ctx context.Context, q sqlstore.Queryer, st *state, rd arbiter.Round) error {
	all, err := docRound.list(ctx, q, st)
	if err != nil {
		return err
	}
	lastOfStage := rd.Stage < len(st.ev.Stages) && rd.Number == st.ev.Stages[rd.Stage].Rounds
	for _, r := range all {
		later := r.Stage == rd.Stage && r.Number == rd.Number+1 ||
			lastOfStage && r.Stage == rd.Stage+1 && r.Number == 1
		if later && r.Status != arbiter.RoundPaired {
			return arbiter.RuleError(tdAppealClause, "appeals against round %d are taken by the TDs only until the next round is published (round %s was published %s)",
				rd.Number, r.ID, calendar.Format(r.PublishedAt))
		}
	}
	return nil
}

// DecideAppeal is a TD's ruling on a pending appeal, with a reason.
// Accepting it sets the match's result to the one given (e.g. the result
// of a match that was in fact played); rejecting leaves the result.
func (s *Service) DecideAppeal(ctx context.Context, a arbiter.Actor, slug, appealID string, accept bool, in ResultInput, reason string) (arbiter.Appeal, error) {
	var ap arbiter.Appeal
	if err := requireReason(reason, "an appeal decision"); err != nil {
		return ap, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "decide an appeal"); err != nil {
			return err
		}
		ap, err = docAppeal.get(ctx, tx, st, appealID)
		if err != nil {
			return err
		}
		if ap.Status != arbiter.AppealPending {
			return arbiter.Errorf(arbiter.ECONFLICT, "appeal %s was already %s", ap.ID, ap.Status)
		}
		m, err := docMatch.get(ctx, tx, st, ap.Match)
		if err != nil {
			return err
		}
		if err := requireNotOwnMatch(ctx, tx, st, a, &m, "decide its appeal"); err != nil {
			return err
		}
		ap.Decided, ap.Decision = normUser(a.Name), reason
		action := "appeal.reject"
		ap.Status = arbiter.AppealRejected
		if accept {
			action, ap.Status = "appeal.accept", arbiter.AppealAccepted
			sc, err := st.score(&m, in)
			if err != nil {
				return err
			}
			if _, err := s.setResult(ctx, tx, st, a, m, sc, "appeal", reason, 0); err != nil {
				return err
			}
			ap.Result = &sc.outcome
		}
		ap.Version, err = docAppeal.update(ctx, tx, change(a, action, reason, accept), st, ap.ID, ap.Version, ap)
		return err
	})
	return ap, err
}

// Appeals lists the event's appeals.
func (s *Service) Appeals(ctx context.Context, slug string) ([]arbiter.Appeal, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return docAppeal.list(ctx, s.DB, st)
}

// forfeitNotes lists the entrants whose forfeits disqualify them under the
// rulebook (A7: two forfeits; W16: forfeited in two matches), for the TDs
// to apply with Sanction. What counts is listed by matchForfeits: match,
// board, part and game forfeits and W14's missed offers.
func forfeitNotes(ctx context.Context, q sqlstore.Queryer, st *state) ([]string, error) {
	rb, ok := sanctionRulebook(st.f)
	if !ok || rb == sanction.RKCC {
		return nil, nil // RKCC counts no forfeits towards a disqualification
	}
	byEntrant, err := matchForfeits(ctx, q, st)
	if err != nil {
		return nil, err
	}
	entrants, err := approvedBySeed(ctx, q, st)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, e := range entrants {
		if e.Status != arbiter.EntrantApproved {
			continue
		}
		if dq, clause := sanction.ForfeitDisqualifies(rb, byEntrant[e.ID]); dq {
			var ids []string
			for _, f := range byEntrant[e.ID] {
				ids = append(ids, f.MatchID)
			}
			notes = append(notes, fmt.Sprintf("%s forfeited %s: %s disqualifies; apply it with a sanction", e.ID, strings.Join(ids, ", "), clause))
		}
	}
	return notes, nil
}
