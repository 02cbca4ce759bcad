package web

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// formResult is the outcome of a page form: where it redirected and the
// flash message it left.
type formResult struct {
	Location string
	Error    bool
	Message  string
	flash    *http.Cookie
}

// submit sends a page form as the session's user and expects the
// post/redirect/get answer (303) with its flash message.
func (f *fixture) submit(t *testing.T, tok, target string, form url.Values) formResult {
	t.Helper()
	res, body := f.as(t, tok, "POST", target, form)
	wantStatus(t, res, body, http.StatusSeeOther)
	out := formResult{Location: res.Header.Get("Location")}
	if c := cookieOf(res, flashCookie); c != nil {
		kind, enc, _ := strings.Cut(c.Value, ".")
		msg, err := base64.RawURLEncoding.DecodeString(enc)
		if err != nil {
			t.Fatalf("flash cookie %q: %v", c.Value, err)
		}
		out.Error, out.Message, out.flash = kind == "error", string(msg), c
	}
	return out
}

// wantOK checks that a form succeeded with a message containing want.
func (r formResult) wantOK(t *testing.T, want string) {
	t.Helper()
	if r.Error || !strings.Contains(r.Message, want) {
		t.Fatalf("form: error=%v %q, want success with %q", r.Error, r.Message, want)
	}
}

// wantRefused checks that a form was refused with a message containing
// every part of want.
func (r formResult) wantRefused(t *testing.T, want ...string) {
	t.Helper()
	if !r.Error {
		t.Fatalf("form succeeded (%q), want a refusal with %q", r.Message, want)
	}
	for _, w := range want {
		if !strings.Contains(r.Message, w) {
			t.Fatalf("refusal %q lacks %q", r.Message, w)
		}
	}
}

// follow loads the page a form redirected to, with its flash message.
func (f *fixture) follow(t *testing.T, tok string, r formResult) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("GET", r.Location, nil)
	if tok != "" {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: tok})
	}
	if r.flash != nil {
		req.AddCookie(&http.Cookie{Name: flashCookie, Value: r.flash.Value})
	}
	return f.send(req)
}

// wantSignIn checks that an anonymous page request went to sign in.
func wantSignIn(t *testing.T, res *http.Response, body string) {
	t.Helper()
	wantStatus(t, res, body, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login?next=") {
		t.Fatalf("redirected to %q, want /login", loc)
	}
}

func (f *fixture) match(t testing.TB, slug, id string) arbiter.Match {
	t.Helper()
	ms, err := f.app.Matches(context.Background(), slug, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no match %s", id)
	return arbiter.Match{}
}

// captainOf is the fixture's captain of team-NN ("cap" + NN).
func captainOf(teamID string) string { return "cap" + strings.TrimPrefix(teamID, "team-") }

// openRound2 pairs and publishes round 2 of the antichess cup after
// playRound1 and returns its matches.
func openRound2(t testing.TB, f *fixture) []arbiter.Match {
	t.Helper()
	ctx := context.Background()
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	return ms
}

// acwcEvent creates the ACWC preset event "wc" (round 1 from Sunday
// 2023-03-19 12:00, W14 offers due Friday 2023-03-24 23:59) with players
// p01..p12 registered through the registration form, approved, paired and
// published. Board 1 is p01 (home) against p07.
func acwcEvent(t *testing.T, f *fixture) arbiter.Match {
	t.Helper()
	ctx := context.Background()
	f.now = time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023",
		Start: time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC)}))
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("p%02d", i)
		tok := f.signIn(t, name)
		f.submit(t, tok, "/events/wc/register", url.Values{"rating": {fmt.Sprint(2550 - 50*i)}}).wantOK(t, "Registered")
		ok(t)(f.app.Approve(ctx, tdActor, "wc", name, 0))
	}
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "wc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "wc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "wc"))
	if ms[0].Home != "p01" || ms[0].Away != "p07" {
		t.Fatalf("board 1 %s-%s, want p01-p07", ms[0].Home, ms[0].Away)
	}
	f.now = time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC)
	return ms[0]
}

// outsider is the captain of a team of the antichess cup that does not
// play in match m.
func outsider(m arbiter.Match) string {
	for i := 1; ; i++ {
		id := fmt.Sprintf("team-%02d", i)
		if id != m.Home && id != m.Away {
			return captainOf(id)
		}
	}
}

var (
	inputRE = regexp.MustCompile(`<(input|select|textarea)\b[^>]*>`)
	idRE    = regexp.MustCompile(`\sid="([^"]+)"`)
)
