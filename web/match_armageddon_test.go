package web

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
)

// knockoutOnly is a four-player knockout whose tied matches go to two
// tiebreak games, then armageddon (A3's sealed bids, coin flip).
const knockoutOnly = `{
  "name": "ko-only",
  "title": "Knockout",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "armageddon": {"black": "3+0", "black_draw_odds": true, "equal_bids": "coin_flip"},
  "stages": [
    {"name": "knockout", "kind": "knockout", "pairing": "bracket", "seeding": "standings",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss",
               "tie": [{"kind": "games", "games": 2, "tc": "1+2"}, {"kind": "armageddon"}]}}
  ]
}`

var nonceRE = regexp.MustCompile(`reveal your bid of (\d+) s: ([0-9a-f]{64})`)

// TestArmageddonBids: both sides seal a bid on the match page (the
// server draws the nonce and shows it once), then reveal; the lower bid
// plays White (A3). Through the API a side commits its own hash.
func TestArmageddonBids(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	f.now = time.Date(2023, 3, 1, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "ko", Name: "KO", Format: []byte(knockoutOnly), Start: time.Date(2023, 3, 21, 0, 0, 0, 0, time.UTC)}))
	for i := 1; i <= 4; i++ {
		n := fmt.Sprintf("p%02d", i)
		ok(t)(f.app.Register(ctx, arbiter.Actor{Name: n, Role: arbiter.RolePlayer}, "ko", arbiter.Entrant{Player: n, Rating: 2500 - 50*i}))
		ok(t)(f.app.Approve(ctx, tdActor, "ko", n, 0))
	}
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "ko"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "ko")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "ko"))
	f.now = time.Date(2023, 3, 22, 0, 0, 0, 0, time.UTC)
	m0, m1 := ms[0], ms[1]
	home, away := f.signIn(t, m0.Home), f.signIn(t, m0.Away)
	target := "/events/ko/matches/" + m0.ID

	_, body := f.as(t, home, "GET", target, nil)
	wantContains(t, body, `<form id="armageddon-bid"`, "No bid yet")
	res, body := f.as(t, "", "POST", target+"/armageddon", url.Values{"bid": {"150"}})
	wantSignIn(t, res, body)
	f.submit(t, f.signIn(t, m1.Home), target+"/armageddon", url.Values{"bid": {"150"}}).wantRefused(t, "own match")
	f.submit(t, home, target+"/armageddon", url.Values{"bid": {"abc"}}).wantRefused(t, "bid_seconds")

	sealed := f.submit(t, home, target+"/armageddon", url.Values{"bid": {"150"}})
	sealed.wantOK(t, "Sealed bid recorded")
	hm := nonceRE.FindStringSubmatch(sealed.Message)
	if hm == nil || hm[1] != "150" {
		t.Fatalf("no nonce in %q", sealed.Message)
	}
	// The reveal waits for the other bid (A3).
	f.submit(t, home, target+"/armageddon", url.Values{"step": {"reveal"}, "bid": {"150"}, "nonce": {hm[2]}}).wantRefused(t, "A3")

	// The away side seals its own commitment through the API.
	c, sec, err := armageddon.Seal(armageddon.RulesA3(), m0.ID, armageddon.SideB, 120*time.Second, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	api := "/api/events/ko/matches/" + m0.ID + "/armageddon"
	f.apiAs(t, "", "POST", api, map[string]any{"commitment": c.String()}, 401, nil)
	f.apiAs(t, away, "POST", api, map[string]any{"commitment": c.String()}, 200, nil)
	_, body = f.as(t, away, "GET", target, nil)
	wantContains(t, body, "Both sealed bids are in", `<form id="armageddon-reveal"`)
	if msg := checkBalanced(body); msg != "" {
		t.Errorf("match page: %s", msg)
	}
	if strings.Contains(body, `id="armageddon-bid"`) {
		t.Error("a side that bid is offered the bid form again")
	}

	// A changed bid does not match the commitment.
	f.submit(t, home, target+"/armageddon", url.Values{"step": {"reveal"}, "bid": {"140"}, "nonce": {hm[2]}}).wantRefused(t)
	f.submit(t, home, target+"/armageddon", url.Values{"step": {"reveal"}, "bid": {"150"}, "nonce": {hm[2]}}).wantOK(t, "revealed")
	var out struct {
		Armageddon app.Armageddon `json:"armageddon"`
	}
	f.apiAs(t, away, "POST", api, map[string]any{"reveal": true, "bid_seconds": 120, "nonce": sec.NonceHex()}, 200, &out)
	o := out.Armageddon.Outcome
	if o == nil || o.White != armageddon.SideB || o.WhiteTime != 120*time.Second {
		t.Fatalf("outcome %+v", o)
	}
	a, err := f.app.ArmageddonOf(ctx, "ko", m0.ID)
	if err != nil || a.Outcome == nil || a.Outcome.White != armageddon.SideB {
		t.Fatalf("stored auction %+v %v", a, err)
	}
	_, body = f.do(t, "GET", target)
	wantContains(t, body, "Settled: away plays White with 2m0s.")
	if strings.Contains(body, `id="armageddon-bid"`) {
		t.Error("a visitor gets the bid form")
	}
}
