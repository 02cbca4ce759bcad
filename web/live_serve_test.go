package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLiveStreamEndsOnShutdown: Serve's shutdown ends open streams at once
// instead of waiting ShutdownTimeout for them.
func TestLiveStreamEndsOnShutdown(t *testing.T) {
	f := newFixture(t)
	antichessEvent(t, f)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, f.srv, nil) }()
	c := openStream(t, "http://"+ln.Addr().String()+"/events/atc/live", "")
	c.next(t)

	cancel()
	// 5 s is a bound well under ShutdownTimeout (15 s), not a speed target.
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve still waits for the live stream 5 s after shutdown began")
	}
	for m := range c.msgs { // drains until the stream's end
		if m.Event != "" {
			t.Errorf("message %+v during shutdown", m)
		}
	}
	if !strings.Contains(f.logs.String(), `msg="live stream ended" event=atc reason=shutdown`) {
		t.Errorf("no log line for the stream's end:\n%s", f.logs.String())
	}
}

// TestLiveStreamOutlivesServerTimeouts: a stream stays open far longer
// than the server's ReadTimeout and WriteTimeout (here 100 ms), because it
// moves its own deadlines. It counts heartbeats, sent every 10 ms, rather
// than sleeping: 60 of them span at least 600 ms.
func TestLiveStreamOutlivesServerTimeouts(t *testing.T) {
	f := newFixture(t)
	liveHubOf(t, f).heartbeat = 10 * time.Millisecond
	antichessEvent(t, f)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: f.srv, ReadTimeout: 100 * time.Millisecond, WriteTimeout: 100 * time.Millisecond}
	go srv.Serve(ln)
	defer srv.Close()
	c := openStream(t, "http://"+ln.Addr().String()+"/events/atc/live", "")
	start := time.Now()
	beats := 0
	timeout := time.After(wait)
	for beats < 60 {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				t.Fatalf("the stream ended after %v and %d heartbeats", time.Since(start), beats)
			}
			if m.Comment == "heartbeat" {
				beats++
			}
		case <-timeout:
			t.Fatalf("%d heartbeats within %v", beats, wait)
		}
	}
	if time.Since(start) < 200*time.Millisecond {
		t.Fatalf("60 heartbeats in %v: the test proves nothing", time.Since(start))
	}
}

// TestServeWithoutStreamsUnchanged: a plain request during shutdown still
// completes (the shutdown signal concerns streams only).
func TestServeShutdownSignalOnlyInServe(t *testing.T) {
	if shutdownSignal(context.Background()) != nil {
		t.Fatal("a context outside Serve has a shutdown signal")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan bool, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- shutdownSignal(r.Context()) != nil
		io.WriteString(w, "ok")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, nil) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if !<-got {
		t.Error("a request under Serve has no shutdown signal")
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
