package web

import (
	"context"
	"slices"
	"strings"
	"testing"

	"arbiter"
	"arbiter/demo"
	"arbiter/sqlstore/storetest"
)

// readCounter requests pages as several users and checks that each
// request ran exactly one read transaction. Around it: the first
// visitor's request resolves the event's ID once for the page cache (one
// statement, none after); a signed-in user's session is looked up before
// the page (two statements: the session and its user). On PostgreSQL the
// page cache's check of the event's change log is one more statement per
// visitor's request (on SQLite a prepared statement the counters do not
// see).
type readCounter struct {
	f       *fixture
	visited bool  // a visitor's request resolved the event's ID
	mark    int64 // statements of the page cache's check, per visitor's request
}

// get requests target as who ("" a visitor), checks the counts and
// returns the body.
func (c *readCounter) get(t *testing.T, who, target string) string {
	t.Helper()
	tok, statements := "", int64(1)
	if c.visited {
		statements = 0
	}
	if who != "" {
		tok, statements = c.f.signIn(t, who), 2
	} else {
		c.visited = true
		statements += c.mark
	}
	before := c.f.db.Counts()
	res, body := c.f.as(t, tok, "GET", target, nil)
	wantStatus(t, res, body, 200)
	got := c.f.db.Counts().Sub(before)
	t.Logf("%s as %q: %d transactions, %d statements outside one", target, who, got.Transactions, got.Statements)
	if got.Transactions != 1 || got.Statements != statements {
		t.Errorf("%s as %q: %d transactions and %d statements outside one, want 1 and %d", target, who, got.Transactions, got.Statements, statements)
	}
	return body
}

// TestRoundPageOneRead: the round page and the round's API read
// everything they show (the round and its window, its matches with their
// entrants and results, what the viewer may see) in one read transaction,
// for a visitor, a captain and a TD, whether the round is under review
// or published. While under review only the TD sees the pairings.
func TestRoundPageOneRead(t *testing.T) {
	t.Parallel()
	roundPageOneRead(t, newFixture(t), 0)
}

// TestRoundPageOneReadPostgres is TestRoundPageOneRead on PostgreSQL when
// $ARBITER_TEST_POSTGRES names a server (skipped otherwise).
func TestRoundPageOneReadPostgres(t *testing.T) {
	t.Parallel()
	roundPageOneRead(t, newFixtureOn(t, storetest.Postgres(t)), 1)
}

func roundPageOneRead(t *testing.T, f *fixture, mark int64) {
	rkccEvent(t, f)
	ctx := context.Background()
	if _, _, err := f.app.PairRound(ctx, tdActor, "rk"); err != nil {
		t.Fatal(err)
	}
	c := &readCounter{f: f, mark: mark}
	const page, api = "/events/rk/rounds/s1r1", "/api/events/rk/rounds/s1r1/matches"
	for _, who := range []string{"", "cap1", tdActor.Name} {
		body := c.get(t, who, page)
		td := who == tdActor.Name
		if strings.Contains(body, "/matches/s1r1b1") != td || strings.Contains(body, `data-test="round-review"`) != td ||
			strings.Contains(body, "The TDs are reviewing this round") == td {
			t.Errorf("round under review as %q: pairings shown %v, want %v", who, !td, td)
		}
		body = c.get(t, who, api)
		if strings.Contains(body, `"s1r1b1"`) != td {
			t.Errorf("API round under review as %q: pairings shown %v, want %v", who, !td, td)
		}
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "rk"))
	for _, who := range []string{"", "cap1", tdActor.Name} {
		body := c.get(t, who, page)
		if !strings.Contains(body, "/matches/s1r1b1") || strings.Contains(body, `data-test="round-review"`) {
			t.Errorf("published round as %q: no pairings, or still under review", who)
		}
		if body = c.get(t, who, api); !strings.Contains(body, `"s1r1b1"`) {
			t.Errorf("API published round as %q: no pairings", who)
		}
	}
	// The view itself, through app: one transaction, nothing else.
	before := f.db.Counts()
	v, err := f.app.RoundView(ctx, arbiter.NamedUser("cap1"), "rk", "s1r1")
	if err != nil || !v.Visible || len(v.Matches) != 4 || v.Round == nil || v.Window == nil || !slices.Contains(v.Roles.Captain, "team-1") {
		t.Fatalf("RoundView as cap1: %+v, %v", v, err)
	}
	if got := f.db.Counts().Sub(before); got.Transactions != 1 || got.Statements != 0 {
		t.Errorf("RoundView: %+v, want one transaction", got)
	}
}

// TestBracketPageOneRead: the bracket page and its API read the event,
// the knockout's seeds and its matches in one read transaction, for a
// visitor, a captain and a TD.
func TestBracketPageOneRead(t *testing.T) {
	t.Parallel()
	f := demoEvent(t, demo.Options{Preset: "antichess-team-cup", Entrants: 10, Seed: 1, Slug: "ac", StopAfter: "s2r1"})
	es, err := f.app.Entrants(context.Background(), "ac")
	if err != nil || len(es) == 0 || es[0].Kind != arbiter.EntrantTeam {
		t.Fatalf("entrants %v, %v", es, err)
	}
	c := &readCounter{f: f}
	for _, who := range []string{"", es[0].Captain, demo.TD.Name} {
		if body := c.get(t, who, "/events/ac/bracket"); !strings.Contains(body, `<svg class="bracket"`) {
			t.Errorf("bracket page as %q draws no bracket", who)
		}
		if body := c.get(t, who, "/api/events/ac/bracket"); !strings.Contains(body, `"R1-M1"`) {
			t.Errorf("bracket API as %q has no semifinal", who)
		}
	}
}
