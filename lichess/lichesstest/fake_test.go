package lichesstest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/lichess"
)

var t0 = time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)

// setup is a fake and an organiser's client sharing a virtual clock.
func setup(t *testing.T, scopes ...string) (*Fake, *lichess.Client, *Clock) {
	t.Helper()
	clk := NewClock(t0)
	f := Start(t, Options{Seed: 7, Now: clk.Now})
	f.AddPlayer("Alice", lichess.PerfAntichess, 1500, 2010)
	f.AddPlayer("Bob", lichess.PerfAntichess, 1200, 1875)
	f.AddToken("lip_td", "TD", scopes...)
	return f, f.Client(t, "lip_td", clk), clk
}

// TestOpenChallengeToImport: the game Arbiter creates, finished by a
// script, comes back from the export by ids with its settings and result.
func TestOpenChallengeToImport(t *testing.T) {
	t.Parallel()
	f, c, clk := setup(t)
	ctx := context.Background()
	ch, err := c.OpenChallenge(ctx, lichess.OpenChallengeRequest{
		GameSettings: lichess.GameSettings{Rated: true, Clock: &lichess.Clock{Initial: 60, Increment: 2}, Variant: lichess.VariantAntichess,
			Rules: []string{lichess.RuleNoRematch}},
		Name: "ACWC 2023 · round 3 · game 4", Users: [2]string{"Alice", "Bob"}, ExpiresAt: t0.Add(48 * time.Hour),
	})
	if err != nil {
		t.Fatal(err)
	}
	if ch.URLWhite != "https://lichess.org/"+ch.ID+"?color=white" || ch.Clock == nil || *ch.Clock != (lichess.Clock{Initial: 60, Increment: 2}) ||
		!ch.Rated || ch.Variant != "antichess" || ch.Speed != "bullet" || ch.Status != "created" {
		t.Fatalf("challenge %+v", ch)
	}
	p := f.Pending()
	if len(p) != 1 || p[0].White != "alice" || p[0].Black != "bob" || p[0].Name != "ACWC 2023 · round 3 · game 4" {
		t.Fatalf("pending %+v", p)
	}
	clk.Advance(3 * time.Minute)
	if _, err := f.FinishAll(func(Pending) Result { return Result{Winner: "black"} }); err != nil {
		t.Fatal(err)
	}
	games, err := c.GamesByID(ctx, []string{ch.ID, "unknown1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("games %+v", games)
	}
	g := games[0]
	if g.ID != ch.ID || !g.Rated || g.Variant != "antichess" || g.Perf != "antichess" || g.Status != lichess.StatusVariantEnd ||
		g.Winner != "black" || g.White.UserID != "alice" || g.Black.UserID != "bob" || g.White.Rating != 2010 ||
		*g.Clock != (lichess.Clock{Initial: 60, Increment: 2}) || !g.CreatedAt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("game %+v", g)
	}
	// The same game through the players' export, with the window and vs.
	between, err := c.GamesBetween(ctx, "Bob", "alice", t0, t0.Add(time.Hour), lichess.PerfAntichess)
	if err != nil || len(between) != 1 || between[0].ID != ch.ID {
		t.Errorf("between %+v %v", between, err)
	}
	form := f.Asked("POST /api/challenge/open")[0].Form
	want := url.Values{"rated": {"true"}, "clock.limit": {"60"}, "clock.increment": {"2"}, "variant": {"antichess"}, "rules": {"noRematch"},
		"name": {"ACWC 2023 · round 3 · game 4"}, "users": {"Alice,Bob"}, "expiresAt": {"1772647200000"}}
	if form.Encode() != want.Encode() {
		t.Errorf("form %v", form)
	}
	// Requests are a second apart (MinInterval) on the virtual clock, and none was refused.
	for _, r := range f.Log() {
		if r.Status != 200 {
			t.Errorf("%s %s: %d", r.Method, r.Path, r.Status)
		}
	}
}

func TestOpenChallengeRefusals(t *testing.T) {
	t.Parallel()
	f, c, _ := setup(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		r    lichess.OpenChallengeRequest
		msg  string
	}{
		{"clock", lichess.OpenChallengeRequest{GameSettings: lichess.GameSettings{Clock: &lichess.Clock{Initial: 100}}}, "clock:"},
		{"noAbort", lichess.OpenChallengeRequest{GameSettings: lichess.GameSettings{Rules: []string{"noAbort"}}}, "admins only"},
		{"unknown player", lichess.OpenChallengeRequest{Users: [2]string{"alice", "nobody"}}, "no such player nobody"},
		{"expiry", lichess.OpenChallengeRequest{Users: [2]string{"alice", "bob"}, ExpiresAt: t0.Add(15 * 24 * time.Hour)}, "expiresAt"},
	} {
		_, err := c.OpenChallenge(ctx, tc.r)
		var ae *lichess.APIError
		if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, tc.msg) || arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if n := len(f.Pending()); n != 0 {
		t.Errorf("%d challenges made by refused requests", n)
	}
}

// TestScopesAndTokens: a token without the scope gets Lichess's 403 with
// the scopes the endpoint accepts; an unknown token a 401; the token test
// tells the scopes.
func TestScopesAndTokens(t *testing.T) {
	t.Parallel()
	f, c, clk := setup(t, lichess.ScopeChallengeWrite)
	ctx := context.Background()
	err := c.SendMessage(ctx, "alice", "Your pairing is out")
	var ae *lichess.APIError
	if !errors.Is(err, lichess.ErrMissingScope) || !errors.As(err, &ae) || !slices.Equal(ae.Scopes, []string{"msg:write"}) || lichess.Retryable(err) {
		t.Errorf("message without msg:write: %v", err)
	}
	_, err = c.CreateBulkPairing(ctx, lichess.BulkPairingRequest{Pairings: []lichess.Pairing{{WhiteToken: "a", BlackToken: "b"}}})
	if !errors.Is(err, lichess.ErrMissingScope) {
		t.Errorf("bulk pairing without challenge:bulk: %v", err)
	}
	bad := f.Client(t, "lip_revoked", clk)
	if _, err := bad.Account(ctx); !errors.Is(err, lichess.ErrUnauthorized) || arbiter.ErrorCode(err) != arbiter.EUNAUTHORIZED {
		t.Errorf("unknown token: %v", err)
	}
	info, err := c.CheckToken(ctx, "lip_td")
	if err != nil || info.UserID != "td" || !slices.Equal(info.Scopes, []string{"challenge:write"}) {
		t.Fatalf("token %+v %v", info, err)
	}
	var off []string
	for _, fs := range info.Features() {
		if !fs.Enabled {
			off = append(off, fs.Key)
		}
	}
	if strings.Join(off, " ") != "bulk_pairing messages team_members team_messages" {
		t.Errorf("features off %v", off)
	}
	if _, err := c.CheckToken(ctx, "lip_revoked"); !errors.Is(err, lichess.ErrTokenInvalid) {
		t.Errorf("revoked: %v", err)
	}
	if b := f.Asked("POST /api/token/test")[0].Body; b != "lip_td" {
		t.Errorf("token test body %q", b)
	}
}

// TestRateLimitRule: a request sent while another of the same token is
// in flight is refused with 429, and so is every request of that token
// in the minute after; the client waits the minute and succeeds.
func TestRateLimitRule(t *testing.T) {
	t.Parallel()
	clk := NewClock(t0)
	f := Start(t, Options{Now: clk.Now})
	f.AddPlayer("alice", lichess.PerfBlitz, 10, 1500)
	f.Inject(Fault{Route: "GET /api/user/{username}", Status: 429, Body: `{"error":"Too many requests. Try again later."}`})
	get := func() int {
		res, err := http.Get(f.URL + "/api/user/alice")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if a, b := get(), get(); a != 429 || b != 429 {
		t.Fatalf("statuses %d %d, want the fault then the minute's 429", a, b)
	}
	clk.Advance(59 * time.Second)
	if s := get(); s != 429 {
		t.Fatalf("59 s later: %d", s)
	}
	clk.Advance(61 * time.Second)
	if s := get(); s != 200 {
		t.Fatalf("after the minute: %d", s)
	}
	// The client, on the same clock, waits out the minute after a 429.
	c := f.Client(t, "", clk)
	f.Inject(Fault{Route: "GET /api/user/{username}", Status: 429})
	if _, err := c.User(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	if w := clk.Waits(); len(w) == 0 || w[len(w)-1] != time.Minute {
		t.Errorf("client waits %v", w)
	}
	// A request while another of the same token is in flight is refused
	// (white box: the other request is marked in flight).
	f.AddToken("lip_x", "alice")
	f.mu.Lock()
	f.inFlight["token:lip_x"]++
	f.mu.Unlock()
	req, _ := http.NewRequest("GET", f.URL+"/api/account", nil)
	req.Header.Set("Authorization", "Bearer lip_x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 {
		t.Errorf("concurrent request: %d", res.StatusCode)
	}
}

func TestGarbageAndDown(t *testing.T) {
	t.Parallel()
	f, c, _ := setup(t)
	ctx := context.Background()
	f.Inject(Fault{Route: "GET /api/user/{username}", Body: "<html>oops"},
		Fault{Route: "GET /api/user/{username}", Status: 503, Body: "down"})
	_, err := c.User(ctx, "alice")
	if !errors.Is(err, lichess.ErrBadResponse) || !lichess.Retryable(err) {
		t.Errorf("garbage: %v", err)
	}
	_, err = c.User(ctx, "alice")
	if !errors.Is(err, lichess.ErrUnavailable) || !lichess.Retryable(err) {
		t.Errorf("down: %v", err)
	}
	if _, err := c.User(ctx, "nobody"); !errors.Is(err, lichess.ErrNotFound) || lichess.Retryable(err) {
		t.Errorf("unknown user: %v", err)
	}
}

// TestBulkPairingFlow: a bulk pairing scheduled an hour ahead has no games
// until then; at pairAt they exist and both players get the message with
// the game's link; cancelling afterwards changes nothing.
func TestBulkPairingFlow(t *testing.T) {
	t.Parallel()
	f, c, clk := setup(t, lichess.ScopeChallengeBulk)
	f.AddToken("lip_alice", "alice", lichess.ScopeChallengeWrite)
	f.AddToken("lip_bob", "bob", lichess.ScopeChallengeWrite)
	f.AddToken("lip_nobulk", "carol")
	ctx := context.Background()
	req := lichess.BulkPairingRequest{GameSettings: lichess.GameSettings{Rated: true, Clock: &lichess.Clock{Initial: 0, Increment: 2},
		Variant: lichess.VariantAntichess}, Pairings: []lichess.Pairing{{WhiteToken: "lip_bob", BlackToken: "lip_alice"}},
		PairAt: t0.Add(time.Hour), Message: "Board 1: {game} against {opponent}"}
	bad := req
	bad.Pairings = []lichess.Pairing{{WhiteToken: "lip_bob", BlackToken: "lip_nobulk"}}
	if _, err := c.CreateBulkPairing(ctx, bad); err == nil || !strings.Contains(err.Error(), "lacks the challenge:write scope") {
		t.Errorf("a player's token without challenge:write: %v", err)
	}
	bp, err := c.CreateBulkPairing(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	g := bp.Games[0]
	if g.White != "bob" || g.Black != "alice" || !bp.PairAt.Equal(t0.Add(time.Hour)) || !bp.PairedAt.IsZero() {
		t.Fatalf("bulk %+v", bp)
	}
	if _, ok := f.Game(g.ID); ok || len(f.Messages()) != 0 {
		t.Fatal("games made before pairAt")
	}
	clk.Advance(time.Hour)
	got, err := c.BulkPairing(ctx, bp.ID)
	if err != nil || !got.PairedAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("after pairAt %+v %v", got, err)
	}
	game, ok := f.Game(g.ID)
	if !ok || game.Status != lichess.StatusCreated || game.Perf != "antichess" || !game.Rated {
		t.Fatalf("game %+v", game)
	}
	msgs := f.Messages()
	if len(msgs) != 2 || msgs[0].To != "bob" || msgs[0].From != "td" ||
		msgs[0].Text != "Board 1: https://lichess.org/"+g.ID+" against https://lichess.org/@/alice" {
		t.Errorf("messages %+v", msgs)
	}
	if err := c.StartBulkClocks(ctx, bp.ID); err != nil {
		t.Fatal(err)
	}
	if game, _ := f.Game(g.ID); game.Status != lichess.StatusStarted {
		t.Errorf("clocks not started: %s", game.Status)
	}
	if err := c.CancelBulkPairing(ctx, bp.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := c.BulkPairings(ctx); err != nil || len(list) != 1 {
		t.Errorf("a paired bulk was cancelled: %+v %v", list, err)
	}
	if p := f.Pending(); len(p) != 1 || p[0].ID != g.ID {
		t.Errorf("pending %+v", p)
	}
}

// TestInboxRatingsTeams: messages reach the inbox log; ratings, rating
// history and team membership come back as seeded.
func TestInboxRatingsTeams(t *testing.T) {
	t.Parallel()
	f, c, _ := setup(t, lichess.ScopeMsgWrite)
	ctx := context.Background()
	if err := c.SendMessage(ctx, "Alice", "Round 2: you play Bob, deadline Sunday 23:59."); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMessage(ctx, "ghost", "hello"); err == nil {
		t.Error("a message to nobody accepted")
	}
	if m := f.Messages(); len(m) != 1 || m[0].To != "alice" || m[0].From != "td" || !m[0].At.Equal(t0) {
		t.Errorf("messages %+v", m)
	}
	r, err := c.Rating(ctx, "alice", lichess.PerfAntichess)
	if err != nil || !r.Listed || r.Rating != 2010 || r.Games != 1500 {
		t.Errorf("rating %+v %v", r, err)
	}
	if r, err := c.Rating(ctx, "alice", lichess.PerfBlitz); err != nil || r.Listed {
		t.Errorf("an unplayed perf: %+v %v", r, err)
	}
	day := func(d int) time.Time { return time.Date(2025, 12, d, 0, 0, 0, 0, time.UTC) }
	f.SetHistory("alice", lichess.PerfAntichess, []lichess.RatingPoint{{Date: day(1), Rating: 2190}, {Date: day(2), Rating: 2230}})
	h, err := c.PerfHistory(ctx, "alice", lichess.PerfAntichess)
	if err != nil || len(h) != 2 || !h[1].Date.Equal(day(2)) || h[1].Rating != 2230 {
		t.Errorf("history %+v %v", h, err)
	}
	us, err := c.Users(ctx, []string{"alice", "bob", "ghost"})
	if err != nil || len(us) != 2 || us[1].Perfs[lichess.PerfAntichess].Rating != 1875 {
		t.Errorf("users %+v %v", us, err)
	}
	f.AddTeam("antichess-cup", "Antichess Cup", false, "alice")
	f.AddTeam("secret", "Secret", true, "bob")
	for _, tc := range []struct {
		team, user string
		in         bool
	}{{"antichess-cup", "alice", true}, {"antichess-cup", "bob", false}, {"secret", "bob", false}} {
		// A team hiding its members shows only to a member's token.
		if in, err := c.IsTeamMember(ctx, tc.team, tc.user); err != nil || in != tc.in {
			t.Errorf("%s in %s: %v %v", tc.user, tc.team, in, err)
		}
	}
	for _, err := range c.TeamMembers(ctx, "secret") {
		if !errors.Is(err, lichess.ErrMissingScope) {
			t.Errorf("a private team's members without team:read: %v", err)
		}
	}
}

// TestTeamMessages: a team update reaches every member but its sender,
// the team's leader; anyone else gets Lichess's 400, a token without
// team:lead the 403 naming it, an unknown team a 404.
func TestTeamMessages(t *testing.T) {
	t.Parallel()
	f, c, _ := setup(t, lichess.ScopeTeamLead)
	ctx := context.Background()
	f.AddTeam("antichess-cup", "Antichess Cup", false, "td", "alice", "bob")
	f.AddTeam("others", "Others", false, "bob", "td")
	if err := c.SendTeamMessage(ctx, "Antichess-Cup", "Round 1 is published."); err != nil {
		t.Fatal(err)
	}
	if m := f.TeamMessages("antichess-cup"); len(m) != 1 || m[0].From != "td" || !slices.Equal(m[0].To, []string{"alice", "bob"}) ||
		m[0].Text != "Round 1 is published." || !m[0].At.Equal(t0) {
		t.Errorf("team messages %+v", m)
	}
	var ae *lichess.APIError
	if err := c.SendTeamMessage(ctx, "others", "hello"); !errors.As(err, &ae) || ae.Status != 400 {
		t.Errorf("an update from a member who does not lead the team: %v", err)
	}
	if err := c.SendTeamMessage(ctx, "nowhere", "hello"); !errors.As(err, &ae) || ae.Status != 404 {
		t.Errorf("an update to no team: %v", err)
	}
	_, noLead, _ := setup(t, lichess.ScopeMsgWrite)
	if err := noLead.SendTeamMessage(ctx, "antichess-cup", "hello"); !errors.Is(err, lichess.ErrMissingScope) {
		t.Errorf("an update without team:lead: %v", err)
	}
	if len(f.TeamMessages("others")) != 0 || len(f.Messages()) != 0 {
		t.Error("a refused update was recorded, or an update went to the inbox")
	}
	// A rehearsal makes its team and reads the updates through /_fake/.
	res, err := http.Post(f.URL+"/_fake/team?id=club&members=td,alice", "", nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("POST /_fake/team: %v %v", res, err)
	}
	res.Body.Close()
	if err := c.SendTeamMessage(ctx, "club", "Round 2 results."); err != nil {
		t.Fatal(err)
	}
	res, err = http.Get(f.URL + "/_fake/team-messages?id=club")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got []TeamMessage
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || len(got) != 1 || !slices.Equal(got[0].To, []string{"alice"}) || got[0].Text != "Round 2 results." {
		t.Errorf("GET /_fake/team-messages: %+v %v", got, err)
	}
}
