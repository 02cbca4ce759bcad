package trf

import (
	"fmt"

	"arbiter"
)

// SyntaxError reports a malformed TRF line. Line and Col are 1-based
// (columns count characters, as the TRF layout does); Field names the record
// field at fault, e.g. "001 rating (cols 49-52)".
type SyntaxError struct {
	Line, Col int
	Field     string
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d col %d: %s: %s", e.Line, e.Col, e.Field, e.Msg)
}

// As lets errors.As find an *arbiter.Error (code EINVALID, Field "line L col
// C", Rule the TRF field) in a chain holding a *SyntaxError, so that callers
// that only know the application error type report the right position.
func (e *SyntaxError) As(target any) bool {
	t, ok := target.(**arbiter.Error)
	if !ok {
		return false
	}
	*t = e.AppError()
	return true
}

// AppError converts the error to the application error type.
func (e *SyntaxError) AppError() *arbiter.Error {
	return &arbiter.Error{
		Code:    arbiter.EINVALID,
		Field:   fmt.Sprintf("line %d col %d", e.Line, e.Col),
		Rule:    "TRF " + e.Field,
		Message: e.Msg,
	}
}

func errorf(line, col int, field, format string, args ...any) *SyntaxError {
	return &SyntaxError{Line: line, Col: col, Field: field, Msg: fmt.Sprintf(format, args...)}
}
