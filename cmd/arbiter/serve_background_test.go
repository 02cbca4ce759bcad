package main

import (
	"context"
	"testing"
	"time"

	"arbiter/sqlstore"
)

// TestServeSweepsExpiredSessions (issue 12: expired sessions were never
// deleted): a serve process deletes them periodically and keeps live ones.
func TestServeSweepsExpiredSessions(t *testing.T) {
	ctx := context.Background()
	path := testDB(t)
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return time.Now().Add(-2 * time.Hour) } // sessions started two hours ago
	err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		u, err := sqlstore.UpsertUser(ctx, tx, sqlstore.Change{Actor: sqlstore.Actor{Name: "t", Role: "player"}}, "someone", "")
		if err != nil {
			return err
		}
		for _, d := range []time.Duration{time.Hour, 3 * time.Hour} { // one expired an hour ago, one lasts another hour
			if _, err := sqlstore.NewSession(ctx, tx, u.ID, tx.Now().Add(d)); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "--db", path, "--sweep", "20ms")
	deadline := time.Now().Add(10 * time.Second)
	for {
		check, err := sqlstore.Connect(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		st, err := check.Status(ctx)
		check.Close()
		if err != nil {
			t.Fatal(err)
		}
		if st.Sessions == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions after 10 s of sweeping, want the live one only", st.Sessions)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, _ := s.stop(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
