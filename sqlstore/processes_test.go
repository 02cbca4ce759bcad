package sqlstore_test

import (
	"context"
	"sync"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// Several processes (here: separate DB handles, each with its own
// connection pool) start at once on an empty database and then write the
// same record: the schema is applied exactly once and no update is lost.
func severalProcesses(t *testing.T, dsn string) {
	ctx := context.Background()
	const procs = 3
	dbs := make([]*sqlstore.DB, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); dbs[i], errs[i] = sqlstore.Open(ctx, dsn) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("process %d: Open: %v", i, err)
		}
		t.Cleanup(func() { dbs[i].Close() })
	}
	var rows int
	if err := dbs[0].SQLDB().QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_version`).Scan(&rows); err != nil || rows != sqlstore.KnownVersion() {
		t.Fatalf("schema_version has %d rows (%v), want %d: each migration once", rows, err, sqlstore.KnownVersion())
	}

	by := sqlstore.Change{Actor: sqlstore.Actor{Name: "p", Role: "captain"}}
	var ev string
	err := dbs[0].Tx(ctx, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.CreateEvent(ctx, tx, by, sqlstore.Event{Slug: "shared", Name: "Shared"})
		if err != nil {
			return err
		}
		ev = e.ID
		_, err = sqlstore.Create(ctx, tx, by, ev, "counter", "c", map[string]int{"n": 0})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const each = 4
	errc := make(chan error, procs)
	for _, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < each; {
				c, ver, err := sqlstore.Get[map[string]int](ctx, db, ev, "counter", "c")
				if err != nil {
					errc <- err
					return
				}
				c["n"]++
				err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
					_, err := sqlstore.Update(ctx, tx, by, ev, "counter", "c", ver, c)
					return err
				})
				switch arbiter.ErrorCode(err) {
				case "":
					done++
				case arbiter.ECONFLICT:
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
	c, ver, err := sqlstore.Get[map[string]int](ctx, dbs[procs-1], ev, "counter", "c")
	if err != nil || c["n"] != procs*each || ver != procs*each+1 {
		t.Fatalf("counter %v version %d (%v); want %d at version %d", c, ver, err, procs*each, procs*each+1)
	}
}

func TestSeveralProcessesSQLite(t *testing.T) { severalProcesses(t, storetest.SQLiteDSN(t)) }

func TestSeveralProcessesPostgres(t *testing.T) { severalProcesses(t, storetest.PostgresDSN(t)) }
