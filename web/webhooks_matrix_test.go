package web

import "net/url"

// webhookRows are the role matrix's rows of the webhooks and the
// Challonge push (webhooks.go). The matrix's server runs no background
// jobs: a redelivery is refused; a push needs a linked tournament first.
func (b *matrixBase) webhookRows() []matrixRow {
	td := "/events/atc/td"
	api := "/api/events/atc"
	page := func(w string) [nRoles]string { return tdOnly(pageAnon, "403", w) }
	apiTD := func(w string) [nRoles]string { return tdOnly(apiAnon, apiRefused, w) }
	hook := url.Values{"url": {"https://bot.example.org/arbiter"}, "events": {"round.published", "result.final"}}
	return []matrixRow{
		{pattern: "GET /events/{slug}/td/webhooks", path: td + "/webhooks", want: page("200")},
		{pattern: "POST /events/{slug}/td/webhooks", path: td + "/webhooks", form: hook, want: page("200")},
		// No such webhook or delivery: a TD is told so; see TestWebhookPages.
		{pattern: "POST /events/{slug}/td/webhooks/{id}/disable", path: td + "/webhooks/wnosuch/disable", form: url.Values{}, want: page(pageRefuse)},
		{pattern: "POST /events/{slug}/td/webhooks/{id}/delete", path: td + "/webhooks/wnosuch/delete", form: url.Values{}, want: page(pageRefuse)},
		{pattern: "POST /events/{slug}/td/webhook-deliveries/{id}/redeliver", path: td + "/webhook-deliveries/wdnosuch/redeliver", form: url.Values{}, want: page(pageRefuse)},
		{pattern: "GET /events/{slug}/td/challonge", path: td + "/challonge", want: page("200")},
		{pattern: "POST /events/{slug}/td/challonge", path: td + "/challonge", form: url.Values{"tournament": {"https://challonge.com/atc_ko"}}, want: page("303 ok")},
		{pattern: "POST /events/{slug}/td/challonge/push", path: td + "/challonge/push", form: url.Values{}, want: page(pageRefuse)},

		{pattern: "GET /api/events/{slug}/webhooks", path: api + "/webhooks", want: apiTD("200")},
		{pattern: "POST /api/events/{slug}/webhooks", path: api + "/webhooks", body: map[string]any{"url": "https://bot.example.org/arbiter", "events": []string{"result.final"}},
			want: apiTD("201")},
		{pattern: "POST /api/events/{slug}/webhooks/{id}/disable", path: api + "/webhooks/wnosuch/disable", body: map[string]any{}, want: apiTD("404 not_found")},
		{pattern: "DELETE /api/events/{slug}/webhooks/{id}", path: api + "/webhooks/wnosuch", want: apiTD("404 not_found")},
		{pattern: "GET /api/events/{slug}/webhook-deliveries", path: api + "/webhook-deliveries", want: apiTD("200")},
		{pattern: "GET /api/events/{slug}/webhook-deliveries/{id}", path: api + "/webhook-deliveries/wdnosuch", want: apiTD("404 not_found")},
		{pattern: "POST /api/events/{slug}/webhook-deliveries/{id}/redeliver", path: api + "/webhook-deliveries/wdnosuch/redeliver", body: map[string]any{},
			want: apiTD("404 not_found")},
		{pattern: "GET /api/events/{slug}/challonge", path: api + "/challonge", want: apiTD("200")},
		{pattern: "POST /api/events/{slug}/challonge", path: api + "/challonge", body: map[string]any{"tournament": "atc_ko"}, want: apiTD("200")},
		{pattern: "POST /api/events/{slug}/challonge/push", path: api + "/challonge/push", body: map[string]any{}, want: apiTD("422 rule")},
	}
}
