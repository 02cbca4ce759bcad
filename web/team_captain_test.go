package web

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lineup"
)

// rankTeam01 is the TDs' A12 ranking of team-01 by rating: cap01 2400,
// a01 2350, b01 2300, c01 2290, with b01 and c01 declared comparable.
func rankTeam01(t *testing.T, f *fixture) {
	t.Helper()
	ms := []lineup.Member{{Name: "cap01", Rating: 2400}, {Name: "a01", Rating: 2350}, {Name: "b01", Rating: 2300}, {Name: "c01", Rating: 2290}}
	ok(t)(f.app.RankBoards(context.Background(), tdActor, "atc", "team-01", ms, lineup.Comparable{{"b01", "c01"}}))
}

func teamEntrantOf(t *testing.T, f *fixture, slug, id string) arbiter.Entrant {
	t.Helper()
	es, err := f.app.Entrants(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no entrant %s", id)
	return arbiter.Entrant{}
}

// TestCaptainPageBoards: the antichess board order (A12): the captain
// reorders within the TDs' interchanges; members read; other captains
// are refused.
func TestCaptainPageBoards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	page := "/events/atc/teams/team-01/captain"
	cap01, cap02, a01, td := f.signIn(t, "cap01"), f.signIn(t, "cap02"), f.signIn(t, "a01"), f.signIn(t, "ArbiterTD")

	res, body := f.do(t, "GET", page)
	wantSignIn(t, res, body)
	res, body = f.as(t, cap02, "GET", page, nil)
	wantStatus(t, res, body, 403)
	res, body = f.as(t, cap01, "GET", "/events/atc/teams/team-99/captain", nil)
	wantStatus(t, res, body, 404)

	// Before the TDs ranked the boards.
	res, body = f.as(t, cap01, "GET", page, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `id="boards-pending"`, `data-test="captain">cap01`, `data-test="members">cap01, a01, b01, c01`)

	rankTeam01(t, f)
	res, body = f.as(t, cap01, "GET", page, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<form id="board-order"`, `<select id="board-2" name="board"><option>cap01</option><option>a01</option><option selected>b01</option>`, "b01 and c01")
	// A9: ten teams play on 4 boards.
	if got := strings.Join(cells(body, "board"), ","); got != "cap01,a01,b01,c01" {
		t.Errorf("boards %s", got)
	}
	// A member reads the page without the forms; so does a TD here.
	for _, tok := range []string{a01, td} {
		res, body = f.as(t, tok, "GET", page, nil)
		wantStatus(t, res, body, 200)
		if strings.Contains(body, `id="board-order"`) {
			t.Error("the board form is shown to someone not the captain")
		}
	}

	res, body = f.as(t, "", "POST", "/events/atc/teams/team-01/boards", url.Values{"board": {"a01", "cap01", "b01", "c01"}})
	wantSignIn(t, res, body)
	f.submit(t, cap02, "/events/atc/teams/team-01/boards", url.Values{"board": {"cap01", "a01", "c01", "b01"}}).wantRefused(t, "only the captain of team-01")
	f.submit(t, cap01, "/events/atc/teams/team-01/boards", url.Values{"board": {"a01", "cap01", "b01", "c01"}}).wantRefused(t, "A12")
	f.submit(t, cap01, "/events/atc/teams/team-01/boards", url.Values{"board": {"cap01", "a01", "c01", "b01"}}).wantOK(t, "Board order saved")
	if got := strings.Join(teamEntrantOf(t, f, "atc", "team-01").Boards, ","); got != "cap01,a01,c01,b01" {
		t.Fatalf("boards %s", got)
	}
}

// TestCaptainAPIBoards: PUT boards for every role.
func TestCaptainAPIBoards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	rankTeam01(t, f)
	url := "/api/events/atc/teams/team-01/boards"
	f.apiAs(t, "", "PUT", url, map[string]any{"boards": []string{"cap01"}}, 401, nil)
	f.apiAs(t, f.signIn(t, "cap02"), "PUT", url, map[string]any{"boards": []string{"cap01", "a01", "c01", "b01"}}, 403, nil)
	var e apiErr
	cap01 := f.signIn(t, "cap01")
	f.apiAs(t, cap01, "PUT", url, map[string]any{"boards": "cap01"}, 400, &e)
	if e.Error.Field != "boards" {
		t.Errorf("wrong type: %+v", e.Error)
	}
	f.apiAs(t, cap01, "PUT", url, map[string]any{"boards": []string{"a01", "cap01", "b01", "c01"}}, 422, &e)
	if e.Error.Rule != "A12" {
		t.Errorf("order against A12: %+v", e.Error)
	}
	var out struct{ Boards []string }
	f.apiAs(t, cap01, "PUT", url, map[string]any{"boards": []string{"cap01", "a01", "c01", "b01"}}, 200, &out)
	if strings.Join(out.Boards, ",") != "cap01,a01,c01,b01" || strings.Join(teamEntrantOf(t, f, "atc", "team-01").Boards, ",") != "cap01,a01,c01,b01" {
		t.Fatalf("boards %v", out.Boards)
	}
	f.apiAs(t, cap01, "POST", "/api/events/atc/teams/team-01/substitutions", map[string]any{"in": "", "out": "b01"}, 400, &e)
	if e.Error.Field != "in" {
		t.Errorf("substitution without in: %+v", e.Error)
	}
	f.apiAs(t, "", "POST", "/api/events/atc/teams/team-01/substitutions", map[string]any{"in": "x", "out": "b01"}, 401, nil)
	f.apiAs(t, f.signIn(t, "cap02"), "POST", "/api/events/atc/teams/team-01/substitutions", map[string]any{"in": "x", "out": "b01"}, 403, nil)
}

// rkccEvent creates the RKCC preset event "rk" (rounds Monday 00:00 to
// Sunday 23:59 UTC, R4) with 8 teams team-1..team-8 captained by
// cap1..cap8 (members capN, aN, bN, substitute cN), registration closed.
func rkccEvent(t *testing.T, f *fixture) {
	t.Helper()
	ctx := context.Background()
	f.now = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "rk", Name: "RKCC", Preset: "rkcc-team-three-tc", Start: time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)}))
	for i := 1; i <= 8; i++ {
		c := fmt.Sprintf("cap%d", i)
		e, err := f.app.Register(ctx, arbiter.Actor{Name: c, Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{Name: fmt.Sprintf("Team %d", i), Captain: c,
			Rating: 2000 - i, Members: []string{c, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}, Substitute: fmt.Sprintf("c%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ok(t)(f.app.Approve(ctx, tdActor, "rk", e.ID, 0))
	}
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "rk"))
	f.now = time.Date(2025, 1, 5, 12, 0, 0, 0, time.UTC)
}

// TestCaptainLineupRKCC: the R7 lineup form with its deadline and the
// default lineup of an earlier round.
func TestCaptainLineupRKCC(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rkccEvent(t, f)
	page := "/events/rk/teams/team-1/captain"
	cap1, cap2 := f.signIn(t, "cap1"), f.signIn(t, "cap2")
	res, body := f.as(t, cap1, "GET", page, nil)
	wantStatus(t, res, body, 200)
	// R4: round 1 starts Monday 6 January 00:00 UTC; the lineup is due then.
	wantContains(t, html.UnescapeString(body), `<form id="lineup"`, "Round 1:", "Mon 6 Jan 2025 00:00 UTC", `id="current-lineup">No lineup submitted yet.`,
		`<label for="set-0">Set 1 (3+2)</label>`)

	f.submit(t, cap2, "/events/rk/teams/team-1/lineup", url.Values{"round": {"1"}, "set": {"cap1", "a1", "b1"}}).wantRefused(t, "only the captain of team-1")
	f.submit(t, cap1, "/events/rk/teams/team-1/lineup", url.Values{"round": {"x"}, "set": {"cap1", "a1", "b1"}}).wantRefused(t, "round")
	f.submit(t, cap1, "/events/rk/teams/team-1/lineup", url.Values{"round": {"1"}, "set": {"cap1", "a1", "nobody"}}).wantRefused(t)
	r := f.submit(t, cap1, "/events/rk/teams/team-1/lineup", url.Values{"round": {"1"}, "set": {"cap1", "a1", "b1"}})
	r.wantOK(t, "Lineup for round 1 saved")
	if r.Location != page+"?round=1" {
		t.Errorf("back to %q", r.Location)
	}
	l, from, err := f.app.Lineup(context.Background(), arbiter.NamedUser("cap1"), "rk", "team-1", 1)
	if err != nil || from != 1 || strings.Join(l.Sets, ",") != "cap1,a1,b1" {
		t.Fatalf("lineup %v from %d: %v", l, from, err)
	}
	// R7: round 2 has no lineup of its own: round 1's plays by default.
	res, body = f.as(t, cap1, "GET", page+"?round=2", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, html.UnescapeString(body), "the lineup of round 1 plays by default (R7)", "3+2 cap1, 1.5+1 a1, 0.75+0 b1")
	res, body = f.as(t, cap1, "GET", page+"?round=99", nil)
	wantStatus(t, res, body, 400)

	// The API: PUT a lineup for round 2.
	api := "/api/events/rk/teams/team-1/lineups/2"
	f.apiAs(t, "", "PUT", api, map[string]any{"sets": []string{"a1", "b1", "c1"}}, 401, nil)
	f.apiAs(t, cap2, "PUT", api, map[string]any{"sets": []string{"a1", "b1", "c1"}}, 403, nil)
	var e apiErr
	f.apiAs(t, cap1, "PUT", "/api/events/rk/teams/team-1/lineups/zero", map[string]any{"sets": []string{"a1", "b1", "c1"}}, 400, &e)
	if e.Error.Field != "seq" {
		t.Errorf("bad seq %+v", e.Error)
	}
	var out struct {
		Sets         []string `json:"sets"`
		SubmittedFor int      `json:"submitted_for"`
	}
	f.apiAs(t, cap1, "PUT", api, map[string]any{"sets": []string{"a1", "b1", "c1"}}, 200, &out)
	if strings.Join(out.Sets, ",") != "a1,b1,c1" || out.SubmittedFor != 2 {
		t.Fatalf("lineup %+v", out)
	}
	// R9: the wild card is for the knockout's Swiss winner only.
	f.apiAs(t, cap1, "PUT", api, map[string]any{"wild_card": []string{"a1", "b1"}}, 422, &e)
	if !strings.Contains(e.Error.Rule, "R9") {
		t.Errorf("wild card in the Swiss %+v", e.Error)
	}
}

// TestCaptainSubstitution: A14: the fifth member replaces a comparable
// board player for the next round, announced by the captain.
func TestCaptainSubstitution(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "sub", Name: "Cup", Preset: "antichess-team-cup", Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}))
	for i := 1; i <= 10; i++ {
		c := fmt.Sprintf("cap%02d", i)
		e, err := f.app.Register(ctx, captain(i), "sub", arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: c, Rating: 2300 - 10*i,
			Members: []string{c, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}, Substitute: fmt.Sprintf("s%02d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ok(t)(f.app.Approve(ctx, tdActor, "sub", e.ID, 0))
	}
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "sub"))
	ms := []lineup.Member{{Name: "cap01", Rating: 2400}, {Name: "a01", Rating: 2350}, {Name: "b01", Rating: 2300}, {Name: "c01", Rating: 2290}, {Name: "s01", Rating: 2280}}
	ok(t)(f.app.RankBoards(ctx, tdActor, "sub", "team-01", ms, lineup.Comparable{{"c01", "s01"}}))

	cap01 := f.signIn(t, "cap01")
	_, body := f.as(t, cap01, "GET", "/events/sub/teams/team-01/captain", nil)
	wantContains(t, body, `<form id="substitution"`, `<select id="sub-in" name="in"><option>s01</option></select>`)
	f.submit(t, f.signIn(t, "cap02"), "/events/sub/teams/team-01/substitution", url.Values{"in": {"s01"}, "out": {"c01"}}).wantRefused(t, "only the captain")
	f.submit(t, cap01, "/events/sub/teams/team-01/substitution", url.Values{"in": {"s01"}, "out": {""}}).wantRefused(t, "in")
	f.submit(t, cap01, "/events/sub/teams/team-01/substitution", url.Values{"in": {"s01"}, "out": {"a01"}}).wantRefused(t, "A14")
	f.submit(t, cap01, "/events/sub/teams/team-01/substitution", url.Values{"in": {"s01"}, "out": {"c01"}}).wantOK(t, "s01 replaces c01")
	if got := strings.Join(teamEntrantOf(t, f, "sub", "team-01").Boards, ","); got != "cap01,a01,b01,s01" {
		t.Fatalf("boards %s", got)
	}
}
