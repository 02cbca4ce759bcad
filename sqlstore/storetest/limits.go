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
		c, err := sqlstore.CountHit(s.ctx, s.db, "signin:a", now.Add(time.Duration(i)*time.Second), w, false)
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
	if c, err := sqlstore.CountHit(s.ctx, s.db, "signin:a", now.Add(62*time.Second), w, false); err != nil || c.Hits != 1 || !c.Since.Equal(now.Add(62*time.Second)) {
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
			_, err := sqlstore.CountHit(s.ctx, s.db, "rate:report:x", now, time.Hour, false)
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

	// A sliding window lasts from the latest hit.
	for i, at := range []time.Duration{0, 50 * time.Second, 100 * time.Second} {
		c, err := sqlstore.CountHit(s.ctx, s.db, "signin:slide", now.Add(at), w, true)
		if err != nil || c.Hits != int64(i+1) {
			t.Fatalf("sliding hit %d: %+v, %v", i+1, c, err)
		}
	}
	if c, _ := sqlstore.ReadCounter(s.ctx, s.db, "signin:slide", now.Add(159*time.Second)); c.Hits != 3 {
		t.Fatalf("sliding window 59 s after its latest hit: %+v", c)
	}
	if c, _ := sqlstore.ReadCounter(s.ctx, s.db, "signin:slide", now.Add(160*time.Second)); c.Hits != 0 {
		t.Fatalf("sliding window a minute after its latest hit: %+v", c)
	}

	// A megabyte of key is stored as its hash.
	huge := strings.Repeat("k", 1<<20)
	if _, err := sqlstore.CountHit(s.ctx, s.db, huge, now, w, false); err != nil {
		t.Fatal(err)
	}
	var longest int
	if err := s.db.SQLDB().QueryRowContext(s.ctx, `SELECT MAX(LENGTH(key)) FROM limits`).Scan(&longest); err != nil || longest != 64 {
		t.Fatalf("longest key %d bytes (%v), want 64 (a hex SHA-256)", longest, err)
	}
	n, err := sqlstore.DeleteStaleCounters(s.ctx, s.db, now.Add(3*time.Minute))
	if err != nil || n != 2 { // the huge key and the sliding one (signin:a was reset); the hour-long one stays
		t.Fatalf("deleted %d stale counters (%v), want 2", n, err)
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
