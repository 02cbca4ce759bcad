package app

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
	"arbiter/webhook"
)

// hookReceiver is a webhook receiver that records what it gets and
// answers status (200 unless set).
type hookReceiver struct {
	mu     sync.Mutex
	status int
	got    []hookRequest
	srv    *httptest.Server
}

type hookRequest struct {
	header http.Header
	body   []byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{status: http.StatusOK}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, hookRequest{req.Header.Clone(), b})
		status := r.status
		r.mu.Unlock()
		w.WriteHeader(status)
		if status != http.StatusOK {
			io.WriteString(w, "receiver down")
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *hookReceiver) set(status int) { r.mu.Lock(); r.status = status; r.mu.Unlock() }

// take returns what was received since the last take.
func (r *hookReceiver) take() []hookRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.got
	r.got = nil
	return got
}

// verified decodes a delivery after checking its signature with secret,
// as a receiver would.
func verified(t *testing.T, secret string, h hookRequest) HookPayload {
	t.Helper()
	if err := webhook.Verify(secret, h.header.Get(webhook.SignatureHeader), h.body, time.Now(), 0); err != nil {
		t.Fatalf("signature of %s: %v", h.body, err)
	}
	var p HookPayload
	if err := json.Unmarshal(h.body, &p); err != nil {
		t.Fatal(err)
	}
	if h.header.Get(webhook.EventHeader) != p.Type || h.header.Get(webhook.DeliveryHeader) == "" {
		t.Fatalf("headers %v for a %s", h.header, p.Type)
	}
	return p
}

func types(hs []hookRequest) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.header.Get(webhook.EventHeader))
	}
	slices.Sort(out)
	return out
}

// koEvent makes the Swiss-then-knockout event slug with 8 players,
// registration closed.
func koEvent(t *testing.T, s *Service, slug string) {
	must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(swissKO), Start: utc(2023, 3, 21, 0, 0)}))
	for _, n := range registerPlayers(t, s, slug, 8) {
		must(s.Approve(ctx, td, slug, n, 0))
	}
	must(s.CloseRegistration(ctx, td, slug))
}

// TestWebhooks: a TD registers an endpoint for every moment and another
// for round.closed only; each moment of the event (a round published, a
// result final, the round closed, the stage finished) is delivered once
// to each endpoint that wants it, signed with its secret, with links on
// the web app's address. Nothing is sent for a round under review.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		s.SetIntegrations(IntegrationOptions{WebhooksAllowPrivate: true})
		rcv := newHookReceiver(t)
		koEvent(t, s, "ko")
		secret, all := must2(s.CreateWebhook(ctx, td, "ko", NewWebhook{URL: rcv.srv.URL + "/all", Events: WebhookTypes, BaseURL: "https://arbiter.example/"}))
		closedOnly, w2 := must2(s.CreateWebhook(ctx, td, "ko", NewWebhook{URL: rcv.srv.URL + "/closed", Events: []string{"Round.Closed", "round.closed"}}))
		if !strings.HasPrefix(secret, "whsec_") || secret == closedOnly || !slices.Equal(w2.Events, []string{HookRoundClosed}) ||
			all.BaseURL != "https://arbiter.example" || all.CreatedBy != "arbitertd" {
			t.Fatalf("webhooks %+v %+v", all, w2)
		}
		run := func() []jobs.Result {
			t.Helper()
			res, err := s.Jobs().RunDue(ctx, c.t, 2)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}

		ms := pairOK(s.PairRound(ctx, td, "ko"))
		if res := run(); len(res) != 0 {
			t.Fatalf("jobs after pairing: %+v", res)
		}
		must(s.PublishRound(ctx, td, "ko"))
		run()
		got := rcv.take()
		if len(got) != 1 || got[0].header.Get(webhook.EventHeader) != HookRoundPublished {
			t.Fatalf("after publishing: %q", types(got))
		}
		p := verified(t, secret, got[0])
		if p.ID != "round.published/round/s1r1@2" || p.By != "arbitertd" || p.Event.Slug != "ko" || p.Event.URL != "https://arbiter.example/events/ko" ||
			p.Round == nil || p.Round.ID != "s1r1" || p.Round.Stage != 1 || p.Round.StageName != "swiss" || p.Round.Number != 1 ||
			p.Round.URL != "https://arbiter.example/events/ko/rounds/s1r1" || !p.Round.End.Equal(utc(2023, 3, 28, 0, 0)) || len(p.Matches) != 4 {
			t.Fatalf("round.published %s", got[0].body)
		}
		// C.04.3 round 1: 1-5, 6-2, 3-7, 8-4.
		m0 := p.Matches[0]
		if m0.ID != ms[0].ID || m0.Home.ID != "p01" || m0.Home.Player != "p01" || m0.Away == nil || m0.Away.ID != "p05" ||
			m0.URL != "https://arbiter.example/events/ko/matches/"+ms[0].ID || m0.Home.URL != "https://arbiter.example/events/ko/entrants/p01" ||
			m0.Status != arbiter.MatchScheduled || m0.Result != nil {
			t.Fatalf("board 1 %+v", m0)
		}
		if p.Matches[1].Home.ID != "p06" || p.Matches[1].Away.ID != "p02" {
			t.Fatalf("board 2 %+v", p.Matches[1])
		}

		// A result reported is not final; confirmed, it is.
		c.t = utc(2023, 3, 22, 0, 0)
		must(s.ReportResult(ctx, player("p01"), "ko", ms[0].ID, ResultInput{Summary: "6-4"}))
		run()
		if got := rcv.take(); len(got) != 0 {
			t.Fatalf("after a report: %q", types(got))
		}
		must(s.ConfirmResult(ctx, player("p05"), "ko", ms[0].ID, 0))
		run()
		got = rcv.take()
		if len(got) != 1 {
			t.Fatalf("after a confirmation: %q", types(got))
		}
		p = verified(t, secret, got[0])
		if p.Type != HookResultFinal || p.By != "p05" || p.Match == nil || p.Match.ID != ms[0].ID || p.Match.Status != arbiter.MatchFinal ||
			p.Match.Decision != "confirmed" || p.Match.Result == nil || p.Match.Result.Result != "home_win" ||
			p.Match.Result.Home.Points != arbiter.P(6) || p.Match.Result.Away.Points != arbiter.P(4) || p.Round.ID != "s1r1" {
			t.Fatalf("result.final %s", got[0].body)
		}
		// The TD enters the other results, then closes the round: three
		// results, and the round closed to both endpoints.
		for _, m := range ms[1:] {
			sum := "6-4"
			if m.Home > m.Away {
				sum = "4-6"
			}
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Summary: sum}, "entered from the Lichess games", 0))
		}
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		run()
		got = rcv.take()
		if ts := types(got); !slices.Equal(ts, []string{HookResultFinal, HookResultFinal, HookResultFinal, HookRoundClosed, HookRoundClosed}) {
			t.Fatalf("after the results and the close: %q", ts)
		}
		for _, h := range got {
			if h.header.Get(webhook.EventHeader) != HookRoundClosed {
				continue
			}
			key := secret
			if strings.Contains(string(h.body), `"url":"/events/ko"`) {
				key = closedOnly // the second endpoint: no web app address, relative links
			}
			p := verified(t, key, h)
			if p.Round.Status != arbiter.RoundClosed || len(p.Matches) != 4 || p.Matches[3].Result == nil {
				t.Fatalf("round.closed %s", h.body)
			}
		}
		must(s.AdvanceStage(ctx, td, "ko", AdvanceOptions{TieOrder: []string{"p01", "p02", "p03", "p04"}, Reason: "drawing of lots"}))
		run()
		got = rcv.take()
		if len(got) != 1 {
			t.Fatalf("after advancing: %q", types(got))
		}
		p = verified(t, secret, got[0])
		if p.Type != HookStageFinished || p.Stage == nil || p.Stage.Number != 1 || p.Stage.Name != "swiss" || p.Stage.EventFinished ||
			p.Stage.Next == nil || p.Stage.Next.Number != 2 || p.Stage.Next.Kind != "knockout" || len(p.Stage.Next.Entrants) != 4 ||
			p.Stage.Next.Entrants[0].ID != "p01" || p.Stage.Next.Entrants[3].URL != "https://arbiter.example/events/ko/entrants/p04" {
			t.Fatalf("stage.finished %s", got[0].body)
		}

		// The log: every delivery delivered once, with its answer.
		log := must(s.WebhookDeliveries(ctx, td, "ko", ""))
		if len(log) != 8 {
			t.Fatalf("%d deliveries, want 8", len(log))
		}
		for _, d := range log {
			if d.State != DeliveryDelivered || d.Attempts != 1 || d.LastStatus != 200 || d.DeliveredAt.IsZero() {
				t.Errorf("delivery %+v", d)
			}
		}
		if only := must(s.WebhookDeliveries(ctx, td, "ko", w2.ID)); len(only) != 1 || only[0].Type != HookRoundClosed || only[0].URL != rcv.srv.URL+"/closed" {
			t.Errorf("the second endpoint's log %+v", only)
		}
		audit := must(s.Audit(ctx, td, "ko", sqlstore.AuditFilter{Kind: sqlstore.WebhookKind}))
		if len(audit) != 2 || audit[0].Action != "webhook.create" || strings.Contains(string(audit[0].After), secret) {
			t.Fatalf("audit %+v", audit)
		}
	})
}

// TestWebhookRetries: a receiver that fails gets the delivery again after
// the backoff, the log showing each answer and the next try; a delivery
// redelivered by a TD has the same body and ID; a send recorded before a
// crash is not repeated; a disabled webhook gets nothing more; a deleted
// one takes its log with it.
func TestWebhookRetries(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		s.SetIntegrations(IntegrationOptions{WebhooksAllowPrivate: true})
		rcv := newHookReceiver(t)
		koEvent(t, s, "ko")
		secret, w := must2(s.CreateWebhook(ctx, td, "ko", NewWebhook{URL: rcv.srv.URL, Events: []string{HookRoundPublished, HookRoundClosed}}))
		pairOK(s.PairRound(ctx, td, "ko"))
		rcv.set(http.StatusServiceUnavailable)
		must(s.PublishRound(ctx, td, "ko"))
		res := must(s.Jobs().RunDue(ctx, c.t, 1))
		if len(res) != 1 || res[0].State != jobs.Queued || res[0].Attempt != 1 {
			t.Fatalf("first try %+v", res)
		}
		d := must(s.WebhookDeliveries(ctx, td, "ko", ""))[0]
		if d.State != DeliveryQueued || d.Attempts != 1 || d.LastStatus != 503 || d.LastError != "the receiver answered 503 Service Unavailable: receiver down" ||
			!d.NextTry.Equal(res[0].RunAt) || d.NextTry.Before(c.t.Add(30*time.Second)) || d.MaxAttempts != webhookAttempts {
			t.Fatalf("after a 503: %+v", d)
		}
		first := rcv.take()
		rcv.set(http.StatusOK)
		c.t = d.NextTry
		must(s.Jobs().RunDue(ctx, c.t, 1))
		second := rcv.take()
		if len(first) != 1 || len(second) != 1 || string(first[0].body) != string(second[0].body) ||
			first[0].header.Get(webhook.DeliveryHeader) != d.ID || second[0].header.Get(webhook.DeliveryHeader) != d.ID {
			t.Fatalf("the retry differs: %s / %s", first, second)
		}
		verified(t, secret, second[0])
		d = must(s.GetWebhookDelivery(ctx, td, "ko", d.ID))
		if d.State != DeliveryDelivered || d.Attempts != 2 || d.LastStatus != 200 || d.LastError != "" || d.Body != string(second[0].body) {
			t.Fatalf("after the retry: %+v", d)
		}

		// A TD redelivers it: the same body and ID, once more; audited.
		_, err := s.RedeliverWebhook(ctx, player("p01"), "ko", d.ID)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		again := must(s.RedeliverWebhook(ctx, td, "ko", d.ID))
		if again.State != DeliveryQueued || again.Redeliveries != 1 || again.Job == d.Job {
			t.Fatalf("redelivery %+v", again)
		}
		must(s.Jobs().RunDue(ctx, c.t, 1))
		third := rcv.take()
		if len(third) != 1 || string(third[0].body) != string(second[0].body) || third[0].header.Get(webhook.DeliveryHeader) != d.ID {
			t.Fatalf("redelivered %s", third)
		}
		if a := must(s.Audit(ctx, td, "ko", sqlstore.AuditFilter{Kind: kindWebhookRedelivery})); len(a) != 1 || a[0].Action != "webhook.redeliver" {
			t.Fatalf("audit %+v", a)
		}
		// The same job twice is one job: its key names the send.
		j := WebhookJob{EventSlug: "ko", Delivery: d.ID, Send: 1, Type: HookRoundPublished, Host: w.Host()}
		if in := must(s.Jobs().Enqueue(ctx, nil, j, time.Time{})); !in.Duplicate {
			t.Fatalf("a send enqueued again %+v", in)
		}
		// A crash after the receiver took it and the send was recorded, but
		// before the job was marked done: the run again sends nothing.
		again = must(s.RedeliverWebhook(ctx, td, "ko", d.ID))
		err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			return sqlstore.RecordJobEffect(ctx, tx, sqlstore.JobEffect{Key: WebhookJob{EventSlug: "ko", Delivery: d.ID, Send: 2}.Key(), Effect: "HTTP 200", JobID: again.Job})
		})
		if err != nil {
			t.Fatal(err)
		}
		if res := must(s.Jobs().RunDue(ctx, c.t, 1)); len(res) != 1 || res[0].State != jobs.Done || len(rcv.take()) != 0 {
			t.Fatalf("the re-run after a crash: %+v", res)
		}

		// Disabled while a delivery waits: it is not sent.
		c.t = utc(2023, 3, 28, 0, 0)
		for _, m := range must(s.Matches(ctx, "ko", "s1r1")) {
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Summary: "6-4"}, "from the games", 0))
		}
		must(s.CloseRound(ctx, td, "ko"))
		must(s.DisableWebhook(ctx, td, "ko", w.ID))
		_, err = s.DisableWebhook(ctx, td, "ko", w.ID)
		wantErr(t, err, arbiter.ECONFLICT, "")
		must(s.Jobs().RunDue(ctx, c.t, 1))
		if got := rcv.take(); len(got) != 0 {
			t.Fatalf("sent to a disabled webhook: %q", types(got))
		}
		log := must(s.WebhookDeliveries(ctx, td, "ko", ""))
		if len(log) != 2 || log[0].Type != HookRoundClosed || log[0].State != DeliverySkipped || log[0].Attempts != 0 {
			t.Fatalf("log %+v", log)
		}
		_, err = s.RedeliverWebhook(ctx, td, "ko", log[0].ID)
		wantErr(t, err, arbiter.ERULE, webhookClause)
		must(s.DeleteWebhook(ctx, td, "ko", w.ID))
		if log := must(s.WebhookDeliveries(ctx, td, "ko", "")); len(log) != 0 || len(must(s.Webhooks(ctx, td, "ko"))) != 0 {
			t.Fatalf("after deleting: %+v", log)
		}
	})
}

// TestWebhookFailures: a receiver down for every try ends failed after the
// last, and a TD's redelivery tries again; a webhook's address refused
// when it is sent (the server no longer allows private addresses) fails
// at once.
func TestWebhookFailures(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		s.SetIntegrations(IntegrationOptions{WebhooksAllowPrivate: true})
		rcv := newHookReceiver(t)
		rcv.set(http.StatusInternalServerError)
		koEvent(t, s, "ko")
		must2(s.CreateWebhook(ctx, td, "ko", NewWebhook{URL: rcv.srv.URL, Events: []string{HookRoundPublished, HookRoundClosed}}))
		pairOK(s.PairRound(ctx, td, "ko"))
		must(s.PublishRound(ctx, td, "ko"))
		for try := 1; try <= webhookAttempts; try++ {
			res := must(s.Jobs().RunDue(ctx, c.t, 1))
			if len(res) != 1 || res[0].Attempt != try {
				t.Fatalf("try %d: %+v", try, res)
			}
			c.t = res[0].RunAt.Add(time.Second)
		}
		d := must(s.WebhookDeliveries(ctx, td, "ko", ""))[0]
		if d.State != DeliveryFailed || d.Attempts != webhookAttempts || d.LastStatus != 500 || len(rcv.take()) != webhookAttempts {
			t.Fatalf("after %d tries: %+v", webhookAttempts, d)
		}
		rcv.set(http.StatusOK)
		must(s.RedeliverWebhook(ctx, td, "ko", d.ID))
		must(s.Jobs().RunDue(ctx, c.t, 1))
		if d := must(s.GetWebhookDelivery(ctx, td, "ko", d.ID)); d.State != DeliveryDelivered || d.Attempts != webhookAttempts+1 || len(rcv.take()) != 1 {
			t.Fatalf("redelivered: %+v", d)
		}

		// The operator turns private addresses off: the next delivery to
		// the loopback receiver fails at once, without a request.
		s.SetIntegrations(IntegrationOptions{})
		c.t = utc(2023, 3, 28, 0, 0)
		for _, m := range must(s.Matches(ctx, "ko", "s1r1")) {
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Summary: "6-4"}, "from the games", 0))
		}
		_, _, err := s.CreateWebhook(ctx, td, "ko", NewWebhook{URL: rcv.srv.URL, Events: []string{HookRoundClosed}})
		wantErr(t, err, arbiter.EINVALID, webhookClause)
		must(s.CloseRound(ctx, td, "ko"))
		res := must(s.Jobs().RunDue(ctx, c.t, 1))
		if len(res) != 1 || res[0].State != jobs.Failed || res[0].Attempt != 1 || len(rcv.take()) != 0 {
			t.Fatalf("a delivery to a refused address: %+v", res)
		}
		d = must(s.WebhookDeliveries(ctx, td, "ko", ""))[0]
		if d.Type != HookRoundClosed || d.State != DeliveryFailed || d.Attempts != 1 || d.LastStatus != 0 || !strings.Contains(d.LastError, "not a public address") {
			t.Fatalf("refused delivery %+v", d)
		}
	})
}

// TestWebhookRequests: only a TD of the event manages webhooks; a URL
// that is not http(s), or (unless allowed) is private, is refused naming
// the field, and so are unknown events.
func TestWebhookRequests(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		koEvent(t, s, "ko")
		ok := NewWebhook{URL: "https://bot.example.org/arbiter", Events: []string{HookResultFinal}}
		_, _, err := s.CreateWebhook(ctx, player("p01"), "ko", ok)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Webhooks(ctx, player("p01"), "ko")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.WebhookDeliveries(ctx, player("p01"), "ko", "")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		for _, c := range []struct {
			req   NewWebhook
			field string
		}{
			{NewWebhook{URL: "ftp://bot.example.org/x", Events: ok.Events}, "url"},
			{NewWebhook{URL: "http://127.0.0.1:8080/x", Events: ok.Events}, "url"},
			{NewWebhook{URL: "http://169.254.169.254/latest", Events: ok.Events}, "url"},
			{NewWebhook{URL: "http://localhost/x", Events: ok.Events}, "url"},
			{NewWebhook{URL: ok.URL}, "events"},
			{NewWebhook{URL: ok.URL, Events: []string{"match.started"}}, "events[0]"},
			{NewWebhook{URL: ok.URL, Events: ok.Events, BaseURL: "arbiter.example"}, "base_url"},
		} {
			_, _, err := s.CreateWebhook(ctx, td, "ko", c.req)
			wantErr(t, err, arbiter.EINVALID, webhookClause)
			if f := err.(*arbiter.Error).Field; f != c.field {
				t.Errorf("%+v: field %q, want %q", c.req, f, c.field)
			}
		}
		for i := 0; i < maxWebhooks; i++ {
			must2(s.CreateWebhook(ctx, td, "ko", ok))
		}
		_, _, err = s.CreateWebhook(ctx, td, "ko", ok)
		wantErr(t, err, arbiter.ERULE, webhookClause)
	})
}

// TestWebhookTimeAgreed: W14 offers accepted make a time.agreed with the
// match's agreed time; a bye, final from the pairing on, makes no
// result.final (the round's publication tells of it, with the bye).
func TestWebhookTimeAgreed(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.OpenJobs(nil))
		s.SetIntegrations(IntegrationOptions{WebhooksAllowPrivate: true})
		rcv := newHookReceiver(t)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 13) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		secret, _ := must2(s.CreateWebhook(ctx, td, "wc", NewWebhook{URL: rcv.srv.URL, Events: WebhookTypes}))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		bye := ms[len(ms)-1]
		if !bye.IsBye() || bye.Status != arbiter.MatchFinal {
			t.Fatalf("no bye: %+v", bye)
		}
		must(s.PublishRound(ctx, td, "wc"))
		must(s.Jobs().RunDue(ctx, c.t, 2))
		got := rcv.take()
		if ts := types(got); !slices.Equal(ts, []string{HookRoundPublished}) {
			t.Fatalf("after publishing with a bye: %q", ts)
		}
		p := verified(t, secret, got[0])
		if last := p.Matches[len(p.Matches)-1]; last.Away != nil || last.Decision != "bye" || last.Result == nil || !strings.Contains(string(got[0].body), `"away":null`) {
			t.Fatalf("the bye in the pairings %+v", last)
		}
		c.t = utc(2023, 3, 20, 10, 0)
		b1 := ms[0]
		offers := []time.Time{utc(2023, 3, 22, 18, 0), utc(2023, 3, 23, 18, 0), utc(2023, 3, 24, 18, 0)}
		must2(s.Negotiate(ctx, player(b1.Home), "wc", b1.ID, NegotiationStep{Kind: NegPropose, Times: offers}))
		must(s.Jobs().RunDue(ctx, c.t, 2))
		if got := rcv.take(); len(got) != 0 {
			t.Fatalf("after offers: %q", types(got))
		}
		must2(s.Negotiate(ctx, player(b1.Away), "wc", b1.ID, NegotiationStep{Kind: NegAccept, At: offers[1]}))
		must(s.Jobs().RunDue(ctx, c.t, 2))
		got = rcv.take()
		if len(got) != 1 {
			t.Fatalf("after agreeing: %q", types(got))
		}
		p = verified(t, secret, got[0])
		if p.Type != HookTimeAgreed || p.By != b1.Away || p.Match.ID != b1.ID || !p.Match.ScheduledAt.Equal(offers[1]) || p.Match.Result != nil {
			t.Fatalf("time.agreed %s", got[0].body)
		}
	})
}

// TestOccurrencesOf: which audit entries are webhook moments.
func TestOccurrencesOf(t *testing.T) {
	t.Parallel()
	at := utc(2023, 3, 28, 0, 0)
	entry := func(kind, id string, v int64, before, after string) sqlstore.AuditEntry {
		e := sqlstore.AuditEntry{Kind: kind, RecordID: id, Version: v, At: at, Actor: arbiter.Actor{Name: "td"}}
		if before != "" {
			e.Before = json.RawMessage(before)
		}
		if after != "" {
			e.After = json.RawMessage(after)
		}
		return e
	}
	for _, c := range []struct {
		name string
		e    sqlstore.AuditEntry
		want []string
	}{
		{"round paired", entry(kindRound, "s1r2", 1, "", `{"status":"paired"}`), nil},
		{"round published", entry(kindRound, "s1r2", 2, `{"status":"paired"}`, `{"status":"published"}`), []string{"round.published/round/s1r2@2"}},
		{"round deadline moved", entry(kindRound, "s1r2", 3, `{"status":"published"}`, `{"status":"published","end":"2023-03-30T00:00:00Z"}`), nil},
		{"round closed", entry(kindRound, "s1r2", 4, `{"status":"published"}`, `{"status":"closed"}`), []string{"round.closed/round/s1r2@4"}},
		{"round discarded", entry(kindRound, "s1r3", 2, `{"status":"paired"}`, ""), nil},
		{"match reported", entry(kindMatch, "s1r2b1", 2, `{"status":"scheduled"}`, `{"status":"reported","result":{"result":"home_win"}}`), nil},
		{"match confirmed", entry(kindMatch, "s1r2b1", 3, `{"status":"reported","result":{"result":"home_win"}}`, `{"status":"final","result":{"result":"home_win"},"decision":"confirmed"}`),
			[]string{"result.final/match/s1r2b1@3"}},
		{"final result overridden", entry(kindMatch, "s1r2b1", 4, `{"status":"final","result":{"result":"home_win"},"decision":"confirmed"}`, `{"status":"final","result":{"result":"draw"},"decision":"override"}`),
			[]string{"result.final/match/s1r2b1@4"}},
		{"final match touched", entry(kindMatch, "s1r2b1", 5, `{"status":"final","result":{"result":"draw"},"decision":"override"}`, `{"status":"final","result":{"result":"draw"},"decision":"override","home_boards":["a"]}`), nil},
		{"result reopened", entry(kindMatch, "s1r2b1", 6, `{"status":"final","result":{"result":"draw"}}`, `{"status":"scheduled"}`), nil},
		{"bye paired", entry(kindMatch, "s1r2b7", 1, "", `{"status":"final","decision":"bye","result":{"result":"home_win"}}`), []string{"result.final/match/s1r2b7@1"}},
		{"time agreed", entry(kindMatch, "s1r2b2", 2, `{"status":"scheduled"}`, `{"status":"scheduled","scheduled_at":"2023-03-22T18:00:00Z"}`), []string{"time.agreed/match/s1r2b2@2"}},
		{"time kept", entry(kindMatch, "s1r2b2", 3, `{"status":"scheduled","scheduled_at":"2023-03-22T18:00:00Z"}`, `{"status":"reported","scheduled_at":"2023-03-22T18:00:00Z"}`), nil},
		{"stage advanced", entry(kindEvent, docID, 7, `{"status":"running","stage":0}`, `{"status":"running","stage":1}`), []string{"stage.finished/event/doc@7"}},
		{"event finished", entry(kindEvent, docID, 9, `{"status":"running","stage":1}`, `{"status":"finished","stage":1}`), []string{"stage.finished/event/doc@9/event"}},
		{"event row", entry(kindEvent, "ev123", 2, `{"status":"running"}`, `{"status":"finished"}`), nil},
		{"entrant", entry(kindEntrant, "p01", 2, `{"status":"pending"}`, `{"status":"approved"}`), nil},
	} {
		var got []string
		for _, o := range occurrencesOf(c.e) {
			got = append(got, o.ID)
			if o.At != at || o.By != "td" {
				t.Errorf("%s: %+v", c.name, o)
			}
			if o.Type == HookStageFinished && (o.Stage != 0 && o.Stage != 1 || o.EventFinished != (c.name == "event finished")) {
				t.Errorf("%s: stage %d, event finished %v", c.name, o.Stage, o.EventFinished)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
