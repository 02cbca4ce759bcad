package storetest

import (
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/sqlstore"
)

// testCounters: hits count within a window, a new window starts at 1,
// concurrent hits are all counted, keys of any size take one fixed-size
// row, and stale rows go.
func testCounters(t *testing.T, s *suite) {
	now := start.UTC().Truncate(time.Microsecond)
	w := time.Minute
	for i := 1; i <= 3; i++ {
		c, err := sqlstore.CountHit(s.ctx, s.db, "signin:a", now.Add(time.Duration(i)*time.Second), w)
		if err != nil || c.Hits != int64(i) || !c.Since.Equal(now.Add(time.Second)) || !c.Last.Equal(now.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("hit %d: %+v, %v", i, c, err)
		}
	}
	if c, err := sqlstore.ReadCounter(s.ctx, s.db, "signin:a", now.Add(30*time.Second)); err != nil || c.Hits != 3 {
		t.Fatalf("read: %+v, %v", c, err)
	}
	// The window began at +1 s: at +61 s it has passed.
	if c, err := sqlstore.ReadCounter(s.ctx, s.db, "signin:a", now.Add(61*time.Second)); err != nil || c.Hits != 0 {
		t.Fatalf("read after the window: %+v, %v", c, err)
	}
	if c, err := sqlstore.CountHit(s.ctx, s.db, "signin:a", now.Add(62*time.Second), w); err != nil || c.Hits != 1 || !c.Since.Equal(now.Add(62*time.Second)) {
		t.Fatalf("hit in a new window: %+v, %v", c, err)
	}
	if err := sqlstore.ResetCounter(s.ctx, s.db, "signin:a"); err != nil {
		t.Fatal(err)
	}
	if c, _ := sqlstore.ReadCounter(s.ctx, s.db, "signin:a", now.Add(63*time.Second)); c.Hits != 0 {
		t.Fatalf("after reset: %+v", c)
	}

	// Concurrent hits on one key (several processes): none lost.
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := sqlstore.CountHit(s.ctx, s.db, "rate:report:x", now, time.Hour)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := sqlstore.ReadCounter(s.ctx, s.db, "rate:report:x", now); c.Hits != 20 {
		t.Fatalf("20 concurrent hits counted as %d", c.Hits)
	}

	// A megabyte of key is stored as its hash.
	huge := strings.Repeat("k", 1<<20)
	if _, err := sqlstore.CountHit(s.ctx, s.db, huge, now, w); err != nil {
		t.Fatal(err)
	}
	var longest int
	if err := s.db.SQLDB().QueryRowContext(s.ctx, `SELECT MAX(LENGTH(key)) FROM limits`).Scan(&longest); err != nil || longest != 64 {
		t.Fatalf("longest key %d bytes (%v), want 64 (a hex SHA-256)", longest, err)
	}
	n, err := sqlstore.DeleteStaleCounters(s.ctx, s.db, now.Add(2*time.Minute))
	if err != nil || n != 1 { // the huge key (signin:a was reset); the hour-long one stays
		t.Fatalf("deleted %d stale counters (%v), want 1", n, err)
	}
}

// testLeases: one holder at a time; the holder renews; an expired lease
// passes to another; a released one is free at once.
func testLeases(t *testing.T, s *suite) {
	now := start.UTC()
	take := func(holder string, at time.Duration) bool {
		t.Helper()
		ok, err := sqlstore.TryLease(s.ctx, s.db, "deadlines", holder, now.Add(at), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !take("p1", 0) || take("p2", time.Second) || !take("p1", 30*time.Second) || take("p2", 80*time.Second) {
		t.Fatal("p1 should hold the lease and renew it until +90 s")
	}
	if !take("p2", 91*time.Second) || take("p1", 92*time.Second) {
		t.Fatal("the expired lease should pass to p2")
	}
	if err := sqlstore.ReleaseLease(s.ctx, s.db, "deadlines", "p2"); err != nil {
		t.Fatal(err)
	}
	if !take("p1", 93*time.Second) {
		t.Fatal("a released lease should be free")
	}
	// Many processes at once: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := sqlstore.TryLease(s.ctx, s.db, "race", string(rune('a'+i)), now, time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d processes hold the lease, want 1", won)
	}
}
