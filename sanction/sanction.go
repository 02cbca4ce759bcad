// Package sanction computes what a withdrawal, removal or
// disqualification does to results, as a pure function of the rulebook,
// the stage, the reason and the subject's matches (RKCC R14-R16; antichess
// team cup A1, A2, A7, A8, A9, A15; ACWC W16, W17). It returns abstract
// changes per match (award to the opponent, adjudicate to the opponent,
// full forfeit, reopen, disregard, replace) that the application layer maps
// onto its results and standings.
package sanction

import (
	"fmt"

	"arbiter"
)

// Rulebook selects the policy.
type Rulebook int

const (
	RKCC      Rulebook = iota + 1 // R14-R16
	Antichess                     // antichess team cup, A1/A2/A8/A9/A15
	ACWC                          // ACWC 2023, W16/W17
)

// StageKind is the kind of stage the subject is in when the sanction hits.
type StageKind int

const (
	Swiss      StageKind = iota + 1 // RKCC/antichess Swiss; the ACWC qualification
	RoundRobin                      // the ACWC candidates pools
	Knockout                        // knockout rounds; the ACWC semifinals and finals
)

// Reason is why the subject leaves the event.
type Reason int

const (
	// Withdrawal: the player leaves (A9 treats it as a disqualification
	// that keeps the previous results; W17).
	Withdrawal Reason = iota + 1
	// Disqualification for breaking the competition rules (A7 forfeits,
	// A6 public accusations, W16, RKCC deliberate losing).
	Disqualification
	// TOSViolation: a Lichess TOS violation during the event (R14).
	TOSViolation
	// LichessBan: the player was banned by Lichess during the event (A8);
	// Case.NotForCheating says whether they proved it was not for cheating.
	LichessBan
	// Ineligible: a Lichess ban in the 12 months before the event found
	// after the start (A2): all played matches go to the opponents.
	Ineligible
	// EngineMark / BoosterMark: the player's account was marked (W17).
	EngineMark
	BoosterMark
)

var reasonNames = [...]string{"", "withdrawal", "disqualification", "TOS violation", "Lichess ban", "ineligibility", "engine mark", "booster mark"}

func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason %d", int(r))
}

// Match is one of the subject's matches, abstractly: its id, the two
// sides (entrant ids; the subject is one of them) and whether it has a
// final result.
type Match struct {
	ID        string
	Sides     [2]string
	Completed bool
}

func (m Match) opponent(subject string) (string, bool) {
	switch subject {
	case m.Sides[0]:
		return m.Sides[1], true
	case m.Sides[1]:
		return m.Sides[0], true
	}
	return "", false
}

// Effect is what happens to one match.
type Effect int

const (
	// Keep: the result stands (A1, A9, W17 qualification).
	Keep Effect = iota + 1
	// AwardOpponent: the incomplete match is won by the opponent (A8, W17).
	AwardOpponent
	// AdjudicateOpponent: the completed result becomes a win for the
	// opponent (A2, A8 cheating ban, W17 engine mark).
	AdjudicateOpponent
	// FullForfeit: the result becomes a full-points forfeit for the
	// opponent (R14; R15: 240-0 per set).
	FullForfeit
	// Reopen: the completed match is to be replayed (A8: ban proven not
	// for cheating); a replacement must play it before the stage ends (A15).
	Reopen
	// Disregard: the match no longer counts for anyone (W17 candidates).
	Disregard
	// Replaced: the player ranked below moves up and plays this pairing
	// instead (W17 semifinals and finals).
	Replaced
)

var effectNames = [...]string{"", "keep", "award to opponent", "adjudicate to opponent", "full forfeit", "reopen", "disregard", "replace"}

func (e Effect) String() string {
	if e > 0 && int(e) < len(effectNames) {
		return effectNames[e]
	}
	return fmt.Sprintf("effect %d", int(e))
}

// Change is the effect on one match. Beneficiary is the opponent (for
// awards, adjudications and forfeits); Clause names the rule applied.
type Change struct {
	MatchID     string
	Effect      Effect
	Beneficiary string
	Clause      string
}

// TeamContext is the subject's team in team events (antichess A15).
type TeamContext struct {
	// PriorDQs counts the team's players disqualified (or withdrawn) before.
	PriorDQs int
	// Captain: the subject is the team's current captain.
	Captain bool
	// RecentCaptain: the subject handed the captaincy over, but no round
	// has been played under the new captain yet (A15).
	RecentCaptain bool
}

// Case is a sanction to decide.
type Case struct {
	Rulebook Rulebook
	Stage    StageKind
	Subject  string
	Reason   Reason
	// NotForCheating: for LichessBan, the player proved to the TDs that the
	// ban was not for cheating (A8).
	NotForCheating bool
	// Matches are the subject's matches in the event (for the ACWC: in the
	// current stage, as W17 speaks of one stage).
	Matches []Match
	// Team is set in team events.
	Team *TeamContext
}

// Outcome is everything the sanction changes.
type Outcome struct {
	Changes []Change
	// Dropped: the subject is not paired again.
	Dropped bool
	// Barred: the subject may not play for any team for the rest of the
	// event (R16).
	Barred bool
	// TeamOut: the subject's team is disqualified (A15: a second
	// disqualified player, or the captain).
	TeamOut bool
	// MayReplace: the team may name a replacement (R14, A15; see
	// CheckReplacement).
	MayReplace bool
	// MoveUp: the players ranked below the subject move up one place for
	// the pairing (W17 semifinals and finals).
	MoveUp bool
	// NewCaptain: the subject led the team and another member steps in as
	// team leader (R14).
	NewCaptain bool
}

// Decide returns the outcome of a case, or an error naming the clause when
// the rulebook has no such case (or forbids it, e.g. a captain withdrawing
// without handing over, A15).
func Decide(c Case) (Outcome, error) {
	for i, m := range c.Matches {
		if _, ok := m.opponent(c.Subject); !ok || m.Sides[0] == m.Sides[1] {
			return Outcome{}, arbiter.FieldError(fmt.Sprintf("matches[%d]", i), "sanction.matches", "%s is not one side of match %q", c.Subject, m.ID)
		}
	}
	switch c.Rulebook {
	case RKCC:
		return rkcc(c)
	case Antichess:
		return antichess(c)
	case ACWC:
		return acwc(c)
	}
	return Outcome{}, arbiter.FieldError("rulebook", "sanction.rulebook", "unknown rulebook %d", c.Rulebook)
}

// each builds one change per match: done for completed matches, pending for
// the others.
func each(c Case, done, pending Effect, doneClause, pendingClause string) []Change {
	out := make([]Change, 0, len(c.Matches))
	for _, m := range c.Matches {
		e, cl := pending, pendingClause
		if m.Completed {
			e, cl = done, doneClause
		}
		ch := Change{MatchID: m.ID, Effect: e, Clause: cl}
		if e == AwardOpponent || e == AdjudicateOpponent || e == FullForfeit {
			ch.Beneficiary, _ = m.opponent(c.Subject)
		}
		out = append(out, ch)
	}
	return out
}

func notACase(c Case, clause string) error {
	return arbiter.FieldError("reason", clause, "the rulebook has no %s case in this stage", c.Reason)
}

// rkcc: R14 TOS violation: removed, all previous results become full
// forfeits for the opponents, the team may replace the player; R15.4/R16:
// a removed player plays for no team for the rest of the event. Unplayed
// sets are left to the team's replacement. Deliberate losing (here
// Disqualification) removes the player too, with results kept.
func rkcc(c Case) (Outcome, error) {
	var o Outcome
	switch c.Reason {
	case TOSViolation:
		o = Outcome{Changes: each(c, FullForfeit, Keep, "R14", "R14"), Barred: true}
	case Disqualification:
		o = Outcome{Changes: each(c, Keep, Keep, "R16", "R16"), Barred: true}
	case Withdrawal:
		o = Outcome{Changes: each(c, Keep, Keep, "R14", "R14")}
	default:
		return Outcome{}, notACase(c, "R14")
	}
	o.Dropped, o.MayReplace = true, true
	o.NewCaptain = c.Team != nil && c.Team.Captain
	return o, nil
}

// antichess: A1/A9 results kept, A8 an incomplete pairing goes to the
// opponent, A8 a ban not proven non-cheating adjudicates completed matches
// to the opponents (proven: reopened), A2 a ban before the event found
// later forfeits all played matches; A15 team consequences.
func antichess(c Case) (Outcome, error) {
	var o Outcome
	switch c.Reason {
	case Withdrawal:
		if c.Team != nil && (c.Team.Captain || c.Team.RecentCaptain) {
			return Outcome{}, arbiter.RuleError("A15",
				"a captain may withdraw only after handing the captaincy to another player and one round being played under them")
		}
		o.Changes = each(c, Keep, AwardOpponent, "A9", "A8")
	case Disqualification:
		o.Changes = each(c, Keep, AwardOpponent, "A1", "A8")
	case LichessBan:
		if c.NotForCheating {
			o.Changes = each(c, Reopen, AwardOpponent, "A8", "A8")
		} else {
			o.Changes = each(c, AdjudicateOpponent, AwardOpponent, "A8", "A8")
		}
	case Ineligible:
		o.Changes = each(c, AdjudicateOpponent, AwardOpponent, "A2", "A8")
	default:
		return Outcome{}, notACase(c, "A8")
	}
	o.Dropped = true
	if c.Team != nil {
		o.TeamOut = c.Team.Captain || c.Team.PriorDQs+1 >= 2
		o.MayReplace = !o.TeamOut
	}
	return o, nil
}

// acwc: W17 by stage.
func acwc(c Case) (Outcome, error) {
	switch c.Reason {
	case Withdrawal, Disqualification, EngineMark, BoosterMark:
	default:
		return Outcome{}, notACase(c, "W17")
	}
	o := Outcome{Dropped: true}
	switch c.Stage {
	case Swiss:
		done := Keep
		if c.Reason == EngineMark {
			done = AdjudicateOpponent
		}
		o.Changes = each(c, done, AwardOpponent, "W17", "W17")
	case RoundRobin:
		o.Changes = each(c, Disregard, Disregard, "W17", "W17")
	case Knockout:
		o.Changes = each(c, Keep, Replaced, "W17", "W17")
		o.MoveUp = true
	default:
		return Outcome{}, arbiter.FieldError("stage", "W17", "unknown stage kind %d", c.Stage)
	}
	return o, nil
}
