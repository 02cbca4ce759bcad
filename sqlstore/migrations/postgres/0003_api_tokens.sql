-- API tokens for bots: scoped to one event, created and revoked by its
-- TDs (both audited in the event's log), used with "Authorization:
-- Bearer". Only the token's hash is stored. last_used_at is bookkeeping
-- (not audited), written at most once a minute per token.
CREATE TABLE api_tokens (
	id           TEXT PRIMARY KEY,
	token_hash   TEXT NOT NULL UNIQUE,   -- hex SHA-256 of the token
	event_id     TEXT NOT NULL REFERENCES events(id),
	name         TEXT NOT NULL,
	scopes       TEXT NOT NULL,          -- comma-separated: read, report, offers
	entrant      TEXT NOT NULL,          -- the entrant acted for ('' = read only)
	created_by   TEXT NOT NULL,
	created_at   TIMESTAMPTZ NOT NULL,
	revoked_by   TEXT NOT NULL,
	revoked_at   TIMESTAMPTZ,
	last_used_at TIMESTAMPTZ
);
CREATE INDEX api_tokens_event ON api_tokens (event_id);
