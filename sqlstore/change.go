package sqlstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"arbiter"
)

// Actor is who makes a change: a user (by Lichess username) or a part of
// the system, and the role they acted in (td, captain, player, system),
// recorded because roles change over the weeks of an event. It is the
// domain's arbiter.Actor.
type Actor = arbiter.Actor

// Change describes a write for the audit log: who, what and why.
type Change struct {
	Actor Actor
	// Action names what was done, e.g. "lineup.submit" or
	// "result.override"; empty means the plain verb (create, update,
	// delete) prefixed by the kind.
	Action string
	// Reason says why; required when Override is set.
	Reason string
	// Override marks a decision that sets aside what the normal flow
	// produced (a TD correcting a result, a forced forfeit); it must be
	// explained in Reason.
	Override bool
}

// As returns c with Action set: captain.As("lineup.submit").
func (c Change) As(action string) Change { c.Action = action; return c }

// WithReason returns c with Reason set.
func (c Change) WithReason(reason string) Change { c.Reason = reason; return c }

func (c Change) check() error {
	if strings.TrimSpace(c.Actor.Name) == "" {
		return arbiter.Errorf(arbiter.EUNAUTHORIZED, "a change needs an actor (who makes it)")
	}
	if c.Override && strings.TrimSpace(c.Reason) == "" {
		return arbiter.FieldError("reason", "sqlstore.override", "an override needs a reason")
	}
	return nil
}

func (c Change) action(kind, verb string) string {
	if c.Action != "" {
		return c.Action
	}
	return kind + "." + verb
}

// checkKey validates the identifying parts of a record.
func checkKey(eventID, kind, id string) error {
	if eventID == "" {
		return arbiter.FieldError("event_id", "sqlstore.key", "no event given")
	}
	if err := checkKind(kind); err != nil {
		return err
	}
	return checkID("id", id)
}

func checkKind(kind string) error {
	if kind == "" || len(kind) > 64 {
		return arbiter.FieldError("kind", "sqlstore.kind", "kind %q must be 1 to 64 characters", kind)
	}
	for _, r := range kind {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return arbiter.FieldError("kind", "sqlstore.kind", "kind %q may hold only a-z, 0-9 and _", kind)
		}
	}
	return nil
}

func checkID(field, id string) error {
	if id == "" || len(id) > 200 {
		return arbiter.FieldError(field, "sqlstore.id", "id %q must be 1 to 200 bytes", id)
	}
	if !utf8.ValidString(id) {
		return arbiter.FieldError(field, "sqlstore.id", "id %q is not valid UTF-8", id)
	}
	for _, r := range id {
		if unicode.IsControl(r) {
			return arbiter.FieldError(field, "sqlstore.id", "id %q contains a control character", id)
		}
	}
	return nil
}

// label names a record in messages: "match 12", "lineup offer 7".
func label(kind, id string) string {
	return strings.ReplaceAll(kind, "_", " ") + " " + id
}

// marshal encodes a document. Both dialects must accept what it returns,
// so a NUL character (which PostgreSQL's JSONB cannot hold) is refused on
// SQLite too.
func marshal(field string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		// The encoder's own words name Go types: keep them for the log
		// (Err) and tell the user what can be wrong with their data (our
		// documents fail to encode only with dates beyond year 9999).
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: field, Rule: "sqlstore.json", Message: "a value cannot be stored: dates must lie within the years 0 to 9999", Err: err}
	}
	if hasNULEscape(b) {
		return nil, arbiter.FieldError(field, "sqlstore.json", "text contains a NUL character (\\u0000), which cannot be stored")
	}
	return b, nil
}

// hasNULEscape reports whether JSON text b holds the escape \u0000 (an
// escape is a backslash preceded by an even number of backslashes).
func hasNULEscape(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(`\u0000`))
		if j < 0 {
			return false
		}
		j += i
		n := 0
		for k := j - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return true
		}
		i = j + 1
	}
}

// unmarshal decodes a stored document into a T.
func unmarshal[T any](what string, data []byte) (T, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return v, internalErr(fmt.Sprintf("decode %s", what), err)
	}
	return v, nil
}
