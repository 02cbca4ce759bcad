package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"arbiter/app"
)

// liveWriteWindow is how long one write to a stream may take before the
// connection is given up. The server's WriteTimeout bounds whole
// responses, so a stream moves its write deadline before every write.
const liveWriteWindow = 10 * time.Second

// liveRoutes registers the live-update streams (server-sent events).
func (s *Server) liveRoutes() {
	s.handle("GET /events/{slug}/live", newLiveHub(s))
}

// ServeHTTP answers GET /events/{slug}/live with a text/event-stream that
// sends "event: change" (data: the newest audit sequence number; id: the
// log's mark, see app.Mark) whenever the event changes, a comment
// every heartbeat, and a retry hint. A Last-Event-ID that is not the
// current mark gets a change at once, so a browser that reconnects after
// missing a change still refreshes. The stream ends when the client goes
// away or the server shuts down (Serve).
func (h *liveHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	evID, err := h.s.app.EventID(ctx, slug)
	if err != nil {
		h.s.fail(w, r, err)
		return
	}
	client := h.s.clientAddr(r)
	if !h.acquire(client) {
		w.Header().Set("Retry-After", "30")
		h.s.renderError(w, r, http.StatusServiceUnavailable, "unavailable",
			"Too many live pages are open on this server; reload the page later for news.")
		return
	}
	defer h.release(client)
	// The baseline is read here, not taken from the poller, which may be
	// a second behind.
	cur, err := h.latest(ctx, evID)
	if err != nil {
		h.s.internal(w, r, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	p := h.subscribe(evID)
	defer h.unsubscribe(p)

	rc := http.NewResponseController(w)
	// The request is fully read: no read deadline may end the stream
	// (net/http clears it too when it starts watching for the client
	// leaving; this keeps it so whatever the request carried).
	_ = rc.SetReadDeadline(time.Time{})
	st := &liveStream{w: w, rc: rc}
	start := time.Now()
	reason := st.run(ctx, h, p, cur, r.Header.Get("Last-Event-ID"), shutdownSignal(ctx))
	h.s.log.LogAttrs(context.WithoutCancel(ctx), slog.LevelInfo, "live stream ended",
		slog.String("event", slug), slog.String("reason", reason), slog.Int("changes", st.changes),
		slog.Duration("duration", time.Since(start)), slog.String("request_id", requestID(r)))
}

// liveStream writes the messages of one stream.
type liveStream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	changes int // change messages sent
}

// run streams until the client leaves, the server shuts down or a write
// fails, and says which.
func (st *liveStream) run(ctx context.Context, h *liveHub, p *livePoller, cur app.Mark, lastID string, down <-chan struct{}) string {
	// The first message sets the retry delay and the stream's id, so that
	// a reconnecting browser sends it back as Last-Event-ID.
	msg := fmt.Sprintf("retry: %d\nid: %s\n\n", h.retry.Milliseconds(), cur)
	if seen, ok := app.ParseMark(lastID); ok && seen != cur {
		msg = fmt.Sprintf("retry: %d\n", h.retry.Milliseconds()) + changeMessage(cur)
		st.changes++
	}
	if err := st.write(msg); err != nil {
		return "write failed"
	}
	last := cur
	hb := time.NewTicker(h.heartbeat)
	defer hb.Stop()
	for {
		mark, known, changed := p.current()
		// Changes only grows (the log is append-only): an older mark from
		// a poll made before this stream's baseline is not news.
		if known && mark.Changes > last.Changes {
			last = mark
			st.changes++
			if err := st.write(changeMessage(mark)); err != nil {
				return "write failed"
			}
			continue
		}
		select {
		case <-changed:
		case <-hb.C:
			if err := st.write(": heartbeat\n\n"); err != nil {
				return "write failed"
			}
		case <-ctx.Done():
			return "client gone"
		case <-down:
			return "shutdown"
		}
	}
}

func changeMessage(l app.Mark) string {
	return fmt.Sprintf("event: change\nid: %s\ndata: %d\n\n", l, l.Seq)
}

// write sends msg at once, moving the write deadline first.
func (st *liveStream) write(msg string) error {
	if err := st.rc.SetWriteDeadline(time.Now().Add(liveWriteWindow)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := st.w.Write([]byte(msg)); err != nil {
		return err
	}
	return st.rc.Flush()
}
