package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"arbiter/app"
)

func TestExportAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	ms := openRound2(t, f)

	// The file itself, named for a download, links to this site.
	res, body := f.do(t, "GET", "/api/events/atc/export?format=markdown&what=pairings&round=2")
	wantStatus(t, res, body, 200)
	if ct := res.Header.Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="atc-s1r2-pairings.md"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	if !strings.Contains(body, "| 1 | Team") || !strings.Contains(body, "(@"+captainOf(ms[0].Home)+")") ||
		!strings.Contains(body, "](http://example.com/events/atc/matches/"+ms[0].ID+")") {
		t.Errorf("pairings post:\n%s", body)
	}
	res, body = f.do(t, "GET", "/api/events/atc/export?format=csv&what=results&round=1")
	wantStatus(t, res, body, 200)
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) != 6 || rows[0][0] != "Stage" {
		t.Errorf("results CSV: %v\n%s", err, body)
	}
	res, body = f.do(t, "GET", "/api/events/atc/export?format=ics&entrant=team-01")
	wantStatus(t, res, body, 200)
	if !strings.HasPrefix(body, "BEGIN:VCALENDAR\r\n") || res.Header.Get("Content-Type") != "text/calendar; charset=utf-8" {
		t.Errorf("calendar: %s\n%.200s", res.Header.Get("Content-Type"), body)
	}

	// Round 3 is paired, not published: its pairings are the TDs' alone.
	ctx := context.Background()
	rs, err := f.app.Rounds(ctx, "atc")
	if err != nil {
		t.Fatal(err)
	}
	f.now = rs[1].End
	for _, m := range ms {
		if !m.IsBye() && m.Status != "final" {
			ok(t)(f.app.OverrideResult(ctx, tdActor, "atc", m.ID, app.ResultInput{Summary: "forfeit:double"}, "not played", 0))
		}
	}
	ok(t)(f.app.CloseRound(ctx, tdActor, "atc"))
	if _, _, err := f.app.PairRound(ctx, tdActor, "atc"); err != nil {
		t.Fatal(err)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/export?format=markdown&what=pairings&round=3", 404, "not_found", "round")
	tdTok := f.signIn(t, tdActor.Name)
	res, body = f.do(t, "GET", "/api/events/atc/export?format=markdown&what=pairings&round=3", "Authorization", "Bearer "+tdTok)
	wantStatus(t, res, body, 200)

	// Bad options name the parameter.
	wantAPIError(t, f, "GET", "/api/events/atc/export?format=trf&what=standings", 400, "invalid", "what")
	wantAPIError(t, f, "GET", "/api/events/atc/export?format=markdown&what=standings&round=2", 400, "invalid", "round")
	wantAPIError(t, f, "GET", "/api/events/atc/export?format=csv&stage=two", 400, "invalid", "stage")

	// Without a format: the exports on offer, with their addresses.
	var idx struct {
		Event   string `json:"event"`
		Exports []struct {
			Title string `json:"title"`
			URL   string `json:"url"`
		} `json:"exports"`
	}
	apiDo(t, f, "GET", "/api/events/atc/export", 200, &idx)
	var urls []string
	for _, x := range idx.Exports {
		urls = append(urls, x.URL)
	}
	all := strings.Join(urls, "\n") + "\n"
	for _, want := range []string{"/api/events/atc/export?format=markdown&what=state", "/api/events/atc/export?format=trf&stage=1&trf-version=2026",
		"/api/events/atc/export?format=csv&round=2&stage=1&what=results"} {
		if !strings.Contains(all, want+"\n") {
			t.Errorf("the list lacks %s:\n%s", want, all)
		}
	}
	if strings.Contains(all, "round=3") {
		t.Errorf("the public list offers the unpublished round 3:\n%s", all)
	}
	for _, x := range idx.Exports {
		if res, body := f.do(t, "GET", x.URL); res.StatusCode != 200 {
			t.Errorf("%s (%s): %d %s", x.Title, x.URL, res.StatusCode, body)
		}
	}
}

func TestExportPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	openRound2(t, f)
	// The share buttons: copy links to the API with the page as their
	// target without JavaScript, downloads, the calendar.
	for _, c := range []struct{ path, want string }{
		{"/events/atc/rounds/s1r2", `data-copy="/api/events/atc/export?format=markdown&amp;what=pairings&amp;stage=1&amp;round=2" href="/events/atc/export?format=markdown&amp;what=pairings&amp;stage=1&amp;round=2"`},
		{"/events/atc/rounds/s1r2", `download href="/api/events/atc/export?format=csv&amp;what=results&amp;stage=1&amp;round=2"`},
		{"/events/atc/standings", `download href="/api/events/atc/export?format=trf&amp;stage=1"`},
		{"/events/atc/standings", `data-copy="/api/events/atc/export?format=markdown&amp;what=standings&amp;stage=1"`},
		{"/events/atc/entrants", `data-copy="/api/events/atc/export?format=markdown&amp;what=entrants"`},
		{"/events/atc/entrants/team-01", `href="/events/atc/calendar?entrant=team-01"`},
		{"/events/atc", `href="/events/atc/calendar" id="subscribe-event"`},
	} {
		res, body := f.do(t, "GET", c.path)
		wantStatus(t, res, body, 200)
		if !strings.Contains(body, c.want) {
			t.Errorf("%s lacks %s", c.path, c.want)
		}
	}
	// A round not paired yet has nothing to share.
	if _, body := f.do(t, "GET", "/events/atc/rounds/s1r3"); strings.Contains(body, "copy-pairings") {
		t.Error("round 3 (not paired) offers its pairings")
	}
	// The page to copy from by hand.
	res, body := f.do(t, "GET", "/events/atc/export?format=markdown&what=standings")
	wantStatus(t, res, body, 200)
	if !strings.Contains(body, `<textarea id="export-text"`) || !strings.Contains(body, "| Rank | Team | Score |") ||
		!strings.Contains(body, `href="/api/events/atc/export?format=markdown&amp;what=standings"`) {
		t.Errorf("export page:\n%s", body)
	}
	res, body = f.do(t, "GET", "/events/atc/export?format=trf&what=x")
	wantStatus(t, res, body, 400)
	if !strings.Contains(body, "what: trf holds a whole Swiss stage") {
		t.Errorf("bad options page:\n%s", body)
	}
	// Subscribing: the webcal:// address of the feed.
	req := httptest.NewRequest("GET", "/events/atc/calendar?entrant=team-02", nil)
	res, _ = f.send(req)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "webcal://example.com/api/events/atc/export?entrant=team-02&format=ics" {
		t.Errorf("subscribe: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, body = f.do(t, "GET", "/events/atc/calendar?entrant=nobody")
	wantStatus(t, res, body, 400)
}

func TestTokenPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	td := f.signIn(t, tdActor.Name)
	post := func(path string, form url.Values) (*http.Response, string) {
		req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: td})
		return f.send(req)
	}
	// Created: the secret is on the answer page, not in a redirect.
	res, body := post("/events/atc/td/tokens", url.Values{"name": {"Discord bot"}, "scopes": {"report", "offers"}, "entrant": {"team-01"}})
	wantStatus(t, res, body, 200)
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
	}
	i := strings.Index(body, `data-test="token-secret">`)
	if i < 0 {
		t.Fatalf("no secret shown:\n%s", body)
	}
	secret := body[i+len(`data-test="token-secret">`):]
	secret = secret[:strings.Index(secret, "<")]
	if !strings.HasPrefix(secret, "arbt_") || !strings.Contains(body, "report results, post time offers") {
		t.Fatalf("secret %q\n%s", secret, body)
	}
	// It works, and the list shows its last use.
	res, body = f.do(t, "GET", "/api/events/atc/matches/s1r1b1", "Authorization", "Bearer "+secret)
	wantStatus(t, res, body, 200)
	res, body = f.do(t, "GET", "/events/atc/td/tokens", "Cookie", sessionCookie+"="+td)
	wantStatus(t, res, body, 200)
	if strings.Contains(body, secret) || strings.Contains(body, `data-test="last-used">never`) {
		t.Errorf("the list shows the secret or no last use:\n%s", body)
	}
	var list struct {
		Tokens []struct{ ID string } `json:"tokens"`
	}
	req := httptest.NewRequest("GET", "/api/events/atc/tokens", nil)
	req.Header.Set("Authorization", "Bearer "+td)
	res, body = f.send(req)
	wantStatus(t, res, body, 200)
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list.Tokens) != 1 {
		t.Fatalf("tokens %v %s", err, body)
	}
	// Revoked from the console: refused from then on.
	res, _ = post("/events/atc/td/tokens/"+list.Tokens[0].ID, url.Values{})
	if res.StatusCode != http.StatusSeeOther || cookieOf(res, flashCookie) == nil || strings.HasPrefix(cookieOf(res, flashCookie).Value, "error") {
		t.Errorf("revoke: %d", res.StatusCode)
	}
	res, body = f.do(t, "GET", "/api/events/atc/matches/s1r1b1", "Authorization", "Bearer "+secret)
	wantStatus(t, res, body, 401)
	// A bad request is a flash on the tokens page.
	res, _ = post("/events/atc/td/tokens", url.Values{"name": {"x"}, "scopes": {"report"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/events/atc/td/tokens" ||
		!strings.HasPrefix(cookieOf(res, flashCookie).Value, "error") {
		t.Errorf("bad token request: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}
