package sqlstore

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// cachedTexts lists the statements cached on one pooled connection of db.
func cachedTexts(t *testing.T, db *DB) map[string]bool {
	t.Helper()
	c, err := db.SQLDB().Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := map[string]bool{}
	if err := c.Raw(func(dc any) error {
		cc, ok := dc.(*cachingConn)
		if !ok {
			t.Fatalf("SQLite connection is a %T, not a *cachingConn", dc)
		}
		cc.mu.Lock()
		defer cc.mu.Unlock()
		for q, s := range cc.stmts {
			if s.inUse {
				t.Errorf("statement %q still in use on an idle connection", q)
			}
			got[q] = true
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// The SQLite statement cache reuses statements, is correct for a query
// nested in the iteration of the same query, stays bounded, and leaves
// nothing in use.
func TestSQLiteStatementCache(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	db.SQLDB().SetMaxOpenConns(1) // one connection: every statement meets its cache
	if _, err := db.SQLDB().ExecContext(ctx, `CREATE TABLE t (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	const sel = `SELECT n FROM t ORDER BY n`
	err := db.Tx(ctx, func(tx *Tx) error {
		for i := range 3 {
			if _, err := tx.exec(ctx, `INSERT INTO t (n) VALUES (?)`, i); err != nil {
				return err
			}
		}
		// The same text while its rows are open: a statement of its own.
		outer, err := tx.query(ctx, sel)
		if err != nil {
			return err
		}
		defer outer.Close()
		var pairs []string
		for outer.Next() {
			var a int
			if err := outer.Scan(&a); err != nil {
				return err
			}
			inner, err := tx.query(ctx, sel)
			if err != nil {
				return err
			}
			for inner.Next() {
				var b int
				if err := inner.Scan(&b); err != nil {
					return err
				}
				pairs = append(pairs, fmt.Sprint(a, b))
			}
			if err := inner.Close(); err != nil {
				return err
			}
		}
		if err := outer.Err(); err != nil {
			return err
		}
		if fmt.Sprint(pairs) != "[0 0 0 1 0 2 1 0 1 1 1 2 2 0 2 1 2 2]" {
			t.Errorf("nested reads: %v", pairs)
		}
		return outer.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := cachedTexts(t, db); !got[sel] || !got[`INSERT INTO t (n) VALUES (?)`] {
		t.Errorf("cached: %v", got)
	}
	// An error leaves the statement reusable.
	if _, err := db.SQLDB().ExecContext(ctx, `INSERT INTO nowhere VALUES (1)`); err == nil {
		t.Fatal("insert into a missing table succeeded")
	}
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM t WHERE n >= ?`, 1).Scan(&n); err != nil || n != 2 {
		t.Fatalf("count: %d, %v", n, err)
	}
	// Texts built at run time do not grow the cache without bound.
	for i := range maxCachedStmts + 50 {
		if err := db.queryRow(ctx, fmt.Sprintf(`SELECT %d`, i)).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d, %v", i, n, err)
		}
	}
	if got := cachedTexts(t, db); len(got) > maxCachedStmts {
		t.Errorf("%d statements cached, bound %d", len(got), maxCachedStmts)
	}
}

// Concurrent readers and writers share the cached statements of a pool.
func TestSQLiteStatementCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t)
	db.SQLDB().SetMaxOpenConns(3)
	if _, err := db.SQLDB().ExecContext(ctx, `CREATE TABLE t (w INTEGER, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	const writers, writes = 4, 25
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range writes {
				err := db.Tx(ctx, func(tx *Tx) error {
					var n int
					if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM t WHERE w = ?`, w).Scan(&n); err != nil {
						return err
					}
					if n != i {
						t.Errorf("writer %d: %d rows before write %d", w, n, i)
					}
					_, err := tx.exec(ctx, `INSERT INTO t (w, n) VALUES (?, ?)`, w, n)
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				var total int
				if err := db.queryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&total); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var total int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM t`).Scan(&total); err != nil || total != writers*writes {
		t.Fatalf("total %d, %v; want %d", total, err, writers*writes)
	}
}
