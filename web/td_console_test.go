package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

const console = "/events/atc/td"

// pendingTeam registers Team 11 (captain cap11), waiting for approval.
func pendingTeam(t *testing.T, f *fixture) arbiter.Entrant {
	t.Helper()
	e, err := f.app.Register(context.Background(), captain(11), "atc", arbiter.Entrant{Name: "Team 11", Captain: "cap11", Rating: 2000,
		Members: []string{"cap11", "a11", "b11", "c11"}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func entrant(t *testing.T, f *fixture, id string) arbiter.Entrant {
	t.Helper()
	es, err := f.app.Entrants(context.Background(), "atc")
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

func TestTDApproveReject(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	e := pendingTeam(t, f)
	tk := signInTD(t, f)
	res, body := f.as(t, tk.td, "GET", console, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, console, body)
	wantContains(t, body, `<form id="decide-team-11"`, `name="version" value="1"`, `<button type="submit" name="action" value="reject"`,
		"11 registered, 1 waiting for approval")

	p := console + "/entrants/team-11"
	back := console
	f.post(t, tk.td, p, url.Values{"action": {"reject"}}, back, true, "reason")
	f.post(t, tk.td, p, url.Values{"action": {"approve"}, "version": {"x"}}, back, true, "version")
	f.post(t, tk.td, p, url.Values{"action": {"bless"}}, back, true, "action")
	f.post(t, tk.td, p, url.Values{"action": {"approve"}, "version": {"7"}}, back, true) // stale
	if got := entrant(t, f, e.ID); got.Status != arbiter.EntrantPending {
		t.Fatalf("after refusals: %s", got.Status)
	}
	f.post(t, tk.td, p, url.Values{"action": {"reject"}, "reason": {"team 11 registered after the deadline"}, "version": {"1"}}, back, false, "Rejected Team 11")
	if got := entrant(t, f, e.ID); got.Status != arbiter.EntrantRejected || got.Reason != "team 11 registered after the deadline" {
		t.Fatalf("after reject: %+v", got)
	}
	f.post(t, tk.td, p, url.Values{"action": {"approve"}}, back, false, "Approved Team 11")
	if got := entrant(t, f, e.ID); got.Status != arbiter.EntrantApproved {
		t.Fatalf("after approve: %s", got.Status)
	}
	f.post(t, tk.td, console+"/entrants/team-99", url.Values{"action": {"approve"}}, back, true, "team-99")
}

func TestTDCloseRegistrationAndRounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	f.post(t, tk.td, console+"/registration", url.Values{"initial_colour": {"black"}}, console, true, "reason")
	f.post(t, tk.td, console+"/registration", url.Values{"initial_colour": {"black"}, "reason": {"lot drawn on stream"}}, console, false,
		"Registration closed with 10 entrants", "black")
	ev, _ := f.app.Event(ctx, "atc")
	if ev.Status != arbiter.EventRunning || ev.InitialColour != "black" {
		t.Fatalf("event %s colour %s", ev.Status, ev.InitialColour)
	}
	_, body := f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, `<form id="pair-round"`, `value="pair"`)

	rounds := console + "/rounds"
	back := console
	f.post(t, tk.td, rounds, url.Values{"action": {"pair"}}, back, false, "Round s1r1 paired (5 matches")
	_, body = f.as(t, tk.td, "GET", console, nil)
	checkPage(t, console, body)
	wantContains(t, body, "Proposed pairings", `<form id="publish-round"`, `<form id="discard-round"`, `name="round" value="s1r1"`,
		`href="/events/atc/td/matches/s1r1b1"`, "Team 01")
	// Nothing is public yet.
	if _, pub := f.do(t, "GET", "/api/events/atc/rounds/s1r1/matches"); strings.Contains(pub, `"published"`) {
		t.Error("paired round shown as published")
	}

	f.post(t, tk.td, rounds, url.Values{"action": {"discard"}, "round": {"s1r1"}}, back, true, "reason")
	f.post(t, tk.td, rounds, url.Values{"action": {"discard"}, "round": {"s1r1"}, "reason": {"team 05 withdrew"}}, back, false, "discarded")
	if rs, _ := f.app.Rounds(ctx, "atc"); len(rs) != 0 {
		t.Fatalf("rounds after discard: %v", rs)
	}
	f.post(t, tk.td, rounds, url.Values{"action": {"pair"}}, back, false, "s1r1 paired")
	f.post(t, tk.td, rounds, url.Values{"action": {"publish"}, "round": {"s1r2"}}, back, true, "no round")
	f.post(t, tk.td, rounds, url.Values{"action": {"jump"}}, back, true, "action")
	f.post(t, tk.td, rounds, url.Values{"action": {"publish"}, "round": {"s1r1"}}, back, false, "Round s1r1 published; deadline Monday 2025-01-13 23:59 UTC")
	rs, _ := f.app.Rounds(ctx, "atc")
	if len(rs) != 1 || rs[0].Status != arbiter.RoundPublished {
		t.Fatalf("rounds %+v", rs)
	}
	_, body = f.as(t, tk.td, "GET", console, nil)
	checkPage(t, console, body)
	// The round cannot close before its deadline: no button for it.
	if strings.Contains(body, `<form id="close-round"`) {
		t.Error("the console offers to close a round before its deadline")
	}
	wantContains(t, body, `<form id="bring-forward"`, "Nothing needs attention.", `<p id="all-well">Nothing waits for you now: the round runs.</p>`,
		// A4: the deadline as the rulebook and the public calendar name it, not the window's exclusive end.
		`<dd data-test="current-round">s1r1: published, deadline Monday 2025-01-13 23:59 UTC</dd>`,
		"to Monday 2025-01-13 23:59 UTC")

	// Before the deadline the round cannot close; the deadline cannot
	// move forward while matches are unplayed (A4).
	f.post(t, tk.td, rounds, url.Values{"action": {"close"}, "round": {"s1r1"}}, back, true)
	f.post(t, tk.td, rounds, url.Values{"action": {"bring-forward"}, "round": {"s1r1"}, "end": {"soon"}}, back, true, "end")
	f.post(t, tk.td, rounds, url.Values{"action": {"bring-forward"}, "round": {"s1r1"}, "end": {"2025-01-11T00:00"}}, back, true)

	// 36 hours before the deadline every unplayed match needs attention.
	f.now = time.Date(2025, 1, 12, 12, 0, 0, 0, time.UTC)
	_, body = f.as(t, tk.td, "GET", console, nil)
	if got := cells(body, "attention"); len(got) != 5 || got[0] != "not final, deadline near" {
		t.Errorf("attention %v", got)
	}
	f.now = time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
	_, body = f.as(t, tk.td, "GET", console, nil)
	if got := cells(body, "attention"); len(got) != 5 || got[0] != "not final, deadline passed" {
		t.Errorf("attention after the deadline %v", got)
	}
	// The console opens on closing the round, now that it can.
	wantContains(t, body, `<form id="close-round"`, `<li data-test="attention-item" data-kind="deadline_passed"><a href="/events/atc/td#now">Round s1r1&#39;s deadline passed Monday 2025-01-13 23:59 UTC: close it</a></li>`)
	f.post(t, tk.td, rounds, url.Values{"action": {"close"}, "round": {"s1r1"}}, back, false, "Round s1r1 closed.")
	rs, _ = f.app.Rounds(ctx, "atc")
	if rs[0].Status != arbiter.RoundClosed {
		t.Fatalf("round %s", rs[0].Status)
	}
	// Nobody offered a time (A5): the five matches are held for the TDs,
	// each with the fault found.
	_, body = f.as(t, tk.td, "GET", console, nil)
	if got := cells(body, "attention"); len(got) != 5 || !strings.HasPrefix(got[0], "held for the TDs: board 1: neither") {
		t.Errorf("attention after the close %v", got)
	}
	decideHeld(t, f, "atc")
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, "Nothing needs attention.", `<form id="pair-round"`, "Next: pair round s1r2; the pairings are due by Tuesday 2025-01-14 23:59 UTC.")
	// The swiss is not over: no button to start the knockout, and
	// advancing is refused, naming why.
	if strings.Contains(body, `<form id="advance-stage"`) {
		t.Error("the console offers to start the next stage before the swiss is over")
	}
	f.post(t, tk.td, console+"/stages", url.Values{"action": {"advance"}}, console, true)
}

// publishedRound closes registration and publishes round 1 of "atc".
func publishedRound(t *testing.T, f *fixture) []arbiter.Match {
	t.Helper()
	ctx := context.Background()
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	return ms
}

func TestTDMatchOverride(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	publishedRound(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	p := console + "/matches/s1r1b1"
	res, body := f.as(t, tk.td, "GET", p, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<form id="override-result"`, `<form id="wrong-tc"`, `name="version" value="1"`, "No reports.",
		`<option value="forfeit:double">`, `<textarea id="sheet" name="sheet"`)

	for _, c := range []struct {
		form  url.Values
		field string
	}{
		{url.Values{"action": {"override"}, "outcome": {"forfeit:home"}}, "reason"},
		{url.Values{"action": {"override"}, "outcome": {"coin"}, "reason": {"x"}}, "outcome"},
		{url.Values{"action": {"override"}, "outcome": {"summary"}, "reason": {"x"}}, "summary"},
		{url.Values{"action": {"override"}, "outcome": {"sheet"}, "reason": {"x"}}, "sheet"},
		{url.Values{"action": {"override"}, "outcome": {"sheet"}, "sheet": {"{"}, "reason": {"x"}}, ""},
		{url.Values{"action": {"override"}, "outcome": {"forfeit:home"}, "reason": {"x"}, "version": {"-2"}}, "version"},
		{url.Values{"action": {"dance"}}, "action"},
		{url.Values{"action": {"confirm"}}, ""},  // nothing reported
		{url.Values{"action": {"wrong-tc"}}, ""}, // antichess has no R6
	} {
		f.post(t, tk.td, p, c.form, p, true, c.field)
	}
	if m, _ := f.srv.findMatch(ctx, "atc", "s1r1b1"); m.Status != arbiter.MatchScheduled {
		t.Fatalf("after refusals: %s", m.Status)
	}

	f.post(t, tk.td, p, url.Values{"action": {"override"}, "outcome": {"sheet"}, "sheet": {teamSheet}, "version": {"1"},
		"reason": {"both captains sent the sheet by mail"}}, p, false, "1-0 (348-228)")
	m, _ := f.srv.findMatch(ctx, "atc", "s1r1b1")
	if m.Status != arbiter.MatchFinal || m.Decision != "override" || m.Result.Home.Points != arbiter.P(348) {
		t.Fatalf("match %+v", m)
	}
	log, err := f.app.Audit(ctx, tdActor, "atc", sqlstore.AuditFilter{Kind: "match", RecordID: "s1r1b1"})
	if err != nil {
		t.Fatal(err)
	}
	if last := log[len(log)-1]; last.Reason != "both captains sent the sheet by mail" || last.Actor.Role != arbiter.RoleTD {
		t.Errorf("audit %+v", last)
	}
	// The TD saw version 1: a second override on that page is stale.
	f.post(t, tk.td, p, url.Values{"action": {"override"}, "outcome": {"forfeit:away"}, "version": {"1"}, "reason": {"x"}}, p, true)
	res, body = f.as(t, tk.td, "GET", p, nil)
	wantContains(t, body, `data-test="match-result">1-0 (348-228) (override)`, "by arbitertd (td")

	// A forfeit override on board 2, and a report the opponent disputes
	// on board 3: the console lists the dispute.
	f.post(t, tk.td, console+"/matches/s1r1b2", url.Values{"action": {"override"}, "outcome": {"forfeit:away"}, "reason": {"home no-show"}},
		console+"/matches/s1r1b2", false)
	m, _ = f.srv.findMatch(ctx, "atc", "s1r1b2")
	if m.Result.Forfeit == "" || m.Result.Away.MatchPoints != arbiter.Point {
		t.Errorf("forfeit override %+v", m.Result)
	}
	b3, _ := f.srv.findMatch(ctx, "atc", "s1r1b3")
	home, away := capOf(b3.Home), capOf(b3.Away)
	ok(t)(f.app.ReportResult(ctx, home, "atc", b3.ID, app.ResultInput{Summary: "forfeit:home"}))
	ok(t)(f.app.DisputeResult(ctx, away, "atc", b3.ID, "we played and won", 0))
	_, body = f.as(t, tk.td, "GET", console, nil)
	if got := cells(body, "attention"); len(got) != 1 || got[0] != "disputed" {
		t.Errorf("attention %v", got)
	}
	_, body = f.as(t, tk.td, "GET", console+"/matches/s1r1b3", nil)
	wantContains(t, body, "we played and won", "disputed")
	f.post(t, tk.td, console+"/matches/s1r1b3", url.Values{"action": {"override"}, "outcome": {"forfeit:double"}, "reason": {"no evidence either way"}},
		console+"/matches/s1r1b3", false)
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, "Nothing needs attention.")
}

// capOf is the captain of team-NN acting as captain.
func capOf(team string) arbiter.Actor {
	var n int
	fmt.Sscanf(team, "team-%d", &n)
	return captain(n)
}

func TestTDAppeals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	ms, _ := f.app.Matches(ctx, "atc", "s1r1")
	a1, err := f.app.Appeal(ctx, capOf(ms[1].Home), "atc", ms[1].ID, "the opponent did not show up; we were there")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := f.app.Appeal(ctx, capOf(ms[2].Away), "atc", ms[2].ID, "we want a replay")
	if err != nil {
		t.Fatal(err)
	}
	page := console + "/appeals"
	res, body := f.as(t, tk.td, "GET", page, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, page, body)
	wantContains(t, body, `<form id="decide-appeal-`+a1.ID+`"`, "the opponent did not show up", `value="accept"`, `value="reject"`)
	_, cons := f.as(t, tk.td, "GET", console, nil)
	wantContains(t, cons, `<a href="/events/atc/td/appeals">2</a>`)

	target := page + "/" + a1.ID
	f.post(t, tk.td, target, url.Values{"action": {"accept"}, "outcome": {"forfeit:home"}}, page, true, "reason")
	f.post(t, tk.td, target, url.Values{"action": {"maybe"}, "reason": {"x"}}, page, true, "action")
	f.post(t, tk.td, target, url.Values{"action": {"accept"}, "outcome": {"summary"}, "reason": {"x"}}, page, true, "summary")
	f.post(t, tk.td, target, url.Values{"action": {"accept"}, "outcome": {"forfeit:home"}, "reason": {"the away team did not show up"}}, page, false, "accepted")
	f.post(t, tk.td, page+"/"+a2.ID, url.Values{"action": {"reject"}, "reason": {"no grounds for a replay"}}, page, false, "rejected")
	f.post(t, tk.td, target, url.Values{"action": {"reject"}, "reason": {"again"}}, page, true, "already")
	aps, _ := f.app.Appeals(ctx, "atc")
	if aps[0].Status != arbiter.AppealAccepted || aps[1].Status != arbiter.AppealRejected || aps[0].Decision != "the away team did not show up" {
		t.Fatalf("appeals %+v", aps)
	}
	m, _ := f.srv.findMatch(ctx, "atc", ms[1].ID)
	if m.Decision != "appeal" || m.Result.Home.MatchPoints != arbiter.Point {
		t.Errorf("match after the appeal %+v", m)
	}
	_, body = f.as(t, tk.td, "GET", page, nil)
	wantContains(t, body, "No pending appeals.")
	if got := cells(body, "appeal-status"); strings.Join(got, ",") != "accepted,rejected" {
		t.Errorf("decided %v", got)
	}
}

func TestTDSanctions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	page := console + "/sanctions"
	res, body := f.as(t, tk.td, "GET", page, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, page, body)
	wantContains(t, body, "No sanctions.", `<form id="new-sanction"`, `<option value="team-10">`, `<option value="lichess_ban">`, `id="player"`)
	f.post(t, tk.td, page, url.Values{"entrant": {"team-10"}, "player": {"c10"}, "kind": {"scolding"}, "reason": {"x"}}, page, true, "kind")
	f.post(t, tk.td, page, url.Values{"entrant": {"team-10"}, "kind": {"withdrawal"}, "reason": {"x"}}, page, true, "player")
	f.post(t, tk.td, page, url.Values{"entrant": {"team-10"}, "player": {"c10"}, "kind": {"withdrawal"}, "reason": {"left for a family emergency"}},
		page, false, "Sanction")
	xs, err := f.app.Sanctions(context.Background(), "atc")
	if err != nil || len(xs) != 1 || xs[0].Player != "c10" || xs[0].Kind != "withdrawal" || xs[0].Reason != "left for a family emergency" {
		t.Fatalf("sanctions %+v %v", xs, err)
	}
	_, body = f.as(t, tk.td, "GET", page, nil)
	checkPage(t, page, body)
	wantContains(t, body, "left for a family emergency", `<form id="name-replacement"`)

	// A15: the replacement is rated at least 100 below the removed member.
	repl := url.Values{"entrant": {"team-10"}, "replaced": {"c10"}, "replaced_rating": {"2200"}, "player": {"d10"}, "rating": {"2150"},
		"eligible": {"1"}, "willing": {"1"}, "reason": {"captain's request"}}
	f.post(t, tk.td, console+"/replacements", url.Values{"rating": {"high"}}, page, true, "rating")
	f.post(t, tk.td, console+"/replacements", repl, page, true, "A15")
	repl.Set("rating", "2050")
	f.post(t, tk.td, console+"/replacements", repl, page, false, "d10 replaces c10 in Team 10")
	if e := entrant(t, f, "team-10"); !slices.Contains(e.Members, "d10") || slices.Contains(e.Members, "c10") {
		t.Errorf("members %v", e.Members)
	}
}

func TestTDAuditPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	page := console + "/audit"
	res, body := f.as(t, tk.td, "GET", page+"?kind=match&actor=ArbiterTD", nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<form id="audit-filter"`, `value="match"`)
	acts := cells(body, "audit-action")
	// Five matches paired, four held for the TDs at the close (A5: nobody
	// offered a time), then decided by the TD: newest first.
	if len(acts) != 13 || acts[0] != "result.override" || acts[4] != "result.held" || acts[12] != "round.pair" {
		t.Errorf("actions %v", acts)
	}
	for _, a := range cells(body, "audit-actor") {
		if a != "arbitertd" {
			t.Errorf("actor %q", a)
		}
	}
	reasons := cells(body, "audit-reason")
	if len(reasons) < 5 || reasons[0] != "neither team offered a time (A5): a 0-0 draw" ||
		!strings.HasPrefix(reasons[4], "A5: unplayed at the round deadline Monday 2025-01-13 23:59 UTC: board 1: neither") {
		t.Errorf("reasons %q", reasons)
	}
	// Newest first, two at a time, then the next page.
	_, body = f.as(t, tk.td, "GET", page+"?limit=2", nil)
	seqs := seqsOf(body)
	if len(seqs) != 2 || seqs[0] <= seqs[1] {
		t.Fatalf("seqs %v", seqs)
	}
	wantContains(t, body, fmt.Sprintf(`href="/events/atc/td/audit?before=%d&amp;`, seqs[1]))
	_, body = f.as(t, tk.td, "GET", fmt.Sprintf("%s?limit=2&before=%d", page, seqs[1]), nil)
	if next := seqsOf(body); len(next) != 2 || next[0] != seqs[1]-1 {
		t.Errorf("next page %v after %v", next, seqs)
	}
	for _, q := range []string{"?before=x", "?limit=0", "?limit=5000"} {
		res, body = f.as(t, tk.td, "GET", page+q, nil)
		wantStatus(t, res, body, http.StatusBadRequest)
		wantContains(t, body, strings.Split(q[1:], "=")[0]+":")
	}
}

func seqsOf(body string) []int64 {
	var out []int64
	for _, m := range seqRE.FindAllStringSubmatch(body, -1) {
		var n int64
		fmt.Sscan(m[1], &n)
		out = append(out, n)
	}
	return out
}

var seqRE = regexp.MustCompile(`<tr data-seq="(\d+)">`)

func TestTDOfficialsForbiddenAndRecords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	f.post(t, tk.td, console+"/officials", url.Values{"user": {" "}}, console, true, "user")
	f.post(t, tk.td, console+"/officials", url.Values{"user": {"DeputyTD"}}, console, false, "DeputyTD is now a TD")
	if roles, _ := f.app.RolesOf(ctx, "atc", "deputytd"); !roles.TD {
		t.Fatal("DeputyTD is not a TD")
	}
	_, body := f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, "TDs: arbitertd, deputytd")

	f.post(t, tk.td, console+"/forbidden", url.Values{"stage": {"one"}, "entrants": {"team-01,team-02"}, "reason": {"x"}}, console, true, "stage")
	f.post(t, tk.td, console+"/forbidden", url.Values{"stage": {"1"}, "entrants": {"team-01, team-02"}}, console, true, "reason")
	f.post(t, tk.td, console+"/forbidden", url.Values{"stage": {"1"}, "entrants": {"team-01, team-02"}, "reason": {"same club"}}, console, false, "f1")
	fbs, _ := f.app.ForbiddenPairings(ctx, "atc")
	if len(fbs) != 1 || fbs[0].Stage != 0 || strings.Join(fbs[0].Entrants, ",") != "team-01,team-02" {
		t.Fatalf("forbidden %+v", fbs)
	}
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, `<form id="remove-forbidden-f1"`, "same club")
	f.post(t, tk.td, console+"/forbidden/f1", url.Values{}, console, true, "reason")
	f.post(t, tk.td, console+"/forbidden/f1", url.Values{"reason": {"clubs merged"}}, console, false, "lifted")
	if fbs, _ = f.app.ForbiddenPairings(ctx, "atc"); !fbs[0].Removed {
		t.Error("not lifted")
	}

	// A11: players who must play on different teams; a list that a team
	// already breaks is refused, naming the team.
	f.post(t, tk.td, console+"/separated", url.Values{"players": {"star1"}, "reason": {"x"}}, console, true, "players")
	f.post(t, tk.td, console+"/separated", url.Values{"players": {"cap03, a03"}, "reason": {"x"}}, console, true, "Team 03")
	f.post(t, tk.td, console+"/separated", url.Values{"players": {"star1, Star2"}, "reason": {"the two strongest (A11)"}}, console, false, "List s1 recorded")
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, `<section id="separated"`, "s1: star1, star2 — the two strongest (A11)", `<form id="remove-separated-s1"`)
	f.post(t, tk.td, console+"/separated/s1", url.Values{"reason": {"list withdrawn"}}, console, false, "List s1 lifted")
	if sps, _ := f.app.SeparatedPlayers(ctx, "atc"); len(sps) != 1 || !sps[0].Removed {
		t.Errorf("lists %+v", sps)
	}

	// R17: a ban across the series; one term exactly; a banned player
	// cannot register a team; lifted with a reason.
	f.post(t, tk.td, console+"/bans", url.Values{"player": {"cheat1"}, "reason": {"engine"}}, console, true, "until")
	f.post(t, tk.td, console+"/bans", url.Values{"player": {"cheat1"}, "events": {"two"}, "reason": {"engine"}}, console, true, "events")
	f.post(t, tk.td, console+"/bans", url.Values{"player": {"cheat1"}, "until": {"soon"}, "reason": {"engine"}}, console, true, "until")
	f.post(t, tk.td, console+"/bans", url.Values{"player": {"Cheat1"}, "permanent": {"1"}, "reason": {"engine use"}}, console, false, "Ban b1 of cheat1 recorded")
	_, body = f.as(t, tk.td, "GET", console, nil)
	wantContains(t, body, `<section id="bans"`, "b1: cheat1, for good — engine use", `<form id="lift-ban-b1"`)
	if bans, _ := f.app.Bans(ctx, arbiter.NamedUser("arbitertd"), "atc"); len(bans) != 1 || !bans[0].Permanent || bans[0].Series != "antichess-team-cup" {
		t.Errorf("bans %+v", bans)
	}
	f.post(t, tk.td, console+"/bans/b1", url.Values{"reason": {"appeal upheld"}}, console, false, "Ban b1 lifted")

	vals := console + "/entrants/team-01/values"
	f.post(t, tk.td, vals, url.Values{"action": {"tiebreak"}, "key": {"previous_final"}, "value": {"lots"}}, console, true, "value")
	f.post(t, tk.td, vals, url.Values{"action": {"tiebreak"}, "key": {"previous_final"}, "value": {"1.5"}}, console, false, "1.5")
	if e := entrant(t, f, "team-01"); e.Values["previous_final"] != arbiter.P(1.5) {
		t.Errorf("values %v", e.Values)
	}
	f.post(t, tk.td, vals, url.Values{"action": {"captain"}, "user": {"a01"}}, console, false, "captained by a01")
	if e := entrant(t, f, "team-01"); e.Captain != "a01" {
		t.Errorf("captain %q", e.Captain)
	}
	f.post(t, tk.td, vals, url.Values{"action": {"change-captain"}, "user": {"b01"}}, console, true, "reason")
	f.post(t, tk.td, console+"/boards", url.Values{"entrant": {"team-02"}, "rank": {"cap02 2300"}}, console, true, "rank")
	f.post(t, tk.td, console+"/boards", url.Values{"entrant": {"team-02"}, "rank": {"cap02:2300"}, "comparable": {"a02-b02"}}, console, true, "comparable")
	f.post(t, tk.td, console+"/boards", url.Values{"entrant": {"team-02"}, "rank": {"a02:2250, cap02:2300, c02:2100, b02:2200"}, "comparable": {"b02/c02"}},
		console, false, "team-02 boards: cap02, a02, b02, c02")
	f.post(t, tk.td, console+"/entrants/team-02/values", url.Values{"action": {"change-captain"}, "user": {"b02"}, "reason": {"cap02 stepped down (A16)"}},
		console, false, "Captain change recorded")
	log, _ := f.app.Audit(ctx, tdActor, "atc", sqlstore.AuditFilter{Kind: "boards", RecordID: "team-02"})
	if len(log) == 0 || !strings.HasSuffix(log[len(log)-1].Reason, "b02 from round 2: cap02 stepped down (A16)") {
		t.Errorf("captain change not audited with its reason: %q", log[len(log)-1].Reason)
	}
	f.post(t, tk.td, vals, url.Values{"action": {"promote"}}, console, true, "action")
}

// TestTDNegotiationRuling: the match page shows each board's time
// negotiation (A5: board by board); after the weekend the TD finds nobody
// at fault on each board, and the rulebook's no-fault result applies to
// it (A5: a 0-0 draw, a double forfeit of the board); once every board is
// decided, so is the match.
func TestTDNegotiationRuling(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ms := publishedRound(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	m := ms[0]
	f.now = time.Date(2025, 1, 7, 12, 0, 0, 0, time.UTC)
	offers := []time.Time{time.Date(2025, 1, 8, 18, 0, 0, 0, time.UTC), time.Date(2025, 1, 9, 18, 0, 0, 0, time.UTC), time.Date(2025, 1, 10, 18, 0, 0, 0, time.UTC)}
	if _, _, err := f.app.Negotiate(ctx, capOf(m.Home), "atc", m.ID, app.NegotiationStep{Kind: app.NegPropose, Board: 1, Times: offers}); err != nil {
		t.Fatal(err)
	}
	p := console + "/matches/" + m.ID
	_, body := f.as(t, tk.td, "GET", p, nil)
	checkPage(t, p, body)
	wantContains(t, body, "Time negotiation, board by board", "Board 1: <strong>open</strong>; 3 offers", "Board 2: no offer yet", `<form id="rule-fault"`, `<select id="fault-board" name="board">`)
	f.post(t, tk.td, p, url.Values{"action": {"rule-fault"}, "board": {"1"}, "at_fault": {"them"}, "reason": {"x"}}, p, true, "at_fault")
	f.post(t, tk.td, p, url.Values{"action": {"rule-fault"}, "board": {"1"}, "at_fault": {"nobody"}}, p, true, "reason")
	f.post(t, tk.td, p, url.Values{"action": {"rule-fault"}, "at_fault": {"nobody"}, "reason": {"x"}}, p, true, "name the board")
	f.now = time.Date(2025, 1, 12, 12, 0, 0, 0, time.UTC)
	for b := 1; b <= 4; b++ {
		f.post(t, tk.td, p, url.Values{"action": {"rule-fault"}, "board": {fmt.Sprint(b)}, "at_fault": {"nobody"}, "reason": {"both sides tried; no common time"}}, p, false,
			fmt.Sprintf("Negotiation of %s, board %d", m.ID, b))
		got, _ := f.srv.findMatch(ctx, "atc", m.ID)
		if final := got.Status == arbiter.MatchFinal; final != (b == 4) {
			t.Fatalf("after board %d: %s", b, got.Status)
		}
	}
	got, _ := f.srv.findMatch(ctx, "atc", m.ID)
	if got.Result == nil || got.Result.Home.Points != 0 || got.Result.Away.Points != 0 || got.Result.Home.MatchPoints != arbiter.P(0.5) || len(got.Rulings) != 4 {
		t.Fatalf("after the rulings: %+v %+v", got, got.Result)
	}
}

// TestTDConsoleIndividualHasNoTeamTools: an individual event's console
// offers no list of players to keep on different teams (A11 is about
// teams), and the app refuses one sent anyway.
func TestTDConsoleIndividualHasNoTeamTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	acwcEvent(t, f)
	tk := signInTD(t, f)
	_, body := f.as(t, tk.td, "GET", "/events/wc/td", nil)
	checkPage(t, "/events/wc/td", body)
	if strings.Contains(body, `id="separated"`) {
		t.Error("the ACWC console shows the team-only list of separated players")
	}
	f.post(t, tk.td, "/events/wc/td/separated", url.Values{"players": {"p01, p02"}, "reason": {"x"}}, "/events/wc/td", true, "individual event")
}

// TestTDMatchShowsLichessImport: the TD's match page shows the last import
// of the match's games from Lichess, with every finding that kept a game
// out of the sheet (issue 14: the TD sees every difference).
func TestTDMatchShowsLichessImport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	publishedRound(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	p := console + "/matches/s1r1b1"
	_, body := f.as(t, tk.td, "GET", p, nil)
	if strings.Contains(body, "Imported from Lichess") {
		t.Fatal("an import is shown before any was made")
	}
	im := app.LichessImport{Match: "s1r1b1", At: time.Date(2025, 1, 12, 18, 0, 0, 0, time.UTC),
		Games:    []lichess.SheetGame{{}, {}},
		Findings: []lichess.SheetFinding{{Kind: "wrong_clock", Game: "abcd1234", Board: 2, TC: "0+2", Message: "played at 1+0"}},
		Skipped:  "a finding needs the TD"}
	err := f.db.Tx(ctx, func(tx *sqlstore.Tx) error {
		ev, err := sqlstore.GetEventBySlug(ctx, tx, "atc")
		if err != nil {
			return err
		}
		_, err = sqlstore.Create(ctx, tx, sqlstore.Change{Actor: tdActor, Action: "lichess.import"}, ev.ID, "lichess_import", "s1r1b1", im)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res, body := f.as(t, tk.td, "GET", p, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<h3 id="import-h">Imported from Lichess</h3>`,
		`<p data-test="lichess-import">Imported `, `: 2 games found; not entered: a finding needs the TD.</p>`,
		`<li data-test="import-finding">Board 2, 0&#43;2: played at 1&#43;0 (<a href="https://lichess.org/abcd1234">abcd1234</a>)</li>`)
}
