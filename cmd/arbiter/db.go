package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"arbiter/sqlstore"
)

func init() {
	register(&command{name: "db", summary: "create, migrate and inspect the database (SQLite file or PostgreSQL)", run: runDB})
}

// defaultDB is the SQLite file used when --db is not given.
const defaultDB = "arbiter.db"

// addDBFlag adds the --db flag; every command that opens the database
// uses it so that they all read the same default.
func addDBFlag(fs *flag.FlagSet) *string {
	return fs.String("db", defaultDB, "database: a SQLite file path or file: URI, or a postgres:// URL")
}

func dbUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: arbiter db SUBCOMMAND [--db DSN]

Subcommands:
  migrate   create the database if needed and apply pending schema migrations
  status    show the dialect, schema version and row counts (changes nothing)
  check     check the database: SQLite's integrity check, and every event's
            audit log replayed and compared with its stored records
            (changes nothing; exit status 1 on any difference)
  backup    write a consistent copy of a SQLite database to FILE while it
            is in use (db backup --db DSN FILE); PostgreSQL: use pg_dump

--db is a SQLite file path (default arbiter.db in the working directory)
or file: URI, or a PostgreSQL URL such as
postgres://user@host:5432/dbname?sslmode=disable.
`)
}

func runDB(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		dbUsage(e.stderr)
		return usagef("missing subcommand: migrate, status, check or backup")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		dbUsage(e.stdout)
		return flag.ErrHelp
	case "migrate":
		return runDBMigrate(ctx, e, args[1:])
	case "status":
		return runDBStatus(ctx, e, args[1:])
	case "check":
		return runDBCheck(ctx, e, args[1:]) // db_check.go
	case "backup":
		return runDBBackup(ctx, e, args[1:])
	}
	return usagef("unknown subcommand %q: want migrate, status, check or backup", args[0])
}

func runDBMigrate(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "db migrate", "db migrate [--db DSN]")
	dsn := addDBFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	db, err := sqlstore.OpenWith(ctx, *dsn, sqlstore.Options{NoMigrate: true})
	if err != nil {
		return err
	}
	defer db.Close()
	from, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	applied, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintf(e.stdout, "%s: schema is current (version %d)\n", db, from)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: migrated schema from version %d to %d\n", db, from, applied[len(applied)-1])
	return nil
}

func runDBStatus(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "db status", "db status [--db DSN] [--json]")
	dsn := addDBFlag(fs)
	asJSON := fs.Bool("json", false, "print the status as a JSON object")
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
	st, err := db.Status(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"dialect": st.Dialect, "database": st.Target, "schema_version": st.SchemaVersion, "known_version": st.KnownVersion,
			"events": st.Events, "records": st.Records, "audit_entries": st.AuditEntries, "users": st.Users, "sessions": st.Sessions,
		})
	}
	note := ""
	switch {
	case st.SchemaVersion < st.KnownVersion:
		note = "; run 'arbiter db migrate'"
	case st.SchemaVersion > st.KnownVersion:
		note = "; the database is newer than this binary: upgrade arbiter"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "dialect:         %s\n", st.Dialect)
	fmt.Fprintf(&b, "database:        %s\n", st.Target)
	fmt.Fprintf(&b, "schema version:  %d (this binary knows %d%s)\n", st.SchemaVersion, st.KnownVersion, note)
	if st.SchemaVersion > 0 {
		fmt.Fprintf(&b, "events:          %d\n", st.Events)
		fmt.Fprintf(&b, "records:         %d\n", st.Records)
		fmt.Fprintf(&b, "audit entries:   %d\n", st.AuditEntries)
		fmt.Fprintf(&b, "users:           %d\n", st.Users)
		fmt.Fprintf(&b, "sessions:        %d\n", st.Sessions)
	}
	_, err = io.WriteString(e.stdout, b.String())
	return err
}
