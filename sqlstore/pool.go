package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"arbiter"
)

// The connection pool. PostgreSQL refuses connections beyond its
// max_connections ("too many clients already"), and every serve process
// on a database has a pool of its own, so a pool without a bound turns a
// burst of requests into errors. The pool is bounded (Options.MaxConns);
// beyond it requests queue for a connection, and one that waits longer
// than Options.ConnWait is answered EUNAVAILABLE with a RetryAfter
// (HTTP 503 with Retry-After), never an internal error.

// DefaultProcesses is how many processes the default PostgreSQL pool
// bound expects to share the server: each takes its share of the
// server's max_connections (less the superuser reserve).
const DefaultProcesses = 4

// Bounds of the default PostgreSQL pool size.
const (
	minPoolConns = 2
	maxPoolConns = 32
)

// DefaultConnWait is how long a transaction waits for a free connection
// before it is refused as EUNAVAILABLE.
const DefaultConnWait = 5 * time.Second

// retryAfterBusy is the wait suggested to a client refused because the
// database is saturated.
const retryAfterBusy = 2 * time.Second

// PostgreSQL error codes of a server out of connections or not accepting
// them yet.
const (
	pgTooManyConnections = "53300"
	pgCannotConnectNow   = "57P03"
)

// configurePool bounds the pool as o says.
func (db *DB) configurePool(ctx context.Context, o Options) error {
	db.connWait = o.ConnWait
	if db.connWait <= 0 {
		db.connWait = DefaultConnWait
	}
	n := o.MaxConns
	if n <= 0 && db.dialect == Postgres {
		var err error
		if n, err = db.defaultPoolSize(ctx); err != nil {
			return err
		}
	}
	if n > 0 {
		db.sql.SetMaxOpenConns(n)
		db.sql.SetMaxIdleConns(min(n, 8))
	}
	db.maxConns = n
	return nil
}

// defaultPoolSize is the server's usable connections divided among
// DefaultProcesses, within [minPoolConns, maxPoolConns].
func (db *DB) defaultPoolSize(ctx context.Context) (int, error) {
	var total, reserved int
	err := db.sql.QueryRowContext(ctx, `SELECT current_setting('max_connections')::int, current_setting('superuser_reserved_connections')::int`).
		Scan(&total, &reserved)
	if err != nil {
		return 0, internalErr("read max_connections", err)
	}
	return min(maxPoolConns, max(minPoolConns, (total-reserved)/DefaultProcesses)), nil
}

// MaxConns is the pool's bound (0: none, SQLite by default).
func (db *DB) MaxConns() int { return db.maxConns }

// conn takes a connection from the pool, waiting at most connWait.
func (db *DB) conn(ctx context.Context) (*sql.Conn, error) {
	wctx, cancel := context.WithTimeout(ctx, db.connWait)
	defer cancel()
	c, err := db.sql.Conn(wctx)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, busy(err)
	}
	if err != nil {
		return nil, internalErr("get a database connection", err)
	}
	return c, nil
}

// busy is the error of a saturated database.
func busy(err error) error {
	return &arbiter.Error{Code: arbiter.EUNAVAILABLE, RetryAfter: retryAfterBusy,
		Message: "the server is busy; try again in a few seconds", Err: err}
}

// unavailable reports whether err says the database server is out of
// connections (another process's pool, an operator's client) or starting.
func unavailable(err error) bool {
	switch pgCode(err) {
	case pgTooManyConnections, pgCannotConnectNow:
		return true
	}
	return false
}
