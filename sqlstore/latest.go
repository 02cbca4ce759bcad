package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Latest is where an event's change log stands: its newest audit sequence
// number and a count that grows with every committed change. Live pages
// poll it to learn that an event changed, whichever process made the
// change.
//
// Seq alone is not enough on PostgreSQL: sequence numbers are taken when a
// change is written, not when it commits, so a transaction that commits
// late can add an entry below a Seq already seen. There Changes is the
// number of the event's entries: the log is append-only, so it grows with
// every commit. On SQLite writers hold the database's write lock from
// BEGIN, so entries commit in Seq order and Changes is Seq itself
// (counting would read every entry of the event on each poll).
type Latest struct {
	Seq     int64 // the newest audit entry's Seq (0 for none)
	Changes int64 // grows with every committed change of the event
}

// String is the pair as one token, "seq.changes", that ParseLatest reads
// back (live streams use it as their event id).
func (l Latest) String() string { return fmt.Sprintf("%d.%d", l.Seq, l.Changes) }

// ParseLatest reads a token written by Latest.String; ok is false for
// anything else.
func ParseLatest(s string) (l Latest, ok bool) {
	seq, n, found := strings.Cut(s, ".")
	if !found {
		return Latest{}, false
	}
	var err1, err2 error
	l.Seq, err1 = strconv.ParseInt(seq, 10, 64)
	l.Changes, err2 = strconv.ParseInt(n, 10, 64)
	if err1 != nil || err2 != nil || l.Seq < 0 || l.Changes < 0 {
		return Latest{}, false
	}
	return l, true
}

const (
	latestSQLite   = `SELECT COALESCE(MAX(seq), 0) FROM audit WHERE event_id = ?`
	latestPostgres = `SELECT COALESCE(MAX(seq), 0), COUNT(*) FROM audit WHERE event_id = ?`
)

// LatestChange returns where the change log of an event stands. It reads
// the audit_event index (event_id, seq): on SQLite one entry of it, on
// PostgreSQL the event's entries (an index-only count). Cheap enough to
// run about once a second per event being watched, and on every cached
// read (web). An unknown event has no entries.
func LatestChange(ctx context.Context, q Queryer, eventID string) (Latest, error) {
	var l Latest
	var err error
	// Read on every cached page: SQLite runs it from its connection's
	// statement cache (stmtcache.go), pgx from its own.
	if db, ok := q.(*DB); ok && db.dialect == SQLite {
		// Straight on the pool, as it always was: not counted among the
		// DB's statements (Counts), which page tests bound.
		err = db.sql.QueryRowContext(ctx, latestSQLite, eventID).Scan(&l.Seq)
		l.Changes = l.Seq
	} else if q.sqlDialect() == SQLite {
		err = q.queryRow(ctx, latestSQLite, eventID).Scan(&l.Seq)
		l.Changes = l.Seq
	} else {
		err = q.queryRow(ctx, latestPostgres, eventID).Scan(&l.Seq, &l.Changes)
	}
	if err != nil {
		return Latest{}, internalErr("read the latest change", err)
	}
	return l, nil
}
