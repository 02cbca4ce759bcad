package web

import (
	"context"
	"fmt"
	"sync"
	"time"

	"arbiter"
	"arbiter/app"
)

// readCache keeps what the public pages and the read API compute about an
// event (the event, its standings, a round's matches) for as long as the
// event's change log stands still. Every read checks the log's mark first
// (app.EventMark, one indexed query), so a change made by any
// process is seen by the next request, never a second later: a TD who
// confirms a result and is sent to the standings sees it counted.
//
// At 500 requests/s a 64-team event's standings cost about 15 ms each to
// compute; served from here they cost the mark's query (docs/load.md).
// Values handed out are shared: callers must not modify them.
type readCache struct {
	app *app.Service
	mu  sync.Mutex
	// events by slug; a slug names the same event for ever, since events
	// are never deleted.
	events map[string]*eventReads
}

// readCacheEvents bounds the events kept; beyond, one is dropped at
// random (map order) to make room.
const readCacheEvents = 256

// readCacheKeys bounds the values kept per event (keys name stages,
// pools and rounds, but a request may name a round that does not exist).
const readCacheKeys = 64

type eventReads struct {
	id     string
	mark   app.Mark
	vals   map[string]*readCall // by key, all computed at mark or later
	flight *markRead            // the read of the mark in flight, if any
}

// markRead is one read of an event's mark, shared by the callers that
// came before it began.
type markRead struct {
	done    chan struct{}
	started time.Time
	mark    app.Mark
	err     error
}

// readCall is one computation; waiters share it (one computation per key
// after a change, not one per request).
type readCall struct {
	done chan struct{}
	val  any
	err  error
}

func newReadCache(svc *app.Service) *readCache {
	return &readCache{app: svc, events: map[string]*eventReads{}}
}

// cachedRead returns the value of key for the event slug: from the cache
// while the event's log has not moved since it was computed, else from
// fn. Errors are not kept. A nil cache always calls fn.
func cachedRead[T any](c *readCache, ctx context.Context, slug, key string, fn func() (T, error)) (T, error) {
	if c == nil {
		return fn()
	}
	id, err := c.eventID(ctx, slug)
	if err != nil {
		var zero T
		return zero, err
	}
	c.mu.Lock()
	ev := c.events[slug]
	c.mu.Unlock()
	if ev == nil || ev.id != id { // dropped to make room meanwhile
		return fn()
	}
	mark, err := c.latest(ctx, ev)
	if err != nil {
		var zero T
		return zero, err
	}
	c.mu.Lock()
	if ev.mark != mark {
		// Marks only move forward, except for a request that read its mark
		// before another one: neither may wipe what the newer one keeps.
		if mark.Changes < ev.mark.Changes {
			c.mu.Unlock()
			return fn()
		}
		ev.mark, ev.vals = mark, map[string]*readCall{}
	}
	call, found := ev.vals[key]
	if !found && len(ev.vals) >= readCacheKeys {
		c.mu.Unlock()
		return fn()
	}
	if !found {
		call = &readCall{done: make(chan struct{})}
		ev.vals[key] = call
	}
	c.mu.Unlock()
	if found {
		select {
		case <-call.done:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
		if call.err == nil {
			return call.val.(T), nil
		}
		return fn() // the shared computation failed (perhaps its request left): try ours
	}
	v, err := fn()
	call.val, call.err = v, err
	close(call.done)
	if err != nil {
		c.mu.Lock()
		if ev.vals[key] == call {
			delete(ev.vals, key)
		}
		c.mu.Unlock()
	}
	return v, err
}

// latest reads the event's mark. Reads of one event are coalesced, as a
// database groups commits: a caller waits for the read in flight, then
// shares the next one, which began after the caller came. So under load
// there is about one read in flight per event instead of one per request,
// and every caller still sees every change committed before it came.
func (c *readCache) latest(ctx context.Context, ev *eventReads) (app.Mark, error) {
	came := time.Now()
	for {
		c.mu.Lock()
		f := ev.flight
		if f == nil {
			f = &markRead{done: make(chan struct{}), started: time.Now()}
			ev.flight = f
			c.mu.Unlock()
			f.mark, f.err = c.app.EventMark(ctx, ev.id)
			c.mu.Lock()
			ev.flight = nil
			c.mu.Unlock()
			close(f.done)
			return f.mark, f.err
		}
		c.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return app.Mark{}, ctx.Err()
		}
		// A read that began before this caller came may have missed a
		// change the caller made; a failed one (its request may have
		// left) is not ours either: go again.
		if f.err == nil && !f.started.Before(came) {
			return f.mark, nil
		}
	}
}

// mark is where the event's change log stands, read as latest reads it
// (shared by concurrent callers).
func (c *readCache) mark(ctx context.Context, slug string) (app.Mark, error) {
	id, err := c.eventID(ctx, slug)
	if err != nil {
		return app.Mark{}, err
	}
	c.mu.Lock()
	ev := c.events[slug]
	c.mu.Unlock()
	if ev == nil || ev.id != id { // dropped to make room meanwhile
		return c.app.EventMark(ctx, id)
	}
	return c.latest(ctx, ev)
}

// eventID resolves a slug once; unknown slugs are not kept.
func (c *readCache) eventID(ctx context.Context, slug string) (string, error) {
	c.mu.Lock()
	ev := c.events[slug]
	c.mu.Unlock()
	if ev != nil {
		return ev.id, nil
	}
	id, err := c.app.EventID(ctx, slug)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.events[slug] == nil {
		if len(c.events) >= readCacheEvents {
			for k := range c.events {
				delete(c.events, k)
				break
			}
		}
		c.events[slug] = &eventReads{id: id, mark: app.Mark{Seq: -1}, vals: map[string]*readCall{}}
	}
	return id, nil
}

// The reads of the public pages and the read API, through the cache.

func (c *readCache) event(ctx context.Context, a *app.Service, slug string) (arbiter.Event, error) {
	return cachedRead(c, ctx, slug, "event", func() (arbiter.Event, error) { return a.Event(ctx, slug) })
}

func (c *readCache) rounds(ctx context.Context, a *app.Service, slug string) ([]arbiter.Round, error) {
	return cachedRead(c, ctx, slug, "rounds", func() ([]arbiter.Round, error) { return a.Rounds(ctx, slug) })
}

func (c *readCache) matches(ctx context.Context, a *app.Service, slug, round string) ([]arbiter.Match, error) {
	return cachedRead(c, ctx, slug, "matches/"+round, func() ([]arbiter.Match, error) { return a.Matches(ctx, slug, round) })
}

// standings is app.StandingsAfter (pool "" outside pool stages; after 0:
// the last completed round).
func (c *readCache) standings(ctx context.Context, a *app.Service, slug string, stage int, pool string, after int) (app.StageTable, error) {
	return cachedRead(c, ctx, slug, fmt.Sprintf("standings/%d/%s/%d", stage, pool, after), func() (app.StageTable, error) {
		return a.StandingsAfter(ctx, slug, stage, pool, after)
	})
}
