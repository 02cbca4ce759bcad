package web

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// TestMatchLichessGames: once the players agreed a time, the match page
// and the match API list the games Arbiter created on Lichess, with their
// links, colours and results.
func TestMatchLichessGames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	ctx := context.Background()
	fl := lichesstest.Start(t, lichesstest.Options{Seed: 1, Now: func() time.Time { return f.now }, AutoUsers: true})
	fl.AddToken("lip_org", "organiser", lichesstest.AllScopes...)
	f.app.SetLichess(fl.Client(t, "lip_org", lichesstest.NewClock(f.now)))
	if _, err := f.app.OpenJobs(nil); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2023, 3, 22, 18, 0, 0, 0, time.UTC)
	offers := []time.Time{start, start.Add(24 * time.Hour), start.Add(48 * time.Hour)}
	f.now = time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC)
	if _, _, err := f.app.Negotiate(ctx, arbiter.Actor{Name: "p01", Role: arbiter.RolePlayer}, "wc", m.ID, app.NegotiationStep{Kind: app.NegPropose, Times: offers}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.app.Negotiate(ctx, arbiter.Actor{Name: "p07", Role: arbiter.RolePlayer}, "wc", m.ID, app.NegotiationStep{Kind: app.NegAccept, At: start}); err != nil {
		t.Fatal(err)
	}
	f.now = start
	if _, err := f.app.Jobs().RunDue(ctx, f.now, 1); err != nil {
		t.Fatal(err)
	}
	pend := fl.Pending()
	if len(pend) != 1 || pend[0].White != "p01" || pend[0].Black != "p07" {
		t.Fatalf("games on Lichess %+v", pend)
	}
	if err := fl.Finish(pend[0].ID, lichesstest.BlackWins); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(app.GamesPoll)
	if _, err := f.app.Jobs().RunDue(ctx, f.now, 1); err != nil {
		t.Fatal(err)
	}
	res, body := f.do(t, "GET", "/events/wc/matches/"+m.ID)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<caption>Games on Lichess</caption>`, `<a href="https://lichess.org/`+pend[0].ID+`">game 1</a>`,
		"<td>p01</td><td>p07</td><td>0-1</td>", "<td>p07</td><td>p01</td><td>waiting for the players to join</td>")
	res, body = f.do(t, "GET", "/api/events/wc/matches/"+m.ID)
	wantStatus(t, res, body, 200)
	var out struct {
		Games []struct {
			ID, URL, White, Black, Result, State string
			Number                               int
		} `json:"lichess_games"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Games) != 2 || out.Games[0].ID != pend[0].ID || out.Games[0].Result != "0-1" || out.Games[1].White != "p07" ||
		out.Games[1].Number != 2 || out.Games[1].State != "waiting for the players to join" {
		t.Fatalf("API games %+v", out.Games)
	}
}

// TestConsoleLichessToken: the TD console says what the organiser's token
// allows, with a plain message for each feature a missing scope turns off.
func TestConsoleLichessToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acwcEvent(t, f)
	tdTok := f.signIn(t, tdActor.Name)
	_, body := f.as(t, tdTok, "GET", "/events/wc/td", nil)
	wantContains(t, body, "Arbiter creates each game on Lichess at the agreed start", "No organiser's token")
	f.app.SetOrganiser(&lichess.Organiser{UserID: "organiser", Scopes: []string{lichess.ScopeChallengeBulk}})
	_, body = f.as(t, tdTok, "GET", "/events/wc/td", nil)
	wantContains(t, body, "Organiser's token of <strong>organiser</strong>, scopes: <code>challenge:bulk</code>.",
		`data-feature="bulk_pairing">On: Bulk pairing`,
		`data-feature="messages">Off: No Lichess messages: the organiser&#39;s token lacks msg:write.`)
	if _, err := f.app.LichessAccessOf(context.Background(), arbiter.Actor{Name: "p01", Role: arbiter.RolePlayer}, "wc"); arbiter.ErrorCode(err) != arbiter.EFORBIDDEN {
		t.Fatalf("a player reads the token's scopes: %v", err)
	}
}
