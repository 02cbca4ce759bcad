package web

import (
	"context"
	"testing"

	"arbiter"
)

// TestMatchPageOneRead: a match page reads everything it shows (the
// match, its round and entrants, the negotiation, the reports and
// lineups the viewer may see, the armageddon state, the viewer's side)
// in one read transaction, a consistent snapshot. Around it: a visitor's
// first request resolves the event's ID once for the page cache (one
// statement); a signed-in user's session is looked up before the page
// (two statements: the session and its user).
func TestMatchPageOneRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rkccEvent(t, f)
	ctx := context.Background()
	cap1 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
	ok(t)(f.app.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"cap1", "a1", "b1"}))
	_, _, err := f.app.PairRound(ctx, tdActor, "rk")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "rk"))
	const target = "/events/rk/matches/s1r1b1"
	for _, c := range []struct {
		who        string
		statements int64 // outside any transaction
	}{{"", 1}, {"cap1", 2}, {"cap5", 2}, {"ArbiterTD", 2}} {
		tok := ""
		if c.who != "" {
			tok = f.signIn(t, c.who)
		}
		before := f.db.Counts()
		res, body := f.as(t, tok, "GET", target, nil)
		wantStatus(t, res, body, 200)
		got := f.db.Counts().Sub(before)
		t.Logf("match page as %q: %d transactions, %d statements outside one", c.who, got.Transactions, got.Statements)
		if got.Transactions != 1 || got.Statements != c.statements {
			t.Errorf("match page as %q: %d transactions and %d statements outside one, want 1 and %d", c.who, got.Transactions, got.Statements, c.statements)
		}
	}
	// The view itself, through app: one transaction, nothing else.
	before := f.db.Counts()
	v, err := f.app.MatchView(ctx, arbiter.NamedUser("cap1"), "rk", "s1r1b1")
	if err != nil || v.Side != "home" || v.Lineups == nil || v.Lineups.Home.Status != "submitted" || v.Lineups.Away.Status != "hidden" {
		t.Fatalf("MatchView as cap1: %+v, %v", v, err)
	}
	if got := f.db.Counts().Sub(before); got.Transactions != 1 || got.Statements != 0 {
		t.Errorf("MatchView: %+v, want one transaction", got)
	}
}
