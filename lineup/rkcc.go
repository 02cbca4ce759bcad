// Package lineup validates and applies team lineups: which member plays
// which set or board in a round. It is pure: the application passes the
// team, the round's times and now, and stores what comes back.
//
// RKCC (R7, R8, R9): a lineup names one member per set; the members not
// named sit out (at most one). It is due before the round starts; a team
// that sends none plays the previous round's lineup; each team has one
// late correction in the whole event, within 24 h of a round's start and
// never in round 1; the Swiss winner has a wild card in each knockout
// round: one swap of two players within 24 h of the pairings.
//
// Antichess team cup (A12-A16): see antichess.go.
package lineup

import (
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/calendar"
)

// RKCCRules are the RKCC lineup parameters.
type RKCCRules struct {
	Sets      int           // R3: 3 sets (3+2, 1.5+1, 0.75+0)
	MaxSitOut int           // R7: at most one member sits out
	Grace     time.Duration // R7.1: the one-time correction, 24 h after the round start
	WildCard  time.Duration // R9: 24 h after the pairings
}

// RulesRKCC returns the RKCC lineup rules.
func RulesRKCC() RKCCRules {
	return RKCCRules{Sets: 3, MaxSitOut: 1, Grace: calendar.Day, WildCard: calendar.Day}
}

// Lineup names the player of each set, in the format's set order. Members
// not named sit out.
type Lineup struct {
	Sets []string
}

func (l Lineup) clone() Lineup { return Lineup{Sets: slices.Clone(l.Sets)} }

// Round is what the lineup rules need to know about a round.
type Round struct {
	Seq      int       // 1-based round number in the event
	Start    time.Time // the round start (R4: Monday 00:00 UTC)
	Knockout bool      // a round of the knockout stage (R9)
	Pairings time.Time // when the round's pairings were published (R9)
}

// Validate checks a lineup against the team's current members (removed
// players, R16, are no longer members).
func (r RKCCRules) Validate(l Lineup, members []string) error {
	if len(l.Sets) != r.Sets {
		return arbiter.FieldError("sets", "R7", "a lineup names one player for each of the %d sets, got %d", r.Sets, len(l.Sets))
	}
	for i, p := range l.Sets {
		field := fmt.Sprintf("sets[%d]", i)
		switch {
		case p == "":
			return arbiter.FieldError(field, "R7", "set %d has no player", i+1)
		case !slices.Contains(members, p):
			return arbiter.FieldError(field, "R7", "%s is not a member of the team", p)
		case slices.Index(l.Sets, p) != i:
			return arbiter.FieldError(field, "R7", "%s is named for two sets; a player plays one set per round", p)
		}
	}
	if out := len(members) - len(l.Sets); out > r.MaxSitOut {
		return arbiter.FieldError("sets", "R7", "at most %d member may sit out, but %d would", r.MaxSitOut, out)
	}
	return nil
}

// RKCCBook is one team's lineups over an event. Treat it as a value: the
// functions return a new book and never modify their input.
type RKCCBook struct {
	Rules   RKCCRules
	Lineups map[int]Lineup // by round Seq
	// GraceRound is the round whose lineup was corrected late with the
	// one-time grace (R7.1); 0 while unused.
	GraceRound int
	// WildCards records the knockout rounds in which the wild card was used.
	WildCards map[int]bool
}

// NewRKCCBook returns an empty book.
func NewRKCCBook(r RKCCRules) RKCCBook { return RKCCBook{Rules: r} }

func (b RKCCBook) clone() RKCCBook {
	out := b
	out.Lineups = make(map[int]Lineup, len(b.Lineups)+1)
	for k, v := range b.Lineups {
		out.Lineups[k] = v.clone()
	}
	out.WildCards = make(map[int]bool, len(b.WildCards)+1)
	for k, v := range b.WildCards {
		out.WildCards[k] = v
	}
	return out
}

// Submit records the lineup for a round. Before the round start any number
// of submissions replace each other (R7). After it, only the one-time grace
// correction is possible: not in round 1, within Grace of the start, once
// per team per event (R7.1).
func (b RKCCBook) Submit(rd Round, l Lineup, members []string, now time.Time) (RKCCBook, error) {
	if err := b.Rules.Validate(l, members); err != nil {
		return b, err
	}
	grace := false
	if !now.Before(rd.Start) {
		win := calendar.Window{Start: rd.Start, End: rd.Start.Add(b.Rules.Grace)}
		switch {
		case rd.Seq <= 1:
			return b, arbiter.RuleError("R7", "the round 1 lineup was due by %s; the late correction does not apply to round 1",
				calendar.Format(rd.Start))
		case b.GraceRound != 0:
			return b, arbiter.RuleError("R7", "round %d's lineup was due by %s, and the team's one late correction was used in round %d",
				rd.Seq, calendar.Format(rd.Start), b.GraceRound)
		}
		if err := win.Require(now, "R7", fmt.Sprintf("late corrections to round %d's lineup", rd.Seq)); err != nil {
			return b, err
		}
		grace = true
	}
	out := b.clone()
	out.Lineups[rd.Seq] = l.clone()
	if grace {
		out.GraceRound = rd.Seq
	}
	return out, nil
}

// Effective returns the lineup that plays round seq: its own, or else the
// latest earlier round's (R7), and the round it was submitted for.
func (b RKCCBook) Effective(seq int) (Lineup, int, error) {
	for r := seq; r >= 1; r-- {
		if l, ok := b.Lineups[r]; ok {
			return l.clone(), r, nil
		}
	}
	return Lineup{}, 0, arbiter.RuleError("R7", "the team has no lineup for round %d and none from an earlier round", seq)
}

// WildCard applies the Swiss winner's wild card in a knockout round (R9):
// one swap of two players, x and y, within the window after the pairings;
// once per knockout round. Two players with sets exchange sets; a player
// sitting out takes the set of the other. holder says whether the team won
// the Swiss stage.
func (b RKCCBook) WildCard(rd Round, x, y string, members []string, holder bool, now time.Time) (RKCCBook, error) {
	switch {
	case !holder:
		return b, arbiter.RuleError("R9", "only the winner of the Swiss stage holds the wild card")
	case !rd.Knockout:
		return b, arbiter.RuleError("R9", "the wild card is for knockout rounds only")
	case b.WildCards[rd.Seq]:
		return b, arbiter.RuleError("R9", "the wild card was already used in round %d; it allows one swap per knockout round", rd.Seq)
	case x == y:
		return b, arbiter.FieldError("players", "R9", "a swap needs two different players")
	}
	for _, p := range []string{x, y} {
		if !slices.Contains(members, p) {
			return b, arbiter.FieldError("players", "R9", "%s is not a member of the team", p)
		}
	}
	win := calendar.Window{Start: rd.Pairings, End: rd.Pairings.Add(b.Rules.WildCard)}
	if err := win.Require(now, "R9", fmt.Sprintf("the wild card for round %d", rd.Seq)); err != nil {
		return b, err
	}
	l, _, err := b.Effective(rd.Seq)
	if err != nil {
		return b, err
	}
	ix, iy := slices.Index(l.Sets, x), slices.Index(l.Sets, y)
	switch {
	case ix < 0 && iy < 0:
		return b, arbiter.RuleError("R9", "neither %s nor %s plays in round %d: a swap must involve a playing member", x, y, rd.Seq)
	case ix >= 0 && iy >= 0:
		l.Sets[ix], l.Sets[iy] = y, x
	case ix >= 0:
		l.Sets[ix] = y
	default:
		l.Sets[iy] = x
	}
	if err := b.Rules.Validate(l, members); err != nil {
		return b, err
	}
	out := b.clone()
	out.Lineups[rd.Seq] = l
	out.WildCards[rd.Seq] = true
	return out, nil
}
