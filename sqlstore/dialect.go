package sqlstore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Dialect names the database behind a DB.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// rebind turns the '?' placeholders the package's SQL is written with into
// PostgreSQL's $1, $2, ... The package's statements contain no '?' inside
// string literals, so a plain scan is enough.
func (d Dialect) rebind(query string) string {
	if d != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// sqliteTimeLayout is fixed-width so that stored timestamps sort as text
// and stay readable in the sqlite3 shell.
const sqliteTimeLayout = "2006-01-02T15:04:05.000000Z"

// timeArg converts t to the value stored: UTC, microseconds (PostgreSQL's
// precision, applied on both dialects so round trips are exact).
func (d Dialect) timeArg(t time.Time) any {
	t = t.UTC().Truncate(time.Microsecond)
	if d == SQLite {
		return t.Format(sqliteTimeLayout)
	}
	return t
}

// timeScan reads a timestamp column of either dialect into *t, in UTC.
type timeScan struct{ t *time.Time }

func (s timeScan) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*s.t = v.UTC()
	case string:
		return s.parse(v)
	case []byte:
		return s.parse(string(v))
	default:
		return fmt.Errorf("sqlstore: cannot read a timestamp from %T", src)
	}
	return nil
}

func (s timeScan) parse(v string) error {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return err
	}
	*s.t = t.UTC()
	return nil
}

// SQLite result codes (primary codes are the low byte of extended codes,
// which the driver reports).
const (
	sqliteBusy          = 5
	sqliteLocked        = 6
	sqliteConstraintPK  = 1555
	sqliteConstraintUQ  = 2067
	sqliteConstraintFK  = 787
	pgSerialization     = "40001"
	pgDeadlock          = "40P01"
	pgUniqueViolation   = "23505"
	pgForeignKeyMissing = "23503"
)

func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// retryable reports whether a transaction failed only because another one
// got in its way, so running it again may succeed.
func retryable(err error) bool {
	if c := sqliteCode(err); c != 0 {
		return c&0xff == sqliteBusy || c&0xff == sqliteLocked
	}
	switch pgCode(err) {
	case pgSerialization, pgDeadlock:
		return true
	}
	return false
}

func isUniqueViolation(err error) bool {
	c := sqliteCode(err)
	return c == sqliteConstraintPK || c == sqliteConstraintUQ || pgCode(err) == pgUniqueViolation
}

func isForeignKeyViolation(err error) bool {
	return sqliteCode(err) == sqliteConstraintFK || pgCode(err) == pgForeignKeyMissing
}
