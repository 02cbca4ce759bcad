-- Players' Lichess tokens for bulk pairing (issue 14 §2, §6): kept only
-- when a player granted challenge:write at sign-in for an event whose TD
-- chose bulk pairing, and sent only to Lichess in POST /api/bulk-pairing.
-- Never in a document, the audit log or the logs; a new grant replaces
-- the player's last one.
CREATE TABLE lichess_grants (
	lichess_id TEXT PRIMARY KEY,       -- the Lichess id (lower case)
	token      TEXT NOT NULL,
	scopes     TEXT NOT NULL,          -- comma-separated, as granted
	granted_at TIMESTAMPTZ NOT NULL
);
