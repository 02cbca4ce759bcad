package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"

	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"arbiter"
)

// The background job queue (package jobs) is River's, in tables of its
// own (river_job, river_leader, ...) beside ours. Its schema steps are
// River's, applied by Migrate after ours, one step per transaction (on
// PostgreSQL a step may not use an enum value an earlier step of the same
// transaction added), each under the lock Migrate takes, so that several
// processes starting at once take turns instead of applying a step twice.

// migrateQueue applies River's pending schema steps.
func (db *DB) migrateQueue(ctx context.Context) error {
	cfg := &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)}
	var m *rivermigrate.Migrator[*sql.Tx]
	var err error
	if db.dialect == Postgres {
		m, err = rivermigrate.New(riverdatabasesql.New(nil), cfg)
	} else {
		m, err = rivermigrate.New(riversqlite.New(nil), cfg)
	}
	if err != nil {
		return internalErr("read the job queue's migrations", err)
	}
	opts := &sql.TxOptions{}
	if db.dialect == Postgres {
		opts.Isolation = sql.LevelReadCommitted // see Migrate
	}
	for more := true; more; {
		err := db.runIso(ctx, opts, func(tx *Tx) error {
			if db.dialect == Postgres {
				if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('arbiter.migrate.' || coalesce(current_schema(), '')))`); err != nil {
					return internalErr("lock for migration", err)
				}
			}
			res, err := m.MigrateTx(ctx, tx.tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{MaxSteps: 1})
			if err != nil {
				return internalErr("apply the job queue's migrations", err)
			}
			more = len(res.Versions) > 0
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// SQLTx is the transaction's database/sql handle, for the job queue only:
// a job enqueued through it commits or rolls back with the change that
// asked for it. Nothing else may write through it (it bypasses the audit
// log).
func (tx *Tx) SQLTx() *sql.Tx { return tx.tx }

// JobEffect is what a job did outside Arbiter, recorded under its key.
type JobEffect struct {
	Key    string
	Effect string // the external id: a Lichess challenge id, a message id
	JobID  int64
}

// GetJobEffect returns the effect recorded under key; found is false when
// none was.
func GetJobEffect(ctx context.Context, q Queryer, key string) (e JobEffect, found bool, err error) {
	err = q.queryRow(ctx, `SELECT key, effect, job_id FROM job_effects WHERE key = ?`, key).Scan(&e.Key, &e.Effect, &e.JobID)
	if errors.Is(err, sql.ErrNoRows) {
		return JobEffect{}, false, nil
	}
	if err != nil {
		return JobEffect{}, false, internalErr("read job effect "+key, err)
	}
	return e, true, nil
}

// RecordJobEffect records e. A key already recorded is ECONFLICT (and the
// earlier effect stays): an external action happens once per key.
func RecordJobEffect(ctx context.Context, tx *Tx, e JobEffect) error {
	if e.Key == "" || e.Effect == "" {
		return arbiter.FieldError("key", "sqlstore.job_effect", "a job effect needs a key and an external id")
	}
	_, err := tx.exec(ctx, `INSERT INTO job_effects (key, effect, job_id, created_at) VALUES (?, ?, ?, ?)`,
		e.Key, e.Effect, e.JobID, tx.dialect.timeArg(tx.now))
	switch {
	case isUniqueViolation(err):
		return arbiter.Errorf(arbiter.ECONFLICT, "the job %s already recorded its effect", e.Key)
	case err != nil:
		return internalErr("record job effect "+e.Key, err)
	}
	return nil
}
