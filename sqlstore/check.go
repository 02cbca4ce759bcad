package sqlstore

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"arbiter"
)

// CheckReport is what Check found.
type CheckReport struct {
	Integrity string // SQLite's integrity check ("ok"), "" on PostgreSQL
	Events    int    // events whose log was replayed
	Records   int    // stored documents compared (event rows, records, users)
	Entries   int    // audit entries replayed
	// Problems names every difference, one line each; none means the
	// database is sound and every stored document is what its audit log
	// replays to.
	Problems []string
}

// Check verifies a database for operators (arbiter db check). On SQLite it
// runs PRAGMA integrity_check and foreign_key_check. Then it replays the
// audit log of every event (Replay) and compares the result with the
// event's stored row and records, and the log of users with the users
// table: every stored document must be its log's last version, with the
// same content, and every document of the log must be stored. It reads
// one consistent snapshot and changes nothing.
func (db *DB) Check(ctx context.Context) (CheckReport, error) {
	var rep CheckReport
	if db.dialect == SQLite {
		var err error
		if rep.Integrity, err = db.sqliteIntegrity(ctx); err != nil {
			return rep, err
		}
		if rep.Integrity != "ok" {
			rep.Problems = append(rep.Problems, "SQLite integrity check: "+rep.Integrity)
		}
	}
	integrity := rep.Problems
	err := db.View(ctx, func(tx *Tx) error {
		// A View may run again: start afresh.
		rep.Events, rep.Records, rep.Entries, rep.Problems = 0, 0, 0, append([]string(nil), integrity...)
		evs, err := ListEvents(ctx, tx)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			stored, err := eventDocs(ctx, tx, ev)
			if err != nil {
				return err
			}
			if err := rep.compare(ctx, tx, ev.ID, "event "+ev.Slug, stored); err != nil {
				return err
			}
			rep.Events++
		}
		users, err := userDocs(ctx, tx)
		if err != nil {
			return err
		}
		return rep.compare(ctx, tx, "", "users", users)
	})
	return rep, err
}

// compare replays the log of eventID and sets the differences with the
// stored documents as problems of where.
func (rep *CheckReport) compare(ctx context.Context, tx *Tx, eventID, where string, stored map[RecordKey]Replayed) error {
	entries, err := Audit(ctx, tx, eventID, AuditFilter{})
	if err != nil {
		return err
	}
	rep.Entries += len(entries)
	rep.Records += len(stored)
	replayed, err := Replay(entries)
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: the audit log does not replay: %s", where, err.Error()))
		return nil
	}
	var found []string
	for k, s := range stored {
		r, ok := replayed[k]
		switch {
		case !ok:
			found = append(found, fmt.Sprintf("%s: %s (version %d) is stored but not in the audit log", where, label(k.Kind, k.ID), s.Version))
		case r.Version != s.Version:
			found = append(found, fmt.Sprintf("%s: %s is stored at version %d, the audit log ends at version %d", where, label(k.Kind, k.ID), s.Version, r.Version))
		case !sameJSON(r.Data, s.Data):
			found = append(found, fmt.Sprintf("%s: %s version %d differs from the audit log's", where, label(k.Kind, k.ID), s.Version))
		}
	}
	for k, r := range replayed {
		if _, ok := stored[k]; !ok {
			found = append(found, fmt.Sprintf("%s: %s (version %d in the audit log) is missing from the store", where, label(k.Kind, k.ID), r.Version))
		}
	}
	sort.Strings(found)
	rep.Problems = append(rep.Problems, found...)
	return nil
}

// eventDocs are the stored documents of an event as its log records them:
// the event row itself and every record.
func eventDocs(ctx context.Context, tx *Tx, ev Event) (map[RecordKey]Replayed, error) {
	out := map[RecordKey]Replayed{}
	doc, err := ev.doc()
	if err != nil {
		return nil, err
	}
	out[RecordKey{ev.ID, EventKind, ev.ID}] = Replayed{Version: ev.Version, Data: doc}
	rows, err := tx.query(ctx, `SELECT kind, id, version, data FROM records WHERE event_id = ?`, ev.ID)
	if err != nil {
		return nil, internalErr("read records", err)
	}
	defer rows.Close()
	for rows.Next() {
		k := RecordKey{EventID: ev.ID}
		var r Replayed
		var data []byte
		if err := rows.Scan(&k.Kind, &k.ID, &r.Version, &data); err != nil {
			return nil, internalErr("read records", err)
		}
		r.Data = data
		out[k] = r
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("read records", err)
	}
	return out, nil
}

// userDocs are the users as the log records them.
func userDocs(ctx context.Context, tx *Tx) (map[RecordKey]Replayed, error) {
	rows, err := tx.query(ctx, `SELECT id FROM users`)
	if err != nil {
		return nil, internalErr("read users", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, internalErr("read users", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, internalErr("read users", err)
	}
	out := map[RecordKey]Replayed{}
	for _, id := range ids {
		u, err := GetUser(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		doc, err := marshal("user", u)
		if err != nil {
			return nil, err
		}
		out[RecordKey{"", UserKind, u.ID}] = Replayed{Version: u.Version, Data: doc}
	}
	return out, nil
}

// sqliteIntegrity runs SQLite's own checks: "ok", or what they found.
func (db *DB) sqliteIntegrity(ctx context.Context) (string, error) {
	rows, err := db.sql.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return "", internalErr("integrity check", err)
	}
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return "", internalErr("integrity check", err)
		}
		lines = append(lines, s)
	}
	rows.Close()
	fk, err := db.sql.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return "", internalErr("foreign key check", err)
	}
	defer fk.Close()
	for fk.Next() {
		var table, parent string
		var rowid, n any
		if err := fk.Scan(&table, &rowid, &parent, &n); err != nil {
			return "", internalErr("foreign key check", err)
		}
		lines = append(lines, fmt.Sprintf("a row of %s refers to a missing row of %s", table, parent))
	}
	if len(lines) == 1 && lines[0] == "ok" {
		return "ok", nil
	}
	if len(lines) > 0 && lines[0] == "ok" {
		lines = lines[1:]
	}
	return strings.Join(lines, "; "), nil
}

// Backup writes a consistent copy of a SQLite database to file (VACUUM
// INTO: an online backup, taken while other processes keep working; the
// copy is compact and complete, WAL included). file must not exist. On
// PostgreSQL it is EINVALID: use pg_dump (docs/operations.md).
func (db *DB) Backup(ctx context.Context, file string) error {
	if db.dialect != SQLite {
		return arbiter.FieldError("db", "sqlstore.backup", "a PostgreSQL database is backed up with pg_dump, e.g. pg_dump --format=custom --file=arbiter.dump 'postgres://…' (see docs/operations.md)")
	}
	if strings.TrimSpace(file) == "" {
		return arbiter.FieldError("file", "sqlstore.backup", "name the backup file")
	}
	if _, err := os.Stat(file); err == nil {
		return arbiter.FieldError("file", "sqlstore.backup", "%s already exists: a backup never overwrites a file", file)
	}
	if _, err := db.sql.ExecContext(ctx, `VACUUM INTO ?`, file); err != nil {
		return &arbiter.Error{Code: arbiter.EINVALID, Field: "file", Rule: "sqlstore.backup", Message: "cannot write the backup to " + file + ": " + err.Error(), Err: err}
	}
	return nil
}
