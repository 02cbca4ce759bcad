package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"net/url"
	"os"
	"strings"
	"time"

	"arbiter"

	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// DB is an open store. It is safe for concurrent use; several processes
// may share one PostgreSQL database (or one SQLite file on one machine).
type DB struct {
	hooks  hooks    // commit_hook.go
	counts counters // counts.go

	// Now is the clock every write reads (once per transaction attempt).
	// Open sets it to time.Now; tests and simulations replace it before
	// first use.
	Now func() time.Time

	sql      *sql.DB
	dialect  Dialect
	target   string        // the DSN with any password removed, for messages
	maxConns int           // the pool's bound (pool.go); 0: none
	connWait time.Duration // how long a transaction waits for a connection
}

// SQLite connection settings: WAL so readers never block the writer, a
// busy timeout so writers queue instead of failing, foreign keys enforced,
// and BEGIN IMMEDIATE for read-write transactions so that two writers
// serialise at the start instead of failing at commit.
const sqliteParams = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_txlock=immediate"

// Open opens the database named by dsn, creating a SQLite file on first
// use, and applies any pending migrations. A dsn starting with
// postgres:// or postgresql:// is a PostgreSQL connection URL; anything
// else is a SQLite file path or a file: URI. Open refuses a database whose
// schema is newer than this binary knows.
func Open(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, Options{})
}

// Connect opens an existing database without migrating it (for status
// reports and tools). A SQLite file that does not exist is ENOTFOUND
// rather than created.
func Connect(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, Options{NoMigrate: true, MustExist: true})
}

// Options adjust OpenWith.
type Options struct {
	NoMigrate bool // do not apply migrations (the caller runs Migrate or only reads the status)
	MustExist bool // a missing SQLite file is ENOTFOUND instead of being created
	// MaxConns bounds the connection pool; 0 means none on SQLite and on
	// PostgreSQL the server's max_connections (less its superuser
	// reserve) divided by DefaultProcesses, from 2 to 32 (pool.go).
	MaxConns int
	// ConnWait is how long a transaction waits for a free connection
	// before it is refused as EUNAVAILABLE; 0 means DefaultConnWait.
	ConnWait time.Duration
}

// OpenWith opens the database named by dsn (see Open) as o says.
func OpenWith(ctx context.Context, dsn string, o Options) (*DB, error) {
	db, err := open(ctx, dsn, !o.MustExist)
	if err != nil {
		return nil, err
	}
	if err := db.configurePool(ctx, o); err != nil {
		db.Close()
		return nil, err
	}
	if o.NoMigrate {
		return db, nil
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func open(ctx context.Context, dsn string, create bool) (*DB, error) {
	dialect, driverDSN, path, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if dialect == SQLite && !create {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, arbiter.Errorf(arbiter.ENOTFOUND, "no database at %s (run 'arbiter db migrate' to create it)", path)
		}
	}
	const pgxDriver = "pgx" // registered by github.com/jackc/pgx/v5/stdlib
	var sdb *sql.DB
	if dialect == SQLite {
		// Through the statement cache (stmtcache.go).
		var c driver.Connector
		if c, err = newSQLiteConnector(driverDSN); err == nil {
			sdb = sql.OpenDB(c)
		}
	} else {
		sdb, err = sql.Open(pgxDriver, driverDSN)
	}
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "dsn", Message: "cannot use database " + target, Err: err}
	}
	// Keep enough idle connections for a busy server (the default of 2
	// would open and close PostgreSQL connections under load), and let
	// them go after a quiet spell.
	sdb.SetMaxIdleConns(8)
	sdb.SetConnMaxIdleTime(5 * time.Minute)
	if err := ping(ctx, sdb, dialect); err != nil {
		sdb.Close()
		if unavailable(err) {
			return nil, &arbiter.Error{Code: arbiter.EUNAVAILABLE, RetryAfter: retryAfterBusy, Message: "the database " + target + " accepts no more connections now", Err: err}
		}
		return nil, &arbiter.Error{Code: arbiter.EINTERNAL, Message: "cannot connect to " + target, Err: err}
	}
	return &DB{Now: time.Now, sql: sdb, dialect: dialect, target: target, connWait: DefaultConnWait}, nil
}

// ping makes the first connection. Processes that create a SQLite file at
// the same moment race to switch it to WAL, and SQLite answers that
// switch with SQLITE_BUSY at once instead of waiting (the busy timeout
// does not apply to it): the loser tries again, for as long as the busy
// timeout would have waited.
func ping(ctx context.Context, sdb *sql.DB, d Dialect) error {
	deadline := time.Now().Add(10 * time.Second)
	for try := 1; ; try++ {
		err := sdb.PingContext(ctx)
		if err == nil || d != SQLite || !retryable(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(min(try, 10)) * 20 * time.Millisecond):
		}
	}
}

// parseDSN decides the dialect and builds the driver's DSN. path is the
// SQLite file; target is the DSN fit for messages (no password).
func parseDSN(dsn string) (d Dialect, driverDSN, path, target string, err error) {
	dsn = strings.TrimSpace(dsn)
	if dsn == "" {
		return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "no database given (a SQLite file path or a postgres:// URL)")
	}
	low := strings.ToLower(dsn)
	if strings.HasPrefix(low, "postgres://") || strings.HasPrefix(low, "postgresql://") {
		u, perr := url.Parse(dsn)
		if perr != nil {
			return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "not a valid PostgreSQL URL: %v", perr)
		}
		return Postgres, dsn, "", u.Redacted(), nil
	}
	if strings.Contains(low, "://") {
		return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "unsupported database URL %q: use a SQLite file path, a file: URI or a postgres:// URL", dsn)
	}
	if strings.HasPrefix(dsn, "file:") {
		rest := strings.TrimPrefix(dsn, "file:")
		path, query, _ := strings.Cut(rest, "?")
		path = strings.TrimPrefix(path, "//")
		if q, qerr := url.ParseQuery(query); qerr == nil && q.Get("mode") == "memory" || path == ":memory:" || path == "" {
			return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "in-memory SQLite is not supported (each connection would see its own database); use a file, e.g. in a temporary directory")
		}
		sep := "?"
		if query != "" {
			sep = "&"
		}
		return SQLite, dsn + sep + sqliteParams, path, dsn, nil
	}
	if dsn == ":memory:" {
		return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "in-memory SQLite is not supported (each connection would see its own database); use a file, e.g. in a temporary directory")
	}
	if strings.Contains(dsn, "?") {
		return "", "", "", "", arbiter.FieldError("dsn", "sqlstore.dsn", "SQLite path %q contains '?': use a file: URI to pass parameters", dsn)
	}
	return SQLite, dsn + "?" + sqliteParams, dsn, dsn, nil
}

// Close closes the database.
func (db *DB) Close() error {
	return db.sql.Close()
}

// Dialect reports which database is behind db.
func (db *DB) Dialect() Dialect { return db.dialect }

// String names the database (without any password).
func (db *DB) String() string { return string(db.dialect) + " " + db.target }

// SQLDB returns the underlying *sql.DB for operations tooling and tests.
// Writes through it bypass the audit log and version checks.
func (db *DB) SQLDB() *sql.DB { return db.sql }

// internalErr wraps a database failure. Application errors pass through.
func internalErr(what string, err error) error {
	var ae *arbiter.Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &arbiter.Error{Code: arbiter.EINTERNAL, Message: what + ": interrupted", Err: err}
	}
	if unavailable(err) {
		return busy(err)
	}
	return &arbiter.Error{Code: arbiter.EINTERNAL, Message: what, Err: err}
}
