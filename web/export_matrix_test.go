package web

import "net/url"

// exportRows are the role matrix's rows of the exports and the API
// tokens (export.go, tokens.go).
func (b *matrixBase) exportRows() []matrixRow {
	pub := everyone("200")
	td := "/events/atc/td"
	return []matrixRow{
		{pattern: "GET /events/{slug}/export", path: "/events/atc/export?format=markdown&what=pairings&round=2", want: pub},
		{pattern: "GET /events/{slug}/calendar", path: "/events/atc/calendar?entrant=team-01", want: everyone("303")},
		{pattern: "GET /api/events/{slug}/export", path: "/api/events/atc/export?format=csv&what=results", want: pub},
		{pattern: "GET /events/{slug}/td/tokens", path: td + "/tokens", want: tdOnly(pageAnon, "403", "200")},
		{pattern: "POST /events/{slug}/td/tokens", path: td + "/tokens", form: url.Values{"name": {"Discord bot"}, "scopes": {"report"}, "entrant": {"team-01"}},
			want: tdOnly(pageAnon, "403", "200")},
		// No such token: a TD is told so; see TestTokenPages for a revocation.
		{pattern: "POST /events/{slug}/td/tokens/{id}", path: td + "/tokens/tnosuch", form: url.Values{}, want: tdOnly(pageAnon, "403", pageRefuse)},
		{pattern: "GET /api/events/{slug}/tokens", path: "/api/events/atc/tokens", want: tdOnly(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/tokens", path: "/api/events/atc/tokens", body: map[string]any{"name": "Discord bot", "scopes": []string{"read"}},
			want: tdOnly(apiAnon, apiRefused, "201")},
		{pattern: "POST /api/events/{slug}/tokens/{id}/revoke", path: "/api/events/atc/tokens/tnosuch/revoke", body: map[string]any{},
			want: tdOnly(apiAnon, apiRefused, "404 not_found")},
	}
}
