package sqlstore

import "sync/atomic"

// Counts is how often a DB has been read from and written to, so that a
// test can tell how many snapshots a page or a use case took: each
// transaction is one, and so is each statement run on the DB outside a
// transaction (it commits on its own).
type Counts struct {
	Transactions int64 // transactions begun (DB.Tx, DB.View; retries count again)
	Statements   int64 // queries run on the DB itself, outside any transaction
}

// Snapshots is the number of separate views of the data: transactions
// plus statements outside one.
func (c Counts) Snapshots() int64 { return c.Transactions + c.Statements }

// Sub is c minus an earlier reading.
func (c Counts) Sub(before Counts) Counts {
	return Counts{Transactions: c.Transactions - before.Transactions, Statements: c.Statements - before.Statements}
}

type counters struct {
	transactions, statements atomic.Int64
}

// Counts reads the DB's counts so far.
func (db *DB) Counts() Counts {
	return Counts{Transactions: db.counts.transactions.Load(), Statements: db.counts.statements.Load()}
}
