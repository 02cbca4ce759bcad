package app

import (
	"context"
	"fmt"
	"slices"
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
	Kind string
	// Board is the board negotiated where each player negotiates with
	// their board opponent (A5 in a format with board lineups), 1-based;
	// 0 elsewhere.
	Board int
	Times []time.Time // propose
	At    time.Time   // accept
	// AtFault is who a TD finds at fault: an entrant of the match, its
	// side ("home", "away") or, board by board, the board's player; ""
	// for nobody.
	AtFault string
	Reason  string // for TD rulings
}

// Negotiation is a match's (or one board's) negotiation as stored.
type Negotiation struct {
	Match string            `json:"match"`
	Board int               `json:"board,omitempty"`
	State negotiation.State `json:"state"`

	Version int64 `json:"-"`
}

// negotiationRules are the format's offer rules, derived from its data
// (negotiation.RulesFromFormat); ok is false when it has none.
func negotiationRules(f *format.Format) (negotiation.Rules, bool) {
	return negotiation.RulesFromFormat(f)
}

// boardNegotiation tells whether the format's players negotiate board by
// board: A5 has each player offer times to their opponent, and a format
// with board lineups names who plays each board.
func boardNegotiation(f *format.Format) bool {
	return f.Entrant == format.Team && f.Lineups == format.LineupBoards
}

// negotiationID is the stored ID of a match's negotiation, or of one of
// its boards'.
func negotiationID(matchID string, board int) string {
	if board == 0 {
		return matchID
	}
	return fmt.Sprintf("%s/b%d", matchID, board)
}

// boardPlayers are the two players of board b as paired ("" when the
// team's boards were not ranked).
func boardPlayers(m *arbiter.Match, b int) [2]string {
	var out [2]string
	if b >= 1 && b <= len(m.HomeBoards) {
		out[0] = m.HomeBoards[b-1]
	}
	if b >= 1 && b <= len(m.AwayBoards) {
		out[1] = m.AwayBoards[b-1]
	}
	return out
}

// newNegotiation starts the negotiation of a match (or board) in its round.
func newNegotiation(st *state, rules negotiation.Rules, m *arbiter.Match, board int) Negotiation {
	w, _ := st.window(m.Stage, m.Round)
	return Negotiation{Match: m.ID, Board: board, State: negotiation.New(rules, calendar.Round{Window: calendar.Window{Start: w.Start, End: w.End},
		OfferDeadline: w.OfferDeadline, Weekend: w.Weekend})}
}

// Negotiate applies one step of a match's time negotiation (A5, W14):
// the sides propose and accept start times under the rulebook's offer
// rules, a TD rules on fault after the weekend (also once the round is
// closed and the match held for the TDs), and the deadline's automatic
// result applies. In a format with board lineups each board is
// negotiated apart by its two players (A5), or by a team's captain for
// them (A16: the captain mediates for chat-banned players); an agreed
// time is stored on the match (per board), a no-fault or missed-deadline
// outcome becomes the match's result (A5: a 0-0 draw, the format's double
// forfeit, board by board; W14: a draw). Each refusal names the clause.
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
		perBoard := boardNegotiation(st.f)
		size := teamSize(st.f, st.ev.Entrants)
		switch {
		case perBoard && (step.Board < 1 || step.Board > size):
			return arbiter.FieldError("board", rules.Clause, "name the board, 1 to %d: each player negotiates the time with their board opponent", size)
		case !perBoard && step.Board != 0:
			return arbiter.FieldError("board", rules.Clause, "the sides of match %s negotiate one time for the whole match", m.ID)
		}
		open := rd.Status == arbiter.RoundPublished && m.Status == arbiter.MatchScheduled
		held := m.Status == arbiter.MatchHeld && step.Kind == NegRuleFault
		if m.IsBye() || !open && !held {
			return arbiter.RuleError(rules.Clause, "match %s is not open for scheduling (round %s, match %s)", m.ID, rd.Status, m.Status)
		}
		if r, ok := boardRuling(&m, step.Board); ok && step.Board > 0 {
			return arbiter.RuleError(r.Clause, "board %d of match %s is already decided (%s)", step.Board, m.ID, r.Forfeit)
		}
		id := negotiationID(m.ID, step.Board)
		neg, err = docNegotiation.get(ctx, tx, st, id)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return err
		}
		if create {
			neg = newNegotiation(st, rules, &m, step.Board)
		}
		td, err := isTD(ctx, tx, st, a)
		if err != nil {
			return err
		}
		players := boardPlayers(&m, step.Board)
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
			switch f := normUser(step.AtFault); {
			case f == "" || f == "none" || f == "nobody":
			case f == m.Home || f == string(arbiter.Home) || f == players[0] && f != "":
				p := negotiation.PlayerA
				rf.AtFault = &p
			case f == m.Away || f == string(arbiter.Away) || f == players[1] && f != "":
				p := negotiation.PlayerB
				rf.AtFault = &p
			default:
				return arbiter.FieldError("at_fault", rules.Clause, "%s does not play in match %s", step.AtFault, m.ID)
			}
			action = rf
		default:
			side, err := negotiationSide(ctx, tx, st, a, &m, perBoard, players)
			if err != nil {
				return err
			}
			if side == "" {
				if perBoard {
					return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may negotiate only their own board, or as captain their team's boards (A5, A16)", a)
				}
				return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may negotiate only their own match", a)
			}
			p := negotiation.Player(side.Index())
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
		offered := len(neg.State.Offers)
		next, err := negotiation.Apply(neg.State, action, s.now())
		if err != nil {
			return err
		}
		neg.State = next
		what := "negotiation." + step.Kind
		ch := change(a, what, reason, false)
		if create {
			neg.Version, err = docNegotiation.create(ctx, tx, ch, st, id, neg)
		} else {
			neg.Version, err = docNegotiation.update(ctx, tx, ch, st, id, neg.Version, neg)
		}
		if err != nil {
			return err
		}
		if step.Kind == NegPropose {
			if err := s.tellOffer(ctx, tx, st, a, &m, neg, offered); err != nil { // messages_offer.go
				return err
			}
		}
		m, err = s.negotiated(ctx, tx, st, a, m, neg, rules, reason)
		return err
	})
	return neg, m, err
}

// negotiationSide is the side the actor negotiates for: in an individual
// event its player; where boards are negotiated apart, the board's player
// or the team's captain (A16); otherwise the team's captain.
func negotiationSide(ctx context.Context, q sqlstore.Queryer, st *state, a arbiter.Actor, m *arbiter.Match, perBoard bool, players [2]string) (arbiter.Side, error) {
	if !perBoard {
		return sideOf(ctx, q, st, a, m)
	}
	me := normUser(a.Name)
	for i, id := range []string{m.Home, m.Away} {
		e, err := docEntrant.get(ctx, q, st, id)
		if err != nil {
			return "", err
		}
		if e.Status != arbiter.EntrantApproved {
			continue
		}
		name := arbiter.SideAt(i)
		if players[i] != "" && players[i] == me && a.Role != arbiter.RoleTD && slices.Contains(e.Users(), me) {
			return name, nil
		}
		if a.Role == arbiter.RoleCaptain && e.Captain == me {
			return name, nil
		}
	}
	return "", nil
}

// negotiated stores what a negotiation's outcome does to the match: an
// agreed time (the match's, or the board's); a result replacing play
// (the whole match's, or the board's ruling, and the match's once every
// board is decided).
func (s *Service) negotiated(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, neg Negotiation, rules negotiation.Rules, reason string) (arbiter.Match, error) {
	next := neg.State
	ch := change(a, "negotiation.outcome", reason, false)
	var err error
	switch next.Outcome {
	case negotiation.Open:
		if next.Ruled && m.Status == arbiter.MatchHeld {
			// The TDs found a player at fault after the deadline: the note
			// says so; the result is theirs to set.
			m.Note = strings.TrimSpace(m.Note + "; " + faultWords(rules, &m, neg.Board, next))
			m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
		}
		return m, err
	case negotiation.Agreed:
		if neg.Board > 0 {
			size := teamSize(st.f, st.ev.Entrants)
			for len(m.BoardTimes) < size {
				m.BoardTimes = append(m.BoardTimes, time.Time{})
			}
			m.BoardTimes[neg.Board-1] = next.AgreedAt
		} else {
			m.ScheduledAt = next.AgreedAt
		}
		m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
		return m, err
	}
	// No agreement: the rulebook's result replaces play.
	f := score.ForfeitFullDraw
	if next.Outcome == negotiation.DrawZeroZero {
		f = score.ForfeitDouble
	}
	why := rules.Clause + ": " + next.Outcome.String()
	if neg.Board == 0 {
		sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
		if err != nil {
			return m, err
		}
		return s.setResult(ctx, tx, st, a, m, sc, "negotiation", why, 0)
	}
	pl := boardPlayers(&m, neg.Board)
	m.Rulings = append(m.Rulings, arbiter.Ruling{Board: neg.Board, Forfeit: f, Clause: rules.Clause,
		Reason: fmt.Sprintf("board %d (%s): %s", neg.Board, strings.Join(slices.DeleteFunc(pl[:], func(p string) bool { return p == "" }), " v "), next.Outcome)})
	if ruledBoards(&m, teamSize(st.f, st.ev.Entrants)) {
		// Every board is decided: so is the match.
		sc, err := st.scoreSheet(&m, rulingsSheet(&m), "", nil)
		if err != nil {
			return m, err
		}
		return s.setResult(ctx, tx, st, a, m, sc, "negotiation", why+", every board decided", 0)
	}
	m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
	return m, err
}

// faultWords says where a negotiation stands for the TDs: who offered in
// time, who is at fault, whether a time was agreed.
func faultWords(rules negotiation.Rules, m *arbiter.Match, board int, s negotiation.State) string {
	names := [2]string{m.Home, m.Away}
	where := "match " + m.ID
	if board > 0 {
		where = fmt.Sprintf("board %d", board)
		for i, p := range boardPlayers(m, board) {
			if p != "" {
				names[i] = p
			}
		}
		if names[0] != m.Home {
			where += " (" + names[0] + " v " + names[1] + ")"
		}
	}
	due := "by " + calendar.Format(s.OfferDeadline.Add(-time.Minute))
	switch {
	case s.Outcome == negotiation.Agreed:
		return fmt.Sprintf("%s: a time was agreed (%s) but no result came: the TDs decide (a no-show?) (%s)", where, calendar.Format(s.AgreedAt), rules.Clause)
	case s.AtFault[0] || s.AtFault[1]:
		var who []string
		for i, f := range s.AtFault {
			if f {
				who = append(who, names[i])
			}
		}
		return fmt.Sprintf("%s: the TDs found %s at fault (%s: the opponent decides the time); the TDs set the result", where, strings.Join(who, " and "), rules.Clause)
	}
	missed := [2]bool{s.MissedDeadline(negotiation.PlayerA, s.Round.End), s.MissedDeadline(negotiation.PlayerB, s.Round.End)}
	switch {
	case missed[0] && missed[1]:
		return fmt.Sprintf("%s: neither %s nor %s offered %d times %s (%s: both at fault); the TDs decide", where, names[0], names[1], rules.MinOffers, due, rules.Clause)
	case missed[0] || missed[1]:
		at, other := 0, 1
		if missed[1] {
			at, other = 1, 0
		}
		return fmt.Sprintf("%s: %s offered %d times %s, %s did not: %s is at fault (%s: must accept the opponent's time); the TDs decide", where,
			names[other], rules.MinOffers, due, names[at], names[at], rules.Clause)
	}
	return fmt.Sprintf("%s: both offered times but agreed none: the TDs rule on fault (%s: no fault gives the %s)", where, rules.Clause, rules.NoFault)
}
