package lichesstest

import (
	"context"
	"sync"
	"time"
)

// Clock is a virtual clock shared by a client (as its lichess.TimeSource)
// and the fake (Options.Now): the client's waits (a second between
// requests, a minute after a 429) advance it at once, so a test or a
// measurement sees the real pacing without waiting for it.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	waited time.Duration
	waits  []time.Duration
}

// NewClock starts a virtual clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the virtual time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep advances the virtual time by d at once.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now = c.now.Add(d)
		c.waited += d
		c.waits = append(c.waits, d)
	}
	return nil
}

// Advance moves the virtual time (players thinking, a round going by).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Waited is the total the client slept: its pacing, in virtual time.
func (c *Clock) Waited() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waited
}

// Waits lists each sleep of the client.
func (c *Clock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}
