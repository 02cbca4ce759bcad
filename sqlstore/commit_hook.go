package sqlstore

import (
	"context"
	"sync/atomic"
)

// BeforeCommit runs at the end of every read-write transaction that wrote
// audit entries, inside it, just before it commits, with the entries it
// wrote (oldest first; Seq is not known yet and is 0). An error rolls the
// transaction back, as an error of the transaction's own function would.
//
// Package app uses it to turn changes into outgoing webhooks and Challonge
// pushes: the jobs are enqueued in the transaction that made the change,
// so they exist if and only if the change committed, whichever use case
// made it. Reading the audit log after the fact instead would miss, on
// PostgreSQL, an entry that commits after a later-numbered one was read
// (see Latest).
type BeforeCommit func(ctx context.Context, tx *Tx, written []AuditEntry) error

// hooks holds each DB's BeforeCommit.
type hooks struct {
	beforeCommit atomic.Pointer[BeforeCommit]
}

// SetBeforeCommit sets the hook of db's transactions (nil removes it).
// Entries the hook itself writes are not passed to it again.
func (db *DB) SetBeforeCommit(fn BeforeCommit) {
	if fn == nil {
		db.hooks.beforeCommit.Store(nil)
		return
	}
	db.hooks.beforeCommit.Store(&fn)
}

// noteWritten keeps an audit entry for the hook, if there is one.
func (tx *Tx) noteWritten(e AuditEntry) {
	if tx.beforeCommit != nil {
		tx.written = append(tx.written, e)
	}
}

// run calls fn, then the hook.
func (tx *Tx) run(ctx context.Context, fn func(tx *Tx) error) error {
	if err := fn(tx); err != nil {
		return err
	}
	hook := tx.beforeCommit
	if hook == nil || len(tx.written) == 0 {
		return nil
	}
	written := tx.written
	tx.beforeCommit, tx.written = nil, nil
	return (*hook)(ctx, tx, written)
}
