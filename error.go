package arbiter

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. They are stable strings: the JSON API and the CLI exit codes
// are derived from them, so never rename one.
const (
	EINVALID      = "invalid"      // bad input: a field breaks a rule of the format or of the file syntax
	ERULE         = "rule"         // a competition rule forbids the action (e.g. lineup after deadline)
	ECONFLICT     = "conflict"     // someone else changed the record first, or a duplicate
	ENOTFOUND     = "not_found"    // no such record
	EFORBIDDEN    = "forbidden"    // the actor's role does not allow the action
	EUNAUTHORIZED = "unauthorized" // no actor
	ENOPAIRING    = "no_pairing"   // no valid pairing exists
	EUNAVAILABLE  = "unavailable"  // a service Arbiter depends on (Lichess, the database) failed or is saturated; try again later
	ETOOMANY      = "too_many"     // the actor sent too many requests of this kind; wait RetryAfter
	EINTERNAL     = "internal"     // a bug or an infrastructure failure; message is not user-safe
)

// Error is an application error whose Message is safe to show to a user.
// Field names the input field at fault (a JSON path, a TRF line:column, a
// CLI flag); Rule names the rulebook clause or validation rule broken
// (e.g. "R7", "A5", "format.stages[1].rounds"). Both may be empty.
type Error struct {
	Code    string
	Field   string
	Rule    string
	Message string
	Err     error // wrapped cause, never shown to users
	// RetryAfter, when set (ETOOMANY, EUNAVAILABLE), is how long the
	// caller should wait before trying again (HTTP Retry-After).
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	s := e.Message
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.Rule != "" {
		s += " (rule " + e.Rule + ")"
	}
	if e.Err != nil && e.Code == EINTERNAL {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldError returns an EINVALID error naming the field and the rule broken.
func FieldError(field, rule, format string, args ...any) *Error {
	return &Error{Code: EINVALID, Field: field, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// RuleError returns an ERULE error naming the rulebook clause that forbids the action.
func RuleError(rule, format string, args ...any) *Error {
	return &Error{Code: ERULE, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the user-safe text of err: the *Error's text, or a
// generic sentence for internal errors so that no detail leaks.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e) && e.Code != EINTERNAL:
		return e.Error()
	default:
		return "internal error"
	}
}

// RetryAfter returns the wait the first *Error in err's chain asks for (0
// when none).
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}
