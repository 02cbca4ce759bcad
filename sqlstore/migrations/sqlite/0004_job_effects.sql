-- Job effects: what a background job did outside Arbiter (a Lichess
-- challenge created, a message sent), by the job's key ("challenge:EVENT:
-- MATCH:GAME"). A job writes its effect as soon as Lichess answers and
-- reads it before acting, so a retry or a re-run after a crash never does
-- the same thing twice. The queue itself is River's (tables river_*,
-- migrated by River's own steps in the same transaction as these).
CREATE TABLE job_effects (
	key        TEXT PRIMARY KEY,
	effect     TEXT NOT NULL,           -- the external id (challenge id, message id)
	job_id     INTEGER NOT NULL,        -- the River job that recorded it
	created_at TEXT NOT NULL
);
