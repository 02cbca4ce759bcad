package sqlstore

import (
	"context"
)

// Status describes a database for operators.
type Status struct {
	Dialect       Dialect
	Target        string // the DSN without password
	SchemaVersion int    // what the database is at (0: empty)
	KnownVersion  int    // what this binary's migrations produce
	// Counts of rows; only filled when the schema is at least version 1.
	Events, Records, AuditEntries, Users, Sessions int64
}

// Status reports the schema version and row counts without changing anything.
func (db *DB) Status(ctx context.Context) (Status, error) {
	s := Status{Dialect: db.dialect, Target: db.target, KnownVersion: KnownVersion()}
	v, err := db.SchemaVersion(ctx)
	if err != nil {
		return s, err
	}
	s.SchemaVersion = v
	if v < 1 {
		return s, nil
	}
	for _, c := range []struct {
		table string
		n     *int64
	}{{"events", &s.Events}, {"records", &s.Records}, {"audit", &s.AuditEntries}, {"users", &s.Users}, {"sessions", &s.Sessions}} {
		if err := db.queryRow(ctx, `SELECT COUNT(*) FROM `+c.table).Scan(c.n); err != nil {
			return s, internalErr("count "+c.table, err)
		}
	}
	return s, nil
}
