package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// TestDBCheckAndBackup: a simulated event checks clean; a record changed
// behind the audit log's back, a record deleted and one added are each
// named and make the check exit 1; a backup taken while the database is
// open is complete and checks clean.
func TestDBCheckAndBackup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := testDB(t)
	if code, _, stderr := runCLI(t, "", "demo", "acwc-2023", "--entrants", "12", "--db", path, "--stop-after", "s1r2"); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "", "db", "check", "--db", path)
	if code != 0 || !strings.Contains(stdout, "integrity check: ok") || !strings.Contains(stdout, "for 1 events") ||
		!strings.Contains(stdout, "ok: every stored document is what its audit log replays to") {
		t.Fatalf("check of a sound database: exit %d\n%s%s", code, stdout, stderr)
	}

	// The backup, taken while another connection holds the database open.
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	backup := filepath.Join(dir, "backup.db")
	if code, stdout, stderr := runCLI(t, "", "db", "backup", "--db", path, backup); code != 0 || !strings.Contains(stdout, "backed up to "+backup) {
		t.Fatalf("backup: exit %d: %s%s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI(t, "", "db", "backup", "--db", path, backup); code == 0 || !strings.Contains(stderr, "already exists") {
		t.Fatalf("a second backup over the first: exit %d: %s", code, stderr)
	}
	orig, _ := db.Status(ctx)
	if code, stdout, _ := runCLI(t, "", "db", "check", "--db", backup); code != 0 {
		t.Fatalf("check of the backup: exit %d\n%s", code, stdout)
	}
	copyDB, err := sqlstore.Connect(ctx, backup)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := copyDB.Status(ctx)
	copyDB.Close()
	if got.Records != orig.Records || got.AuditEntries != orig.AuditEntries || got.Events != orig.Events {
		t.Fatalf("backup holds %+v, the database %+v", got, orig)
	}

	// Changes that bypass the audit log.
	raw := db.SQLDB()
	for _, q := range []string{
		`UPDATE records SET data = REPLACE(data, '"status":"final"', '"status":"disputed"') WHERE kind = 'match' AND id = 's1r1b1'`,
		`DELETE FROM records WHERE kind = 'match' AND id = 's1r1b2'`,
		`INSERT INTO records (event_id, kind, id, version, data, created_at, updated_at)
			SELECT event_id, 'note', 'forged', 1, '{}', created_at, updated_at FROM records LIMIT 1`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, _ = runCLI(t, "", "db", "check", "--db", path)
	for _, want := range []string{
		`DIFFERENCE: event demo-acwc-2023-1: match s1r1b1 version \d+ differs from the audit log's`,
		`DIFFERENCE: event demo-acwc-2023-1: match s1r1b2 \(version \d+ in the audit log\) is missing from the store`,
		`DIFFERENCE: event demo-acwc-2023-1: note forged \(version 1\) is stored but not in the audit log`,
	} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("check output lacks %q:\n%s", want, stdout)
		}
	}
	if code != 1 {
		t.Errorf("check of a tampered database: exit %d, want 1", code)
	}
}

// TestDBCheckPostgres runs the check on PostgreSQL (skipped without
// $ARBITER_TEST_POSTGRES); a backup there is pg_dump's job.
func TestDBCheckPostgres(t *testing.T) {
	t.Parallel()
	dsn := storetest.PostgresDSN(t)
	if code, _, stderr := runCLI(t, "", "demo", "acwc-2023", "--entrants", "12", "--db", dsn, "--stop-after", "s1r1"); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "", "db", "check", "--db", dsn); code != 0 || strings.Contains(stdout, "integrity") {
		t.Fatalf("check: exit %d\n%s", code, stdout)
	}
	out := filepath.Join(t.TempDir(), "x.db")
	if code, _, stderr := runCLI(t, "", "db", "backup", "--db", dsn, out); code == 0 || !strings.Contains(stderr, "pg_dump") {
		t.Fatalf("backup of PostgreSQL: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a file was written")
	}
}
