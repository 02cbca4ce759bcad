// Package sqlstore is Arbiter's storage layer: one database/sql layer over
// SQLite (modernc.org/sqlite, the zero-configuration default) and
// PostgreSQL (pgx), with embedded versioned migrations, an append-only
// audit log written in the same transaction as every change, and
// optimistic concurrency through a version number on every record.
//
// The model is a small generic document store. An Event is a row of the
// events table; everything inside an event (stages, rounds, matches,
// lineups, reports, ...) is a JSON document in the records table, keyed by
// (event id, kind, id) and typed by the thin generic functions Get, List,
// Create, Update and Delete. Users and sign-in sessions have their own
// tables.
//
// Rules the package enforces:
//   - Every write runs inside DB.Tx and names a Change (who acted, what and
//     why); the audit entry with the document before and after is inserted
//     in the same transaction, so the change and its record stand or fall
//     together. Replay recomputes the current records from the log.
//   - Update and Delete take the version the caller last saw; if someone
//     else changed the record since, they fail with an arbiter.Error of
//     code ECONFLICT and nothing is written.
//   - Time comes from DB.Now (injected), stored in UTC with microsecond
//     precision on both dialects.
//
// PostgreSQL is reached through pgx (github.com/jackc/pgx/v5) and its
// database/sql driver (pgx/v5/stdlib); SQLite through modernc.org/sqlite.
// Both keep the statements each connection has prepared and run them again
// by SQL text instead of parsing them on every query: pgx by itself, SQLite
// through the statement cache of stmtcache.go.
package sqlstore
