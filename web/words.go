package web

import (
	"errors"
	"regexp"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
)

// Plain words for the pages: one way to write a deadline, plurals that
// agree with their count, and error messages without internal rule names.

// deadlineText writes a deadline as the rulebooks do, by its last minute:
// "Sunday 2023-03-19 23:59 UTC" (the weekly rule reads "Sunday 23:59
// UTC"), as calendar.Format writes it in the rule messages and the CLI.
// last is the last minute itself; a window's exclusive end goes through
// deadlineOf first. Every page writes deadlines with it.
func deadlineText(last time.Time) string {
	if last.IsZero() {
		return ""
	}
	return calendar.Format(last)
}

// deadlineOf is the last minute of a window that ends (exclusively) at end.
func deadlineOf(end time.Time) time.Time {
	if end.IsZero() {
		return end
	}
	return end.Add(-time.Minute)
}

// deadlineStamp is a deadline's last minute as the <time> element of the
// public pages shows it.
func deadlineStamp(last time.Time) stamp {
	if last.IsZero() {
		return stamp{}
	}
	return stamp{ISO: last.UTC().Format(time.RFC3339), Text: deadlineText(last)}
}

// count writes a count with its noun agreeing: "1 round", "3 rounds"
// (arbiter.Count; the template function plural).
func count(n int, one string, many ...string) string { return arbiter.Count(n, one, many...) }

// clauseRe matches the rule names a reader can look up: rulebook clauses
// (R7, A12, W9, CLAUSES.md) and FIDE handbook articles (C.07 …). Other
// rule names (sqlstore.slug, web.rating) are the code's and stay out of
// the pages; the API keeps them.
var clauseRe = regexp.MustCompile(`^(?:[A-Z][0-9]+[a-z0-9.()]*|[A-Z]\.[0-9][0-9.]*.*|FIDE .*)$`)

// plainMessage is err's user-safe message for a page: the field at fault
// and the rulebook clause broken, never an internal rule name.
func plainMessage(err error) string {
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Code == arbiter.EINTERNAL {
		return arbiter.ErrorMessage(err)
	}
	msg := e.Message
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Rule != "" && clauseRe.MatchString(e.Rule) && !strings.Contains(msg, e.Rule) {
		msg += " (rule " + e.Rule + ")"
	}
	return msg
}

// countOr is count for an optional count: none when it is not set.
func countOr(p *int, one, none string) string {
	if p == nil {
		return none
	}
	return count(*p, one)
}
