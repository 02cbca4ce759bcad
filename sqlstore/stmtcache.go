package sqlstore

import (
	"context"
	"database/sql/driver"
	"sync"

	"modernc.org/sqlite"
)

// The SQLite statement cache. modernc.org/sqlite parses (sqlite3_prepare)
// every statement run through database/sql's Query and Exec anew, which was
// about a quarter of the CPU of a request. Each SQLite connection therefore
// keeps the statements it has prepared, keyed by their SQL text, and runs
// them again after a reset instead of parsing them again (a driver stmt of
// modernc.org/sqlite keeps its compiled statement).
//
// It works below database/sql: the connections are wrapped so that they
// offer no direct Query/Exec, so database/sql prepares every statement,
// runs it and closes it; Prepare hands out the connection's cached statement
// and Close hands it back. Nothing else changes: transactions, retries and
// every caller stay as they are, and no statement ever needs a second
// connection (database/sql's own *sql.Stmt would need one to prepare a
// statement while a transaction holds another).
//
// A statement still in use (its rows open) is not handed out twice: a
// nested query with the same text gets a statement of its own, finalized
// when closed. Each connection caches at most maxCachedStmts texts (the
// package's SQL is constant, but a text built at run time must not grow
// the cache without bound): beyond that an idle one is finalized to make
// room. Closing the connection finalizes its cached statements; SQLite
// re-prepares a cached statement by itself after a schema change
// (migrations).
//
// PostgreSQL needs none of this: pgx's stdlib driver keeps a statement
// cache per connection by default (statement_cache_capacity, 512).

// maxCachedStmts bounds the statements cached per SQLite connection.
const maxCachedStmts = 256

// stmtCacheConnector opens SQLite connections with a statement cache.
type stmtCacheConnector struct{ driver.Connector }

func newSQLiteConnector(dsn string) (driver.Connector, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return stmtCacheConnector{c}, nil
}

func (c stmtCacheConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := conn.(sqliteConn); !ok {
		return conn, nil // not the connection this was written for: no cache
	}
	return &cachingConn{conn: conn, stmts: map[string]*cachedStmt{}}, nil
}

// sqliteConn is what database/sql uses of a modernc.org/sqlite connection
// besides Query and Exec, which cachingConn leaves out on purpose.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachingConn is a SQLite connection with its statement cache.
// database/sql uses a connection from one goroutine at a time; mu guards
// against anything else (a Close racing a late statement Close).
type cachingConn struct {
	conn  driver.Conn
	mu    sync.Mutex
	stmts map[string]*cachedStmt
}

var (
	_ sqliteConn              = (*cachingConn)(nil)
	_ driver.Stmt             = (*cachedStmt)(nil)
	_ driver.StmtExecContext  = (*cachedStmt)(nil)
	_ driver.StmtQueryContext = (*cachedStmt)(nil)
)

func (c *cachingConn) inner() sqliteConn { return c.conn.(sqliteConn) }

func (c *cachingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext returns the cached statement for query when it is idle,
// else prepares one (cached if there is room).
func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.mu.Lock()
	if s := c.stmts[query]; s != nil && !s.inUse {
		s.inUse = true
		c.mu.Unlock()
		return s, nil
	}
	c.mu.Unlock()
	ds, err := c.inner().PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(driverStmt)
	if !ok {
		return ds, nil
	}
	s := &cachedStmt{conn: c, query: query, stmt: st, inUse: true}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmts == nil || c.stmts[query] != nil {
		return s, nil // closed, or a nested use of a busy text: not cached
	}
	if len(c.stmts) >= maxCachedStmts && !c.evictLocked() {
		return s, nil
	}
	s.cached = true
	c.stmts[query] = s
	return s, nil
}

// evictLocked finalizes one idle cached statement; false if all are busy.
func (c *cachingConn) evictLocked() bool {
	for q, s := range c.stmts {
		if !s.inUse {
			delete(c.stmts, q)
			s.stmt.Close()
			return true
		}
	}
	return false
}

func (c *cachingConn) Close() error {
	c.mu.Lock()
	for _, s := range c.stmts {
		if !s.inUse {
			s.stmt.Close()
		}
		s.cached = false // a busy one is finalized when database/sql closes it
	}
	c.stmts = nil
	c.mu.Unlock()
	return c.conn.Close()
}

func (c *cachingConn) Begin() (driver.Tx, error) { return c.conn.Begin() } //nolint:staticcheck // required by driver.Conn
func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner().BeginTx(ctx, opts)
}
func (c *cachingConn) Ping(ctx context.Context) error         { return c.inner().Ping(ctx) }
func (c *cachingConn) ResetSession(ctx context.Context) error { return c.inner().ResetSession(ctx) }
func (c *cachingConn) IsValid() bool                          { return c.inner().IsValid() }

// driverStmt is what modernc.org/sqlite's statements offer.
type driverStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// cachedStmt is a statement of a cachingConn. database/sql closes it when
// its Exec returns or its rows are closed (modernc.org/sqlite has reset it
// by then), which hands it back to the cache.
type cachedStmt struct {
	conn   *cachingConn
	query  string
	stmt   driverStmt
	inUse  bool // guarded by conn.mu
	cached bool // in conn.stmts; guarded by conn.mu
}

func (s *cachedStmt) Close() error {
	s.conn.mu.Lock()
	s.inUse = false
	cached := s.cached
	s.conn.mu.Unlock()
	if cached {
		return nil
	}
	return s.stmt.Close()
}

func (s *cachedStmt) NumInput() int { return s.stmt.NumInput() }

func (s *cachedStmt) Exec(args []driver.Value) (driver.Result, error) { //nolint:staticcheck // required by driver.Stmt
	return s.stmt.Exec(args) //nolint:staticcheck
}

func (s *cachedStmt) Query(args []driver.Value) (driver.Rows, error) { //nolint:staticcheck // required by driver.Stmt
	return s.stmt.Query(args) //nolint:staticcheck
}

func (s *cachedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.stmt.ExecContext(ctx, args)
}

func (s *cachedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.stmt.QueryContext(ctx, args)
}
