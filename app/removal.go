package app

import (
	"strings"
	"time"

	"arbiter"
)

// Removal marks a TD's standing declaration (a forbidden pairing, a list
// of separated players) as lifted: the record stays, with who lifted it,
// when and why. Embedded, its fields read as the declaration's own (in
// JSON too).
type Removal struct {
	Removed       bool      `json:"removed,omitempty"`
	RemovedBy     string    `json:"removed_by,omitempty"`
	RemovedAt     time.Time `json:"removed_at,omitzero"`
	RemovedReason string    `json:"removed_reason,omitempty"`
}

// remove lifts the declaration; lifting it twice is a conflict (already
// names the declaration for the error).
func (r *Removal) remove(a arbiter.Actor, at time.Time, reason, already string) error {
	if r.Removed {
		return arbiter.Errorf(arbiter.ECONFLICT, "%s", already)
	}
	r.Removed, r.RemovedBy, r.RemovedAt, r.RemovedReason = true, normUser(a.Name), at, strings.TrimSpace(reason)
	return nil
}
