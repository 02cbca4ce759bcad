package calendar

import (
	"time"

	"arbiter"
	"arbiter/format"
)

// RulesFromFormat derives the calendar rules from a format's data: the
// weekly round window, the offer deadline of its negotiation, the appeal,
// lineup, wild-card and registration windows, A4's bringing forward and the
// clauses the format cites (falling back to its field paths). For the three
// presets it gives exactly RKCC(), AntichessTeamCup() and ACWC().
func RulesFromFormat(f *format.Format) (Rules, error) {
	c := f.Calendar
	r := Rules{RoundClause: f.Clauses.Round}
	if r.RoundClause == "" {
		r.RoundClause = "format.calendar"
	}
	var err error
	if r.Deadline, err = weekTime("calendar.deadline", c.Deadline); err != nil {
		return r, err
	}
	if c.RoundStart != nil {
		w, err := weekTime("calendar.round_start", *c.RoundStart)
		if err != nil {
			return r, err
		}
		r.RoundStart = &w
	}
	if c.PairingsBy != nil {
		w, err := weekTime("calendar.pairings_by", *c.PairingsBy)
		if err != nil {
			return r, err
		}
		r.PairingsBy = &w
	}
	if n := c.Negotiation; n != nil {
		r.OfferClause = f.Clauses.Offer
		if r.OfferClause == "" {
			r.OfferClause = "format.calendar.negotiation"
		}
		switch {
		case n.OfferDeadline.HoursAfterPreviousRound > 0:
			r.Offer = OfferWithinAfterPreviousEnd
			r.OfferWithin = time.Duration(n.OfferDeadline.HoursAfterPreviousRound) * time.Hour
		case n.OfferDeadline.Weekly != nil:
			r.Offer = OfferByWeekTime
			if r.OfferBy, err = weekTime("calendar.negotiation.offer_deadline.weekly", *n.OfferDeadline.Weekly); err != nil {
				return r, err
			}
		}
		r.ReplyWindow = time.Duration(n.ReplyHours) * time.Hour
	}
	h := func(n int) time.Duration { return time.Duration(n) * time.Hour }
	r.AppealWindow = h(c.AppealHours)
	r.LineupGrace = h(c.LineupGraceHours)
	r.WildCardWindow = h(c.WildCardHours)
	r.RegistrationCloseBefore = h(c.RegistrationCloseHoursBefore)
	r.RegistrationFinalBefore = h(c.RegistrationFinalHoursBefore)
	r.MayBringForward = c.MayBringForward
	return r, nil
}

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

// weekTime converts a format's weekday and "HH:MM" (validated by package
// format) into the calendar's form.
func weekTime(field string, w format.WeekTime) (WeekTime, error) {
	d, ok := weekdays[w.Day]
	t, err := time.Parse("15:04", w.Time)
	if !ok || err != nil {
		return WeekTime{}, arbiter.FieldError(field, "format.calendar", "bad week time %s %s", w.Day, w.Time)
	}
	return WeekTime{Day: d, Hour: t.Hour(), Minute: t.Minute()}, nil
}
