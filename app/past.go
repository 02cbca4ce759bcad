package app

import (
	"time"

	"arbiter"
	"arbiter/calendar"
)

// PastRule is the rule of a refused time in the past: the TD may accept
// it explicitly (NewEvent.AllowPast, CloseOptions.AllowPast; the CLI's
// --allow-past, a confirmation on the page).
const PastRule = "app.past"

// notPast refuses t (what, in field) when it is not after now, unless the
// TD allowed it: an event starting in the past, or a round whose deadline
// has passed, would see its rounds closed as unplayed by the scheduler
// within a minute.
func notPast(field, what string, t, now time.Time, allow bool) error {
	if allow || !t.Before(now) {
		return nil
	}
	return arbiter.FieldError(field, PastRule, "%s, %s, is in the past (it is now %s): confirm it to use it anyway (rounds whose deadline has passed are closed as unplayed)",
		what, calendar.Format(t), calendar.Format(now))
}
