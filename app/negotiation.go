package app

import (
	"context"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/negotiation"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindNegotiation = "negotiation"

// Negotiation steps, by name.
const (
	NegPropose      = "propose"       // a side offers start times
	NegAccept       = "accept"        // a side accepts one of the opponent's times
	NegNoneSuitable = "none_suitable" // none of the offers suits: more offers are due (A5)
	NegAgreeDraw    = "agree_draw"    // a draw without play (A5 forbids it)
	NegRuleFault    = "rule_fault"    // TD: who is at fault ("" = nobody) after the weekend
	NegExpire       = "expire"        // TD or scheduler: the offer deadline's automatic result (W14)
)

// NegotiationStep is one step of a match's time negotiation.
type NegotiationStep struct {
	Kind  string
	Times []time.Time // propose
	At    time.Time   // accept
	// AtFault is the entrant a TD finds at fault ("" for nobody).
	AtFault string
	Reason  string // for TD rulings
}

// Negotiation is a match's negotiation as stored.
type Negotiation struct {
	Match string            `json:"match"`
	State negotiation.State `json:"state"`

	Version int64 `json:"-"`
}

// negotiationRules are the format's offer rules, derived from its data
// (negotiation.RulesFromFormat); ok is false when it has none.
func negotiationRules(f *format.Format) (negotiation.Rules, bool) {
	return negotiation.RulesFromFormat(f)
}

// Negotiate applies one step of a match's time negotiation (A5, W14):
// the sides propose and accept start times under the rulebook's offer
// rules, a TD rules on fault after the weekend, and the deadline's
// automatic result applies. An agreed time is stored on the match; a
// no-fault or missed-deadline outcome becomes the match's result (A5: a
// 0-0 draw, the format's double forfeit; W14: a draw). Each refusal names
// the clause.
func (s *Service) Negotiate(ctx context.Context, a arbiter.Actor, slug, matchID string, step NegotiationStep) (Negotiation, arbiter.Match, error) {
	var neg Negotiation
	var m arbiter.Match
	if err := checkTimes("times", s.now(), step.Times...); err != nil {
		return neg, m, err
	}
	if err := checkTimes("at", s.now(), step.At); err != nil {
		return neg, m, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		rules, ok := negotiationRules(st.f)
		if !ok {
			return arbiter.RuleError("app.negotiation", "format %s has no time negotiation: players agree times themselves", st.f.Name)
		}
		var rd arbiter.Round
		m, rd, err = matchInRound(ctx, tx, st, matchID)
		if err != nil {
			return err
		}
		if rd.Status != arbiter.RoundPublished || m.Status != arbiter.MatchScheduled || m.IsBye() {
			return arbiter.RuleError(rules.Clause, "match %s is not open for scheduling (round %s, match %s)", m.ID, rd.Status, m.Status)
		}
		neg, err = get[Negotiation](ctx, tx, st, kindNegotiation, m.ID)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return err
		}
		if create {
			w, _ := st.window(m.Stage, m.Round)
			neg = Negotiation{Match: m.ID, State: negotiation.New(rules, calendar.Round{Window: calendar.Window{Start: w.Start, End: w.End},
				OfferDeadline: w.OfferDeadline, Weekend: w.Weekend})}
		}
		td, err := isTD(ctx, tx, st, a)
		if err != nil {
			return err
		}
		var action negotiation.Action
		var reason string
		switch step.Kind {
		case NegRuleFault, NegExpire:
			if !td && !(step.Kind == NegExpire && a.Role == arbiter.RoleSystem) {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD rules on a negotiation (you act as %s)", a)
			}
			if step.Kind == NegExpire {
				action = negotiation.Expire{}
				break
			}
			if err := requireReason(step.Reason, "a ruling on fault"); err != nil {
				return err
			}
			if err := requireNotOwnMatch(ctx, tx, st, a, &m, "rule on fault in its negotiation"); err != nil {
				return err
			}
			reason = step.Reason
			rf := negotiation.RuleFault{}
			switch strings.ToLower(step.AtFault) {
			case "":
			case m.Home:
				p := negotiation.PlayerA
				rf.AtFault = &p
			case m.Away:
				p := negotiation.PlayerB
				rf.AtFault = &p
			default:
				return arbiter.FieldError("at_fault", rules.Clause, "%s does not play in match %s", step.AtFault, m.ID)
			}
			action = rf
		default:
			side, err := sideOf(ctx, tx, st, a, &m)
			if err != nil {
				return err
			}
			if side == "" {
				return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may negotiate only their own match", a)
			}
			p := negotiation.PlayerA
			if side == "away" {
				p = negotiation.PlayerB
			}
			switch step.Kind {
			case NegPropose:
				action = negotiation.Propose{By: p, Times: step.Times}
			case NegAccept:
				action = negotiation.Accept{By: p, At: step.At}
			case NegNoneSuitable:
				action = negotiation.NoneSuitable{By: p}
			case NegAgreeDraw:
				action = negotiation.AgreeDraw{}
			default:
				return arbiter.FieldError("kind", "app.negotiation", "unknown step %q (propose, accept, none_suitable, agree_draw, rule_fault, expire)", step.Kind)
			}
		}
		next, err := negotiation.Apply(neg.State, action, s.now())
		if err != nil {
			return err
		}
		neg.State = next
		ch := change(a, "negotiation."+step.Kind, reason, false)
		if create {
			neg.Version, err = sqlstore.Create(ctx, tx, ch, st.row.ID, kindNegotiation, m.ID, neg)
		} else {
			neg.Version, err = sqlstore.Update(ctx, tx, ch, st.row.ID, kindNegotiation, m.ID, neg.Version, neg)
		}
		if err != nil {
			return err
		}
		switch next.Outcome {
		case negotiation.Open:
			return nil
		case negotiation.Agreed:
			m.ScheduledAt = next.AgreedAt
			m.Version, err = sqlstore.Update(ctx, tx, ch, st.row.ID, kindMatch, m.ID, m.Version, m)
			return err
		}
		// No agreement: the rulebook's result replaces play.
		f := score.ForfeitFullDraw
		if next.Outcome == negotiation.DrawZeroZero {
			f = score.ForfeitDouble
		}
		sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
		if err != nil {
			return err
		}
		m, err = s.setResult(ctx, tx, st, a, m, sc, "negotiation", rules.Clause+": "+next.Outcome.String(), 0)
		return err
	})
	return neg, m, err
}
