package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"arbiter"
)

// WebhookKind is the audit kind of webhook endpoints (in their event's log).
const WebhookKind = "webhook"

// WebhookSecretPrefix starts every webhook secret, so that one found in a
// file or a log names its kind.
const WebhookSecretPrefix = "whsec_"

// Webhook is an endpoint that receives an event's webhooks. Its secret
// signs every delivery, so it is stored as it is (unlike an API token's);
// it is shown to the TD once and is in no audit entry.
type Webhook struct {
	ID         string    `json:"id"`
	EventID    string    `json:"event_id"`
	URL        string    `json:"url"`
	Events     []string  `json:"events"`
	Secret     string    `json:"-"`
	BaseURL    string    `json:"base_url"`
	CreatedBy  string    `json:"created_by"`
	CreatedAt  time.Time `json:"created_at"`
	DisabledBy string    `json:"disabled_by,omitempty"`
	DisabledAt time.Time `json:"disabled_at,omitzero"`
	Version    int64     `json:"-"`
}

// Disabled tells whether the endpoint was disabled.
func (w Webhook) Disabled() bool { return !w.DisabledAt.IsZero() }

// CreateWebhook stores a new endpoint for w.EventID (ID, secret and
// CreatedAt are made here) and returns the secret to give the receiver,
// once. The creation is audited without the secret.
func CreateWebhook(ctx context.Context, tx *Tx, ch Change, w Webhook) (string, Webhook, error) {
	if err := ch.check(); err != nil {
		return "", w, err
	}
	if w.EventID == "" || w.URL == "" || len(w.Events) == 0 {
		return "", w, arbiter.FieldError("webhook", "sqlstore.webhook", "a webhook needs an event, a URL and the events it receives")
	}
	var b [32]byte
	rand.Read(b[:])
	w.Secret = WebhookSecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	w.ID, w.CreatedAt, w.CreatedBy, w.Version = "w"+NewID()[:12], tx.now, ch.Actor.Name, 1
	w.DisabledAt, w.DisabledBy = time.Time{}, ""
	_, err := tx.exec(ctx, `INSERT INTO webhooks (id, event_id, url, events, secret, base_url, created_by, created_at, disabled_by, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', 1)`, w.ID, w.EventID, w.URL, strings.Join(w.Events, ","), w.Secret, w.BaseURL,
		w.CreatedBy, tx.dialect.timeArg(w.CreatedAt))
	if isForeignKeyViolation(err) {
		return "", w, arbiter.Errorf(arbiter.ENOTFOUND, "event %s not found", w.EventID)
	}
	if err != nil {
		return "", w, internalErr("create webhook", err)
	}
	after, err := marshal("webhook", w)
	if err != nil {
		return "", w, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: w.EventID, kind: WebhookKind, id: w.ID, version: 1,
		action: ch.action(WebhookKind, "create"), after: after})
	return w.Secret, w, err
}

const webhookColumns = `id, event_id, url, events, secret, base_url, created_by, created_at, disabled_by, disabled_at, version`

func scanWebhook(row interface{ Scan(...any) error }) (Webhook, error) {
	var w Webhook
	var events string
	err := row.Scan(&w.ID, &w.EventID, &w.URL, &events, &w.Secret, &w.BaseURL, &w.CreatedBy, timeScan{&w.CreatedAt},
		&w.DisabledBy, nullTime{&w.DisabledAt}, &w.Version)
	if events != "" {
		w.Events = strings.Split(events, ",")
	}
	return w, err
}

// Webhooks lists an event's endpoints, disabled ones included, oldest
// first, with their secrets.
func Webhooks(ctx context.Context, q Queryer, eventID string) ([]Webhook, error) {
	rows, err := q.query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE event_id = ? ORDER BY created_at, id`, eventID)
	if err != nil {
		return nil, internalErr("list webhooks", err)
	}
	defer rows.Close()
	var out []Webhook
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			return nil, internalErr("list webhooks", err)
		}
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("list webhooks", err)
	}
	return out, nil
}

// GetWebhook returns endpoint id of the event; ENOTFOUND if none.
func GetWebhook(ctx context.Context, q Queryer, eventID, id string) (Webhook, error) {
	w, err := scanWebhook(q.queryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE event_id = ? AND id = ?`, eventID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Webhook{}, arbiter.Errorf(arbiter.ENOTFOUND, "webhook %s not found", id)
	}
	if err != nil {
		return Webhook{}, internalErr("read webhook", err)
	}
	return w, nil
}

// DisableWebhook stops deliveries to endpoint id (audited); what is
// still queued for it is not sent. Disabling it again is ECONFLICT.
func DisableWebhook(ctx context.Context, tx *Tx, ch Change, eventID, id string) (Webhook, error) {
	if err := ch.check(); err != nil {
		return Webhook{}, err
	}
	w, err := GetWebhook(ctx, tx, eventID, id)
	if err != nil {
		return w, err
	}
	if w.Disabled() {
		return w, arbiter.Errorf(arbiter.ECONFLICT, "webhook %s is already disabled", id)
	}
	before, err := marshal("webhook", w)
	if err != nil {
		return w, err
	}
	w.DisabledAt, w.DisabledBy = tx.now, ch.Actor.Name
	res, err := tx.exec(ctx, `UPDATE webhooks SET disabled_at = ?, disabled_by = ?, version = version + 1 WHERE id = ? AND version = ?`,
		tx.dialect.timeArg(w.DisabledAt), w.DisabledBy, id, w.Version)
	if err := checkOneRow(res, err, WebhookKind, id, w.Version); err != nil {
		return w, err
	}
	w.Version++
	after, err := marshal("webhook", w)
	if err != nil {
		return w, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: WebhookKind, id: id, version: w.Version,
		action: ch.action(WebhookKind, "disable"), before: before, after: after})
	return w, err
}

// DeleteWebhook removes endpoint id and its delivery log (audited, with
// the endpoint as it was).
func DeleteWebhook(ctx context.Context, tx *Tx, ch Change, eventID, id string) (Webhook, error) {
	if err := ch.check(); err != nil {
		return Webhook{}, err
	}
	w, err := GetWebhook(ctx, tx, eventID, id)
	if err != nil {
		return w, err
	}
	before, err := marshal("webhook", w)
	if err != nil {
		return w, err
	}
	if _, err := tx.exec(ctx, `DELETE FROM webhook_deliveries WHERE webhook_id = ?`, id); err != nil {
		return w, internalErr("delete webhook deliveries", err)
	}
	res, err := tx.exec(ctx, `DELETE FROM webhooks WHERE id = ? AND version = ?`, id, w.Version)
	if err := checkOneRow(res, err, WebhookKind, id, w.Version); err != nil {
		return w, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: WebhookKind, id: id, version: w.Version + 1,
		action: ch.action(WebhookKind, "delete"), before: before})
	return w, err
}

// Delivery outcomes, as the delivery job records them.
const (
	DeliveryPending   = ""          // not tried yet
	DeliveryDelivered = "delivered" // the receiver answered 2xx
	DeliveryRetrying  = "retrying"  // the last try failed; another follows
	DeliveryFailed    = "failed"    // the last try failed and no other follows (until a TD asks)
	DeliverySkipped   = "skipped"   // not sent: the endpoint was disabled
)

// WebhookDelivery is one occurrence to deliver to one endpoint.
type WebhookDelivery struct {
	ID          string
	Webhook     string
	EventID     string
	Occurrence  string // what happened, one per change: "round.published/round/s1r3@4"
	Type        string
	Body        string
	CreatedAt   time.Time
	JobID       int64
	Sends       int // redeliveries asked for
	Outcome     string
	Attempts    int
	LastStatus  int
	LastError   string
	LastAt      time.Time
	DeliveredAt time.Time
}

// AddWebhookDelivery stores d (ID and CreatedAt made here) unless the
// endpoint already has a delivery of d.Occurrence; added says which.
func AddWebhookDelivery(ctx context.Context, tx *Tx, d WebhookDelivery) (WebhookDelivery, bool, error) {
	d.ID, d.CreatedAt = "wd"+NewID()[:14], tx.now
	res, err := tx.exec(ctx, `INSERT INTO webhook_deliveries (id, webhook_id, event_id, occurrence, type, body, created_at,
		job_id, sends, outcome, attempts, last_status, last_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, '', 0, 0, '') ON CONFLICT (webhook_id, occurrence) DO NOTHING`,
		d.ID, d.Webhook, d.EventID, d.Occurrence, d.Type, d.Body, tx.dialect.timeArg(d.CreatedAt))
	if err != nil {
		return d, false, internalErr("add webhook delivery", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return d, false, internalErr("add webhook delivery", err)
	}
	return d, n == 1, nil
}

// SetWebhookDeliveryJob records the job that sends delivery id now, and
// how many redeliveries were asked for.
func SetWebhookDeliveryJob(ctx context.Context, tx *Tx, id string, job int64, sends int) error {
	_, err := tx.exec(ctx, `UPDATE webhook_deliveries SET job_id = ?, sends = ? WHERE id = ?`, job, sends, id)
	if err != nil {
		return internalErr("write webhook delivery", err)
	}
	return nil
}

// RecordWebhookAttempt records one try of delivery id (or, with status
// 0 and no error text, a decision not to send it).
func RecordWebhookAttempt(ctx context.Context, tx *Tx, id, outcome string, tried bool, status int, errText string) error {
	add := 0
	if tried {
		add = 1
	}
	q := `UPDATE webhook_deliveries SET outcome = ?, attempts = attempts + ?, last_status = ?, last_error = ?, last_at = ?`
	args := []any{outcome, add, status, errText, tx.dialect.timeArg(tx.now)}
	if outcome == DeliveryDelivered {
		q += `, delivered_at = ?`
		args = append(args, tx.dialect.timeArg(tx.now))
	}
	_, err := tx.exec(ctx, q+` WHERE id = ?`, append(args, id)...)
	if err != nil {
		return internalErr("write webhook delivery", err)
	}
	return nil
}

const deliveryColumns = `id, webhook_id, event_id, occurrence, type, body, created_at, job_id, sends, outcome, attempts,
	last_status, last_error, last_at, delivered_at`

func scanDelivery(row interface{ Scan(...any) error }) (WebhookDelivery, error) {
	var d WebhookDelivery
	err := row.Scan(&d.ID, &d.Webhook, &d.EventID, &d.Occurrence, &d.Type, &d.Body, timeScan{&d.CreatedAt}, &d.JobID, &d.Sends,
		&d.Outcome, &d.Attempts, &d.LastStatus, &d.LastError, nullTime{&d.LastAt}, nullTime{&d.DeliveredAt})
	return d, err
}

// GetWebhookDelivery returns delivery id of the event; ENOTFOUND if none
// (or its endpoint was deleted).
func GetWebhookDelivery(ctx context.Context, q Queryer, eventID, id string) (WebhookDelivery, error) {
	d, err := scanDelivery(q.queryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE event_id = ? AND id = ?`, eventID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, arbiter.Errorf(arbiter.ENOTFOUND, "webhook delivery %s not found", id)
	}
	if err != nil {
		return d, internalErr("read webhook delivery", err)
	}
	return d, nil
}

// WebhookDeliveries lists the event's deliveries (to one endpoint when
// webhook is not ""), newest first, at most limit.
func WebhookDeliveries(ctx context.Context, q Queryer, eventID, webhook string, limit int) ([]WebhookDelivery, error) {
	query, args := `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE event_id = ?`, []any{eventID}
	if webhook != "" {
		query += ` AND webhook_id = ?`
		args = append(args, webhook)
	}
	rows, err := q.query(ctx, query+` ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, internalErr("list webhook deliveries", err)
	}
	defer rows.Close()
	var out []WebhookDelivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, internalErr("list webhook deliveries", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("list webhook deliveries", err)
	}
	return out, nil
}
