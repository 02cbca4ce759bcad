package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Leases let one process of several on a database run a job alone (the
// deadline scheduler): a process runs the job only while it holds the
// job's lease, and renews it on each run. A lease that is not renewed
// (its holder stopped or hangs) expires after its ttl and another process
// takes it over. Each call is one atomic statement on both dialects.

// TryLease takes the lease name for holder until now+ttl when it is free,
// expired or already holder's (renewing it), and tells whether holder
// holds it now.
func TryLease(ctx context.Context, db *DB, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	d := db.dialect
	var got string
	err := db.queryRow(ctx, `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
		RETURNING holder`, name, holder, d.timeArg(now.Add(ttl)), d.timeArg(now)).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // held by another process
	}
	if err != nil {
		return false, internalErr("take lease "+name, err)
	}
	return got == holder, nil
}

// ReleaseLease gives up holder's lease name (at shutdown, so that another
// process need not wait for it to expire). Not holding it is no error.
func ReleaseLease(ctx context.Context, db *DB, name, holder string) error {
	if _, err := db.sql.ExecContext(ctx, db.dialect.rebind(`DELETE FROM leases WHERE name = ? AND holder = ?`), name, holder); err != nil {
		return internalErr("release lease "+name, err)
	}
	return nil
}
