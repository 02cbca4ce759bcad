package web

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/app"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// wait is the generous bound of every wait for a stream message: the
// tests poll every few milliseconds, so a healthy run never comes near it.
const wait = 10 * time.Second

// sseMessage is one message of a text/event-stream, or a comment.
type sseMessage struct {
	Event, ID, Data, Comment string
	Retry                    int
}

// sseClient reads a stream in the background, one message per channel
// item; the channel closes when the stream ends.
type sseClient struct {
	res  *http.Response
	msgs chan sseMessage
	ctx  context.Context // done when the test closes the client
	stop context.CancelFunc
}

// openStream connects to url (Last-Event-ID lastID unless empty) and
// checks that the stream started.
func openStream(t *testing.T, url, lastID string) *sseClient {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		stop()
		t.Fatal(err)
	}
	c := &sseClient{res: res, msgs: make(chan sseMessage, 64), ctx: ctx, stop: stop}
	t.Cleanup(c.close)
	if res.StatusCode != http.StatusOK {
		return c
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	go c.read()
	return c
}

func (c *sseClient) close() {
	c.stop()
	c.res.Body.Close()
}

// read parses the stream as the EventSource specification does (fields
// up to a blank line; a line starting with ':' is a comment, reported as a
// message of its own here so tests can see heartbeats).
func (c *sseClient) read() {
	defer close(c.msgs)
	// send gives up when the test closed the client without reading on.
	send := func(m sseMessage) bool {
		select {
		case c.msgs <- m:
			return true
		case <-c.ctx.Done():
			return false
		}
	}
	sc := bufio.NewScanner(c.res.Body)
	var m sseMessage
	var fields bool
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if fields && !send(m) {
				return
			}
			m, fields = sseMessage{}, false
			continue
		}
		if strings.HasPrefix(line, ":") {
			if !send(sseMessage{Comment: strings.TrimSpace(line[1:])}) {
				return
			}
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		fields = true
		switch name {
		case "event":
			m.Event = value
		case "id":
			m.ID = value
		case "data":
			m.Data = value
		case "retry":
			m.Retry, _ = strconv.Atoi(value)
		}
	}
}

// next returns the next message that is not a comment.
func (c *sseClient) next(t *testing.T) sseMessage {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				t.Fatal("the stream ended")
			}
			if m.Comment == "" {
				return m
			}
		case <-timeout:
			t.Fatalf("no message within %v", wait)
		}
	}
}

// liveServer serves f over loopback until the test ends. Cleanups run
// last-in first-out, so the streams opened later close first and Close
// does not wait for them.
func liveServer(t *testing.T, f *fixture) *httptest.Server {
	ts := httptest.NewServer(f.srv)
	t.Cleanup(ts.Close)
	return ts
}

// liveHubOf returns the server's stream handler, to adjust its clock.
func liveHubOf(t *testing.T, f *fixture) *liveHub {
	t.Helper()
	h, _ := f.srv.mux.Handler(httptest.NewRequest("GET", "/events/x/live", nil))
	hub, ok := h.(*liveHub)
	if !ok {
		t.Fatalf("the live route is served by %T", h)
	}
	return hub
}

func latestOf(t *testing.T, f *fixture, slug string) sqlstore.Latest {
	t.Helper()
	ev, err := sqlstore.GetEventBySlug(context.Background(), f.db, slug)
	if err != nil {
		t.Fatal(err)
	}
	l, err := sqlstore.LatestChange(context.Background(), f.db, ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// reportedRound1 is playRound1 stopped before the confirmation: round 1
// published, team-01's captain reported 348-228 against team-06. It
// returns the match ID.
func reportedRound1(t *testing.T, f *fixture) string {
	t.Helper()
	ctx := context.Background()
	antichessEvent(t, f)
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	f.now = time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.ReportResult(ctx, captain(1), "atc", ms[0].ID, app.ResultInput{Sheet: []byte(teamSheet)}))
	return ms[0].ID
}

// TestLiveChangeOnConfirm: a client watches the event; the opponent
// confirms the result; the client is told, with the log's new mark.
func TestLiveChangeOnConfirm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	liveHubOf(t, f).interval = 10 * time.Millisecond
	match := reportedRound1(t, f)
	ts := liveServer(t, f)
	before := latestOf(t, f, "atc")

	c := openStream(t, ts.URL+"/events/atc/live", "")
	first := c.next(t)
	if first.Event != "" || first.ID != before.String() || first.Retry != int(liveRetry.Milliseconds()) {
		t.Fatalf("first message %+v, want the retry hint and id %s", first, before)
	}
	ok(t)(f.app.ConfirmResult(context.Background(), captain(6), "atc", match, 0))
	after := latestOf(t, f, "atc")
	if after.Changes <= before.Changes {
		t.Fatalf("confirming changed nothing in the log: %+v then %+v", before, after)
	}
	m := c.next(t)
	if m.Event != "change" || m.ID != after.String() || m.Data != strconv.FormatInt(after.Seq, 10) {
		t.Fatalf("message %+v, want change id %s data %d", m, after, after.Seq)
	}
}

// TestLiveAcrossProcesses runs two servers on one SQLite file, as two
// 'arbiter serve' processes would share a database: a change made through
// one reaches a stream held by the other.
func TestLiveAcrossProcesses(t *testing.T) { liveAcross(t, testSQLiteDSN(t)) }

// TestLiveAcrossProcessesPostgres is skipped unless $ARBITER_TEST_POSTGRES
// names a server.
func TestLiveAcrossProcessesPostgres(t *testing.T) { liveAcross(t, storetest.PostgresDSN(t)) }

func liveAcross(t *testing.T, dsn string) {
	open := func() *fixture {
		db, err := sqlstore.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return newFixtureOn(t, db)
	}
	a, b := open(), open()
	liveHubOf(t, a).interval = 10 * time.Millisecond
	match := reportedRound1(t, b)
	ts := liveServer(t, a)
	c := openStream(t, ts.URL+"/events/atc/live", "")
	c.next(t)
	ok(t)(b.app.ConfirmResult(context.Background(), captain(6), "atc", match, 0))
	if m := c.next(t); m.Event != "change" || m.ID != latestOf(t, b, "atc").String() {
		t.Fatalf("message %+v, want the change made through the other server", m)
	}
}

func TestLiveLastEventID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ts := liveServer(t, f)
	cur := latestOf(t, f, "atc")
	url := ts.URL + "/events/atc/live"

	// Up to date: the stream starts quietly with the same id.
	if m := openStream(t, url, cur.String()).next(t); m.Event != "" || m.ID != cur.String() {
		t.Errorf("current Last-Event-ID: first message %+v, want only id %s", m, cur)
	}
	// Behind (a change was missed while reconnecting): a change at once.
	stale := sqlstore.Latest{Seq: cur.Seq - 1, Changes: cur.Changes - 1}
	if m := openStream(t, url, stale.String()).next(t); m.Event != "change" || m.ID != cur.String() || m.Data != strconv.FormatInt(cur.Seq, 10) {
		t.Errorf("stale Last-Event-ID: first message %+v, want change %s", m, cur)
	}
	// Not ours: ignored, as if absent.
	if m := openStream(t, url, "garbage").next(t); m.Event != "" || m.ID != cur.String() {
		t.Errorf("unreadable Last-Event-ID: first message %+v, want only id %s", m, cur)
	}
}

func TestLiveUnknownEventIs404(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/events/no-such-event/live")
	wantStatus(t, res, body, http.StatusNotFound)
	if got := len(liveHubOf(t, f).pollers); got != 0 {
		t.Errorf("%d pollers after a 404", got)
	}
}

func TestLiveHeadDoesNotStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	res, body := f.do(t, "HEAD", "/events/atc/live")
	wantStatus(t, res, body, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" || body != "" {
		t.Errorf("HEAD: Content-Type %q, body %q", ct, body)
	}
}

// TestLiveStreamCap: beyond the bound a stream is refused with 503 and a
// Retry-After; a slot frees when a stream ends.
func TestLiveStreamCap(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	hub := liveHubOf(t, f)
	hub.max = 2
	antichessEvent(t, f)
	ts := liveServer(t, f)
	url := ts.URL + "/events/atc/live"
	c1 := openStream(t, url, "")
	c1.next(t)
	openStream(t, url, "").next(t)
	c3 := openStream(t, url, "")
	if c3.res.StatusCode != http.StatusServiceUnavailable || c3.res.Header.Get("Retry-After") == "" {
		t.Fatalf("third stream: status %d, Retry-After %q; want 503 with Retry-After", c3.res.StatusCode, c3.res.Header.Get("Retry-After"))
	}
	c1.close()
	eventually(t, "the closed stream's slot is free", func() bool {
		hub.mu.Lock()
		defer hub.mu.Unlock()
		return hub.streams == 1
	})
	if c4 := openStream(t, url, ""); c4.res.StatusCode != http.StatusOK {
		t.Fatalf("after a stream ended: status %d, want 200", c4.res.StatusCode)
	}
}

// TestLiveClientDisconnectEndsStream: the handler notices the client left,
// logs one line, and the event's poller stops with its last subscriber.
func TestLiveClientDisconnectEndsStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	hub := liveHubOf(t, f)
	antichessEvent(t, f)
	ts := liveServer(t, f)
	c := openStream(t, ts.URL+"/events/atc/live", "")
	c.next(t)
	c.close()
	eventually(t, "the stream ended", func() bool {
		hub.mu.Lock()
		defer hub.mu.Unlock()
		return hub.streams == 0 && len(hub.pollers) == 0
	})
	eventually(t, "the stream's end is logged", func() bool {
		return strings.Contains(f.logs.String(), `msg="live stream ended" event=atc reason="client gone"`)
	})
}

// eventually waits, within the generous bound, for cond to hold.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, wait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLivePagesPointAtTheirStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	for _, path := range []string{"/events/atc", "/events/atc/standings"} {
		res, body := f.do(t, "GET", path)
		wantStatus(t, res, body, http.StatusOK)
		wantContains(t, body, `<main id="main" tabindex="-1" data-live="/events/atc/live">`, `/static/live.js?v=`)
	}
	playRound1(t, f)
	res, body := f.do(t, "GET", "/events/atc/standings")
	wantStatus(t, res, body, http.StatusOK)
	wantContains(t, body, `data-live="/events/atc/live"`)
	// Pages about no event do not watch anything.
	res, body = f.do(t, "GET", "/formats")
	wantStatus(t, res, body, http.StatusOK)
	if strings.Contains(body, "data-live") {
		t.Error("/formats has data-live")
	}
}

func TestLiveScriptServed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, body := f.do(t, "GET", "/static/live.js")
	wantStatus(t, res, body, http.StatusOK)
	// It only starts where the page asks for it and the browser can.
	wantContains(t, body, "data-live", "EventSource", "aria-live")
}
