package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// Run runs the conformance suite. open must return a fresh, migrated,
// empty database for each call (SQLite or Postgres above); subtests run in
// parallel, each on its own database.
func Run(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s *suite)
	}{
		{"CreateGetUpdateList", testCRUD},
		{"Errors", testErrors},
		{"StaleVersion", testStaleVersion},
		{"ConcurrentWritersOneWins", testConcurrentWriters},
		{"NoLostUpdates", testNoLostUpdates},
		{"ReadModifyWriteInTx", testReadModifyWriteInTx},
		{"AuditEntries", testAudit},
		{"ReplayReproducesRecords", testReplay},
		{"AuditAppendOnly", testAuditAppendOnly},
		{"MigrationsIdempotent", testMigrationsIdempotent},
		{"RefusesNewerSchema", testRefusesNewerSchema},
		{"UnicodeAndLargeJSON", testUnicodeAndLarge},
		{"RollbackLeavesNothing", testRollback},
		{"ViewIsReadOnly", testView},
		{"Events", testEvents},
		{"UsersAndSessions", testUsers},
		{"LocalAccounts", testLocalAccounts},
		{"LocalPassword", testLocalPassword},
		{"ConcurrentFirstSignIn", testConcurrentSignIn},
		{"TimestampsUTC", testTimestamps},
		{"Counters", testCounters},
		{"Leases", testLeases},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := open(t)
			c := &clock{t: start}
			db.Now = c.now
			tc.fn(t, &suite{db: db, clock: c, ctx: context.Background()})
		})
	}
}

// start is the fake clock's first reading; its zone is not UTC on purpose
// (the store must convert) and it carries nanoseconds (stored as µs).
var start = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))

// clock advances one second per reading, so every transaction has its own
// distinct, predictable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
	n  int
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.t.Add(time.Duration(c.n) * time.Second)
}

// reading returns the time of the clock's n-th reading, as stored.
func reading(n int) time.Time {
	return start.Add(time.Duration(n) * time.Second).UTC().Truncate(time.Microsecond)
}

type suite struct {
	db    *sqlstore.DB
	clock *clock
	ctx   context.Context
}

// match is a typical document: the store sees only its JSON.
type match struct {
	White  string         `json:"white"`
	Black  string         `json:"black"`
	Result arbiter.Points `json:"result"`
	Board  int            `json:"board"`
	Notes  string         `json:"notes,omitempty"`
}

var (
	td      = sqlstore.Change{Actor: sqlstore.Actor{Name: "alice", Role: "td"}}
	captain = sqlstore.Change{Actor: sqlstore.Actor{Name: "bob", Role: "captain"}}
)

// event creates an event and returns its id (one clock reading).
func (s *suite) event(t *testing.T, slug string) string {
	t.Helper()
	var id string
	s.tx(t, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: slug, Name: "Event " + slug})
		id = e.ID
		return err
	})
	return id
}

func (s *suite) tx(t *testing.T, fn func(tx *sqlstore.Tx) error) {
	t.Helper()
	if err := s.db.Tx(s.ctx, fn); err != nil {
		t.Fatalf("transaction: %v", err)
	}
}

func create[T any](t *testing.T, s *suite, ch sqlstore.Change, ev, kind, id string, v T) int64 {
	t.Helper()
	var ver int64
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		ver, err = sqlstore.Create(s.ctx, tx, ch, ev, kind, id, v)
		return err
	})
	return ver
}

func update[T any](s *suite, ch sqlstore.Change, ev, kind, id string, expected int64, v T) (int64, error) {
	var ver int64
	err := s.db.Tx(s.ctx, func(tx *sqlstore.Tx) (err error) {
		ver, err = sqlstore.Update(s.ctx, tx, ch, ev, kind, id, expected, v)
		return err
	})
	return ver, err
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := arbiter.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

// sameJSON compares JSON by value (PostgreSQL reformats JSONB).
func sameJSON(a []byte, b string) bool {
	if len(a) == 0 || b == "" {
		return len(a) == 0 && b == ""
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
