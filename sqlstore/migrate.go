package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"arbiter"
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// migration is one embedded schema step. Files are named NNNN_name.sql;
// NNNN is the schema version the step produces.
type migration struct {
	version int
	name    string
	sql     string
}

// ErrSchemaTooNew is wrapped by the error Migrate and Open return when the
// database was migrated by a newer binary.
var ErrSchemaTooNew = errors.New("refusing to use a newer schema (upgrade arbiter)")

// migrations returns the steps of dialect d in version order.
func migrations(d Dialect) ([]migration, error) {
	dir := path.Join("migrations", string(d))
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("sqlstore: migration file %s/%s is not named NNNN_name.sql", dir, e.Name())
		}
		b, err := migrationFS.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("sqlstore: %s migrations must be numbered 1, 2, 3, ...: found %d at position %d", d, m.version, i+1)
		}
	}
	return ms, nil
}

// KnownVersion is the schema version this binary's migrations produce.
func KnownVersion() int {
	ms, err := migrations(SQLite)
	if err != nil {
		panic(err) // embedded at build time; covered by tests
	}
	return len(ms)
}

func schemaVersionDDL(d Dialect) string {
	at := "TEXT"
	if d == Postgres {
		at = "TIMESTAMPTZ"
	}
	return `CREATE TABLE IF NOT EXISTS schema_version (
	version    INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	applied_at ` + at + ` NOT NULL
)`
}

// Migrate applies the pending migrations in one transaction and returns
// the versions applied (none when the schema is current). It is safe to
// run from several processes at once: on PostgreSQL an advisory lock,
// on SQLite the write lock, makes them take turns. A database whose
// schema is newer than KnownVersion is refused with an error wrapping
// ErrSchemaTooNew.
func (db *DB) Migrate(ctx context.Context) ([]int, error) {
	ms, err := migrations(db.dialect)
	if err != nil {
		return nil, internalErr("read migrations", err)
	}
	var applied []int
	// READ COMMITTED on PostgreSQL: the version must be read after the
	// advisory lock is held, so that a migrator that waited for another
	// sees what that one committed (a SERIALIZABLE snapshot taken before
	// the wait would not, and would apply the same steps again).
	opts := &sql.TxOptions{}
	if db.dialect == Postgres {
		opts.Isolation = sql.LevelReadCommitted
	}
	err = db.runIso(ctx, opts, func(tx *Tx) error {
		applied = nil
		if db.dialect == Postgres {
			// One migrator per schema at a time; the lock ends with the transaction.
			if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('arbiter.migrate.' || coalesce(current_schema(), '')))`); err != nil {
				return internalErr("lock for migration", err)
			}
		}
		if _, err := tx.exec(ctx, schemaVersionDDL(db.dialect)); err != nil {
			return internalErr("create schema_version", err)
		}
		cur, err := currentVersion(ctx, tx)
		if err != nil {
			return err
		}
		if cur > len(ms) {
			return tooNew(cur, len(ms))
		}
		for _, m := range ms[cur:] {
			if _, err := tx.exec(ctx, m.sql); err != nil {
				return internalErr(fmt.Sprintf("apply migration %d (%s)", m.version, m.name), err)
			}
			if _, err := tx.exec(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, db.dialect.timeArg(tx.now)); err != nil {
				return internalErr("record migration", err)
			}
			applied = append(applied, m.version)
		}
		return nil
	})
	if err == nil {
		err = db.migrateQueue(ctx) // River's steps (queue.go)
	}
	return applied, err
}

func tooNew(cur, known int) error {
	return &arbiter.Error{Code: arbiter.EINTERNAL, Err: ErrSchemaTooNew, Message: fmt.Sprintf(
		"the database schema is at version %d but this binary knows only up to version %d", cur, known)}
}

func currentVersion(ctx context.Context, q Queryer) (int, error) {
	var v int
	if err := q.queryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, internalErr("read schema version", err)
	}
	return v, nil
}

// SchemaVersion returns the version the database's schema is at (0 for
// an empty database).
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	ok, err := db.hasTable(ctx, "schema_version")
	if err != nil || !ok {
		return 0, err
	}
	return currentVersion(ctx, db)
}

func (db *DB) hasTable(ctx context.Context, name string) (bool, error) {
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if db.dialect == Postgres {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`
	}
	var n int
	if err := db.queryRow(ctx, q, name).Scan(&n); err != nil {
		return false, internalErr("look for table "+name, err)
	}
	return n > 0, nil
}
