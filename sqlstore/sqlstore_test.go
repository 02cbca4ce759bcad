package sqlstore_test

import (
	"os"
	"testing"

	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) *sqlstore.DB { return storetest.SQLite(t) })
}

// TestPostgres runs the same suite on the server named by
// $ARBITER_TEST_POSTGRES, each subtest in a schema of its own.
func TestPostgres(t *testing.T) {
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skipf("PostgreSQL suite skipped: set %s, e.g. %s='postgres://root@127.0.0.1:5432/test?sslmode=disable'",
			storetest.EnvPostgres, storetest.EnvPostgres)
	}
	storetest.Run(t, func(t *testing.T) *sqlstore.DB { return storetest.Postgres(t) })
}
