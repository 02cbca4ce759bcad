package web

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// TestReadCacheFollowsTheLog: a value is computed once while the event's
// log stands still, again after any change, and the fresh value is the
// one served: the round-1 result confirmed makes one match final.
func TestReadCacheFollowsTheLog(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	match := reportedRound1(t, f)
	c := newReadCache(f.app)
	ctx := context.Background()
	calls := 0
	read := func() int {
		t.Helper()
		tab, err := cachedRead(c, ctx, "atc", "final/s1r1", func() (int, error) {
			calls++
			ms, err := f.app.Matches(ctx, "atc", "s1r1")
			n := 0
			for _, m := range ms {
				if m.Status == arbiter.MatchFinal {
					n++
				}
			}
			return n, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	before := read()
	if again := read(); again != before || calls != 1 {
		t.Fatalf("second read: %d after %d, %d computations; want the kept value", again, before, calls)
	}
	ok(t)(f.app.ConfirmResult(ctx, captain(6), "atc", match, 0))
	after := read()
	if calls != 2 {
		t.Fatalf("%d computations after a change, want 2", calls)
	}
	if after == before {
		t.Fatalf("%d final matches before and after a result was confirmed", after)
	}
	read()
	if calls != 2 {
		t.Fatalf("%d computations, want the new value kept", calls)
	}
}

func TestReadCacheErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	c := newReadCache(f.app)
	ctx := context.Background()
	// An unknown event is not found, and not remembered.
	_, err := cachedRead(c, ctx, "nope", "k", func() (int, error) { return 1, nil })
	if arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		t.Fatalf("unknown event: %v", err)
	}
	if len(c.events) != 0 {
		t.Fatalf("%d events kept after a miss", len(c.events))
	}
	// An error is not kept: the next read computes again.
	boom := errors.New("boom")
	calls := 0
	fail := func() (int, error) { calls++; return 0, boom }
	for range 2 {
		if _, err := cachedRead(c, ctx, "atc", "k", fail); !errors.Is(err, boom) {
			t.Fatalf("error %v, want boom", err)
		}
	}
	if calls != 2 {
		t.Fatalf("%d computations of a failing read, want 2", calls)
	}
	// A nil cache always computes.
	n := 0
	for range 2 {
		cachedRead[int](nil, ctx, "atc", "k", func() (int, error) { n++; return n, nil })
	}
	if n != 2 {
		t.Fatalf("nil cache: %d computations, want 2", n)
	}
}

// TestReadCacheSharesOneComputation: concurrent readers of a key that is
// not kept yet wait for one computation instead of each running their
// own.
func TestReadCacheSharesOneComputation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	c := newReadCache(f.app)
	ctx := context.Background()
	var calls atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{})
	slow := func() (int, error) {
		if calls.Add(1) == 1 {
			close(started)
		}
		<-release
		return 42, nil
	}
	var wg sync.WaitGroup
	got := make(chan int, 20)
	wg.Add(1)
	go func() {
		defer wg.Done()
		v, _ := cachedRead(c, ctx, "atc", "k", slow)
		got <- v
	}()
	<-started
	for range 19 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _ := cachedRead(c, ctx, "atc", "k", slow)
			got <- v
		}()
	}
	// The others wait on the first computation, or find its value kept.
	close(release)
	wg.Wait()
	close(got)
	for v := range got {
		if v != 42 {
			t.Fatalf("value %d, want 42", v)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d computations for 20 concurrent readers, want 1", n)
	}
}

// TestReadCacheReadsOwnWrites: while other readers keep the cache busy
// (so reads of the mark are shared), every read that starts after a
// change commits sees it.
func TestReadCacheReadsOwnWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	c := newReadCache(f.app)
	ctx := context.Background()
	ev, err := sqlstore.GetEventBySlug(ctx, f.db, "atc")
	if err != nil {
		t.Fatal(err)
	}
	// The value kept is the mark it was computed at.
	read := func() (sqlstore.Latest, error) {
		return cachedRead(c, ctx, "atc", "mark", func() (sqlstore.Latest, error) { return sqlstore.LatestChange(ctx, f.db, ev.ID) })
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := read(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "ArbiterTD", Role: arbiter.RoleTD}}
	for i := range 30 {
		err := f.db.Tx(ctx, func(tx *sqlstore.Tx) error {
			_, err := sqlstore.Create(ctx, tx, ch, ev.ID, "note", fmt.Sprintf("n%d", i), i)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want, err := sqlstore.LatestChange(ctx, f.db, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if got.Changes < want.Changes {
			t.Fatalf("write %d: read %+v after the change to %+v committed", i, got, want)
		}
	}
}
