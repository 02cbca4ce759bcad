-- Outgoing webhooks (docs/exports.md): endpoints a TD registers for an
-- event, and one delivery per endpoint and occurrence (a round published,
-- a result final, ...). Creating, disabling and deleting an endpoint are
-- audited in the event's log (without the secret); deliveries are the
-- queue's bookkeeping, written by the transaction that made the change
-- (the row and its job commit with it) and by the delivery job.
CREATE TABLE webhooks (
	id          TEXT PRIMARY KEY,
	event_id    TEXT NOT NULL REFERENCES events(id),
	url         TEXT NOT NULL,
	events      TEXT NOT NULL,          -- comma-separated: round.published, time.agreed, ...
	secret      TEXT NOT NULL,          -- the HMAC key: shown to the TD once, needed to sign
	base_url    TEXT NOT NULL,          -- the web app's address, for links in the bodies
	created_by  TEXT NOT NULL,
	created_at  TIMESTAMPTZ NOT NULL,
	disabled_by TEXT NOT NULL,
	disabled_at TIMESTAMPTZ,
	version     BIGINT NOT NULL          -- 1 when created, one more for each change
);
CREATE INDEX webhooks_event ON webhooks (event_id);

CREATE TABLE webhook_deliveries (
	id           TEXT PRIMARY KEY,
	webhook_id   TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
	event_id     TEXT NOT NULL,
	occurrence   TEXT NOT NULL,         -- what happened, one per change: round.published/round/s1r3@4
	type         TEXT NOT NULL,         -- round.published, ...
	body         TEXT NOT NULL,         -- the JSON sent, byte for byte on every try
	created_at   TIMESTAMPTZ NOT NULL,
	job_id       BIGINT NOT NULL,           -- the job sending it now (River's id)
	sends        BIGINT NOT NULL,           -- redeliveries asked for by TDs
	outcome      TEXT NOT NULL,         -- '' (not tried yet), delivered, retrying, failed, skipped
	attempts     BIGINT NOT NULL,           -- tries made, redeliveries included
	last_status  BIGINT NOT NULL,           -- the last answer's HTTP status; 0 for none
	last_error   TEXT NOT NULL,
	last_at      TIMESTAMPTZ,
	delivered_at TIMESTAMPTZ,
	UNIQUE (webhook_id, occurrence)
);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id, created_at);
