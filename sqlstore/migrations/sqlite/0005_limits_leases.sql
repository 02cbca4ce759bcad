-- Counters shared by every process on the database: failed sign-ins per
-- client address and per account, and per-user rate limits (limits.go).
-- The key is the hex SHA-256 of what is counted, so a row has a fixed size
-- whatever a client sends, and no typed name is kept. Rows are deleted
-- once their window has passed (DeleteStaleCounters).
CREATE TABLE limits (
	key        TEXT PRIMARY KEY,
	hits       INTEGER NOT NULL,
	since      TEXT NOT NULL,           -- start of the window
	last_at    TEXT NOT NULL,           -- the latest hit
	expires_at TEXT NOT NULL            -- since + window: the row may go after it
) WITHOUT ROWID;
CREATE INDEX limits_expires ON limits (expires_at);

-- Leases: a job that must run in one process at a time (the deadline
-- scheduler) is run by whoever holds its lease (lease.go).
CREATE TABLE leases (
	name       TEXT PRIMARY KEY,
	holder     TEXT NOT NULL,
	expires_at TEXT NOT NULL
) WITHOUT ROWID;
