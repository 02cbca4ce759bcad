package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"arbiter"
)

// Record is a stored document with its key and bookkeeping.
type Record[T any] struct {
	EventID   string
	Kind      string
	ID        string
	Version   int64 // 1 when created, +1 per change
	CreatedAt time.Time
	UpdatedAt time.Time
	Value     T
}

// Get returns the document (eventID, kind, id) decoded into a T, with its
// version. A missing record is ENOTFOUND.
func Get[T any](ctx context.Context, q Queryer, eventID, kind, id string) (T, int64, error) {
	var zero T
	if err := checkKey(eventID, kind, id); err != nil {
		return zero, 0, err
	}
	var version int64
	var data []byte
	err := q.queryRow(ctx, `SELECT version, data FROM records WHERE event_id = ? AND kind = ? AND id = ?`,
		eventID, kind, id).Scan(&version, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, 0, arbiter.Errorf(arbiter.ENOTFOUND, "%s not found", label(kind, id))
	}
	if err != nil {
		return zero, 0, internalErr("read "+label(kind, id), err)
	}
	v, err := unmarshal[T](label(kind, id), data)
	return v, version, err
}

// List returns every document of one kind in an event, ordered by id.
func List[T any](ctx context.Context, q Queryer, eventID, kind string) ([]Record[T], error) {
	if eventID == "" {
		return nil, arbiter.FieldError("event_id", "sqlstore.key", "no event given")
	}
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	rows, err := q.query(ctx, `SELECT id, version, data, created_at, updated_at FROM records
		WHERE event_id = ? AND kind = ? ORDER BY id`, eventID, kind)
	if err != nil {
		return nil, internalErr("list "+kind, err)
	}
	defer rows.Close()
	var out []Record[T]
	for rows.Next() {
		r := Record[T]{EventID: eventID, Kind: kind}
		var data []byte
		if err := rows.Scan(&r.ID, &r.Version, &data, timeScan{&r.CreatedAt}, timeScan{&r.UpdatedAt}); err != nil {
			return nil, internalErr("list "+kind, err)
		}
		if r.Value, err = unmarshal[T](label(kind, r.ID), data); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("list "+kind, err)
	}
	return out, nil
}

// Create stores v as a new document and returns its version: 1, or one
// more than the last version of a deleted record with the same key (so a
// stale version can never match a re-created record). An existing record
// is ECONFLICT; an unknown event is ENOTFOUND.
func Create[T any](ctx context.Context, tx *Tx, ch Change, eventID, kind, id string, v T) (int64, error) {
	if err := ch.check(); err != nil {
		return 0, err
	}
	if err := checkKey(eventID, kind, id); err != nil {
		return 0, err
	}
	data, err := marshal("data", v)
	if err != nil {
		return 0, err
	}
	var last int64
	if err := tx.queryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM audit WHERE event_id = ? AND kind = ? AND record_id = ?`,
		eventID, kind, id).Scan(&last); err != nil {
		return 0, internalErr("create "+label(kind, id), err)
	}
	version := last + 1
	now := tx.dialect.timeArg(tx.now)
	_, err = tx.exec(ctx, `INSERT INTO records (event_id, kind, id, version, data, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, eventID, kind, id, version, string(data), now, now)
	switch {
	case isUniqueViolation(err):
		return 0, arbiter.Errorf(arbiter.ECONFLICT, "%s already exists", label(kind, id))
	case isForeignKeyViolation(err):
		return 0, arbiter.Errorf(arbiter.ENOTFOUND, "event %s not found", eventID)
	case err != nil:
		return 0, internalErr("create "+label(kind, id), err)
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: kind, id: id, version: version,
		action: ch.action(kind, "create"), after: data})
	return version, err
}

// Update replaces the document with v if its version is still expected,
// and returns the new version. If someone else changed it since, the
// result is ECONFLICT ("match 12 was changed by someone else (version 4,
// you had 3); reload and try again"); a missing record is ENOTFOUND.
func Update[T any](ctx context.Context, tx *Tx, ch Change, eventID, kind, id string, expected int64, v T) (int64, error) {
	if err := ch.check(); err != nil {
		return 0, err
	}
	if err := checkKey(eventID, kind, id); err != nil {
		return 0, err
	}
	data, err := marshal("data", v)
	if err != nil {
		return 0, err
	}
	before, err := lockedCurrent(ctx, tx, eventID, kind, id, expected)
	if err != nil {
		return 0, err
	}
	res, err := tx.exec(ctx, `UPDATE records SET version = version + 1, data = ?, updated_at = ?
		WHERE event_id = ? AND kind = ? AND id = ? AND version = ?`,
		string(data), tx.dialect.timeArg(tx.now), eventID, kind, id, expected)
	if err := checkOneRow(res, err, kind, id, expected); err != nil {
		return 0, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: kind, id: id, version: expected + 1,
		action: ch.action(kind, "update"), before: before, after: data})
	return expected + 1, err
}

// Delete removes the document if its version is still expected (else
// ECONFLICT, or ENOTFOUND when absent). The audit entry keeps its last
// contents.
func Delete(ctx context.Context, tx *Tx, ch Change, eventID, kind, id string, expected int64) error {
	if err := ch.check(); err != nil {
		return err
	}
	if err := checkKey(eventID, kind, id); err != nil {
		return err
	}
	before, err := lockedCurrent(ctx, tx, eventID, kind, id, expected)
	if err != nil {
		return err
	}
	res, err := tx.exec(ctx, `DELETE FROM records WHERE event_id = ? AND kind = ? AND id = ? AND version = ?`,
		eventID, kind, id, expected)
	if err := checkOneRow(res, err, kind, id, expected); err != nil {
		return err
	}
	return writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: kind, id: id, version: expected + 1,
		action: ch.action(kind, "delete"), before: before})
}

// lockedCurrent reads the record's data for the audit entry and checks
// its version against what the caller expects.
func lockedCurrent(ctx context.Context, tx *Tx, eventID, kind, id string, expected int64) ([]byte, error) {
	var version int64
	var data []byte
	err := tx.queryRow(ctx, `SELECT version, data FROM records WHERE event_id = ? AND kind = ? AND id = ?`,
		eventID, kind, id).Scan(&version, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, arbiter.Errorf(arbiter.ENOTFOUND, "%s not found", label(kind, id))
	}
	if err != nil {
		return nil, internalErr("read "+label(kind, id), err)
	}
	if version != expected {
		return nil, conflict(kind, id, version, expected)
	}
	return data, nil
}

// checkOneRow turns a guarded write that matched no row into ECONFLICT
// (someone changed the record between our read and write).
func checkOneRow(res sql.Result, err error, kind, id string, expected int64) error {
	if err != nil {
		return internalErr("write "+label(kind, id), err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return internalErr("write "+label(kind, id), err)
	}
	if n != 1 {
		return arbiter.Errorf(arbiter.ECONFLICT, "%s was changed by someone else (you had version %d); reload and try again", label(kind, id), expected)
	}
	return nil
}

func conflict(kind, id string, version, expected int64) error {
	return arbiter.Errorf(arbiter.ECONFLICT, "%s was changed by someone else (version %d, you had %d); reload and try again",
		label(kind, id), version, expected)
}
