package calendar

import (
	"fmt"
	"time"

	"arbiter"
)

// Stage is one stage of an event as the calendar sees it: a name and its
// number of weekly rounds (one match per week: A4, W13).
type Stage struct {
	Name   string
	Rounds int
	// BreakBefore is the idle time between the previous stage's last round
	// and this stage's first (W13: one week before the candidates and
	// before the semifinals). Ignored for the first stage.
	BreakBefore time.Duration
}

// ACWCStages returns the four ACWC stages (W3, W5, W8, W13): the
// qualification Swiss with its rounds, the candidates (a double round robin
// of 6 players: 10 rounds) after a one-week break, the semifinals after
// another one-week break, then the final and third-place match.
func ACWCStages(qualificationRounds int) []Stage {
	return []Stage{
		{Name: "qualification", Rounds: qualificationRounds},
		{Name: "candidates", Rounds: 10, BreakBefore: Week},
		{Name: "semifinals", Rounds: 1, BreakBefore: Week},
		{Name: "finals", Rounds: 1},
	}
}

// Round is the calendar of one round.
type Round struct {
	Seq    int // 1-based position in the whole event
	Stage  int // 0-based index into the stages given to Build
	Number int // 1-based round number inside its stage
	// Window holds the round: Start is the round start (RKCC: Monday 00:00;
	// antichess/ACWC: pairings published), End the exclusive instant after
	// the last minute in which matches count (Sunday/Monday 23:59).
	Window
	// OfferDeadline is the exclusive end of the time for the three offers
	// (A5: 72 h after the previous round end; W14: Friday 23:59 → Saturday
	// 00:00). Zero when the rulebook has none.
	OfferDeadline time.Time
	// Weekend is the first Saturday 00:00 UTC after the round start: with
	// no agreement by then the TDs rule on fault (A5, W14). Zero when the
	// rulebook has no negotiation.
	Weekend time.Time
}

// Registration holds the registration times before the first round (R8).
type Registration struct {
	Closes         time.Time // R8: Saturday 06:00 UTC
	Finalised      time.Time // R8: the exclusive end of Saturday 23:59 UTC
	FirstLineupDue time.Time // R7/R8: the first round start, 24 h later
}

// Calendar is the computed calendar of a whole event.
type Calendar struct {
	Rules  Rules
	Rounds []Round
	// Registration is set when the rulebook defines registration times.
	Registration *Registration
}

// Build computes the calendar of an event whose first round starts at
// start (RKCC: a Monday 00:00 UTC; antichess and ACWC: the publication of
// the first pairings, any instant) and which has the given stages in
// order. Rounds follow each other week by week; a stage's BreakBefore idles
// before it (W13).
//
// Without a fixed RoundStart, the first round's deadline is the first
// Deadline after the first PairingsBy day from start (A4, W13: the Monday
// 23:59 after the Tuesday on or after start): pairings published early (the
// ACWC's were on Sunday 2023-03-19) still belong to that Tuesday's week.
func Build(r Rules, start time.Time, stages []Stage) (Calendar, error) {
	start = start.UTC()
	if len(stages) == 0 {
		return Calendar{}, arbiter.FieldError("stages", r.RoundClause, "an event needs at least one stage")
	}
	for i, s := range stages {
		if s.BreakBefore < 0 || s.BreakBefore%Day != 0 {
			return Calendar{}, arbiter.FieldError(fmt.Sprintf("stages[%d].break", i), r.RoundClause,
				"a break between stages is a whole number of days, got %s", s.BreakBefore)
		}
		if s.Rounds < 1 {
			return Calendar{}, arbiter.FieldError(fmt.Sprintf("stages[%d].rounds", i), r.RoundClause,
				"stage %q needs at least one round, got %d", s.Name, s.Rounds)
		}
	}
	if !r.Deadline.valid() || (r.Offer == OfferByWeekTime && !r.OfferBy.valid()) {
		return Calendar{}, arbiter.FieldError("deadline", r.RoundClause, "a weekly time needs a weekday and a time from 00:00 to 23:59")
	}
	var firstEnd time.Time
	switch {
	case r.RoundStart != nil:
		if !r.RoundStart.valid() || !r.RoundStart.at(start) {
			return Calendar{}, arbiter.FieldError("start", r.RoundClause,
				"rounds begin on %s, got %s", r.RoundStart, Format(start))
		}
		firstEnd = r.Deadline.endAfter(start)
	case r.PairingsBy != nil && r.PairingsBy.valid():
		// The round belongs to the week of the first pairings day on or
		// after start; its deadline is the first one after that day.
		firstEnd = r.Deadline.endAfter(r.PairingsBy.endAfter(start))
	default:
		return Calendar{}, arbiter.FieldError("round_start", r.RoundClause, "the rules need a weekly round start or a pairings day")
	}
	c := Calendar{Rules: r}
	if r.RegistrationCloseBefore > 0 {
		c.Registration = &Registration{
			Closes:         start.Add(-r.RegistrationCloseBefore),
			Finalised:      start.Add(-r.RegistrationFinalBefore),
			FirstLineupDue: start,
		}
	}
	next, end := start, firstEnd
	for si, s := range stages {
		if si > 0 {
			next = next.Add(s.BreakBefore)
			end = next.Add(Week)
		}
		for n := 1; n <= s.Rounds; n++ {
			rd := Round{Seq: len(c.Rounds) + 1, Stage: si, Number: n, Window: Window{next, end}}
			c.Rounds = append(c.Rounds, rd)
			next, end = end, end.Add(Week)
		}
	}
	c.derive()
	return c, nil
}

// derive fills the offer deadlines and weekends from the windows.
func (c *Calendar) derive() {
	for i := range c.Rounds {
		rd := &c.Rounds[i]
		rd.OfferDeadline, rd.Weekend = time.Time{}, time.Time{}
		switch c.Rules.Offer {
		case OfferWithinAfterPreviousEnd:
			// A5 counts from the end of the previous round; the first
			// round (and a round after a break) counts from its pairings.
			from := rd.Start
			if i > 0 && c.Rounds[i-1].End.After(from) {
				from = c.Rounds[i-1].End
			}
			rd.OfferDeadline = from.Add(c.Rules.OfferWithin)
		case OfferByWeekTime:
			rd.OfferDeadline = c.Rules.OfferBy.endAfter(rd.Start)
		}
		if c.Rules.Offer != NoOfferDeadline {
			rd.Weekend = after(rd.Start, time.Saturday)
		}
	}
}

// Round returns the round with the given 1-based event sequence number.
func (c Calendar) Round(seq int) (Round, error) {
	if seq < 1 || seq > len(c.Rounds) {
		return Round{}, arbiter.FieldError("round", c.Rules.RoundClause,
			"no round %d: the event has %d rounds", seq, len(c.Rounds))
	}
	return c.Rounds[seq-1], nil
}

// At returns the round whose window holds now, if any.
func (c Calendar) At(now time.Time) (Round, bool) {
	for _, rd := range c.Rounds {
		if rd.Contains(now) {
			return rd, true
		}
	}
	return Round{}, false
}

// End is the exclusive end of the last round.
func (c Calendar) End() time.Time { return c.Rounds[len(c.Rounds)-1].End }

// BringForward returns the calendar with round seq ending at newEnd
// instead (A4: the TD may advance the deadline when all matches are
// finished). Every later round moves earlier by the same amount, so the
// following pairings can be published at once; c is not modified.
func (c Calendar) BringForward(seq int, newEnd time.Time, allFinished bool, now time.Time) (Calendar, error) {
	rd, err := c.Round(seq)
	if err != nil {
		return Calendar{}, err
	}
	newEnd, now = newEnd.UTC(), now.UTC()
	switch {
	case !c.Rules.MayBringForward:
		return Calendar{}, arbiter.RuleError(c.Rules.RoundClause,
			"this rulebook does not let the TD bring a round deadline forward")
	case !allFinished:
		return Calendar{}, arbiter.RuleError("A4",
			"round %d's deadline can only be brought forward once all its matches are finished", seq)
	case !newEnd.Before(rd.End):
		return Calendar{}, arbiter.RuleError("A4",
			"the new deadline %s is not earlier than the current one, %s", Format(newEnd), Format(rd.LastMinute()))
	case !newEnd.After(rd.Start) || newEnd.Before(now):
		return Calendar{}, arbiter.RuleError("A4",
			"the new deadline %s must lie after the round start and not in the past", Format(newEnd))
	}
	shift := rd.End.Sub(newEnd)
	out := Calendar{Rules: c.Rules, Registration: c.Registration, Rounds: append([]Round(nil), c.Rounds...)}
	out.Rounds[seq-1].End = newEnd
	for i := seq; i < len(out.Rounds); i++ {
		out.Rounds[i].Start = out.Rounds[i].Start.Add(-shift)
		out.Rounds[i].End = out.Rounds[i].End.Add(-shift)
	}
	out.derive()
	return out, nil
}
