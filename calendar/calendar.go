// Package calendar computes the round windows and deadlines of an event in
// UTC from the rulebooks' weekly timelines (RKCC R4/R5/R7/R8/R9, antichess
// team cup A4/A5, ACWC W13/W14). It is pure: every instant is passed in and
// every result is a UTC time.Time, so daylight-saving changes never matter.
//
// A deadline the rulebooks write as "Sunday 23:59 UTC" means the whole of
// that minute is still in time. A Window therefore stores the exclusive
// instant that follows it (Monday 00:00) as End; LastMinute gives the
// "23:59" back for messages.
package calendar

import (
	"fmt"
	"time"

	"arbiter"
)

// Day is the length of a calendar day in UTC (no DST in UTC).
const Day = 24 * time.Hour

// Week is seven UTC days.
const Week = 7 * Day

// WeekTime is a weekday and a UTC clock time, e.g. Monday 23:59. As a
// deadline it includes its whole minute: the deadline passes at 00:00.
type WeekTime struct {
	Day          time.Weekday
	Hour, Minute int
}

func (w WeekTime) String() string { return fmt.Sprintf("%s %02d:%02d UTC", w.Day, w.Hour, w.Minute) }

func (w WeekTime) valid() bool {
	return w.Day >= time.Sunday && w.Day <= time.Saturday && w.Hour >= 0 && w.Hour < 24 && w.Minute >= 0 && w.Minute < 60
}

// at reports whether t is exactly this week time.
func (w WeekTime) at(t time.Time) bool {
	t = t.UTC()
	return t.Weekday() == w.Day && t.Hour() == w.Hour && t.Minute() == w.Minute && t.Second() == 0 && t.Nanosecond() == 0
}

// endAfter returns the first instant strictly after t at which this week
// time, taken as a whole minute, has passed: the minute after it.
func (w WeekTime) endAfter(t time.Time) time.Time {
	e := onOrAfter(t, w.Day).Add(time.Duration(w.Hour)*time.Hour + time.Duration(w.Minute+1)*time.Minute)
	for !e.After(t) {
		e = e.AddDate(0, 0, 7)
	}
	return e
}

// OfferRule says how a round's offer deadline is derived.
type OfferRule int

const (
	// NoOfferDeadline: the rulebook sets no deadline for time offers (RKCC).
	NoOfferDeadline OfferRule = iota
	// OfferWithinAfterPreviousEnd: offers are due OfferWithin after the end
	// of the previous round (A5: 72 h).
	OfferWithinAfterPreviousEnd
	// OfferByWeekTime: offers are due by the first OfferBy after the round
	// start (W14: Friday 23:59 UTC).
	OfferByWeekTime
)

// Rules are the calendar parameters of a rulebook. Build them with RKCC,
// AntichessTeamCup or ACWC, or fill them from format data.
type Rules struct {
	RoundClause string // clause defining the round window (R4, A4, W13)

	// RoundStart is when every round opens (R4: Monday 00:00); nil when a
	// round opens with its pairings.
	RoundStart *WeekTime
	// PairingsBy is the last minute for publishing pairings (A4, W13:
	// "by Tuesday", i.e. Tuesday 23:59); used when RoundStart is nil.
	PairingsBy *WeekTime
	// Deadline is the last minute of a round (R4: Sunday 23:59; A4, W13:
	// Monday 23:59).
	Deadline WeekTime

	Offer       OfferRule
	OfferWithin time.Duration // for OfferWithinAfterPreviousEnd (A5: 72 h)
	OfferBy     WeekTime      // for OfferByWeekTime (W14: Friday 23:59)
	OfferClause string        // A5, W14

	// ReplyWindow is how soon a player should answer an offer (W14: 24 h;
	// the rulebook says "preferably", so it is advisory).
	ReplyWindow time.Duration

	AppealWindow   time.Duration // R5: 24 h after the round end
	LineupGrace    time.Duration // R7.1: 24 h after the round start
	WildCardWindow time.Duration // R9: 24 h after the pairings

	// RegistrationCloseBefore / RegistrationFinalBefore are how long before
	// the first round start registration closes and is finalised (R8:
	// Saturday 06:00 and Saturday 23:59 before a Monday start, i.e. 42 h and
	// 24 h). Zero means the rulebook sets no such times.
	RegistrationCloseBefore time.Duration
	RegistrationFinalBefore time.Duration

	// MayBringForward allows the TD to advance a round's deadline once all
	// its matches are finished (A4).
	MayBringForward bool
}

// RKCC returns the calendar rules of the RKCC three-time-control team event.
func RKCC() Rules {
	return Rules{
		RoundClause:             "R4",
		RoundStart:              &WeekTime{Day: time.Monday},
		Deadline:                WeekTime{Day: time.Sunday, Hour: 23, Minute: 59},
		AppealWindow:            Day,
		LineupGrace:             Day,
		WildCardWindow:          Day,
		RegistrationCloseBefore: 42 * time.Hour,
		RegistrationFinalBefore: Day,
	}
}

// AntichessTeamCup returns the calendar rules of the antichess team cup.
func AntichessTeamCup() Rules {
	return Rules{
		RoundClause:     "A4",
		PairingsBy:      &WeekTime{Day: time.Tuesday, Hour: 23, Minute: 59},
		Deadline:        WeekTime{Day: time.Monday, Hour: 23, Minute: 59},
		Offer:           OfferWithinAfterPreviousEnd,
		OfferWithin:     72 * time.Hour,
		OfferClause:     "A5",
		MayBringForward: true,
	}
}

// ACWC returns the calendar rules of the Lichess Antichess World Cup 2023.
func ACWC() Rules {
	return Rules{
		RoundClause: "W13",
		PairingsBy:  &WeekTime{Day: time.Tuesday, Hour: 23, Minute: 59},
		Deadline:    WeekTime{Day: time.Monday, Hour: 23, Minute: 59},
		Offer:       OfferByWeekTime,
		OfferBy:     WeekTime{Day: time.Friday, Hour: 23, Minute: 59},
		OfferClause: "W14",
		ReplyWindow: Day,
	}
}

// Window is the half-open interval [Start, End) of UTC instants.
type Window struct {
	Start, End time.Time
}

// Contains reports whether t lies in the window.
func (w Window) Contains(t time.Time) bool {
	return !t.Before(w.Start) && t.Before(w.End)
}

// LastMinute is the last minute still inside the window, the "23:59" of the
// rulebooks.
func (w Window) LastMinute() time.Time { return w.End.Add(-time.Minute) }

// Require returns nil when now lies in the window, otherwise a RuleError
// naming clause that tells the player when the window opens or closed.
// what completes the sentence, e.g. "appeals for round 3".
func (w Window) Require(now time.Time, clause, what string) error {
	switch {
	case now.Before(w.Start):
		return arbiter.RuleError(clause, "%s open on %s", what, Format(w.Start))
	case !now.Before(w.End):
		return arbiter.RuleError(clause, "%s closed on %s", what, Format(w.LastMinute()))
	}
	return nil
}

// Format writes an instant the way the rulebooks do: "Monday 2023-03-27 23:59 UTC".
func Format(t time.Time) string { return t.UTC().Format("Monday 2006-01-02 15:04 UTC") }

// midnight returns 00:00 UTC of t's UTC date.
func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// onOrAfter returns 00:00 UTC of the first day on or after t's UTC date that
// is weekday d.
func onOrAfter(t time.Time, d time.Weekday) time.Time {
	m := midnight(t)
	return m.AddDate(0, 0, (int(d)-int(m.Weekday())+7)%7)
}

// after returns the first 00:00 UTC of weekday d strictly after t.
func after(t time.Time, d time.Weekday) time.Time {
	n := onOrAfter(t, d)
	if !n.After(t) {
		n = n.AddDate(0, 0, 7)
	}
	return n
}

// WeekStart returns Monday 00:00 UTC of the Monday-to-Sunday week holding t.
func WeekStart(t time.Time) time.Time {
	m := midnight(t)
	return m.AddDate(0, 0, -((int(m.Weekday()) + 6) % 7))
}

// Appeals is the window for appealing the automatic double forfeits
// of a round that ended at roundEnd (R5: 24 h).
func (r Rules) Appeals(roundEnd time.Time) Window {
	return Window{roundEnd.UTC(), roundEnd.UTC().Add(r.AppealWindow)}
}

// LineupCorrection is the window for the one-time late lineup correction
// of a round starting at roundStart (R7.1: 24 h after the start).
func (r Rules) LineupCorrection(roundStart time.Time) Window {
	return Window{roundStart.UTC(), roundStart.UTC().Add(r.LineupGrace)}
}

// WildCard is the window in which the Swiss winner may play its
// wild card after the knockout pairings were published (R9: 24 h).
func (r Rules) WildCard(pairings time.Time) Window {
	return Window{pairings.UTC(), pairings.UTC().Add(r.WildCardWindow)}
}

// ReplyDue is when an answer to an offer made at made is due (W14: 24 h,
// advisory). It is the zero time when the rulebook sets no reply window.
func (r Rules) ReplyDue(made time.Time) time.Time {
	if r.ReplyWindow == 0 {
		return time.Time{}
	}
	return made.UTC().Add(r.ReplyWindow)
}

// PairingsDue is when the pairings of a round whose window opens at start
// are late (exclusive, as a round's End): the round's start where rounds
// open at a fixed time (R4: the pairings are out before Monday 00:00),
// else the minute after the first PairingsBy from the start (A4, W13:
// "by Tuesday" is Tuesday 23:59). Zero when the rules set neither.
func (r Rules) PairingsDue(start time.Time) time.Time {
	switch {
	case r.RoundStart != nil:
		return start.UTC()
	case r.PairingsBy != nil && r.PairingsBy.valid():
		return r.PairingsBy.endAfter(start.UTC().Add(-time.Nanosecond))
	}
	return time.Time{}
}
