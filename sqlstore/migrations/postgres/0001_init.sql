-- Arbiter schema, version 1 (PostgreSQL). JSON is JSONB; timestamps are
-- timestamptz (written in UTC).

CREATE TABLE events (
	id         TEXT PRIMARY KEY,
	slug       TEXT NOT NULL UNIQUE,
	name       TEXT NOT NULL,
	status     TEXT NOT NULL,
	format     JSONB NOT NULL,
	version    BIGINT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL
);

-- Every document inside an event: stages, rounds, matches, lineups, ...
CREATE TABLE records (
	event_id   TEXT NOT NULL REFERENCES events(id),
	kind       TEXT NOT NULL,
	id         TEXT NOT NULL,
	version    BIGINT NOT NULL,
	data       JSONB NOT NULL,
	created_at TIMESTAMPTZ NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (event_id, kind, id)
);

-- Append-only: one row per change, written in the change's transaction.
CREATE TABLE audit (
	seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	event_id   TEXT NOT NULL,           -- '' for changes outside events (users)
	at         TIMESTAMPTZ NOT NULL,
	actor      TEXT NOT NULL,
	actor_role TEXT NOT NULL,
	action     TEXT NOT NULL,
	kind       TEXT NOT NULL,
	record_id  TEXT NOT NULL,
	version    BIGINT NOT NULL,         -- the record's version after the change
	reason     TEXT NOT NULL,
	before     JSONB,                   -- NULL when created
	after      JSONB                    -- NULL when deleted
);
CREATE INDEX audit_event ON audit (event_id, seq);
CREATE INDEX audit_record ON audit (event_id, kind, record_id, seq);

CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the audit log is append-only';
END;
$$;
CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON audit
	FOR EACH ROW EXECUTE FUNCTION audit_append_only();

CREATE TABLE users (
	id               TEXT PRIMARY KEY,
	lichess_id       TEXT NOT NULL UNIQUE,  -- lower-case Lichess username
	lichess_username TEXT NOT NULL,         -- as Lichess spells it
	display_name     TEXT NOT NULL,
	version          BIGINT NOT NULL,
	created_at       TIMESTAMPTZ NOT NULL,
	updated_at       TIMESTAMPTZ NOT NULL
);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,            -- hex SHA-256 of the session token
	user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	created_at TIMESTAMPTZ NOT NULL,
	expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
