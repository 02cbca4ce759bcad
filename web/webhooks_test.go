package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestWebhookPages: a TD adds a webhook on the console and sees its
// secret once, on the answer page; the list never shows it; the links in
// its bodies go to the site's address; disabling and deleting say what
// they did. Through the API the same, with the secret in the answer. The
// Challonge page links the event; pushing on a server without a key says
// why it cannot.
func TestWebhookPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	td := f.signIn(t, tdActor.Name)
	res, body := f.as(t, td, "POST", "/events/atc/td/webhooks", url.Values{"url": {"https://bot.example.org/arbiter"}, "events": {"round.published", "result.final"}})
	wantStatus(t, res, body, 200)
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
	}
	i := strings.Index(body, `data-test="webhook-secret">`)
	if i < 0 {
		t.Fatalf("no secret shown:\n%s", body)
	}
	secret := body[i+len(`data-test="webhook-secret">`):]
	secret = secret[:strings.Index(secret, "<")]
	if !strings.HasPrefix(secret, "whsec_") || !strings.Contains(body, "round.published, result.final") {
		t.Fatalf("secret %q\n%s", secret, body)
	}
	res, body = f.as(t, td, "GET", "/events/atc/td/webhooks", nil)
	wantStatus(t, res, body, 200)
	if strings.Contains(body, secret) || !strings.Contains(body, "https://bot.example.org/arbiter") || !strings.Contains(body, "Nothing sent yet.") ||
		!strings.Contains(body, `data-test="no-jobs"`) {
		t.Fatalf("the list:\n%s", body)
	}
	var list struct {
		Webhooks []struct {
			ID      string `json:"id"`
			BaseURL string `json:"base_url"`
		} `json:"webhooks"`
	}
	f.apiAs(t, td, "GET", "/api/events/atc/webhooks", nil, 200, &list)
	if len(list.Webhooks) != 1 || list.Webhooks[0].BaseURL != "http://example.com" {
		t.Fatalf("webhooks %+v", list)
	}
	id := list.Webhooks[0].ID
	f.post(t, td, "/events/atc/td/webhooks/"+id+"/disable", url.Values{}, "/events/atc/td/webhooks", false, "Disabled the webhook to bot.example.org")
	f.post(t, td, "/events/atc/td/webhooks/"+id+"/disable", url.Values{}, "/events/atc/td/webhooks", true, "already disabled")
	f.post(t, td, "/events/atc/td/webhooks/"+id+"/delete", url.Values{}, "/events/atc/td/webhooks", false, "Deleted the webhook to bot.example.org")
	f.post(t, td, "/events/atc/td/webhooks", url.Values{"url": {"http://10.0.0.8/hook"}, "events": {"result.final"}}, "/events/atc/td/webhooks", true,
		"url: 10.0.0.8 is not a public address")

	var created struct {
		Secret  string `json:"secret"`
		Webhook struct {
			BaseURL string   `json:"base_url"`
			Events  []string `json:"events"`
		} `json:"webhook"`
	}
	f.apiAs(t, td, "POST", "/api/events/atc/webhooks", map[string]any{"url": "https://bot.example.org/x", "events": []string{"stage.finished"}, "base_url": ""}, 201, &created)
	if !strings.HasPrefix(created.Secret, "whsec_") || created.Webhook.BaseURL != "" || len(created.Webhook.Events) != 1 {
		t.Fatalf("created %+v", created)
	}
	f.apiAs(t, td, "POST", "/api/events/atc/webhooks", map[string]any{"url": "file:///etc/passwd", "events": []string{"stage.finished"}}, 400, nil)

	f.post(t, td, "/events/atc/td/challonge", url.Values{"tournament": {"https://challonge.com/atc_ko"}}, "/events/atc/td/challonge", false, "atc_ko")
	res, body = f.as(t, td, "GET", "/events/atc/td/challonge", nil)
	wantStatus(t, res, body, http.StatusOK)
	if !strings.Contains(body, `data-test="challonge-no-key"`) || !strings.Contains(body, "Nothing pushed yet.") || !strings.Contains(body, "<code>atc_ko</code>") {
		t.Fatalf("the Challonge page:\n%s", body)
	}
	f.post(t, td, "/events/atc/td/challonge/push", url.Values{}, "/events/atc/td/challonge", true, "no Challonge API key")
}
