package lichess

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter"
)

func TestNewRejectsRelativeURL(t *testing.T) {
	for _, u := range []string{"lichess.org", "/api", "::"} {
		if _, err := New(Options{BaseURL: u}); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
}

func TestErrorStatuses(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/nobody", 404, "error.404.json")
	fs.handle("POST /api/challenge/mary", 400, "error.400.json")
	fs.handle("POST /api/token/test", 400, "POST_api_token.400.json")
	fs.handleFunc("GET /api/account", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"No such token"}`)
	})
	fs.handleFunc("GET /api/team/broken", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html>bad gateway</html>")
	})
	c, _ := fs.client(Options{})
	ctx := context.Background()
	_, e404 := c.User(ctx, "nobody")
	_, e400 := c.CreateChallenge(ctx, "mary", ChallengeRequest{})
	_, eOAuth := c.TestTokens(ctx, []string{"x"})
	_, e401 := c.Account(ctx)
	_, e502 := c.Team(ctx, "broken")
	for _, tc := range []struct {
		name   string
		err    error
		code   string
		status int
		msg    string
	}{
		{"404", e404, arbiter.ENOTFOUND, 404, "Not found."},
		{"400", e400, arbiter.EINVALID, 400, "This request is invalid because [...]"},
		{"oauth 400", eOAuth, arbiter.EINVALID, 400, "hash of code_verifier does not match code_challenge"},
		{"401", e401, arbiter.EUNAUTHORIZED, 401, "No such token"},
		{"502", e502, arbiter.EINTERNAL, 502, "<html>bad gateway</html>"},
	} {
		var ae *APIError
		if !errors.As(tc.err, &ae) {
			t.Errorf("%s: %v is not an *APIError", tc.name, tc.err)
			continue
		}
		if ae.Status != tc.status || ae.Message != tc.msg {
			t.Errorf("%s: status %d message %q", tc.name, ae.Status, ae.Message)
		}
		if got := arbiter.ErrorCode(tc.err); got != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, got, tc.code)
		}
	}
	if m := arbiter.ErrorMessage(e404); m != "lichess: Not found." {
		t.Errorf("user-facing 404 message %q", m)
	}
}

// TestRateLimit429BackoffAndRetry: the first answer is 429, the client
// pauses RateLimitPause on the fake clock and the retry succeeds.
func TestRateLimit429BackoffAndRetry(t *testing.T) {
	fs := newFixtureServer(t)
	var calls atomic.Int32
	mary := fs.fixture("GET_api_user_username.json")
	fs.handleFunc("GET /api/user/mary", func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":"Too many requests. Try again later."}`)
			return
		}
		w.Write(mary)
	})
	c, ft := fs.client(Options{})
	start := ft.Now()
	u, err := c.User(context.Background(), "mary")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "mary" || calls.Load() != 2 {
		t.Errorf("user %q after %d calls", u.ID, calls.Load())
	}
	if s := ft.Sleeps(); !slices.Equal(s, []time.Duration{60 * time.Second}) {
		t.Errorf("sleeps %v, want one 60s pause", s)
	}
	if d := ft.Now().Sub(start); d != time.Minute {
		t.Errorf("elapsed %v", d)
	}
}

// TestRateLimit429GivesUp: a second 429 is returned as an error, and the
// next request still waits out the pause that the last 429 started.
func TestRateLimit429GivesUp(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handleFunc("GET /api/user/mary", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":"Too many requests. Try again later."}`)
	})
	fs.handle("GET /api/team/lichess-swiss", 200, "GET_api_team_teamId.json")
	c, ft := fs.client(Options{})
	_, err := c.User(context.Background(), "mary")
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 429 || ae.Message != "Too many requests. Try again later." {
		t.Fatalf("err %v", err)
	}
	if n := len(fs.requests()); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}
	before := ft.Now()
	if _, err := c.Team(context.Background(), "lichess-swiss"); err != nil {
		t.Fatal(err)
	}
	if d := ft.Now().Sub(before); d != time.Minute {
		t.Errorf("next request waited %v, want the 60s pause", d)
	}
	want := []time.Duration{time.Minute, time.Minute}
	if s := ft.Sleeps(); !slices.Equal(s, want) {
		t.Errorf("sleeps %v, want %v", s, want)
	}
}

func TestRateLimit429NoRetry(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handleFunc("GET /api/user/mary", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c, ft := fs.client(Options{Retries429: -1})
	if _, err := c.User(context.Background(), "mary"); err == nil {
		t.Fatal("429 not reported")
	}
	if n := len(fs.requests()); n != 1 || len(ft.Sleeps()) != 0 {
		t.Errorf("%d requests, sleeps %v", n, ft.Sleeps())
	}
}

// TestRateLimitSpacing: back-to-back requests start MinInterval apart.
func TestRateLimitSpacing(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, ft := fs.client(Options{MinInterval: 2 * time.Second})
	start := ft.Now()
	for range 4 {
		if _, err := c.User(context.Background(), "mary"); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second}
	if s := ft.Sleeps(); !slices.Equal(s, want) {
		t.Errorf("sleeps %v, want %v", s, want)
	}
	if d := ft.Now().Sub(start); d != 6*time.Second {
		t.Errorf("4 requests took %v of fake time, want 6s", d)
	}
}

// TestRateLimitNoWaitWhenSpaced: requests already further apart than the
// interval do not wait.
func TestRateLimitNoWaitWhenSpaced(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, ft := fs.client(Options{})
	for range 3 {
		if _, err := c.User(context.Background(), "mary"); err != nil {
			t.Fatal(err)
		}
		ft.Sleep(context.Background(), 5*time.Second) // the caller's own pause
	}
	if s := ft.Sleeps(); !slices.Equal(s, []time.Duration{5 * time.Second, 5 * time.Second, 5 * time.Second}) {
		t.Errorf("client waited: %v", s)
	}
}

// TestStreamCancelMidway: the server sends one game and then holds the
// connection open; cancelling the context ends the iteration with the
// context's error, and the request slot is free again afterwards.
func TestStreamCancelMidway(t *testing.T) {
	fs := newFixtureServer(t)
	lines := fs.fixture("synthetic/games_antichess_match.ndjson")
	first := lines[:slices.Index(lines, '\n')+1]
	fs.handleFunc("GET /api/games/user/playera", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Write(first)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, _ := fs.client(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ids []string
	var last error
	for g, err := range c.GamesOfUser(ctx, "playera", GamesQuery{}) {
		if err != nil {
			last = err
			continue
		}
		ids = append(ids, g.ID)
		cancel() // the caller gives up after the first game
	}
	if !slices.Equal(ids, []string{"SynTh006"}) {
		t.Errorf("games before cancel %v", ids)
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("stream ended with %v, want context.Canceled", last)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if _, err := c.User(ctx2, "mary"); err != nil {
		t.Errorf("slot not released: %v", err)
	}
}

// TestOneRequestAtATime: while a stream is being read, another request
// waits for the slot (here until its context gives up).
func TestOneRequestAtATime(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handle("GET /api/games/user/playera", 200, "synthetic/games_antichess_match.ndjson")
	fs.handle("GET /api/user/mary", 200, "GET_api_user_username.json")
	c, _ := fs.client(Options{})
	for _, err := range c.GamesOfUser(context.Background(), "playera", GamesQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.User(ctx, "mary"); !errors.Is(err, context.Canceled) {
			t.Fatalf("second request ran during the stream: %v", err)
		}
		break
	}
	for _, r := range fs.requests() {
		if r.Path == "/api/user/mary" {
			t.Error("user request reached the server while the stream held the slot")
		}
	}
}

func TestStreamBadLine(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handleFunc("GET /api/team/t/users", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "{\"id\":\"a\",\"name\":\"A\"}\n\n{\"id\":\"b\",\"name\":\"B\"}\n{oops\n{\"id\":\"c\"}\n")
	})
	c, _ := fs.client(Options{})
	var ids []string
	var errs []error
	for m, err := range c.TeamMembers(context.Background(), "t") {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, m.ID)
	}
	if !slices.Equal(ids, []string{"a", "b"}) || len(errs) != 1 {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
	if want := "lichess: GET /api/team/t/users: unreadable answer: ndjson line 4: "; !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("error %q does not name line 4", errs[0])
	}
	if !errors.Is(errs[0], ErrBadResponse) || !Retryable(errs[0]) {
		t.Errorf("a garbage line is not ErrBadResponse (retryable): %v", errs[0])
	}
}

func TestPathSegmentsEscaped(t *testing.T) {
	fs := newFixtureServer(t)
	c, _ := fs.client(Options{})
	c.User(context.Background(), "a/b?c")
	if p := fs.last().Escaped; p != "/api/user/a%2Fb%3Fc" || len(fs.last().Query) != 0 {
		t.Errorf("path %q query %v", p, fs.last().Query)
	}
}

// TestWithTokenSharesLimits: a per-user client sends its own token but
// waits out a 429 pause that the TD's client started.
func TestWithTokenSharesLimits(t *testing.T) {
	fs := newFixtureServer(t)
	fs.handleFunc("GET /api/user/mary", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	fs.handle("GET /api/account", 200, "GET_api_account.json")
	td, ft := fs.client(Options{Token: "lip_td", Retries429: -1})
	player := td.WithToken("lip_player")
	if _, err := td.User(context.Background(), "mary"); err == nil {
		t.Fatal("429 not reported")
	}
	if _, err := player.Account(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := fs.last().Header.Get("Authorization"); got != "Bearer lip_player" {
		t.Errorf("player client sent %q", got)
	}
	if s := ft.Sleeps(); !slices.Equal(s, []time.Duration{RateLimitPause}) {
		t.Errorf("player client did not wait out the pause: %v", s)
	}
	if _, err := td.Account(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := fs.last().Header.Get("Authorization"); got != "Bearer lip_td" {
		t.Errorf("TD client sent %q", got)
	}
}
