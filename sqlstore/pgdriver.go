package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgDriverName is a minimal database/sql driver over one pgx.Conn per
// connection. It exists because github.com/jackc/pgx/v5/stdlib imports
// pgxpool, whose dependency (jackc/puddle) is not in this module's go.mod;
// it implements exactly what this package needs (exec, query, transactions
// with isolation levels, ping) and leaves pooling to database/sql.
const pgDriverName = "arbiter-pgx"

func init() { sql.Register(pgDriverName, pgDriver{}) }

type pgDriver struct{}

func (pgDriver) Open(dsn string) (driver.Conn, error) {
	c, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		return nil, err
	}
	return &pgConn{c: c}, nil
}

// OpenConnector lets database/sql pass contexts to connection set-up.
func (pgDriver) OpenConnector(dsn string) (driver.Connector, error) {
	if _, err := pgx.ParseConfig(dsn); err != nil {
		return nil, err
	}
	return pgConnector{dsn: dsn}, nil
}

type pgConnector struct{ dsn string }

func (p pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := pgx.Connect(ctx, p.dsn)
	if err != nil {
		return nil, err
	}
	return &pgConn{c: c}, nil
}

func (pgConnector) Driver() driver.Driver { return pgDriver{} }

type pgConn struct {
	c  *pgx.Conn
	tx pgx.Tx
}

var (
	_ driver.ConnBeginTx        = (*pgConn)(nil)
	_ driver.ExecerContext      = (*pgConn)(nil)
	_ driver.QueryerContext     = (*pgConn)(nil)
	_ driver.Pinger             = (*pgConn)(nil)
	_ driver.SessionResetter    = (*pgConn)(nil)
	_ driver.Validator          = (*pgConn)(nil)
	_ driver.NamedValueChecker  = (*pgConn)(nil)
	_ driver.ConnPrepareContext = (*pgConn)(nil)
)

func (c *pgConn) Prepare(string) (driver.Stmt, error) {
	return nil, errors.New("sqlstore: prepared statements are not supported; pgx caches statements itself")
}

func (c *pgConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.Prepare(q)
}

func (c *pgConn) Close() error { return c.c.Close(context.Background()) }

func (c *pgConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	var o pgx.TxOptions
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
	case sql.LevelReadCommitted:
		o.IsoLevel = pgx.ReadCommitted
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		o.IsoLevel = pgx.RepeatableRead
	case sql.LevelSerializable:
		o.IsoLevel = pgx.Serializable
	default:
		return nil, fmt.Errorf("sqlstore: unsupported isolation level %v", sql.IsolationLevel(opts.Isolation))
	}
	if opts.ReadOnly {
		o.AccessMode = pgx.ReadOnly
	}
	tx, err := c.c.BeginTx(ctx, o)
	if err != nil {
		return nil, badConn(err)
	}
	c.tx = tx
	return pgTx{c}, nil
}

type pgTx struct{ c *pgConn }

func (t pgTx) Commit() error {
	tx := t.c.tx
	t.c.tx = nil
	// A transaction that had already failed reports pgx.ErrTxCommitRollback.
	return tx.Commit(context.Background())
}

func (t pgTx) Rollback() error {
	tx := t.c.tx
	t.c.tx = nil
	return tx.Rollback(context.Background())
}

// CheckNamedValue passes the standard driver values to pgx unchanged.
func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	nv.Value = v
	return nil
}

func args(nvs []driver.NamedValue) []any {
	out := make([]any, len(nvs))
	for i, nv := range nvs {
		out[i] = nv.Value
	}
	return out
}

func (c *pgConn) ExecContext(ctx context.Context, q string, nvs []driver.NamedValue) (driver.Result, error) {
	tag, err := c.c.Exec(ctx, q, args(nvs)...)
	if err != nil {
		return nil, badConn(err)
	}
	return driver.RowsAffected(tag.RowsAffected()), nil
}

func (c *pgConn) QueryContext(ctx context.Context, q string, nvs []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.c.Query(ctx, q, args(nvs)...)
	if err != nil {
		return nil, badConn(err)
	}
	return &pgRows{rows: rows}, nil
}

func (c *pgConn) Ping(ctx context.Context) error { return badConn(c.c.Ping(ctx)) }

func (c *pgConn) ResetSession(context.Context) error {
	if c.c.IsClosed() {
		return driver.ErrBadConn
	}
	return nil
}

func (c *pgConn) IsValid() bool { return !c.c.IsClosed() }

// badConn tells database/sql to retry on another connection when the
// statement certainly never reached the server.
func badConn(err error) error {
	if err != nil && pgconn.SafeToRetry(err) {
		return driver.ErrBadConn
	}
	return err
}

type pgRows struct {
	rows pgx.Rows
	cols []string
}

func (r *pgRows) Columns() []string {
	if r.cols == nil {
		for _, fd := range r.rows.FieldDescriptions() {
			r.cols = append(r.cols, fd.Name)
		}
	}
	return r.cols
}

func (r *pgRows) Close() error {
	r.rows.Close()
	return r.rows.Err()
}

func (r *pgRows) Next(dest []driver.Value) error {
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	vals, err := r.rows.Values()
	if err != nil {
		return err
	}
	raw := r.rows.RawValues()
	fds := r.rows.FieldDescriptions()
	for i := range dest {
		dest[i], err = driverValue(fds[i], raw[i], vals[i])
		if err != nil {
			return err
		}
	}
	return nil
}

// driverValue converts one decoded column to a database/sql value. JSON
// columns are passed on as their text, not decoded, so that callers
// unmarshal into their own types.
func driverValue(fd pgconn.FieldDescription, raw []byte, v any) (driver.Value, error) {
	if raw == nil {
		return nil, nil
	}
	switch fd.DataTypeOID {
	case pgtype.JSONBOID:
		b := append([]byte(nil), raw...)
		if fd.Format == pgtype.BinaryFormatCode {
			if len(b) == 0 || b[0] != 1 {
				return nil, fmt.Errorf("sqlstore: unknown jsonb binary version in column %s", fd.Name)
			}
			b = b[1:]
		}
		return b, nil
	case pgtype.JSONOID:
		return append([]byte(nil), raw...), nil
	}
	switch x := v.(type) {
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case int64, float64, bool, string, []byte, time.Time:
		return x, nil
	}
	return nil, fmt.Errorf("sqlstore: unsupported PostgreSQL column type %d in column %s", fd.DataTypeOID, fd.Name)
}
