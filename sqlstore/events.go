package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"arbiter"
)

// EventKind is the audit kind of changes to events themselves; their
// entries carry the event's id as both EventID and RecordID.
const EventKind = "event"

// Event is a competition: the row every record belongs to.
type Event struct {
	ID        string          `json:"id"`
	Slug      string          `json:"slug"`   // unique, for URLs: a-z, 0-9 and '-'
	Name      string          `json:"name"`   // shown to people
	Status    string          `json:"status"` // lifecycle state, owned by the event layer (default "draft")
	Format    json.RawMessage `json:"format"` // the rules as data (JSON; null until chosen)
	Version   int64           `json:"-"`
	CreatedAt time.Time       `json:"-"`
	UpdatedAt time.Time       `json:"-"`
}

// doc is what the audit log holds of an event: its fields, without the
// bookkeeping the entry records itself.
func (e Event) doc() ([]byte, error) { return marshal("event", e) }

func (e *Event) normalise() error {
	if e.Status == "" {
		e.Status = "draft"
	}
	if len(e.Format) == 0 {
		e.Format = json.RawMessage("null")
	}
	if !json.Valid(e.Format) {
		return arbiter.FieldError("format", "sqlstore.json", "the format is not valid JSON")
	}
	if err := checkSlug(e.Slug); err != nil {
		return err
	}
	if e.Name == "" || len(e.Name) > 200 {
		return arbiter.FieldError("name", "sqlstore.event", "an event name must be 1 to 200 bytes")
	}
	return checkID("status", e.Status)
}

func checkSlug(slug string) error {
	if slug == "" || len(slug) > 64 {
		return arbiter.FieldError("slug", "sqlstore.slug", "slug %q must be 1 to 64 characters", slug)
	}
	for i, r := range slug {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' && i > 0 && i < len(slug)-1
		if !ok {
			return arbiter.FieldError("slug", "sqlstore.slug", "slug %q may hold only a-z, 0-9 and inner '-'", slug)
		}
	}
	return nil
}

// NewID returns a random identifier (24 hex digits).
func NewID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CreateEvent stores a new event (ID generated when empty) at version 1
// and returns it as stored. A taken slug or ID is ECONFLICT.
func CreateEvent(ctx context.Context, tx *Tx, ch Change, e Event) (Event, error) {
	if err := ch.check(); err != nil {
		return Event{}, err
	}
	if e.ID == "" {
		e.ID = NewID()
	}
	if err := checkID("id", e.ID); err != nil {
		return Event{}, err
	}
	if err := e.normalise(); err != nil {
		return Event{}, err
	}
	data, err := e.doc()
	if err != nil {
		return Event{}, err
	}
	e.Version, e.CreatedAt, e.UpdatedAt = 1, tx.now, tx.now
	now := tx.dialect.timeArg(tx.now)
	_, err = tx.exec(ctx, `INSERT INTO events (id, slug, name, status, format, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 1, ?, ?)`, e.ID, e.Slug, e.Name, e.Status, string(e.Format), now, now)
	if isUniqueViolation(err) {
		return Event{}, arbiter.Errorf(arbiter.ECONFLICT, "an event with slug %q or id %q already exists", e.Slug, e.ID)
	}
	if err != nil {
		return Event{}, internalErr("create event", err)
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: e.ID, kind: EventKind, id: e.ID, version: 1,
		action: ch.action(EventKind, "create"), after: data})
	return e, err
}

// UpdateEvent stores e's slug, name, status and format if the stored
// event is still at e.Version (else ECONFLICT), and returns it as stored.
func UpdateEvent(ctx context.Context, tx *Tx, ch Change, e Event) (Event, error) {
	if err := ch.check(); err != nil {
		return Event{}, err
	}
	if err := e.normalise(); err != nil {
		return Event{}, err
	}
	cur, err := GetEvent(ctx, tx, e.ID)
	if err != nil {
		return Event{}, err
	}
	if cur.Version != e.Version {
		return Event{}, arbiter.Errorf(arbiter.ECONFLICT, "event %s was changed by someone else (version %d, you had %d); reload and try again",
			cur.Slug, cur.Version, e.Version)
	}
	before, err := cur.doc()
	if err != nil {
		return Event{}, err
	}
	after, err := e.doc()
	if err != nil {
		return Event{}, err
	}
	res, err := tx.exec(ctx, `UPDATE events SET slug = ?, name = ?, status = ?, format = ?, version = version + 1, updated_at = ?
		WHERE id = ? AND version = ?`, e.Slug, e.Name, e.Status, string(e.Format), tx.dialect.timeArg(tx.now), e.ID, e.Version)
	if isUniqueViolation(err) {
		return Event{}, arbiter.Errorf(arbiter.ECONFLICT, "an event with slug %q already exists", e.Slug)
	}
	if err := checkOneRow(res, err, EventKind, cur.Slug, e.Version); err != nil {
		return Event{}, err
	}
	e.Version++
	e.CreatedAt, e.UpdatedAt = cur.CreatedAt, tx.now
	err = writeAudit(ctx, tx, ch, auditRow{eventID: e.ID, kind: EventKind, id: e.ID, version: e.Version,
		action: ch.action(EventKind, "update"), before: before, after: after})
	return e, err
}

const eventColumns = `id, slug, name, status, format, version, created_at, updated_at`

func scanEvent(row interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var format []byte
	err := row.Scan(&e.ID, &e.Slug, &e.Name, &e.Status, &format, &e.Version, timeScan{&e.CreatedAt}, timeScan{&e.UpdatedAt})
	e.Format = format
	return e, err
}

// GetEvent returns the event with the given id (ENOTFOUND if none).
func GetEvent(ctx context.Context, q Queryer, id string) (Event, error) {
	return getEvent(ctx, q, "id", id)
}

// GetEventBySlug returns the event with the given slug (ENOTFOUND if none).
func GetEventBySlug(ctx context.Context, q Queryer, slug string) (Event, error) {
	return getEvent(ctx, q, "slug", slug)
}

func getEvent(ctx context.Context, q Queryer, col, v string) (Event, error) {
	e, err := scanEvent(q.queryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE `+col+` = ?`, v))
	if errors.Is(err, sql.ErrNoRows) {
		return Event{}, arbiter.Errorf(arbiter.ENOTFOUND, "event %s not found", v)
	}
	if err != nil {
		return Event{}, internalErr("read event", err)
	}
	return e, nil
}

// ListEvents returns every event, newest first.
func ListEvents(ctx context.Context, q Queryer) ([]Event, error) {
	rows, err := q.query(ctx, `SELECT `+eventColumns+` FROM events ORDER BY created_at DESC, id`)
	if err != nil {
		return nil, internalErr("list events", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, internalErr("list events", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("list events", err)
	}
	return out, nil
}
