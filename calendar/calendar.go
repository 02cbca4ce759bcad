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
	"time"

	"arbiter"
)

// Day is the length of a calendar day in UTC (no DST in UTC).
const Day = 24 * time.Hour

// Week is seven UTC days.
const Week = 7 * Day

// WeekKind says how a rulebook lays its rounds on the calendar.
type WeekKind int

const (
	// MondayWeeks: a round runs Monday 00:00 to Sunday 23:59 UTC (RKCC R4).
	MondayWeeks WeekKind = iota + 1
	// TuesdayWeeks: pairings are published by Tuesday and the round's
	// matches are due the following Monday 23:59 UTC (A4, W13).
	TuesdayWeeks
)

// OfferRule says how a round's offer deadline is derived.
type OfferRule int

const (
	// NoOfferDeadline: the rulebook sets no deadline for time offers (RKCC).
	NoOfferDeadline OfferRule = iota
	// OfferWithinAfterPreviousEnd: offers are due OfferWithin after the end
	// of the previous round (A5: 72 h).
	OfferWithinAfterPreviousEnd
	// OfferByFriday: offers are due by the Friday 23:59 UTC of the round
	// (W14).
	OfferByFriday
)

// Rules are the calendar parameters of a rulebook. Build them with RKCC,
// AntichessTeamCup or ACWC, or fill them from format data.
type Rules struct {
	Week        WeekKind
	RoundClause string // clause defining the round window (R4, A4, W13)

	Offer       OfferRule
	OfferWithin time.Duration // for OfferWithinAfterPreviousEnd (A5: 72 h)
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
		Week:                    MondayWeeks,
		RoundClause:             "R4",
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
		Week:            TuesdayWeeks,
		RoundClause:     "A4",
		Offer:           OfferWithinAfterPreviousEnd,
		OfferWithin:     72 * time.Hour,
		OfferClause:     "A5",
		MayBringForward: true,
	}
}

// ACWC returns the calendar rules of the Lichess Antichess World Cup 2023.
func ACWC() Rules {
	return Rules{
		Week:        TuesdayWeeks,
		RoundClause: "W13",
		Offer:       OfferByFriday,
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
