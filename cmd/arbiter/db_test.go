package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/sqlstore"
)

func TestDBMigrateThenStatus(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "events.db")
	code, stdout, stderr := runCLI(t, "", "db", "migrate", "--db", path)
	want := fmt.Sprintf("sqlite %s: migrated schema from version 0 to %d\n", path, sqlstore.KnownVersion())
	if code != 0 || stdout != want {
		t.Fatalf("first migrate: code %d stdout %q stderr %q; want %q", code, stdout, stderr, want)
	}
	code, stdout, _ = runCLI(t, "", "db", "migrate", "--db", path)
	if want := fmt.Sprintf("sqlite %s: schema is current (version %d)\n", path, sqlstore.KnownVersion()); code != 0 || stdout != want {
		t.Fatalf("second migrate: code %d stdout %q, want %q", code, stdout, want)
	}

	// One event with one record: 2 audit entries.
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	by := sqlstore.Change{Actor: sqlstore.Actor{Name: "alice", Role: "td"}}
	err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.CreateEvent(ctx, tx, by, sqlstore.Event{Slug: "cup", Name: "Cup"})
		if err != nil {
			return err
		}
		_, err = sqlstore.Create(ctx, tx, by, e.ID, "match", "1", map[string]string{"white": "A"})
		return err
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr = runCLI(t, "", "db", "status", "--db", path)
	wantStatus := fmt.Sprintf(`dialect:         sqlite
database:        %s
schema version:  %d (this binary knows %d)
events:          1
records:         1
audit entries:   2
users:           0
sessions:        0
`, path, sqlstore.KnownVersion(), sqlstore.KnownVersion())
	if code != 0 || stdout != wantStatus {
		t.Fatalf("status: code %d stderr %q\n got %q\nwant %q", code, stderr, stdout, wantStatus)
	}
	code, stdout, _ = runCLI(t, "", "db", "status", "--json", "--db", path)
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil || st["events"] != 1.0 || st["audit_entries"] != 2.0 || st["dialect"] != "sqlite" {
		t.Fatalf("status --json: code %d %q", code, stdout)
	}
}

func TestDBDefaultIsArbiterDBInWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, stdout, stderr := runCLI(t, "", "db", "migrate")
	if code != 0 || !strings.HasPrefix(stdout, "sqlite arbiter.db: migrated") {
		t.Fatalf("code %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "", "db", "status")
	if code != 0 || !strings.Contains(stdout, "database:        arbiter.db\n") {
		t.Fatalf("status: code %d %q", code, stdout)
	}
}

func TestDBStatusOfMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "none.db")
	code, stdout, stderr := runCLI(t, "", "db", "status", "--db", path)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "no database at "+path) || !strings.Contains(stderr, "arbiter db migrate") {
		t.Fatalf("code %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestDBRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "future.db")
	if code, _, stderr := runCLI(t, "", "db", "migrate", "--db", path); code != 0 {
		t.Fatal(stderr)
	}
	known := sqlstore.KnownVersion()
	db, err := sqlstore.Connect(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.SQLDB().Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future', '2030-01-01T00:00:00.000000Z')`, known+1)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", "db", "migrate", "--db", path)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("schema is at version %d but this binary knows only up to version %d", known+1, known)) {
		t.Fatalf("migrate on a newer schema: code %d stderr %q", code, stderr)
	}
	code, stdout, _ := runCLI(t, "", "db", "status", "--db", path)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("schema version:  %d (this binary knows %d; the database is newer than this binary: upgrade arbiter)", known+1, known)) {
		t.Fatalf("status on a newer schema: code %d %q", code, stdout)
	}
}

func TestDBUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args       []string
		code       int
		out, inErr string
	}{
		{[]string{"db", "--help"}, 0, "migrate", ""},
		{[]string{"db", "migrate", "--help"}, 0, "", "-db"},
		{[]string{"db", "status", "--help"}, 0, "", "-json"},
		{[]string{"db"}, 2, "", "missing subcommand"},
		{[]string{"db", "frobnicate"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"db", "migrate", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"db", "migrate", "--db", "mysql://x/y"}, 3, "", "unsupported database URL"},
		{[]string{"db", "status", "--db", ":memory:"}, 3, "", "in-memory SQLite is not supported"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stdout, tc.out) || !strings.Contains(stderr, tc.inErr) {
			t.Errorf("%v: code %d stdout %q stderr %q; want code %d, stdout with %q, stderr with %q",
				tc.args, code, stdout, stderr, tc.code, tc.out, tc.inErr)
		}
	}
}
