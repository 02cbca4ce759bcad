package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Counters count hits (failed sign-ins, requests of one kind by one user)
// per key in a window, in the database, so that every process sharing it
// sees the same counts and a process holds nothing per client in memory.
// They are not audited: they change no competition state. Each call is
// one statement on its own (no transaction), atomic on both dialects.

// Counter is a key's count in its current window.
type Counter struct {
	Hits  int64     // hits in the window (0: none)
	Since time.Time // when the window began
	Last  time.Time // the latest hit
}

// CountHit adds one hit to key at now and returns the key's counter. A
// window lasts window from its first hit (a fixed window, for rate
// limits) or, when slide is set, until window after its latest hit (for
// failures: they are forgotten only after a quiet spell). A hit after the
// window starts a new one at 1.
func CountHit(ctx context.Context, db *DB, key string, now time.Time, window time.Duration, slide bool) (Counter, error) {
	d := db.dialect
	at, ends := d.timeArg(now), d.timeArg(now.Add(window))
	keep := "limits.expires_at"
	if slide {
		keep = "excluded.expires_at"
	}
	var c Counter
	err := db.queryRow(ctx, `INSERT INTO limits (key, hits, since, last_at, expires_at) VALUES (?, 1, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN limits.expires_at <= ? THEN 1 ELSE limits.hits + 1 END,
			since = CASE WHEN limits.expires_at <= ? THEN excluded.since ELSE limits.since END,
			expires_at = CASE WHEN limits.expires_at <= ? THEN excluded.expires_at ELSE `+keep+` END,
			last_at = excluded.last_at
		RETURNING hits, since, last_at`, hashToken(key), at, at, ends, at, at, at).
		Scan(&c.Hits, timeScan{&c.Since}, timeScan{&c.Last})
	if err != nil {
		return Counter{}, internalErr("count a hit", err)
	}
	return c, nil
}

// ReadCounter returns key's counter at now: zero when it has no hits or
// its window has passed.
func ReadCounter(ctx context.Context, q Queryer, key string, now time.Time) (Counter, error) {
	var c Counter
	var ends time.Time
	err := q.queryRow(ctx, `SELECT hits, since, last_at, expires_at FROM limits WHERE key = ?`, hashToken(key)).
		Scan(&c.Hits, timeScan{&c.Since}, timeScan{&c.Last}, timeScan{&ends})
	if errors.Is(err, sql.ErrNoRows) || err == nil && !now.Before(ends) {
		return Counter{}, nil
	}
	if err != nil {
		return Counter{}, internalErr("read a counter", err)
	}
	return c, nil
}

// ResetCounter forgets key's hits.
func ResetCounter(ctx context.Context, db *DB, key string) error {
	if _, err := db.sql.ExecContext(ctx, db.dialect.rebind(`DELETE FROM limits WHERE key = ?`), hashToken(key)); err != nil {
		return internalErr("reset a counter", err)
	}
	return nil
}

// DeleteStaleCounters deletes the counters whose window ended before now
// and returns how many.
func DeleteStaleCounters(ctx context.Context, db *DB, now time.Time) (int64, error) {
	res, err := db.sql.ExecContext(ctx, db.dialect.rebind(`DELETE FROM limits WHERE expires_at <= ?`), db.dialect.timeArg(now))
	if err != nil {
		return 0, internalErr("delete stale counters", err)
	}
	return res.RowsAffected()
}
