package main

import (
	"testing"
	"time"

	"arbiter/sqlstore/storetest"
)

// testDB is the --db of a test: a SQLite file in t.TempDir() that already
// holds every migration (a copy of storetest's template, so the test does
// not migrate a new file, about 40 ms of CPU each), opened without fsync
// (a file: URI, which --db takes as well as a path). The tests about
// creating and migrating a new file (db_test.go, TestServeStartsAndShutsDown)
// pass a plain path instead.
func testDB(t *testing.T) string {
	t.Helper()
	return storetest.NoSyncSQLiteDSN(t)
}

// The fake Lichess servers of these tests have no rate limit; the CLI's
// one-request-a-second spacing (tested in package lichess) only made the
// tests wait.
func init() { lichessMinInterval = time.Millisecond }
