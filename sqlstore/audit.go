package sqlstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"arbiter"
)

// AuditEntry is one change as the log holds it.
type AuditEntry struct {
	Seq      int64     `json:"seq"` // increasing in the order changes to one record committed
	EventID  string    `json:"event_id"`
	At       time.Time `json:"at"`
	Actor    Actor     `json:"actor"`
	Action   string    `json:"action"`
	Kind     string    `json:"kind"`
	RecordID string    `json:"record_id"`
	Version  int64     `json:"version"` // the record's version after the change
	Reason   string    `json:"reason,omitempty"`
	// Before and After are the document before and after the change; Before
	// is absent for a creation and After for a deletion.
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

type auditRow struct {
	eventID, kind, id, action string
	version                   int64
	before, after             []byte
}

// writeAudit appends one entry in tx, so it commits with the change.
func writeAudit(ctx context.Context, tx *Tx, ch Change, r auditRow) error {
	_, err := tx.exec(ctx, `INSERT INTO audit (event_id, at, actor, actor_role, action, kind, record_id, version, reason, before, after)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.eventID, tx.dialect.timeArg(tx.now), ch.Actor.Name, ch.Actor.Role, r.action, r.kind, r.id, r.version,
		ch.Reason, nullJSON(r.before), nullJSON(r.after))
	if err != nil {
		return internalErr("write audit entry", err)
	}
	tx.noteWritten(AuditEntry{EventID: r.eventID, At: tx.now, Actor: ch.Actor, Action: r.action, Kind: r.kind, RecordID: r.id,
		Version: r.version, Reason: ch.Reason, Before: r.before, After: r.after})
	return nil
}

func nullJSON(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// AuditFilter narrows an audit query. Zero fields match everything.
type AuditFilter struct {
	Kind     string
	RecordID string
	Actor    string // actor name
	AfterSeq int64  // only entries with Seq > AfterSeq (for paging)
	Limit    int    // at most this many entries (0: all)
}

// Audit returns the log entries of an event ("" for changes outside
// events, such as users) that match f, oldest first.
func Audit(ctx context.Context, q Queryer, eventID string, f AuditFilter) ([]AuditEntry, error) {
	var where strings.Builder
	args := []any{eventID, f.AfterSeq}
	where.WriteString(`event_id = ? AND seq > ?`)
	if f.Kind != "" {
		where.WriteString(` AND kind = ?`)
		args = append(args, f.Kind)
	}
	if f.RecordID != "" {
		where.WriteString(` AND record_id = ?`)
		args = append(args, f.RecordID)
	}
	if f.Actor != "" {
		where.WriteString(` AND actor = ?`)
		args = append(args, f.Actor)
	}
	query := `SELECT seq, event_id, at, actor, actor_role, action, kind, record_id, version, reason, before, after
		FROM audit WHERE ` + where.String() + ` ORDER BY seq`
	if f.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, internalErr("read audit log", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var before, after []byte
		if err := rows.Scan(&e.Seq, &e.EventID, timeScan{&e.At}, &e.Actor.Name, &e.Actor.Role, &e.Action, &e.Kind,
			&e.RecordID, &e.Version, &e.Reason, &before, &after); err != nil {
			return nil, internalErr("read audit log", err)
		}
		if before != nil {
			e.Before = before
		}
		if after != nil {
			e.After = after
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("read audit log", err)
	}
	return out, nil
}

// RecordKey identifies a document across the log.
type RecordKey struct {
	EventID, Kind, ID string
}

// Replayed is a document's state recomputed from the log.
type Replayed struct {
	Version int64
	Data    json.RawMessage
}

// Replay recomputes the current documents from audit entries given oldest
// first (as Audit returns them). It checks that the log is consistent:
// each record's versions follow 1, 2, 3, ... without gaps, and each
// entry's Before equals the previous entry's After. Deleted records are
// absent from the result.
func Replay(entries []AuditEntry) (map[RecordKey]Replayed, error) {
	state := map[RecordKey]Replayed{}
	last := map[RecordKey]int64{}
	for _, e := range entries {
		k := RecordKey{e.EventID, e.Kind, e.RecordID}
		prev, exists := state[k]
		if e.Version != last[k]+1 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "audit entry %d: %s goes to version %d after version %d",
				e.Seq, label(e.Kind, e.RecordID), e.Version, last[k])
		}
		switch {
		case exists != (e.Before != nil):
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "audit entry %d: %s: 'before' does not match whether the record existed", e.Seq, label(e.Kind, e.RecordID))
		case exists && !sameJSON(prev.Data, e.Before):
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "audit entry %d: %s: 'before' differs from the previous entry's 'after'", e.Seq, label(e.Kind, e.RecordID))
		}
		last[k] = e.Version
		if e.After == nil {
			delete(state, k)
			continue
		}
		state[k] = Replayed{Version: e.Version, Data: e.After}
	}
	return state, nil
}

// sameJSON compares JSON texts by value: PostgreSQL's JSONB prints with
// spaces and its own key order.
func sameJSON(a, b []byte) bool {
	va, erra := decodeJSON(a)
	vb, errb := decodeJSON(b)
	if erra != nil || errb != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(va, vb)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber() // exact comparison of numbers
	var v any
	err := d.Decode(&v)
	return v, err
}
