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
	"strings"
	"sync"
	"testing"

	"arbiter/sqlstore"
)

// EnvPostgres names the environment variable holding the PostgreSQL DSN
// the PostgreSQL tests run against, e.g.
// postgres://root@127.0.0.1:5432/test?sslmode=disable.
const EnvPostgres = "ARBITER_TEST_POSTGRES"

// SQLiteDSN returns the path of a SQLite database file (not yet created)
// in t.TempDir(), for tests that open it themselves, possibly several times.
func SQLiteDSN(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "arbiter.db")
}

// SQLite returns a fresh, migrated SQLite database in t.TempDir(),
// closed when the test ends.
func SQLite(t testing.TB) *sqlstore.DB {
	t.Helper()
	return mustOpen(t, NoSyncSQLiteDSN(t))
}

// NoSyncSQLiteDSN is MigratedSQLiteDSN opened without fsync (NoSyncURI),
// for tests that open the database themselves (several handles on one
// file, as several serve processes would).
func NoSyncSQLiteDSN(t testing.TB) string {
	t.Helper()
	return NoSyncURI(MigratedSQLiteDSN(t))
}

// NoSyncURI returns a file: URI for the SQLite file at path that opens it
// with synchronous=OFF: SQLite never calls fsync, so a commit is not
// durable against a crash of the machine (a crash of the process loses
// nothing). A test database is thrown away, and the fsync on every commit
// cost the app tests about a fifth of their CPU (about 6 of 30 s, more in
// wall time on a busy disk); what the tests check does not depend on it.
// sqlstore adds its own settings (WAL, busy timeout, foreign keys) to the
// URI as to a path.
func NoSyncURI(path string) string {
	esc := strings.NewReplacer("%", "%25", "#", "%23", "?", "%3F").Replace(path)
	return "file:" + esc + "?_pragma=synchronous(OFF)"
}

// MigratedSQLiteDSN returns the path of a SQLite database file in
// t.TempDir() that already holds every migration: a copy of one template
// migrated once per test binary. Migrating a new file (ours and River's)
// takes about 85 ms and opening a migrated one 2 ms, and the suite opens
// hundreds of fresh databases.
func MigratedSQLiteDSN(t testing.TB) string {
	t.Helper()
	b, err := migratedTemplate()
	if err != nil {
		t.Fatalf("migrate the template database: %v", err)
	}
	path := SQLiteDSN(t)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// migratedTemplate is the content of a freshly migrated SQLite file.
var migratedTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "arbiter-storetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	db, err := sqlstore.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	// VACUUM INTO writes one self-contained file (no write-ahead log to
	// carry along); sqlstore.Open switches the copy back to WAL.
	copyPath := filepath.Join(dir, "copy.db")
	_, err = db.SQLDB().ExecContext(context.Background(), `VACUUM INTO ?`, copyPath)
	db.Close()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(copyPath)
})

// PostgresDSN returns a DSN for the PostgreSQL server named by
// $ARBITER_TEST_POSTGRES whose search_path is a new, empty schema, dropped
// when the test ends (so runs repeat and run in parallel). Without the
// variable the test is skipped.
func PostgresDSN(t testing.TB) string {
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
	// Registered first, so it runs after the cleanups that close the
	// databases opened on this DSN.
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
	return u.String()
}

// Postgres returns a fresh, migrated database in a new schema of the
// PostgreSQL server named by $ARBITER_TEST_POSTGRES (see PostgresDSN).
// Without the variable the test is skipped.
func Postgres(t testing.TB) *sqlstore.DB {
	t.Helper()
	return mustOpen(t, PostgresDSN(t))
}

func mustOpen(t testing.TB, dsn string) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open %s: %v", dsn, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
