package app

import (
	"context"
	"fmt"
	"strings"

	"arbiter"
	"arbiter/calendar"
	"arbiter/negotiation"
	"arbiter/score"
	"arbiter/sqlstore"
)

// A match still unplayed at its round's deadline takes the result its
// rulebook gives (closeCurrent):
//
//   - a format without time offers (RKCC) makes it a double forfeit: R5
//     ("any matches not played by the end of the round will automatically
//     be double forfeited"), cited only where the format names it
//     (clauses.unplayed);
//   - a format with time offers (A5, W14) asks the negotiation: both sides
//     without their offers by the deadline gives W14's draw with a
//     forfeited game for each (A5 has no such result); a no-fault ruling
//     already gave the match (or the board) its draw. Any other case (one
//     side at fault, no agreement and no ruling yet, a time agreed but not
//     played) is the TDs' to decide: the match is held, with the fault
//     shown, and a TD sets the result. A side that offered in time is
//     never punished as if both had failed. Where boards are negotiated
//     apart (A5), each board is judged on its own.

// unplayedAtDeadline gives match m of round rd the deadline's result, or
// holds it for the TDs; it returns the note for the TDs ("" when the
// result stands).
func (s *Service) unplayedAtDeadline(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, rd arbiter.Round) (string, error) {
	deadline := calendar.Format(rd.End.Add(-1))
	rules, ok := negotiationRules(st.f)
	if !ok {
		clause := st.f.Clauses.Unplayed
		why := "unplayed at the round deadline " + deadline + ": a double forfeit (the format's double_forfeit)"
		if clause != "" {
			why = clause + ": unplayed at the round deadline " + deadline
		}
		sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + score.ForfeitDouble})
		if err != nil {
			return "", err
		}
		m.Status, m.Result, m.Decision = arbiter.MatchFinal, &sc.outcome, "double_forfeit"
		_, err = docMatch.update(ctx, tx, change(a, "result.double_forfeit", why, false), st, m.ID, m.Version, m)
		return "", err
	}
	boards := []int{0}
	if boardNegotiation(st.f) {
		boards = nil
		for b := 1; b <= teamSize(st.f, st.ev.Entrants); b++ {
			boards = append(boards, b)
		}
	}
	var notes []string
	var outcome negotiation.Outcome
	for _, b := range boards {
		if _, ok := boardRuling(&m, b); ok && b > 0 {
			continue // decided already (a no-fault ruling, a sanction)
		}
		id := negotiationID(m.ID, b)
		neg, err := docNegotiation.get(ctx, tx, st, id)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return "", err
		}
		if create {
			neg = newNegotiation(st, rules, &m, b)
		}
		if neg.State.Outcome == negotiation.Open && !neg.State.OfferDeadline.IsZero() {
			// The offer deadline's own result (W14: both missed it).
			next, err := negotiation.Apply(neg.State, negotiation.Expire{}, rd.End)
			if err != nil {
				return "", err
			}
			if next.Outcome != neg.State.Outcome {
				neg.State = next
				ch := change(a, "negotiation.expire", rules.Clause+": at the round deadline "+deadline, false)
				if create {
					_, err = docNegotiation.create(ctx, tx, ch, st, id, neg)
				} else {
					_, err = docNegotiation.update(ctx, tx, ch, st, id, neg.Version, neg)
				}
				if err != nil {
					return "", err
				}
			}
		}
		switch neg.State.Outcome {
		case negotiation.DrawBothForfeited, negotiation.Draw, negotiation.DrawZeroZero:
			if b == 0 {
				outcome = neg.State.Outcome
				continue
			}
			f := score.ForfeitFullDraw
			if neg.State.Outcome == negotiation.DrawZeroZero {
				f = score.ForfeitDouble
			}
			m.Rulings = append(m.Rulings, arbiter.Ruling{Board: b, Forfeit: f, Clause: rules.Clause,
				Reason: fmt.Sprintf("board %d at the round deadline: %s", b, neg.State.Outcome)})
		default:
			notes = append(notes, faultWords(rules, &m, b, neg.State))
		}
	}
	switch {
	case len(notes) == 0 && len(boards) == 1 && boards[0] == 0:
		f := score.ForfeitFullDraw
		if outcome == negotiation.DrawZeroZero {
			f = score.ForfeitDouble
		}
		sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
		if err != nil {
			return "", err
		}
		_, err = s.setResult(ctx, tx, st, a, m, sc, "negotiation", fmt.Sprintf("%s: %s at the round deadline %s", rules.Clause, outcome, deadline), 0)
		return "", err
	case len(notes) == 0:
		sc, err := st.scoreSheet(&m, rulingsSheet(&m), "", nil)
		if err != nil {
			return "", err
		}
		_, err = s.setResult(ctx, tx, st, a, m, sc, "negotiation", fmt.Sprintf("%s: every board decided at the round deadline %s", rules.Clause, deadline), 0)
		return "", err
	}
	note := strings.Join(notes, "; ")
	m.Status, m.Decision, m.Note = arbiter.MatchHeld, "held", note
	_, err := docMatch.update(ctx, tx, change(a, "result.held", rules.Clause+": unplayed at the round deadline "+deadline+": "+note, false), st, m.ID, m.Version, m)
	return m.ID + " is held for the TDs: " + note, err
}
