package sqlstore_test

import (
	"context"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

func TestLatestChangeSQLite(t *testing.T) { testLatestChange(t, storetest.SQLite(t)) }

// TestLatestChangePostgres is skipped unless $ARBITER_TEST_POSTGRES is set.
func TestLatestChangePostgres(t *testing.T) { testLatestChange(t, storetest.Postgres(t)) }

// testLatestChange follows an event's log through a creation, a record
// write, a rolled-back write and another event's writes: only the
// event's own committed changes move its mark.
func testLatestChange(t *testing.T, db *sqlstore.DB) {
	ctx := context.Background()
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "td", Role: arbiter.RoleTD}}
	latest := func(id string) sqlstore.Latest {
		t.Helper()
		l, err := sqlstore.LatestChange(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	tx := func(fn func(tx *sqlstore.Tx) error) {
		t.Helper()
		if err := db.Tx(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	if l := latest("no-such-event"); l != (sqlstore.Latest{}) {
		t.Fatalf("unknown event: %+v, want zero", l)
	}
	var a, b sqlstore.Event
	tx(func(tx *sqlstore.Tx) error {
		var err error
		a, err = sqlstore.CreateEvent(ctx, tx, ch, sqlstore.Event{Slug: "a", Name: "A", Status: "registration"})
		return err
	})
	l1 := latest(a.ID)
	if l1.Seq <= 0 || l1.Changes <= 0 {
		t.Fatalf("after creating the event: %+v, want a positive seq and count", l1)
	}
	tx(func(tx *sqlstore.Tx) error {
		_, err := sqlstore.Create(ctx, tx, ch, a.ID, "match", "m1", map[string]int{"x": 1})
		return err
	})
	l2 := latest(a.ID)
	if l2.Seq <= l1.Seq || l2.Changes <= l1.Changes {
		t.Fatalf("after a record write: %+v, want both above %+v", l2, l1)
	}
	if db.Dialect() == sqlstore.Postgres && (l1.Changes != 1 || l2.Changes != 2) {
		t.Fatalf("PostgreSQL counts the entries: %+v then %+v, want 1 then 2", l1, l2)
	}
	// A rolled-back change leaves no trace.
	_ = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		if _, err := sqlstore.Create(ctx, tx, ch, a.ID, "match", "m2", 1); err != nil {
			return err
		}
		return arbiter.Errorf(arbiter.ECONFLICT, "roll back")
	})
	if l := latest(a.ID); l != l2 {
		t.Fatalf("after a rollback: %+v, want %+v", l, l2)
	}
	// Another event's changes do not move this one's mark.
	tx(func(tx *sqlstore.Tx) error {
		var err error
		if b, err = sqlstore.CreateEvent(ctx, tx, ch, sqlstore.Event{Slug: "b", Name: "B", Status: "registration"}); err != nil {
			return err
		}
		_, err = sqlstore.Create(ctx, tx, ch, b.ID, "match", "m1", 1)
		return err
	})
	if l := latest(a.ID); l != l2 {
		t.Fatalf("after another event's writes: %+v, want %+v", l, l2)
	}
	if l := latest(b.ID); l.Seq <= l2.Seq || l.Changes <= 0 {
		t.Fatalf("event b: %+v, want changes after seq %d", l, l2.Seq)
	}
}

func TestLatestTokenRoundTrip(t *testing.T) {
	l := sqlstore.Latest{Seq: 1234, Changes: 56}
	if got := l.String(); got != "1234.56" {
		t.Fatalf("String: %q", got)
	}
	if got, ok := sqlstore.ParseLatest("1234.56"); !ok || got != l {
		t.Fatalf("ParseLatest: %+v %v", got, ok)
	}
	for _, bad := range []string{"", "12", "12.", ".5", "a.b", "-1.2", "1.-2", "1.2.3", "1 .2"} {
		if got, ok := sqlstore.ParseLatest(bad); ok {
			t.Errorf("ParseLatest(%q) = %+v, want not ok", bad, got)
		}
	}
}
