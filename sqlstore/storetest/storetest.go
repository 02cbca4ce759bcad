package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
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
		{"ConcurrentFirstSignIn", testConcurrentSignIn},
		{"TimestampsUTC", testTimestamps},
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

func testCRUD(t *testing.T, s *suite) {
	ev := s.event(t, "rkcc-2026") // reading 1
	m12 := match{White: "Team A", Black: "Team B", Board: 1}
	if v := create(t, s, td, ev, "match", "12", m12); v != 1 { // reading 2
		t.Fatalf("create: version %d, want 1", v)
	}
	create(t, s, td, ev, "match", "2", match{White: "C", Black: "D", Board: 2}) // reading 3
	create(t, s, td, ev, "match", "1", match{White: "E", Black: "F", Board: 3}) // reading 4
	create(t, s, td, ev, "round", "1", map[string]int{"number": 1})             // reading 5, another kind

	got, ver, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
	if err != nil || ver != 1 || got != m12 {
		t.Fatalf("Get = %+v, %d, %v; want %+v, 1", got, ver, err, m12)
	}
	m12.Result = arbiter.P(2.5)
	m12.Notes = "result reported by both captains"
	v, err := update(s, captain, ev, "match", "12", 1, m12) // reading 6
	if err != nil || v != 2 {
		t.Fatalf("Update = %d, %v; want version 2", v, err)
	}
	got, ver, err = sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
	if err != nil || ver != 2 || got != m12 {
		t.Fatalf("Get after update = %+v, %d, %v; want %+v, 2", got, ver, err, m12)
	}

	list, err := sqlstore.List[match](s.ctx, s.db, ev, "match")
	if err != nil {
		t.Fatal(err)
	}
	// Ordered by id as text: "1" < "12" < "2".
	var ids []string
	for _, r := range list {
		ids = append(ids, r.ID)
	}
	if want := []string{"1", "12", "2"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("List ids = %v, want %v", ids, want)
	}
	r := list[1]
	if r.Version != 2 || r.Value != m12 || r.EventID != ev || r.Kind != "match" {
		t.Fatalf("List[1] = %+v", r)
	}
	if !r.CreatedAt.Equal(reading(2)) || !r.UpdatedAt.Equal(reading(6)) {
		t.Fatalf("timestamps created %v updated %v, want %v and %v", r.CreatedAt, r.UpdatedAt, reading(2), reading(6))
	}
	rounds, err := sqlstore.List[json.RawMessage](s.ctx, s.db, ev, "round")
	if err != nil || len(rounds) != 1 || !sameJSON(rounds[0].Value, `{"number":1}`) {
		t.Fatalf("List rounds = %+v, %v", rounds, err)
	}
	empty, err := sqlstore.List[match](s.ctx, s.db, ev, "lineup")
	if err != nil || len(empty) != 0 {
		t.Fatalf("List of an absent kind = %v, %v; want none", empty, err)
	}

	// Delete needs the current version too.
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		return sqlstore.Delete(s.ctx, tx, td.WithReason("entered twice"), ev, "match", "1", 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = sqlstore.Get[match](s.ctx, s.db, ev, "match", "1")
	wantCode(t, err, arbiter.ENOTFOUND)
	// Re-created, its versions continue after the deleted record's, so a
	// client still holding version 1 of the old one cannot overwrite it.
	if v := create(t, s, td, ev, "match", "1", match{White: "E", Black: "G"}); v != 3 {
		t.Fatalf("re-created record has version %d, want 3 (1 create, 2 delete, 3 create)", v)
	}
	_, err = update(s, td, ev, "match", "1", 1, match{})
	wantCode(t, err, arbiter.ECONFLICT)
}

func testErrors(t *testing.T, s *suite) {
	ev := s.event(t, "errors")
	create(t, s, td, ev, "match", "12", match{White: "A"})
	tx := func(fn func(tx *sqlstore.Tx) error) error { return s.db.Tx(s.ctx, fn) }

	err := tx(func(tx *sqlstore.Tx) error {
		_, err := sqlstore.Create(s.ctx, tx, td, ev, "match", "12", match{})
		return err
	})
	wantCode(t, err, arbiter.ECONFLICT)
	if msg := arbiter.ErrorMessage(err); msg != "match 12 already exists" {
		t.Errorf("duplicate create message %q", msg)
	}
	err = tx(func(tx *sqlstore.Tx) error {
		_, err := sqlstore.Create(s.ctx, tx, td, "no-such-event", "match", "1", match{})
		return err
	})
	wantCode(t, err, arbiter.ENOTFOUND)

	_, _, err = sqlstore.Get[match](s.ctx, s.db, ev, "match", "13")
	wantCode(t, err, arbiter.ENOTFOUND)
	if msg := arbiter.ErrorMessage(err); msg != "match 13 not found" {
		t.Errorf("not found message %q", msg)
	}
	_, err = update(s, td, ev, "match", "13", 1, match{})
	wantCode(t, err, arbiter.ENOTFOUND)

	// Every write needs an actor; an override needs a reason.
	_, err = update(s, sqlstore.Change{}, ev, "match", "12", 1, match{})
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	_, err = update(s, sqlstore.Change{Actor: td.Actor, Override: true}, ev, "match", "12", 1, match{})
	wantCode(t, err, arbiter.EINVALID)
	var ae *arbiter.Error
	if !errors.As(err, &ae) || ae.Field != "reason" {
		t.Errorf("override without reason: %#v, want field reason", err)
	}
	for _, kind := range []string{"", "Match", "match-result", "match result"} {
		_, _, err = sqlstore.Get[match](s.ctx, s.db, ev, kind, "12")
		wantCode(t, err, arbiter.EINVALID)
	}
	_, _, err = sqlstore.Get[match](s.ctx, s.db, ev, "match", "")
	wantCode(t, err, arbiter.EINVALID)
	// A document that cannot be decoded into T is an internal error, not a zero value.
	_, _, err = sqlstore.Get[int](s.ctx, s.db, ev, "match", "12")
	wantCode(t, err, arbiter.EINTERNAL)
	// Nothing of the failed writes reached the log.
	entries, err := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match"})
	if err != nil || len(entries) != 1 {
		t.Fatalf("audit after failed writes: %d entries, %v; want only the create", len(entries), err)
	}
}

func testStaleVersion(t *testing.T, s *suite) {
	ev := s.event(t, "stale")
	create(t, s, td, ev, "match", "12", match{Board: 1})
	for v := int64(1); v < 4; v++ {
		if _, err := update(s, td, ev, "match", "12", v, match{Board: int(v) + 1}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := update(s, captain, ev, "match", "12", 3, match{Board: 99})
	wantCode(t, err, arbiter.ECONFLICT)
	want := "match 12 was changed by someone else (version 4, you had 3); reload and try again"
	if msg := arbiter.ErrorMessage(err); msg != want {
		t.Fatalf("conflict message %q, want %q", msg, want)
	}
	got, ver, _ := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
	if ver != 4 || got.Board != 4 {
		t.Fatalf("after the refused write: %+v version %d; want board 4 version 4", got, ver)
	}
}

// Two writers both hold version 1 and write at the same moment: exactly
// one wins, the other gets ECONFLICT, and the winner's data is stored.
func testConcurrentWriters(t *testing.T, s *suite) {
	ev := s.event(t, "race")
	create(t, s, td, ev, "match", "12", match{Board: 1})
	const rounds = 5
	for round := 0; round < rounds; round++ {
		_, ver, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		gate := make(chan struct{})
		errs := make([]error, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				_, errs[w] = update(s, captain, ev, "match", "12", ver, match{Board: 100*round + w})
			}()
		}
		close(gate)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch arbiter.ErrorCode(err) {
			case "":
				if winner >= 0 {
					t.Fatalf("round %d: both writers won", round)
				}
				winner = w
			case arbiter.ECONFLICT:
				if !strings.Contains(err.Error(), "reload and try again") {
					t.Errorf("loser's message %q", err)
				}
			default:
				t.Fatalf("round %d writer %d: %v", round, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won: %v", round, errs)
		}
		got, v2, _ := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
		if v2 != ver+1 || got.Board != 100*round+winner {
			t.Fatalf("round %d: stored %+v version %d; want the winner's board %d at version %d", round, got, v2, 100*round+winner, ver+1)
		}
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match"})
	if len(entries) != 1+rounds {
		t.Fatalf("%d audit entries, want %d (create + one per round)", len(entries), 1+rounds)
	}
}

type counter struct {
	N int `json:"n"`
}

// Writers that reload and try again on ECONFLICT, as users are told to,
// lose no increment.
func testNoLostUpdates(t *testing.T, s *suite) {
	ev := s.event(t, "counter")
	create(t, s, td, ev, "counter", "c", counter{})
	const writers, each = 6, 5
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < each; {
				c, ver, err := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
				if err != nil {
					errc <- err
					return
				}
				c.N++
				_, err = update(s, captain, ev, "counter", "c", ver, c)
				switch arbiter.ErrorCode(err) {
				case "":
					done++
				case arbiter.ECONFLICT: // reload and try again
				default:
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	c, ver, err := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
	if err != nil || c.N != writers*each || ver != writers*each+1 {
		t.Fatalf("counter %d version %d (%v); want %d at version %d", c.N, ver, err, writers*each, writers*each+1)
	}
}

// Reads and writes inside one transaction are isolated: concurrent
// read-modify-write transactions (retried by DB.Tx when the database
// reports a collision) lose nothing.
func testReadModifyWriteInTx(t *testing.T, s *suite) {
	ev := s.event(t, "rmw")
	create(t, s, td, ev, "counter", "c", counter{})
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errc := make(chan error, writers*each)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				errc <- s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
					c, ver, err := sqlstore.Get[counter](s.ctx, tx, ev, "counter", "c")
					if err != nil {
						return err
					}
					c.N++
					_, err = sqlstore.Update(s.ctx, tx, captain, ev, "counter", "c", ver, c)
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
	c, ver, _ := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
	if c.N != writers*each || ver != writers*each+1 {
		t.Fatalf("counter %d version %d; want %d at version %d", c.N, ver, writers*each, writers*each+1)
	}
}

func testAudit(t *testing.T, s *suite) {
	ev := s.event(t, "audit")                                               // reading 1
	create(t, s, captain, ev, "match", "12", match{White: "A", Black: "B"}) // reading 2
	if _, err := update(s, captain.As("result.report"), ev, "match", "12", 1, match{White: "A", Black: "B", Result: arbiter.P(3)}); err != nil {
		t.Fatal(err) // reading 3
	}
	override := sqlstore.Change{Actor: td.Actor, Action: "result.override", Override: true, Reason: "appeal upheld (R7)"}
	if _, err := update(s, override, ev, "match", "12", 2, match{White: "A", Black: "B", Result: arbiter.P(1.5)}); err != nil {
		t.Fatal(err) // reading 4
	}
	create(t, s, td, ev, "match", "13", match{White: "C", Black: "D"}) // reading 5

	entries, err := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match", RecordID: "12"})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		at             time.Time
		actor          sqlstore.Actor
		action, reason string
		version        int64
		before, after  string
	}
	want := []row{
		{reading(2), captain.Actor, "match.create", "", 1, "", `{"white":"A","black":"B","result":0,"board":0}`},
		{reading(3), captain.Actor, "result.report", "", 2, `{"white":"A","black":"B","result":0,"board":0}`, `{"white":"A","black":"B","result":3,"board":0}`},
		{reading(4), td.Actor, "result.override", "appeal upheld (R7)", 3, `{"white":"A","black":"B","result":3,"board":0}`, `{"white":"A","black":"B","result":1.5,"board":0}`},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d entries for match 12, want %d: %+v", len(entries), len(want), entries)
	}
	for i, e := range entries {
		w := want[i]
		if !e.At.Equal(w.at) || e.Actor != w.actor || e.Action != w.action || e.Reason != w.reason || e.Version != w.version ||
			e.EventID != ev || e.Kind != "match" || e.RecordID != "12" ||
			!sameJSON(e.Before, w.before) || !sameJSON(e.After, w.after) {
			t.Errorf("entry %d = %+v (before %s after %s)\nwant %+v", i, e, e.Before, e.After, w)
		}
		if i > 0 && e.Seq <= entries[i-1].Seq {
			t.Errorf("entry %d: seq %d not after %d", i, e.Seq, entries[i-1].Seq)
		}
	}
	all, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if len(all) != 5 || all[0].Kind != sqlstore.EventKind {
		t.Fatalf("whole event log: %+v, want 5 entries starting with the event's creation", all)
	}
	byTD, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Actor: "alice"})
	if len(byTD) != 3 { // event create, override, match 13
		t.Fatalf("alice's entries: %d, want 3", len(byTD))
	}
	// Paging: two at a time after a sequence number.
	page, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{AfterSeq: all[1].Seq, Limit: 2})
	if len(page) != 2 || page[0].Seq != all[2].Seq || page[1].Seq != all[3].Seq {
		t.Fatalf("page = %+v", page)
	}
	other, _ := sqlstore.Audit(s.ctx, s.db, "another-event", sqlstore.AuditFilter{})
	if len(other) != 0 {
		t.Fatalf("another event's log holds %d entries", len(other))
	}
}

func testReplay(t *testing.T, s *suite) {
	ev := s.event(t, "replay")
	ev2 := s.event(t, "replay-two")
	create(t, s, td, ev, "match", "1", match{White: "A", Black: "B"})
	create(t, s, td, ev, "match", "2", match{White: "C", Black: "D"})
	create(t, s, td, ev, "lineup", "team-a", map[string][]string{"boards": {"p1", "p2"}})
	create(t, s, td, ev2, "match", "1", match{White: "X", Black: "Y"})
	update(s, captain, ev, "match", "1", 1, match{White: "A", Black: "B", Result: arbiter.P(2)})
	update(s, captain, ev, "lineup", "team-a", 1, map[string][]string{"boards": {"p2", "p1"}})
	update(s, td.WithReason("correction"), ev, "match", "1", 2, match{White: "A", Black: "B", Result: arbiter.P(2.5)})
	s.tx(t, func(tx *sqlstore.Tx) error {
		return sqlstore.Delete(s.ctx, tx, td, ev, "match", "2", 1)
	})
	create(t, s, td, ev, "match", "2", match{White: "C", Black: "E"})
	s.tx(t, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.GetEvent(s.ctx, tx, ev)
		if err != nil {
			return err
		}
		e.Status, e.Format = "running", json.RawMessage(`{"preset":"rkcc-team-three-tc","rounds":7}`)
		_, err = sqlstore.UpdateEvent(s.ctx, tx, td, e)
		return err
	})

	entries, err := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	state, err := sqlstore.Replay(entries)
	if err != nil {
		t.Fatal(err)
	}
	// Every current record of the event, and nothing else, comes out of the log.
	n := 0
	for _, kind := range []string{"match", "lineup"} {
		recs, err := sqlstore.List[json.RawMessage](s.ctx, s.db, ev, kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			n++
			got, ok := state[sqlstore.RecordKey{EventID: ev, Kind: kind, ID: r.ID}]
			if !ok || got.Version != r.Version || !sameJSON(got.Data, string(r.Value)) {
				t.Errorf("%s %s: replayed %+v (%s), stored version %d %s", kind, r.ID, got, got.Data, r.Version, r.Value)
			}
		}
	}
	e, _ := sqlstore.GetEvent(s.ctx, s.db, ev)
	evDoc, _ := json.Marshal(e)
	got := state[sqlstore.RecordKey{EventID: ev, Kind: sqlstore.EventKind, ID: ev}]
	if got.Version != e.Version || !sameJSON(got.Data, string(evDoc)) {
		t.Errorf("event: replayed %d %s, stored %d %s", got.Version, got.Data, e.Version, evDoc)
	}
	if len(state) != n+1 {
		t.Errorf("replay has %d records, the store %d", len(state), n+1)
	}
	if got := state[sqlstore.RecordKey{EventID: ev, Kind: "match", ID: "2"}]; got.Version != 3 {
		t.Errorf("re-created match 2 replays at version %d, want 3", got.Version)
	}
	// A log with an entry missing is refused, not silently replayed.
	if _, err := sqlstore.Replay(append(entries[:3:3], entries[4:]...)); err == nil {
		t.Error("Replay accepted a log with a missing entry")
	}
}

func testAuditAppendOnly(t *testing.T, s *suite) {
	ev := s.event(t, "append-only")
	create(t, s, td, ev, "match", "1", match{})
	for _, q := range []string{`UPDATE audit SET reason = 'rewritten'`, `DELETE FROM audit`} {
		if _, err := s.db.SQLDB().ExecContext(s.ctx, q); err == nil {
			t.Errorf("%s: allowed", q)
		}
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if len(entries) != 2 || entries[1].Reason != "" {
		t.Fatalf("audit changed: %+v", entries)
	}
}

func testMigrationsIdempotent(t *testing.T, s *suite) {
	ev := s.event(t, "keep")
	create(t, s, td, ev, "match", "1", match{White: "kept"})
	for range 2 {
		applied, err := s.db.Migrate(s.ctx)
		if err != nil || len(applied) != 0 {
			t.Fatalf("Migrate on a current schema applied %v, %v; want nothing", applied, err)
		}
	}
	v, err := s.db.SchemaVersion(s.ctx)
	if err != nil || v != sqlstore.KnownVersion() {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, sqlstore.KnownVersion())
	}
	if m, _, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", "1"); err != nil || m.White != "kept" {
		t.Fatalf("data after re-migrating: %+v, %v", m, err)
	}
	// Several processes starting at once all succeed.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.db.Migrate(s.ctx) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func testRefusesNewerSchema(t *testing.T, s *suite) {
	known := sqlstore.KnownVersion()
	q := `INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from-the-future', ?)`
	var at any = "2030-01-01T00:00:00.000000Z"
	if s.db.Dialect() == sqlstore.Postgres {
		q = strings.NewReplacer("?, 'f", "$1, 'f", "', ?)", "', $2)").Replace(q)
		at = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if _, err := s.db.SQLDB().ExecContext(s.ctx, q, known+1, at); err != nil {
		t.Fatal(err)
	}
	_, err := s.db.Migrate(s.ctx)
	if !errors.Is(err, sqlstore.ErrSchemaTooNew) {
		t.Fatalf("Migrate on a newer schema: %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{fmt.Sprintf("version %d", known+1), fmt.Sprintf("version %d", known)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	st, err := s.db.Status(s.ctx)
	if err != nil || st.SchemaVersion != known+1 || st.KnownVersion != known {
		t.Fatalf("Status = %+v, %v", st, err)
	}
}

func testUnicodeAndLarge(t *testing.T, s *suite) {
	ev := s.event(t, "unicode")
	names := []string{
		"Ян Непомнящий", "丁立人", "Magnus Carlsen 👑", "Ñandú José", "e\u0301 (combining)", "عربي", "tab\tand\nnewline",
		`quotes " and \ backslash`, "<html>&amp;", "\U0001F600\U0001F3F3\uFE0F\u200D\U0001F308",
	}
	for i, n := range names {
		id := fmt.Sprintf("матч-%d-♞", i)
		m := match{White: n, Black: strings.ToUpper(n), Notes: n}
		create(t, s, td.WithReason("причина: "+n), ev, "match", id, m)
		got, _, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", id)
		if err != nil || got != m {
			t.Errorf("%q: got %+v, %v", n, got, err)
		}
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{RecordID: "матч-0-♞"})
	if len(entries) != 1 || entries[0].Reason != "причина: Ян Непомнящий" {
		t.Fatalf("unicode audit: %+v", entries)
	}

	// A large document: a whole season of games (about 3 MB of JSON).
	type game struct {
		ID    string `json:"id"`
		White string `json:"white"`
		Black string `json:"black"`
		PGN   string `json:"pgn"`
	}
	big := make([]game, 6000)
	for i := range big {
		big[i] = game{ID: fmt.Sprintf("g%05d", i), White: names[i%len(names)], Black: names[(i+3)%len(names)],
			PGN: strings.Repeat("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ", 15)}
	}
	create(t, s, td, ev, "archive", "season", big)
	got, _, err := sqlstore.Get[[]game](s.ctx, s.db, ev, "archive", "season")
	if err != nil || !reflect.DeepEqual(got, big) {
		t.Fatalf("large document did not round-trip (%d games, %v)", len(got), err)
	}
	if b, _ := json.Marshal(big); len(b) < 2_000_000 {
		t.Fatalf("the large document is only %d bytes", len(b))
	}

	// NUL cannot be stored by PostgreSQL; both stores refuse it alike.
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.Create(s.ctx, tx, td, ev, "match", "nul", match{White: "a\x00b"})
		return err
	})
	wantCode(t, err, arbiter.EINVALID)
	// An escaped backslash before "u0000" is ordinary text.
	create(t, s, td, ev, "match", "not-nul", match{White: `a\u0000b`})
	if m, _, _ := sqlstore.Get[match](s.ctx, s.db, ev, "match", "not-nul"); m.White != `a\u0000b` {
		t.Fatalf("backslash text: %q", m.White)
	}
}

func testRollback(t *testing.T, s *suite) {
	boom := errors.New("boom")
	err := s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "ghost", Name: "Ghost"})
		if err != nil {
			return err
		}
		if _, err := sqlstore.Create(s.ctx, tx, td, e.ID, "match", "1", match{}); err != nil {
			return err
		}
		if _, err := sqlstore.Update(s.ctx, tx, td, e.ID, "match", "1", 1, match{Board: 2}); err != nil {
			return err
		}
		if _, err := sqlstore.UpsertUser(s.ctx, tx, td, "Ghost_User", ""); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx returned %v, want fn's error", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "panic in tx" {
				t.Errorf("recovered %v, want the panic to propagate", r)
			}
		}()
		s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
			if _, err := sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "ghost", Name: "Ghost"}); err != nil {
				return err
			}
			panic("panic in tx")
		})
	}()
	_, err = sqlstore.GetEventBySlug(s.ctx, s.db, "ghost")
	wantCode(t, err, arbiter.ENOTFOUND)
	st, err := s.db.Status(s.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Events+st.Records+st.AuditEntries+st.Users+st.Sessions != 0 {
		t.Fatalf("rolled-back transactions left rows behind: %+v", st)
	}
	// The store is still usable.
	s.event(t, "ghost")
}

func testView(t *testing.T, s *suite) {
	ev := s.event(t, "view")
	create(t, s, td, ev, "match", "1", match{Board: 1})
	var got match
	var ver int64
	err := s.db.View(s.ctx, func(tx *sqlstore.Tx) (err error) {
		got, ver, err = sqlstore.Get[match](s.ctx, tx, ev, "match", "1")
		if err != nil {
			return err
		}
		_, err = sqlstore.Update(s.ctx, tx, td, ev, "match", "1", ver, match{Board: 2})
		if err == nil {
			return errors.New("a write inside View succeeded")
		}
		return nil
	})
	if err != nil || got.Board != 1 || ver != 1 {
		t.Fatalf("View: %+v version %d, %v", got, ver, err)
	}
	if m, v, _ := sqlstore.Get[match](s.ctx, s.db, ev, "match", "1"); m.Board != 1 || v != 1 {
		t.Fatalf("after View: %+v version %d", m, v)
	}
}

func testEvents(t *testing.T, s *suite) {
	var created sqlstore.Event
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		created, err = sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "acwc-2026", Name: "Antichess World Cup 2026",
			Format: json.RawMessage(`{"preset": "acwc-2023"}`)})
		return err
	})
	if created.ID == "" || created.Version != 1 || created.Status != "draft" {
		t.Fatalf("created %+v", created)
	}
	e, err := sqlstore.GetEventBySlug(s.ctx, s.db, "acwc-2026")
	if err != nil || e.ID != created.ID || e.Name != "Antichess World Cup 2026" || !sameJSON(e.Format, `{"preset":"acwc-2023"}`) ||
		!e.CreatedAt.Equal(reading(1)) {
		t.Fatalf("GetEventBySlug = %+v, %v", e, err)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "acwc-2026", Name: "Again"})
		return err
	})
	wantCode(t, err, arbiter.ECONFLICT)
	for _, bad := range []sqlstore.Event{{Slug: "Bad Slug", Name: "x"}, {Slug: "-x", Name: "x"}, {Slug: "ok", Name: ""},
		{Slug: "ok", Name: "x", Format: json.RawMessage(`{`)}} {
		err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.CreateEvent(s.ctx, tx, td, bad); return err })
		wantCode(t, err, arbiter.EINVALID)
	}

	e.Name, e.Status = "ACWC 2026", "registration"
	s.tx(t, func(tx *sqlstore.Tx) (err error) { e, err = sqlstore.UpdateEvent(s.ctx, tx, td, e); return err })
	if e.Version != 2 {
		t.Fatalf("updated event version %d", e.Version)
	}
	stale := e
	stale.Version = 1
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.UpdateEvent(s.ctx, tx, td, stale); return err })
	wantCode(t, err, arbiter.ECONFLICT)
	want := "event acwc-2026 was changed by someone else (version 2, you had 1); reload and try again"
	if msg := arbiter.ErrorMessage(err); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	s.event(t, "second")
	list, err := sqlstore.ListEvents(s.ctx, s.db)
	if err != nil || len(list) != 2 || list[0].Slug != "second" || list[1].Name != "ACWC 2026" {
		t.Fatalf("ListEvents = %+v, %v", list, err)
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, e.ID, sqlstore.AuditFilter{Kind: sqlstore.EventKind})
	if len(entries) != 2 || entries[1].Action != "event.update" || !strings.Contains(string(entries[1].Before), "draft") {
		t.Fatalf("event audit: %+v", entries)
	}
}

func testUsers(t *testing.T, s *suite) {
	var u sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		u, err = sqlstore.UpsertUser(s.ctx, tx, sqlstore.Change{Actor: sqlstore.Actor{Name: "lichess-oauth", Role: "system"}}, "DrNykterstein", "")
		return err
	})
	if u.LichessID != "drnykterstein" || u.DisplayName != "DrNykterstein" || u.Version != 1 {
		t.Fatalf("user %+v", u)
	}
	// Signing in again finds the same user (any letter case); a new spelling is recorded.
	var again sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		again, err = sqlstore.UpsertUser(s.ctx, tx, td, "drnykterstein", "Magnus")
		return err
	})
	if again.ID != u.ID || again.DisplayName != "Magnus" || again.Version != 2 {
		t.Fatalf("second sign-in: %+v", again)
	}
	got, err := sqlstore.GetUserByLichess(s.ctx, s.db, "DRNYKTERSTEIN")
	if err != nil || got.ID != u.ID || got.LichessUsername != "drnykterstein" {
		t.Fatalf("GetUserByLichess = %+v, %v", got, err)
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, "", sqlstore.AuditFilter{Kind: sqlstore.UserKind})
	if len(entries) != 2 || entries[1].Before == nil {
		t.Fatalf("user audit %+v", entries)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.UpsertUser(s.ctx, tx, td, "no spaces", ""); return err })
	wantCode(t, err, arbiter.EINVALID)

	var token string
	var txTime time.Time
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		txTime = tx.Now()
		token, err = sqlstore.NewSession(s.ctx, tx, u.ID, tx.Now().Add(time.Hour))
		return err
	})
	if len(token) < 40 {
		t.Fatalf("token %q is too short", token)
	}
	su, sess, err := sqlstore.SessionUser(s.ctx, s.db, token, txTime.Add(59*time.Minute))
	if err != nil || su.ID != u.ID || !sess.ExpiresAt.Equal(txTime.Add(time.Hour)) {
		t.Fatalf("SessionUser = %+v %+v, %v", su, sess, err)
	}
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, token, txTime.Add(time.Hour))
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, "forged", txTime)
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	// The token itself is not stored.
	var n int
	q := `SELECT COUNT(*) FROM sessions WHERE token_hash = ` + map[sqlstore.Dialect]string{sqlstore.SQLite: "?", sqlstore.Postgres: "$1"}[s.db.Dialect()]
	if err := s.db.SQLDB().QueryRowContext(s.ctx, q, token).Scan(&n); err != nil || n != 0 {
		t.Fatalf("plain token found in sessions: %d, %v", n, err)
	}
	s.tx(t, func(tx *sqlstore.Tx) error { return sqlstore.DeleteSession(s.ctx, tx, token) })
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, token, txTime)
	wantCode(t, err, arbiter.EUNAUTHORIZED)

	// Expired sessions are swept at the transaction's time.
	s.tx(t, func(tx *sqlstore.Tx) error {
		for _, d := range []time.Duration{time.Second, 2 * time.Second, time.Hour} {
			if _, err := sqlstore.NewSession(s.ctx, tx, u.ID, tx.Now().Add(d)); err != nil {
				return err
			}
		}
		return nil
	})
	s.clock.now() // a second passes: the first session has expired
	var swept int64
	s.tx(t, func(tx *sqlstore.Tx) (err error) { swept, err = sqlstore.DeleteExpiredSessions(s.ctx, tx); return err })
	// This transaction is two clock readings after the one that created
	// the sessions: those of 1 s and 2 s have expired.
	if swept != 2 {
		t.Fatalf("swept %d expired sessions, want 2", swept)
	}
	st, _ := s.db.Status(s.ctx)
	if st.Users != 1 || st.Sessions != 1 || st.Events != 0 || st.AuditEntries != 2 {
		t.Fatalf("status %+v", st)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.NewSession(s.ctx, tx, "nobody", tx.Now().Add(time.Hour))
		return err
	})
	wantCode(t, err, arbiter.ENOTFOUND)
}

// The same user signing in from several browsers at once gets one user row.
func testConcurrentSignIn(t *testing.T, s *suite) {
	const n = 4
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			errs[i] = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
				u, err := sqlstore.UpsertUser(s.ctx, tx, td, "Hikaru", "")
				ids[i] = u.ID
				return err
			})
		}()
	}
	close(gate)
	wg.Wait()
	for i := range n {
		// A sign-in may be told to try again, never fail otherwise.
		if code := arbiter.ErrorCode(errs[i]); code != "" && code != arbiter.ECONFLICT {
			t.Fatalf("sign-in %d: %v", i, errs[i])
		}
		if errs[i] == nil && ids[i] != ids[0] && errs[0] == nil {
			t.Fatalf("sign-ins got different users %s and %s", ids[0], ids[i])
		}
	}
	st, _ := s.db.Status(s.ctx)
	entries, _ := sqlstore.Audit(s.ctx, s.db, "", sqlstore.AuditFilter{Kind: sqlstore.UserKind})
	if st.Users != 1 || len(entries) != 1 {
		t.Fatalf("%d users and %d audit entries, want 1 and 1", st.Users, len(entries))
	}
}

func testTimestamps(t *testing.T, s *suite) {
	ev := s.event(t, "time") // reading 1
	var txNow time.Time
	s.tx(t, func(tx *sqlstore.Tx) error { // reading 2
		txNow = tx.Now()
		_, err := sqlstore.Create(s.ctx, tx, td, ev, "match", "1", match{})
		return err
	})
	if txNow.Location() != time.UTC || !txNow.Equal(reading(2)) || txNow.Nanosecond()%1000 != 0 {
		t.Fatalf("Tx.Now = %v, want %v in UTC with µs precision", txNow, reading(2))
	}
	recs, _ := sqlstore.List[match](s.ctx, s.db, ev, "match")
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match"})
	e, _ := sqlstore.GetEvent(s.ctx, s.db, ev)
	for name, got := range map[string]time.Time{"record created": recs[0].CreatedAt, "audit at": entries[0].At, "event created": e.CreatedAt} {
		want := reading(2)
		if name == "event created" {
			want = reading(1)
		}
		if got != want { // == also compares the location: must be UTC
			t.Errorf("%s = %v, want %v", name, got, want)
		}
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
