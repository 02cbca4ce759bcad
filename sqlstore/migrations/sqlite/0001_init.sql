-- Arbiter schema, version 1 (SQLite). JSON is TEXT; timestamps are TEXT in
-- UTC, fixed width (2006-01-02T15:04:05.000000Z) so they sort as text.

CREATE TABLE events (
	id         TEXT PRIMARY KEY,
	slug       TEXT NOT NULL UNIQUE,
	name       TEXT NOT NULL,
	status     TEXT NOT NULL,
	format     TEXT NOT NULL,           -- JSON
	version    INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

-- Every document inside an event: stages, rounds, matches, lineups, ...
CREATE TABLE records (
	event_id   TEXT NOT NULL REFERENCES events(id),
	kind       TEXT NOT NULL,
	id         TEXT NOT NULL,
	version    INTEGER NOT NULL,
	data       TEXT NOT NULL,           -- JSON
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (event_id, kind, id)
) WITHOUT ROWID;

-- Append-only: one row per change, written in the change's transaction.
CREATE TABLE audit (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	event_id   TEXT NOT NULL,           -- '' for changes outside events (users)
	at         TEXT NOT NULL,
	actor      TEXT NOT NULL,
	actor_role TEXT NOT NULL,
	action     TEXT NOT NULL,
	kind       TEXT NOT NULL,
	record_id  TEXT NOT NULL,
	version    INTEGER NOT NULL,        -- the record's version after the change
	reason     TEXT NOT NULL,
	before     TEXT,                    -- JSON; NULL when created
	after      TEXT                     -- JSON; NULL when deleted
);
CREATE INDEX audit_event ON audit (event_id, seq);
CREATE INDEX audit_record ON audit (event_id, kind, record_id, seq);

CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN
	SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN
	SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TABLE users (
	id               TEXT PRIMARY KEY,
	lichess_id       TEXT NOT NULL UNIQUE,  -- lower-case Lichess username
	lichess_username TEXT NOT NULL,         -- as Lichess spells it
	display_name     TEXT NOT NULL,
	version          INTEGER NOT NULL,
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL
);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,            -- hex SHA-256 of the session token
	user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
