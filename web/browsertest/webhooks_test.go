package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/challonge"
	"arbiter/challonge/challongetest"
	"arbiter/demo"
	"arbiter/web"
	"arbiter/webhook"

	"github.com/chromedp/chromedp"
)

// received is what a webhook receiver got.
type received struct {
	header http.Header
	body   []byte
}

// TestWebhookDelivery: a TD adds a webhook on the console (a receiver on
// this machine: the site allows private addresses, as serve
// --webhooks-allow-private does) and copies its secret; publishing a
// round from the console sends the receiver a round.published it can
// verify with that secret; the delivery log shows it delivered with the
// receiver's answer; Redeliver sends the same body and delivery ID again.
func TestWebhookDelivery(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 3, 13, 9, 0, 0, 0, time.UTC)
	s := newSite(t, now)
	ctx := context.Background()
	s.App.SetIntegrations(app.IntegrationOptions{WebhooksAllowPrivate: true})
	var mu sync.Mutex
	var got []received
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)
	take := func() []received {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}

	td := arbiter.Actor{Name: web.LocalTD, Role: arbiter.RoleTD}
	_, err := s.App.CreateEvent(ctx, td, app.NewEvent{Slug: "wc", Name: "World Cup", Preset: "acwc-2023", Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)})
	noErr(t, err)
	for i := 1; i <= 12; i++ {
		p := fmt.Sprintf("p%02d", i)
		_, err := s.App.Register(ctx, arbiter.Actor{Name: p, Role: arbiter.RolePlayer}, "wc", arbiter.Entrant{Player: p, Rating: 2500 - 10*i})
		noErr(t, err)
		_, err = s.App.Approve(ctx, td, "wc", p, 0)
		noErr(t, err)
	}
	_, err = s.App.CloseRegistration(ctx, td, "wc")
	noErr(t, err)
	_, _, err = s.App.PairRound(ctx, td, "wc")
	noErr(t, err)
	// The queue from here on (the registrations would queue their
	// eligibility checks, which this site cannot run).
	q, err := s.App.OpenJobs(nil)
	noErr(t, err)
	if res, err := q.RunDue(ctx, now, 1); err != nil || len(res) != 0 {
		t.Fatalf("jobs before the webhook: %+v, %v", res, err)
	}

	b := s.tab(t, "td", "")
	b.signInTD("/events/wc/td/webhooks")
	if got := b.text("#deliveries"); !strings.Contains(got, "Nothing sent yet.") {
		t.Fatalf("deliveries before any: %q%s", got, b.where())
	}
	b.fill("#webhook-url", rcv.URL+"/arbiter")
	b.click(`#new-webhook button[type=submit]`)
	secret := eval[string](b, `document.getElementById("webhook-secret").value`)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("no secret shown: %q%s", secret, b.where())
	}
	if rows := b.rows("table.td-webhooks"); len(rows) != 1 || !strings.Contains(rows[0], rcv.URL+"/arbiter") || !strings.Contains(rows[0], "active") {
		t.Fatalf("webhooks %q%s", rows, b.where())
	}

	b.goTo("/events/wc/td")
	b.click(`#publish-round button[value="publish"]`)
	b.wantFlash("Round s1r1 published")
	res, err := q.RunDue(ctx, now, 1)
	noErr(t, err)
	if len(res) != 1 {
		t.Fatalf("jobs after publishing: %+v", res)
	}
	first := take()
	if len(first) != 1 {
		t.Fatalf("the receiver got %d requests", len(first))
	}
	h := first[0]
	if err := webhook.Verify(secret, h.header.Get(webhook.SignatureHeader), h.body, time.Now(), 0); err != nil {
		t.Fatalf("the receiver cannot verify the delivery with the secret from the page: %v", err)
	}
	var p app.HookPayload
	noErr(t, json.Unmarshal(h.body, &p))
	if p.Type != app.HookRoundPublished || p.Round == nil || p.Round.ID != "s1r1" || len(p.Matches) != 6 || p.By != web.LocalTD ||
		!strings.HasPrefix(p.Matches[0].URL, s.URL+"/events/wc/matches/") {
		t.Fatalf("the delivery %s", h.body)
	}

	b.goTo("/events/wc/td/webhooks")
	rows := b.rows("table.td-deliveries")
	if len(rows) != 1 || !strings.Contains(rows[0], "round.published") || !strings.Contains(rows[0], "delivered") ||
		b.text(`[data-test="delivery-tries"]`) != "1" || b.text(`[data-test="delivery-answer"]`) != "HTTP 204" {
		t.Fatalf("the delivery log %q%s", rows, b.where())
	}
	b.click(`tr[data-test="delivery"] button[type=submit]`)
	b.wantFlash("The round.published webhook to " + strings.TrimPrefix(rcv.URL, "http://") + " is queued to be sent again.")
	if st := b.text(`[data-test="delivery-state"]`); st != "queued" {
		t.Fatalf("after Redeliver the delivery is %q%s", st, b.where())
	}
	_, err = q.RunDue(ctx, now, 1)
	noErr(t, err)
	second := take()
	if len(second) != 1 || string(second[0].body) != string(h.body) || second[0].header.Get(webhook.DeliveryHeader) != h.header.Get(webhook.DeliveryHeader) {
		t.Fatalf("the redelivery differs: %d requests", len(second))
	}
	b.goTo("/events/wc/td/webhooks")
	if tries := b.text(`[data-test="delivery-tries"]`); tries != "2" || !strings.HasPrefix(b.text(`[data-test="delivery-state"]`), "delivered") {
		t.Fatalf("after the redelivery: %s tries%s", tries, b.where())
	}
	b.goTo("/events/wc/td/audit")
	if got := b.text("main"); !strings.Contains(got, "webhook.create") || !strings.Contains(got, "webhook.redeliver") {
		t.Fatalf("the audit log lacks the webhook%s", b.where())
	}
	// On a phone, as TestPhoneWidth checks the other console pages.
	b.do("phone window", chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	for _, p := range []string{"/events/wc/td/webhooks", "/events/wc/td/challonge"} {
		b.goTo(p)
		if probs := eval[[]string](b, layoutProblems); len(probs) > 0 {
			t.Errorf("%s at 375 px:\n  %s", p, strings.Join(probs, "\n  "))
		}
	}
}

// TestChallongeButton: on an RKCC event played to its end, the TD links
// the event to a (fake) Challonge tournament on the console's Challonge
// page and clicks "Push to Challonge": the push is queued, the workers
// run it, and the page shows what it did; Challonge has the bracket.
func TestChallongeButton(t *testing.T) {
	t.Parallel()
	s := newSite(t, time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC))
	ctx := context.Background()
	sum, err := demo.Run(ctx, s.App, demo.Options{Preset: "rkcc-team-three-tc", Entrants: 8, Seed: 3})
	noErr(t, err)
	noErr(t, s.App.AddTD(ctx, demo.TD, sum.Slug, web.LocalTD))
	fake := challongetest.New(t, "key")
	fake.AddTournament("rkcc_winter", "RKCC winter", false)
	cl := challonge.New("key")
	cl.BaseURL = fake.URL
	s.App.SetIntegrations(app.IntegrationOptions{Challonge: cl})
	q, err := s.App.OpenJobs(nil)
	noErr(t, err)

	b := s.tab(t, "td", "")
	b.signInTD("/events/" + sum.Slug + "/td/challonge")
	if got := b.text("#challonge-h ~ p"); !strings.Contains(got, "Link the event to its Challonge tournament") {
		t.Fatalf("the page: %q%s", got, b.where())
	}
	b.fill("#challonge-tournament", "https://challonge.com/rkcc_winter")
	b.click(`#challonge-link button[type=submit]`)
	b.wantFlash("Linked to the Challonge tournament rkcc_winter")
	if got := b.text(`[data-test="challonge-last-push"]`); got != "Nothing pushed yet." {
		t.Fatalf("before the push: %q%s", got, b.where())
	}
	b.click(`form[action$="/challonge/push"] button[type=submit]`)
	b.wantFlash("Push of the knockout to Challonge queued; the outcome shows here when it is done.")
	if got := b.text(`[data-test="challonge-job"]`); !strings.HasPrefix(got, "Push of the knockout to Challonge: queued") {
		t.Fatalf("the job: %q%s", got, b.where())
	}
	res, err := q.RunDue(ctx, s.clock.Now(), 1)
	noErr(t, err)
	if len(res) != 1 {
		t.Fatalf("jobs: %+v", res)
	}
	b.goTo("/events/" + sum.Slug + "/td/challonge")
	if got := b.text(`[data-test="challonge-last-push"]`); !strings.Contains(got, "by "+web.LocalTD+": 4 participants added, tournament started, 3 results sent, 0 results already there.") {
		t.Fatalf("after the push: %q%s", got, b.where())
	}
	fake.Do("rkcc_winter", func(tour *challongetest.Tournament) {
		if len(tour.Participants) != 4 || tour.State != "underway" || tour.Matches[len(tour.Matches)-1].State != "complete" {
			t.Errorf("Challonge: %d participants, %s", len(tour.Participants), tour.State)
		}
	})
}
