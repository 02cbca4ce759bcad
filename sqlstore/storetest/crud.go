package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

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
