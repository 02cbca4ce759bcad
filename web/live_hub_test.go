package web

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"arbiter/sqlstore"
)

// fakeLog is a change log whose mark the test moves, counting the reads.
type fakeLog struct {
	mu    sync.Mutex
	mark  sqlstore.Latest
	reads atomic.Int64
}

func (l *fakeLog) latest(ctx context.Context, eventID string) (sqlstore.Latest, error) {
	l.reads.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.mark, nil
}

func (l *fakeLog) move() {
	l.mu.Lock()
	l.mark.Seq += 3
	l.mark.Changes++
	l.mu.Unlock()
}

func fakeHub(l *fakeLog) *liveHub {
	h := newLiveHub(&Server{log: slog.New(slog.DiscardHandler)})
	h.latest = l.latest
	return h
}

// TestLivePollerShared: fifty subscribers of one event cost one read of
// the log per interval, all fifty are woken by a change, and the reads
// stop with the last subscriber.
func TestLivePollerShared(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &fakeLog{mark: sqlstore.Latest{Seq: 10, Changes: 4}}
		h := fakeHub(log)
		var subs []*livePoller
		for range 50 {
			subs = append(subs, h.subscribe("ev1"))
		}
		if len(h.pollers) != 1 {
			t.Fatalf("%d pollers for one event", len(h.pollers))
		}
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		if n := log.reads.Load(); n != 10 {
			t.Fatalf("%d reads in 10 s for 50 subscribers, want 10", n)
		}
		// Everyone sees the first mark, then waits for the next move.
		var chans []<-chan struct{}
		for _, p := range subs {
			mark, known, ch := p.current()
			if !known || mark != log.mark {
				t.Fatalf("mark %+v known %v, want %+v", mark, known, log.mark)
			}
			chans = append(chans, ch)
		}
		log.move()
		time.Sleep(time.Second)
		synctest.Wait()
		for i, ch := range chans {
			select {
			case <-ch:
			default:
				t.Fatalf("subscriber %d was not woken by the change", i)
			}
		}
		if mark, _, _ := subs[0].current(); mark != (sqlstore.Latest{Seq: 13, Changes: 5}) {
			t.Fatalf("mark after the change %+v", mark)
		}
		for _, p := range subs {
			h.unsubscribe(p)
		}
		if len(h.pollers) != 0 {
			t.Fatalf("%d pollers after the last subscriber left", len(h.pollers))
		}
		n := log.reads.Load()
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := log.reads.Load(); got != n {
			t.Fatalf("%d reads after the last subscriber left", got-n)
		}
	})
}

// sinkWriter is a ResponseWriter that hands each flushed message to the
// test.
type sinkWriter struct {
	header http.Header
	buf    strings.Builder
	out    chan string
}

func (w *sinkWriter) Header() http.Header         { return w.header }
func (w *sinkWriter) WriteHeader(int)             {}
func (w *sinkWriter) Write(b []byte) (int, error) { return w.buf.Write(b) }
func (w *sinkWriter) Flush() {
	w.out <- w.buf.String()
	w.buf.Reset()
}

// TestLiveStreamClock follows one stream on the fake clock: the opening
// message, a heartbeat every 15 s while nothing happens, a change about a
// second after the log moves, and the end on the shutdown signal.
func TestLiveStreamClock(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		log := &fakeLog{mark: sqlstore.Latest{Seq: 10, Changes: 4}}
		h := fakeHub(log)
		w := &sinkWriter{header: http.Header{}, out: make(chan string, 16)}
		p := h.subscribe("ev1")
		defer h.unsubscribe(p)
		down := make(chan struct{})
		ended := make(chan string, 1)
		st := &liveStream{w: w, rc: http.NewResponseController(w)}
		go func() { ended <- st.run(context.Background(), h, p, log.mark, "", down) }()

		next := func() string {
			t.Helper()
			synctest.Wait()
			select {
			case m := <-w.out:
				return m
			default:
				return ""
			}
		}
		if m := next(); m != "retry: 5000\nid: 10.4\n\n" {
			t.Fatalf("opening message %q", m)
		}
		time.Sleep(liveHeartbeat - time.Millisecond)
		if m := next(); m != "" {
			t.Fatalf("message %q before the heartbeat is due", m)
		}
		time.Sleep(time.Millisecond)
		if m := next(); m != ": heartbeat\n\n" {
			t.Fatalf("at 15 s: %q, want a heartbeat", m)
		}
		log.move()
		time.Sleep(livePollInterval)
		if m := next(); m != "event: change\nid: 13.5\ndata: 13\n\n" {
			t.Fatalf("a poll after the change: %q", m)
		}
		if st.changes != 1 {
			t.Fatalf("changes %d, want 1", st.changes)
		}
		close(down)
		synctest.Wait()
		select {
		case reason := <-ended:
			if reason != "shutdown" {
				t.Fatalf("ended: %q", reason)
			}
		default:
			t.Fatal("the stream did not end on shutdown")
		}
	})
}
