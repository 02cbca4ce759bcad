// Package negotiation is the scheduling of one match by time offers
// (antichess team cup A5, ACWC W14) as a pure state machine: a State and
// Apply(state, action, now) returning the next State or a RuleError naming
// the clause that forbids the action. All times are UTC instants.
//
// The flow: each player offers at least three times (Propose), by the
// round's offer deadline; offers must be in the future, inside the round,
// at least 3 h apart, not all within 24 h (A5) or at most 2 on one UTC date
// (W14). The opponent accepts one offered time (Accept) or counter-offers
// (Propose again). A player who has not made three offers by the deadline
// may only accept the opponent's times. A5: when both made three and none
// of the six suits, each offers three more, different ones (NoneSuitable).
// Without agreement by the weekend the TDs rule on fault (RuleFault): the
// player at fault must accept the opponent's times; no fault gives the
// format's draw. W14: when both missed the deadline the match is a draw with
// a forfeited game for both (Expire).
package negotiation

import (
	"slices"
	"time"

	"arbiter"
	"arbiter/calendar"
)

// Player is one of the two players of the match, in the order the
// application lists them.
type Player int

const (
	PlayerA Player = 0
	PlayerB Player = 1
)

// Other returns the opponent.
func (p Player) Other() Player { return 1 - p }

func (p Player) String() string {
	if p == PlayerA {
		return "A"
	}
	return "B"
}

func (p Player) valid() bool { return p == PlayerA || p == PlayerB }

// Outcome is where a negotiation stands.
type Outcome int

const (
	// Open: still negotiating.
	Open Outcome = iota
	// Agreed: a time was accepted; State.AgreedAt holds it.
	Agreed
	// DrawZeroZero: no agreement, no fault: the match is a 0-0 draw (A5).
	DrawZeroZero
	// Draw: no agreement, no fault: the match is ruled a draw (W14).
	Draw
	// DrawBothForfeited: both players failed to make three offers by the
	// deadline: a draw, and each counts as having forfeited a game (W14,
	// which matters for W16).
	DrawBothForfeited
)

var outcomeNames = [...]string{"open", "agreed", "0-0 draw", "draw", "draw, both forfeited"}

func (o Outcome) String() string {
	if o >= 0 && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// Rules are the negotiation parameters of a rulebook.
type Rules struct {
	Clause     string
	MinOffers  int           // offers each player owes by the deadline (3)
	MinGap     time.Duration // between two offers of one player (3 h)
	MinSpan    time.Duration // A5: the offers may not all lie within 24 h; 0: no such rule
	MaxPerDate int           // W14: at most 2 offers on one UTC date; 0: no limit
	// RetryOffers: when both made their offers and none suits, each makes
	// this many more, different from all earlier ones (A5: 3); 0 means the
	// rulebook has no such rule.
	RetryOffers int
	// NoFault is the result when the TDs find no one at fault.
	NoFault Outcome
	// BothMissed is the automatic result when both players missed the offer
	// deadline; Open means there is none and the TDs rule.
	BothMissed Outcome
	// NoUnplayedDraw: the players may not agree a draw without playing (A5).
	NoUnplayedDraw bool
	// ReplyWindow: an offer should be answered within it (W14, advisory).
	ReplyWindow time.Duration
}

// RulesAntichess returns the antichess team cup negotiation rules (A5).
func RulesAntichess() Rules {
	return Rules{
		Clause: "A5", MinOffers: 3, MinGap: 3 * time.Hour, MinSpan: 24 * time.Hour,
		RetryOffers: 3, NoFault: DrawZeroZero, BothMissed: Open, NoUnplayedDraw: true,
	}
}

// RulesACWC returns the ACWC 2023 negotiation rules (W14).
func RulesACWC() Rules {
	return Rules{
		Clause: "W14", MinOffers: 3, MinGap: 3 * time.Hour, MaxPerDate: 2,
		NoFault: Draw, BothMissed: DrawBothForfeited, ReplyWindow: 24 * time.Hour,
	}
}

// Offer is one offered start time.
type Offer struct {
	By    Player
	At    time.Time // the offered start, UTC
	Made  time.Time // when it was offered
	Batch int       // 0, then 1, 2... after each NoneSuitable renewal (A5)
}

// State is the negotiation of one match. Build it with New; treat it as a
// value: Apply never modifies its input.
type State struct {
	Rules Rules
	// Round is the round window: offered times must lie inside it.
	Round calendar.Window
	// OfferDeadline is the exclusive end of the time for the first offers.
	OfferDeadline time.Time
	// Weekend is when, without agreement, the TDs may rule on fault.
	Weekend time.Time

	Offers  []Offer
	Batch   int
	Outcome Outcome
	// AgreedAt is the accepted start time when Outcome is Agreed.
	AgreedAt time.Time
	// Ruled is set once the TDs ruled on fault; AtFault names the player(s)
	// they found at fault.
	Ruled   bool
	AtFault [2]bool
}

// New returns the negotiation of a match in the given round (its window,
// offer deadline and weekend from package calendar).
func New(rules Rules, round calendar.Round) State {
	return State{Rules: rules, Round: round.Window, OfferDeadline: round.OfferDeadline, Weekend: round.Weekend}
}

// Action is one step of the negotiation: Propose, Accept, NoneSuitable,
// RuleFault, Expire, AgreeDraw or Exception.
type Action interface {
	apply(s State, now time.Time) (State, error)
}

// Apply returns the state after action at time now, or the RuleError that
// forbids it. s is never modified.
func Apply(s State, a Action, now time.Time) (State, error) {
	s.Offers = slices.Clip(s.Offers) // appends below must not write into the caller's array
	return a.apply(s, now.UTC())
}

// madeByDeadline counts p's offers of the first batch made before the
// offer deadline.
func (s State) madeByDeadline(p Player) int {
	n := 0
	for _, o := range s.Offers {
		if o.By == p && o.Batch == 0 && o.Made.Before(s.OfferDeadline) {
			n++
		}
	}
	return n
}

// MissedDeadline reports whether p had not made the required offers by the
// offer deadline (A5/W14), as seen at now.
func (s State) MissedDeadline(p Player, now time.Time) bool {
	return !s.OfferDeadline.IsZero() && !now.Before(s.OfferDeadline) && s.madeByDeadline(p) < s.Rules.MinOffers
}

// MustAccept reports whether p may no longer offer times and must accept
// one of the opponent's: p missed the offer deadline (until the TDs ruled)
// or the TDs found p at fault.
func (s State) MustAccept(p Player, now time.Time) bool {
	return s.AtFault[p] || (!s.Ruled && s.MissedDeadline(p, now))
}

// batchOffers returns p's offers of the current batch.
func (s State) batchOffers(p Player) []Offer {
	var out []Offer
	for _, o := range s.Offers {
		if o.By == p && o.Batch == s.Batch {
			out = append(out, o)
		}
	}
	return out
}

// Unanswered returns the opponent's offers p has not answered (by accepting
// or by offering a time later) although the reply window has passed (W14:
// "preferably within 24 hours"; advisory, for reminders).
func (s State) Unanswered(p Player, now time.Time) []Offer {
	if s.Outcome != Open || s.Rules.ReplyWindow == 0 {
		return nil
	}
	var out []Offer
	for _, o := range s.Offers {
		if o.By != p.Other() || now.Before(o.Made.Add(s.Rules.ReplyWindow)) {
			continue
		}
		answered := false
		for _, r := range s.Offers {
			if r.By == p && !r.Made.Before(o.Made) {
				answered = true
			}
		}
		if !answered {
			out = append(out, o)
		}
	}
	return out
}

func (s State) requireOpen() error {
	switch s.Outcome {
	case Open:
		return nil
	case Agreed:
		return arbiter.RuleError(s.Rules.Clause, "the match time is already agreed: %s", calendar.Format(s.AgreedAt))
	}
	return arbiter.RuleError(s.Rules.Clause, "the negotiation is over: the match was ruled a %s", s.Outcome)
}

func checkPlayer(p Player, clause string) error {
	if !p.valid() {
		return arbiter.FieldError("player", clause, "player must be A or B")
	}
	return nil
}
