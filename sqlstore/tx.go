package sqlstore

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"time"

	"arbiter"
)

// maxAttempts bounds how often DB.Tx runs a transaction that keeps
// colliding with others (SQLite busy, PostgreSQL serialization failure).
const maxAttempts = 12

// Tx is one transaction. Writes happen only inside a Tx, so that a change
// and its audit entry commit together. A Tx must not be used after the
// function given to DB.Tx returns.
type Tx struct {
	tx       *sql.Tx
	dialect  Dialect
	now      time.Time
	readOnly bool // from DB.View: every write is refused (SQLite would not refuse it itself)
	// The BeforeCommit hook and the audit entries written for it (commit_hook.go).
	beforeCommit *BeforeCommit
	written      []AuditEntry
}

// Now is the time of this transaction (UTC), read once from DB.Now; every
// timestamp the transaction writes uses it.
func (tx *Tx) Now() time.Time { return tx.now }

// Tx runs fn in a read-write transaction and commits if fn returns nil;
// any error (or panic) rolls everything back. When the transaction fails
// only because a concurrent one got in the way (SQLite busy, PostgreSQL
// serialization failure or deadlock) it is rolled back and fn runs again,
// up to a bound; fn must therefore have no effects outside tx. On
// PostgreSQL the transaction is SERIALIZABLE; on SQLite it takes the write
// lock at BEGIN (writers queue, readers proceed under WAL).
//
// Inside fn use tx, not db, for every read and write.
func (db *DB) Tx(ctx context.Context, fn func(tx *Tx) error) error {
	return db.run(ctx, false, fn)
}

// View runs fn in a read-only transaction: a consistent snapshot for
// several reads, which never waits for writers. Writes inside fn fail
// (EINTERNAL: it is a programming error).
func (db *DB) View(ctx context.Context, fn func(tx *Tx) error) error {
	return db.run(ctx, true, fn)
}

func (db *DB) run(ctx context.Context, readOnly bool, fn func(tx *Tx) error) error {
	iso := sql.LevelDefault
	if db.dialect == Postgres {
		iso = sql.LevelSerializable
		if readOnly {
			iso = sql.LevelRepeatableRead
		}
	}
	return db.runIso(ctx, &sql.TxOptions{ReadOnly: readOnly, Isolation: iso}, fn)
}

// runIso runs fn in a transaction with the given options, retrying
// collisions (see Tx).
func (db *DB) runIso(ctx context.Context, opts *sql.TxOptions, fn func(tx *Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := db.attempt(ctx, opts, fn)
		if err == nil || !retryable(err) {
			return err
		}
		if attempt >= maxAttempts {
			return &arbiter.Error{Code: arbiter.ECONFLICT, Message: "too many changes at the same time; try again", Err: err}
		}
		// Exponential backoff with full jitter, so colliding writers spread out.
		limit := time.Millisecond << min(attempt, 8)
		select {
		case <-ctx.Done():
			return internalErr("transaction", ctx.Err())
		case <-time.After(rand.N(limit) + time.Millisecond):
		}
	}
}

func (db *DB) attempt(ctx context.Context, opts *sql.TxOptions, fn func(tx *Tx) error) (err error) {
	conn, err := db.conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close() // back to the pool once the transaction has ended
	stx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return internalErr("begin transaction", err)
	}
	db.counts.transactions.Add(1)
	tx := &Tx{tx: stx, dialect: db.dialect, now: db.Now().UTC().Truncate(time.Microsecond), readOnly: opts.ReadOnly}
	tx.beforeCommit = db.hooks.beforeCommit.Load()
	done := false
	defer func() {
		if !done {
			stx.Rollback() // fn panicked: undo, then let the panic continue
		}
	}()
	if err := tx.run(ctx, fn); err != nil {
		done = true
		stx.Rollback()
		return err
	}
	done = true
	if err := stx.Commit(); err != nil {
		return internalErr("commit", err)
	}
	return nil
}

var errReadOnly = &arbiter.Error{Code: arbiter.EINTERNAL, Message: "write attempted in a read-only transaction (DB.View); use DB.Tx"}

// Queryer is what reads accept: a *DB (each call on its own) or a *Tx.
type Queryer interface {
	query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	queryRow(ctx context.Context, q string, args ...any) *sql.Row
	sqlDialect() Dialect
}

func (db *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	db.counts.statements.Add(1)
	return db.sql.QueryContext(ctx, db.dialect.rebind(q), args...)
}

func (db *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	db.counts.statements.Add(1)
	return db.sql.QueryRowContext(ctx, db.dialect.rebind(q), args...)
}

func (db *DB) sqlDialect() Dialect { return db.dialect }

func (tx *Tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return tx.tx.QueryContext(ctx, tx.dialect.rebind(q), args...)
}

func (tx *Tx) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return tx.tx.QueryRowContext(ctx, tx.dialect.rebind(q), args...)
}

func (tx *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if tx.readOnly {
		return nil, errReadOnly
	}
	return tx.tx.ExecContext(ctx, tx.dialect.rebind(q), args...)
}

func (tx *Tx) sqlDialect() Dialect { return tx.dialect }
