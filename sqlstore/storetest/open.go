// Package storetest is the conformance suite every sqlstore database must
// pass (Run), and helpers that open fresh test databases: SQLite in a
// temporary directory, PostgreSQL in a schema of its own on the server
// named by $ARBITER_TEST_POSTGRES. Other packages' tests use SQLite and
// Postgres to get an empty, migrated store.
package storetest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"arbiter/sqlstore"
)

// EnvPostgres names the environment variable holding the PostgreSQL DSN
// the PostgreSQL tests run against, e.g.
// postgres://root@127.0.0.1:5432/test?sslmode=disable.
const EnvPostgres = "ARBITER_TEST_POSTGRES"

// SQLite returns a fresh, migrated SQLite database in t.TempDir(),
// closed when the test ends.
func SQLite(t testing.TB) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "arbiter.db"))
	if err != nil {
		t.Fatalf("open SQLite: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Postgres returns a fresh, migrated database in a new schema of the
// PostgreSQL server named by $ARBITER_TEST_POSTGRES (the schema is
// dropped when the test ends, so runs repeat and run in parallel). Without
// the variable the test is skipped.
func Postgres(t testing.TB) *sqlstore.DB {
	t.Helper()
	dsn := os.Getenv(EnvPostgres)
	if dsn == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to a DSN, e.g. %s='postgres://root@127.0.0.1:5432/test?sslmode=disable'", EnvPostgres, EnvPostgres)
	}
	ctx := context.Background()
	admin, err := sqlstore.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvPostgres, err)
	}
	schema := "arbiter_test_" + sqlstore.NewID()
	if _, err := admin.SQLDB().ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.SQLDB().ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	db, err := sqlstore.Open(ctx, u.String())
	if err != nil {
		t.Fatalf("open PostgreSQL schema %s: %v", schema, err)
	}
	t.Cleanup(func() { db.Close() }) // runs before the schema is dropped
	return db
}
