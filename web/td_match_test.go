package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/armageddon"
)

// TestTDMatchShowsArmageddonBids renders the match page's armageddon
// section from a stored auction (knockout matches only, so built here):
// one sealed bid in, then both revealed and settled.
func TestTDMatchShowsArmageddonBids(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var c armageddon.Commitment
	d := tdMatchData{Ev: arbiter.Event{Slug: "atc", Name: "Cup"}, M: arbiter.Match{ID: "s2r1b1", Home: "team-01", Away: "team-04", Status: arbiter.MatchScheduled},
		Home: "Team 01", Away: "Team 04", Armageddon: &app.Armageddon{Match: "s2r1b1", Auction: armageddon.Auction{MatchID: "s2r1b1", Committed: [2]*armageddon.Commitment{&c, nil}}}}
	rec := httptest.NewRecorder()
	f.srv.render(rec, httptest.NewRequest("GET", "/", nil), http.StatusOK, "td_match", page{Title: "m", Data: d})
	body := rec.Body.String()
	checkPage(t, "td_match", body)
	wantContains(t, body, "Armageddon bids", "Home: sealed bid in", "Away: no bid yet")

	d.Armageddon.Auction.Committed[1] = &c
	d.Armageddon.Auction.Revealed = [2]*armageddon.Secret{{Bid: 4 * time.Minute}, {Bid: 4*time.Minute + 30*time.Second}}
	d.Armageddon.Outcome = &armageddon.Outcome{White: armageddon.SideA, WhiteTime: 4 * time.Minute, BlackTime: 3 * time.Minute}
	rec = httptest.NewRecorder()
	f.srv.render(rec, httptest.NewRequest("GET", "/", nil), http.StatusOK, "td_match", page{Title: "m", Data: d})
	body = rec.Body.String()
	wantContains(t, body, "Home: sealed bid in, revealed 4m0s", "Away: sealed bid in, revealed 4m30s", "Settled: home plays White with 4m0s against 3m0s")
}
