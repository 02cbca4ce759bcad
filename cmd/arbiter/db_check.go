package main

import (
	"context"
	"fmt"

	"arbiter/sqlstore"
)

// runDBCheck is 'arbiter db check': it prints what it compared and every
// difference, and exits 1 when there is one.
func runDBCheck(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "db check", "db check [--db DSN]")
	dsn := addDBFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	db, err := sqlstore.Connect(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := db.Check(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s\n", db)
	if rep.Integrity != "" {
		fmt.Fprintf(e.stdout, "integrity check: %s\n", rep.Integrity)
	}
	fmt.Fprintf(e.stdout, "audit log: %d entries replayed for %d events and the users; %d stored documents compared\n", rep.Entries, rep.Events, rep.Records)
	if len(rep.Problems) == 0 {
		fmt.Fprintln(e.stdout, "ok: every stored document is what its audit log replays to")
		return nil
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(e.stdout, "DIFFERENCE:", p)
	}
	return &exitError{code: 1, err: fmt.Errorf("db check: %d differences", len(rep.Problems))}
}

// runDBBackup is 'arbiter db backup --db DSN FILE'.
func runDBBackup(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "db backup", "db backup [--db DSN] FILE")
	dsn := addDBFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("name one backup file (it must not exist yet)")
	}
	db, err := sqlstore.Connect(ctx, *dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Backup(ctx, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: backed up to %s\n", db, fs.Arg(0))
	return nil
}
