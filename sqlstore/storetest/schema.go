package storetest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/sqlstore"
)

func testMigrationsIdempotent(t *testing.T, s *suite) {
	ev := s.event(t, "keep")
	create(t, s, td, ev, "match", "1", match{White: "kept"})
	for range 2 {
		applied, err := s.db.Migrate(s.ctx)
		if err != nil || len(applied) != 0 {
			t.Fatalf("Migrate on a current schema applied %v, %v; want nothing", applied, err)
		}
	}
	v, err := s.db.SchemaVersion(s.ctx)
	if err != nil || v != sqlstore.KnownVersion() {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, sqlstore.KnownVersion())
	}
	if m, _, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", "1"); err != nil || m.White != "kept" {
		t.Fatalf("data after re-migrating: %+v, %v", m, err)
	}
	// Several processes starting at once all succeed.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.db.Migrate(s.ctx) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func testRefusesNewerSchema(t *testing.T, s *suite) {
	known := sqlstore.KnownVersion()
	q := `INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from-the-future', ?)`
	var at any = "2030-01-01T00:00:00.000000Z"
	if s.db.Dialect() == sqlstore.Postgres {
		q = strings.NewReplacer("?, 'f", "$1, 'f", "', ?)", "', $2)").Replace(q)
		at = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if _, err := s.db.SQLDB().ExecContext(s.ctx, q, known+1, at); err != nil {
		t.Fatal(err)
	}
	_, err := s.db.Migrate(s.ctx)
	if !errors.Is(err, sqlstore.ErrSchemaTooNew) {
		t.Fatalf("Migrate on a newer schema: %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{fmt.Sprintf("version %d", known+1), fmt.Sprintf("version %d", known)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	st, err := s.db.Status(s.ctx)
	if err != nil || st.SchemaVersion != known+1 || st.KnownVersion != known {
		t.Fatalf("Status = %+v, %v", st, err)
	}
}
