package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestParseDSN(t *testing.T) {
	for _, tc := range []struct {
		dsn         string
		dialect     Dialect
		driverDSN   string
		path, shown string
		errHas      string
	}{
		{dsn: "arbiter.db", dialect: SQLite, driverDSN: "arbiter.db?" + sqliteParams, path: "arbiter.db", shown: "arbiter.db"},
		{dsn: "/var/lib/arbiter/x.db", dialect: SQLite, driverDSN: "/var/lib/arbiter/x.db?" + sqliteParams, path: "/var/lib/arbiter/x.db", shown: "/var/lib/arbiter/x.db"},
		{dsn: "file:data/a.db", dialect: SQLite, driverDSN: "file:data/a.db?" + sqliteParams, path: "data/a.db", shown: "file:data/a.db"},
		{dsn: "file:data/a.db?cache=private", dialect: SQLite, driverDSN: "file:data/a.db?cache=private&" + sqliteParams, path: "data/a.db", shown: "file:data/a.db?cache=private"},
		{dsn: "postgres://root@127.0.0.1:5432/test?sslmode=disable", dialect: Postgres, driverDSN: "postgres://root@127.0.0.1:5432/test?sslmode=disable", shown: "postgres://root@127.0.0.1:5432/test?sslmode=disable"},
		{dsn: "postgresql://u:secret@db/arbiter", dialect: Postgres, driverDSN: "postgresql://u:secret@db/arbiter", shown: "postgresql://u:xxxxx@db/arbiter"},
		{dsn: "", errHas: "no database given"},
		{dsn: "mysql://x/y", errHas: "unsupported database URL"},
		{dsn: ":memory:", errHas: "in-memory"},
		{dsn: "file::memory:", errHas: "in-memory"},
		{dsn: "file:x?mode=memory", errHas: "in-memory"},
		{dsn: "a.db?_pragma=x", errHas: "contains '?'"},
	} {
		d, driverDSN, path, shown, err := parseDSN(tc.dsn)
		if tc.errHas != "" {
			if arbiter.ErrorCode(err) != arbiter.EINVALID || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%q: error %v, want EINVALID with %q", tc.dsn, err, tc.errHas)
			}
			continue
		}
		if err != nil || d != tc.dialect || driverDSN != tc.driverDSN || path != tc.path || shown != tc.shown {
			t.Errorf("%q: got %q %q %q %q %v", tc.dsn, d, driverDSN, path, shown, err)
		}
	}
}

func TestRebind(t *testing.T) {
	q := `SELECT a FROM t WHERE b = ? AND c = ? LIMIT 1`
	if got := Postgres.rebind(q); got != `SELECT a FROM t WHERE b = $1 AND c = $2 LIMIT 1` {
		t.Errorf("postgres: %s", got)
	}
	if got := SQLite.rebind(q); got != q {
		t.Errorf("sqlite: %s", got)
	}
}

func TestHasNULEscape(t *testing.T) {
	for in, want := range map[string]bool{
		`"a\u0000b"`:    true,
		`"\u0000"`:      true,
		`"a\\u0000b"`:   false, // an escaped backslash, then text
		`"a\\\u0000b"`:  true,  // an escaped backslash, then the escape
		`"\u00001"`:     true,
		`"no nul here"`: false,
	} {
		if got := hasNULEscape([]byte(in)); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

func TestReplayRefusesInconsistentLogs(t *testing.T) {
	e := func(seq, version int64, before, after string) AuditEntry {
		a := AuditEntry{Seq: seq, EventID: "e", Kind: "match", RecordID: "1", Version: version}
		if before != "" {
			a.Before = json.RawMessage(before)
		}
		if after != "" {
			a.After = json.RawMessage(after)
		}
		return a
	}
	good := []AuditEntry{e(1, 1, "", `{"a":1}`), e(2, 2, `{"a": 1}`, `{"a":2}`), e(3, 3, `{"a":2}`, ""), e(4, 4, "", `{"b":1}`)}
	state, err := Replay(good)
	if err != nil {
		t.Fatal(err)
	}
	if got := state[RecordKey{"e", "match", "1"}]; got.Version != 4 || string(got.Data) != `{"b":1}` {
		t.Fatalf("replayed %+v", got)
	}
	if state, _ := Replay(good[:3]); len(state) != 0 {
		t.Fatalf("a deleted record replays as %+v", state)
	}
	for name, log := range map[string][]AuditEntry{
		"gap":                {good[0], good[2]},
		"before differs":     {good[0], e(2, 2, `{"a":9}`, `{"a":2}`)},
		"update of nothing":  {e(1, 1, `{"a":1}`, `{"a":2}`)},
		"create over record": {good[0], e(2, 2, "", `{"a":2}`)},
		"version reused":     {good[0], e(2, 1, `{"a":1}`, `{"a":2}`)},
	} {
		if _, err := Replay(log); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestMigrationsMatchAcrossDialects(t *testing.T) {
	lite, err := migrations(SQLite)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrations(Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 || len(lite) != len(pg) || KnownVersion() != len(lite) {
		t.Fatalf("sqlite has %d migrations, postgres %d, KnownVersion %d", len(lite), len(pg), KnownVersion())
	}
	for i := range lite {
		if lite[i].version != pg[i].version || lite[i].name != pg[i].name {
			t.Errorf("migration %d: sqlite %d_%s, postgres %d_%s", i, lite[i].version, lite[i].name, pg[i].version, pg[i].name)
		}
	}
}

func TestOpenSQLiteCreatesFileWithSettings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub-dir-free.db")
	if _, err := Connect(ctx, path); arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		t.Fatalf("Connect to a missing file: %v, want ENOTFOUND", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Connect created the file: %v", err)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("Open did not create the file: %v", err)
	}
	// Every pooled connection gets the settings: check on several at once.
	for i := range 3 {
		c, err := db.SQLDB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var mode string
		var fk, busy int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk)
		c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy)
		if mode != "wal" || fk != 1 || busy != 10000 {
			t.Errorf("connection %d: journal_mode %s, foreign_keys %d, busy_timeout %d; want wal, 1, 10000", i, mode, fk, busy)
		}
	}
	if v, err := db.SchemaVersion(ctx); err != nil || v != KnownVersion() {
		t.Fatalf("schema version %d, %v", v, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	known := KnownVersion()
	_, err = db.SQLDB().ExecContext(ctx, `INSERT INTO schema_version VALUES (?, 'future', '2030-01-01T00:00:00.000000Z')`, known+1)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path)
	want := fmt.Sprintf("the database schema is at version %d but this binary knows only up to version %d: refusing to use a newer schema (upgrade arbiter)", known+1, known)
	if !errors.Is(err, ErrSchemaTooNew) || arbiter.ErrorMessage(err) != "internal error" || err.Error() != want {
		t.Fatalf("Open: %v\nwant %s", err, want)
	}
}

// DB.Tx runs fn again when the database reports a collision, and only then.
func TestTxRetriesOnlyCollisions(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	serialization := internalErr("commit", &pgconn.PgError{Code: "40001", Message: "could not serialize access"})

	calls := 0
	err := db.Tx(ctx, func(*Tx) error {
		calls++
		if calls < 3 {
			return serialization
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("two collisions then success: %v after %d calls, want nil after 3", err, calls)
	}

	calls = 0
	err = db.Tx(ctx, func(*Tx) error { calls++; return arbiter.Errorf(arbiter.ECONFLICT, "stale") })
	if calls != 1 || arbiter.ErrorMessage(err) != "stale" {
		t.Errorf("an application conflict: %v after %d calls, want it returned after 1", err, calls)
	}

	calls = 0
	err = db.Tx(ctx, func(*Tx) error { calls++; return serialization })
	if calls != maxAttempts || arbiter.ErrorCode(err) != arbiter.ECONFLICT || !strings.Contains(err.Error(), "try again") {
		t.Errorf("endless collisions: %v after %d calls, want ECONFLICT after %d", err, calls, maxAttempts)
	}
	if !retryable(&pgconn.PgError{Code: "40P01"}) || retryable(&pgconn.PgError{Code: "23505"}) || retryable(errors.New("x")) {
		t.Error("retryable misclassifies PostgreSQL codes")
	}
}

// openSQLite opens a new migrated SQLite database in t's temporary
// directory, closed when t ends.
func openSQLite(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
