package web

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"arbiter/app"
)

// Defaults of the live streams (live.go).
const (
	// livePollInterval is how often one process reads an event's change
	// log while anyone watches the event. Changes may come from any
	// process on the same database, so the log is the only source.
	livePollInterval = time.Second
	// liveHeartbeat keeps idle streams open through proxies and lets the
	// server notice clients that went away without closing.
	liveHeartbeat = 15 * time.Second
	// liveRetry is the reconnection delay suggested to browsers.
	liveRetry = 5 * time.Second
	// liveMaxStreams bounds the open streams of one process; each holds a
	// connection and a goroutine.
	liveMaxStreams = 1000
	// liveMaxPerClient bounds the open streams of one client address, so
	// that one client cannot take every slot; a household or a club
	// behind one address still opens plenty.
	liveMaxPerClient = 20
	// livePollTimeout bounds one read of the change log.
	livePollTimeout = 5 * time.Second
)

// liveHub shares one poller per watched event among all the streams of
// this process, so the database sees about one query a second per event,
// not one per client.
type liveHub struct {
	s         *Server
	interval  time.Duration
	heartbeat time.Duration
	retry     time.Duration
	max       int
	perClient int
	latest    func(ctx context.Context, eventID string) (app.Mark, error)

	mu      sync.Mutex
	streams int
	clients map[string]int         // open streams by client address
	pollers map[string]*livePoller // by event ID
}

func newLiveHub(s *Server) *liveHub {
	h := &liveHub{s: s, interval: livePollInterval, heartbeat: liveHeartbeat, retry: liveRetry, max: liveMaxStreams,
		perClient: liveMaxPerClient, clients: map[string]int{}, pollers: map[string]*livePoller{}}
	h.latest = func(ctx context.Context, eventID string) (app.Mark, error) {
		return s.app.EventMark(ctx, eventID)
	}
	return h
}

// acquire takes one of the open-stream slots for a client; false when
// all are taken or the client holds its share.
func (h *liveHub) acquire(client string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams >= h.max || h.clients[client] >= h.perClient {
		return false
	}
	h.streams++
	h.clients[client]++
	return true
}

func (h *liveHub) release(client string) {
	h.mu.Lock()
	h.streams--
	if h.clients[client]--; h.clients[client] <= 0 {
		delete(h.clients, client)
	}
	h.mu.Unlock()
}

// subscribe returns the event's poller, starting it for the first
// subscriber. Every subscribe needs one unsubscribe.
func (h *liveHub) subscribe(eventID string) *livePoller {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.pollers[eventID]
	if p == nil {
		ctx, stop := context.WithCancel(context.Background())
		p = &livePoller{hub: h, eventID: eventID, stop: stop, changed: make(chan struct{})}
		h.pollers[eventID] = p
		go p.run(ctx)
	}
	p.subs++
	return p
}

// unsubscribe stops the poller when its last subscriber leaves.
func (h *liveHub) unsubscribe(p *livePoller) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p.subs--
	if p.subs == 0 {
		delete(h.pollers, p.eventID)
		p.stop()
	}
}

// livePoller reads one event's change log every interval and wakes its
// subscribers when the log moved.
type livePoller struct {
	hub     *liveHub
	eventID string
	stop    context.CancelFunc
	subs    int // guarded by hub.mu

	mu      sync.Mutex
	mark    app.Mark
	known   bool          // mark has been read at least once
	changed chan struct{} // closed when mark moves, then replaced
}

// current returns the last mark read (known is false before the first
// poll) and a channel closed at the next move.
func (p *livePoller) current() (mark app.Mark, known bool, changed <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mark, p.known, p.changed
}

func (p *livePoller) set(l app.Mark) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.known && l == p.mark {
		return
	}
	p.mark, p.known = l, true
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *livePoller) run(ctx context.Context) {
	t := time.NewTicker(p.hub.interval)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		qctx, cancel := context.WithTimeout(ctx, livePollTimeout)
		l, err := p.hub.latest(qctx, p.eventID)
		cancel()
		if ctx.Err() != nil {
			return
		}
		// One line when polling starts failing and one when it recovers,
		// not one a second.
		if err != nil {
			if !failing {
				p.hub.s.log.LogAttrs(ctx, slog.LevelWarn, "live poll failed",
					slog.String("event_id", p.eventID), slog.String("error", err.Error()))
			}
			failing = true
			continue
		}
		if failing {
			p.hub.s.log.LogAttrs(ctx, slog.LevelInfo, "live poll recovered", slog.String("event_id", p.eventID))
			failing = false
		}
		p.set(l)
	}
}
