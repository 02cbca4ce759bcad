package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

type benchMatch struct {
	White  string         `json:"white"`
	Black  string         `json:"black"`
	Result arbiter.Points `json:"result"`
	Games  []string       `json:"games"`
}

var benchBy = sqlstore.Change{Actor: sqlstore.Actor{Name: "bench", Role: "td"}}

// seed makes an event with n matches and returns the event id.
func seed(b *testing.B, db *sqlstore.DB, n int) string {
	ctx := context.Background()
	var ev string
	err := db.Tx(ctx, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.CreateEvent(ctx, tx, benchBy, sqlstore.Event{Slug: "bench", Name: "Bench"})
		if err != nil {
			return err
		}
		ev = e.ID
		for i := range n {
			m := benchMatch{White: fmt.Sprintf("Team %d", i), Black: fmt.Sprintf("Team %d", i+1), Games: []string{"abcdefgh", "ijklmnop", "qrstuvwx", "yz012345"}}
			if _, err := sqlstore.Create(ctx, tx, benchBy, ev, "match", fmt.Sprint(i), m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return ev
}

// benchUpdate measures one write: a transaction that reads a match,
// updates it with its version check and appends the audit entry.
func benchUpdate(b *testing.B, db *sqlstore.DB) {
	ctx := context.Background()
	ev := seed(b, db, 100)
	i := 0
	for b.Loop() {
		id := fmt.Sprint(i % 100)
		i++
		err := db.Tx(ctx, func(tx *sqlstore.Tx) error {
			m, ver, err := sqlstore.Get[benchMatch](ctx, tx, ev, "match", id)
			if err != nil {
				return err
			}
			m.Result += arbiter.P(0.5)
			_, err = sqlstore.Update(ctx, tx, benchBy, ev, "match", id, ver, m)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchGet measures one read of one document outside a transaction.
func benchGet(b *testing.B, db *sqlstore.DB) {
	ctx := context.Background()
	ev := seed(b, db, 100)
	i := 0
	for b.Loop() {
		if _, _, err := sqlstore.Get[benchMatch](ctx, db, ev, "match", fmt.Sprint(i%100)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// benchList measures reading all 100 matches of an event.
func benchList(b *testing.B, db *sqlstore.DB) {
	ctx := context.Background()
	ev := seed(b, db, 100)
	for b.Loop() {
		if l, err := sqlstore.List[benchMatch](ctx, db, ev, "match"); err != nil || len(l) != 100 {
			b.Fatal(len(l), err)
		}
	}
}

func BenchmarkSQLiteUpdate(b *testing.B) { benchUpdate(b, storetest.SQLite(b)) }
func BenchmarkSQLiteGet(b *testing.B)    { benchGet(b, storetest.SQLite(b)) }
func BenchmarkSQLiteList(b *testing.B)   { benchList(b, storetest.SQLite(b)) }

func postgres(b *testing.B) *sqlstore.DB {
	if os.Getenv(storetest.EnvPostgres) == "" {
		b.Skipf("set %s to benchmark PostgreSQL", storetest.EnvPostgres)
	}
	return storetest.Postgres(b)
}

func BenchmarkPostgresUpdate(b *testing.B) { benchUpdate(b, postgres(b)) }
func BenchmarkPostgresGet(b *testing.B)    { benchGet(b, postgres(b)) }
func BenchmarkPostgresList(b *testing.B)   { benchList(b, postgres(b)) }
