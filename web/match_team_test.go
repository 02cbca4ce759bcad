package web

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestMatchPagePublic: anyone sees a match's entrants, result and parts;
// the reports and the forms are for its sides only.
func TestMatchPagePublic(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	res, body := f.do(t, "GET", "/events/atc/matches/s1r1b1")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	// A18/A19: the sheet's 348-228 home win in three parts.
	wantContains(t, body, "<h1>Match s1r1b1: Team 01 – Team 06</h1>", `data-test="home">Team 01`, `data-test="away">Team 06`,
		`data-test="score">348 – 228`, `data-test="match-state">final (confirmed)`, `href="/events/atc/rounds/s1r1"`)
	// A19: board 1 won 144-0, boards 2-4 68-76 each.
	if got := strings.Join(cells(body, "part-home"), ","); got != "144,68,68,68" {
		t.Errorf("home board cells %v", got)
	}
	wantContains(t, body, "<caption>Score by board</caption>", `<th scope="row">board 1</th>`)
	for _, hidden := range []string{`id="reports"`, `id="report-result"`, `id="appeal"`, "TD console"} {
		if strings.Contains(body, hidden) {
			t.Errorf("public page shows %s", hidden)
		}
	}
	// Unknown matches and events are 404.
	for _, p := range []string{"/events/atc/matches/s9r9b9", "/events/nope/matches/s1r1b1", "/events/atc/matches/x"} {
		res, body := f.do(t, "GET", p)
		wantStatus(t, res, body, 404)
	}
	// The TD sees the link to the console's match page and the reports.
	td := f.signIn(t, "ArbiterTD")
	_, body = f.as(t, td, "GET", "/events/atc/matches/s1r1b1", nil)
	wantContains(t, body, `href="/events/atc/td/matches/s1r1b1"`, `id="reports"`, `data-test="report-by">cap01`)
}

// TestUnpublishedMatchHidden: a paired round is under the TDs' review:
// its matches are not found by anyone else.
func TestUnpublishedMatchHidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ctx := context.Background()
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	if _, _, err := f.app.PairRound(ctx, tdActor, "atc"); err != nil {
		t.Fatal(err)
	}
	res, body := f.as(t, f.signIn(t, "cap01"), "GET", "/events/atc/matches/s1r1b1", nil)
	wantStatus(t, res, body, 404)
	res, body = f.as(t, f.signIn(t, "ArbiterTD"), "GET", "/events/atc/matches/s1r1b1", nil)
	wantStatus(t, res, body, 200)
}

// TestTeamMatchReportConfirm: in a team event the captains act: the home
// captain reports the sheet, cannot confirm it, another team's captain
// cannot touch it, the away captain confirms.
func TestTeamMatchReportConfirm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	m := openRound2(t, f)[0]
	home, away := f.signIn(t, captainOf(m.Home)), f.signIn(t, captainOf(m.Away))
	stranger, member := f.signIn(t, outsider(m)), f.signIn(t, "a"+strings.TrimPrefix(m.Home, "team-"))
	target := "/events/atc/matches/" + m.ID

	// Only the captains get the forms; a member reads.
	_, body := f.as(t, home, "GET", target, nil)
	wantContains(t, body, `<form id="report-result"`, `<textarea id="report-sheet" name="sheet"`, `id="sheet-example"`, `id="offer-time-board-1"`,
		`&#34;board&#34;: 4,`) // the example has the format's four boards (A9), though no board list is ranked
	_, body = f.as(t, member, "GET", target, nil)
	if strings.Contains(body, `id="report-result"`) || strings.Contains(body, `id="offer-time`) {
		t.Error("a member who is not captain gets the captain's forms")
	}
	wantContains(t, body, `id="member-note"`, "<h2>Reports</h2>", "No result reported yet.")

	res, body := f.as(t, "", "POST", target+"/report", url.Values{"sheet": {teamSheet}})
	wantSignIn(t, res, body)
	f.submit(t, stranger, target+"/report", url.Values{"sheet": {teamSheet}}).wantRefused(t, "only their own match")
	f.submit(t, home, target+"/report", url.Values{"sheet": {"{"}}).wantRefused(t)
	f.submit(t, home, target+"/report", url.Values{"sheet": {teamSheet}}).wantOK(t, "reported")
	f.submit(t, home, target+"/confirm", url.Values{}).wantRefused(t, "own side")
	f.submit(t, stranger, target+"/confirm", url.Values{}).wantRefused(t, "does not play")
	// A TD confirms in the TD console, not on the captains' page.
	f.submit(t, f.signIn(t, "ArbiterTD"), target+"/confirm", url.Values{}).wantRefused(t, "does not play")
	if st := f.match(t, "atc", m.ID).Status; st != arbiter.MatchReported {
		t.Fatalf("match %s", st)
	}
	// A stale version is a conflict, not a silent overwrite.
	f.submit(t, away, target+"/confirm", url.Values{"version": {"1"}}).wantRefused(t, "changed by someone else")
	_, body = f.as(t, away, "GET", target, nil)
	wantContains(t, body, `<form id="confirm-result"`, `data-test="report-score">348 – 228`)
	f.submit(t, away, target+"/confirm", url.Values{}).wantOK(t, "final")
	if got := f.match(t, "atc", m.ID); got.Status != arbiter.MatchFinal || got.Result.Home.Points != arbiter.P(348) {
		t.Fatalf("match %+v", got)
	}
}

// TestTeamAppeal: after the round closed, a side appeals; others cannot.
func TestTeamAppeal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	ms, err := f.app.Matches(context.Background(), "atc", "s1r1")
	if err != nil {
		t.Fatal(err)
	}
	m := ms[1] // not played: a double forfeit when the round closed
	target := "/events/atc/matches/" + m.ID
	cap := f.signIn(t, captainOf(m.Home))
	_, body := f.as(t, cap, "GET", target, nil)
	wantContains(t, body, `<form id="appeal"`)
	f.submit(t, f.signIn(t, "cap01"), target+"/appeal", url.Values{"reason": {"we played"}}).wantRefused(t)
	f.submit(t, cap, target+"/appeal", url.Values{"reason": {"we played it on 10 January"}}).wantOK(t, "Appeal")
	aps, err := f.app.Appeals(context.Background(), "atc")
	if err != nil {
		t.Fatal(err)
	}
	if len(aps) != 1 || aps[0].Match != m.ID || aps[0].By != captainOf(m.Home) {
		t.Fatalf("appeals %+v", aps)
	}
}

// TestMatchAPI: the match's JSON routes for every role.
func TestMatchAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	m := openRound2(t, f)[0]
	home, away, stranger := f.signIn(t, captainOf(m.Home)), f.signIn(t, captainOf(m.Away)), f.signIn(t, outsider(m))
	base := "/api/events/atc/matches/" + m.ID

	var detail struct {
		Match arbiter.Match `json:"match"`
		Round string        `json:"round"`
		Home  struct{ ID, Name string }
	}
	f.apiAs(t, "", "GET", base, nil, 200, &detail)
	if detail.Match.ID != m.ID || detail.Round != "s1r2" || detail.Home.ID != m.Home {
		t.Fatalf("detail %+v", detail)
	}
	f.apiAs(t, "", "GET", "/api/events/atc/matches/s9r9b1", nil, 404, nil)

	// Anonymous writes are 401; a stranger's are 403.
	f.apiAs(t, "", "POST", base+"/reports", map[string]any{"summary": "x"}, 401, nil)
	f.apiAs(t, "", "GET", base+"/reports", nil, 401, nil)
	f.apiAs(t, stranger, "GET", base+"/reports", nil, 403, nil)
	f.apiAs(t, stranger, "POST", base+"/reports", map[string]any{"sheet": json.RawMessage(teamSheet)}, 403, nil)

	// Bad input names the field.
	var e apiErr
	f.apiAs(t, home, "POST", base+"/reports", map[string]any{"sheet": json.RawMessage(teamSheet), "extra": 1}, 400, &e)
	if e.Error.Field != "extra" {
		t.Errorf("unknown field error %+v", e.Error)
	}
	f.apiAs(t, home, "POST", base+"/reports", map[string]any{}, 400, &e)
	if e.Error.Field != "summary" {
		t.Errorf("empty report error %+v", e.Error)
	}
	f.apiAs(t, home, "POST", base+"/offers", map[string]any{"kind": "dance"}, 400, &e)
	if e.Error.Field != "kind" {
		t.Errorf("offer kind error %+v", e.Error)
	}
	// A18: a team_boards match has no individual summary.
	f.apiAs(t, home, "POST", base+"/reports", map[string]any{"summary": "6-4"}, 400, &e)
	if e.Error.Field != "summary" || e.Error.Rule != "app.summary" {
		t.Errorf("summary in a team match: %+v", e.Error)
	}

	var rep arbiter.Match
	f.apiAs(t, home, "POST", base+"/reports", map[string]any{"sheet": json.RawMessage(teamSheet)}, 200, &rep)
	if rep.Status != arbiter.MatchReported {
		t.Fatalf("reported %+v", rep)
	}
	var reps struct {
		Reports []arbiter.Report `json:"reports"`
	}
	f.apiAs(t, away, "GET", base+"/reports", nil, 200, &reps)
	if len(reps.Reports) != 1 || reps.Reports[0].By != captainOf(m.Home) || reps.Reports[0].Status != arbiter.ReportPending {
		t.Fatalf("reports %+v", reps.Reports)
	}
	// The reporter cannot confirm; the opponent can. Confirming twice conflicts with the rules.
	f.apiAs(t, home, "POST", base+"/confirm", map[string]any{}, 403, &e)
	if !strings.Contains(e.Error.Message, "own side") {
		t.Errorf("own confirm %+v", e.Error)
	}
	f.apiAs(t, away, "POST", base+"/dispute", map[string]any{"reason": "board 2 was a win for us"}, 200, &rep)
	if rep.Status != arbiter.MatchDisputed {
		t.Fatalf("disputed %+v", rep)
	}
	f.apiAs(t, away, "POST", base+"/confirm", map[string]any{}, 422, nil)
	// No armageddon in a Swiss match (A3 is for the knockout).
	f.apiAs(t, home, "POST", base+"/armageddon", map[string]any{"bid_seconds": 150}, 422, &e)
	if e.Error.Rule != "app.armageddon" {
		t.Errorf("armageddon error %+v", e.Error)
	}
	f.apiAs(t, home, "POST", base+"/armageddon", map[string]any{"commitment": "zz"}, 400, &e)
	if e.Error.Field != "commitment" {
		t.Errorf("bad commitment %+v", e.Error)
	}
	// Appeals only after the round closes.
	f.apiAs(t, home, "POST", base+"/appeals", map[string]any{"reason": "x"}, 422, nil)
}

// TestTeamNegotiation: A5 in the antichess cup, board by board (each
// player offers times to their board opponent; the captains act for their
// boards, A16): on board 2 both captains offer three times, none suits,
// so each offers three more; then one is accepted. The page shows each
// board's agreed time; board 1 has none.
func TestTeamNegotiation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	m := openRound2(t, f)[0]
	ev, err := f.app.Event(context.Background(), "atc")
	if err != nil {
		t.Fatal(err)
	}
	w := ev.Calendar[1]
	home, away := f.signIn(t, captainOf(m.Home)), f.signIn(t, captainOf(m.Away))
	target := "/events/atc/matches/" + m.ID
	day := w.Start.Truncate(24 * time.Hour)
	times := func(h int, days ...int) []string {
		var out []string
		for _, d := range days {
			out = append(out, day.Add(time.Duration(d)*24*time.Hour+time.Duration(h)*time.Hour).Format(formTime))
		}
		return out
	}
	board2 := func(v url.Values) url.Values { v.Set("board", "2"); return v }
	f.submit(t, home, target+"/offers", url.Values{"kind": {"propose"}, "time": times(18, 1, 2, 3)}).wantRefused(t, "name the board")
	f.submit(t, home, target+"/offers", board2(url.Values{"kind": {"propose"}, "time": times(18, 1, 2, 3)})).wantOK(t, "recorded")
	_, body := f.as(t, away, "GET", target, nil)
	wantContains(t, body, `id="board-negotiation"`, `<section class="board-negotiation" id="board-2-time"`, `<form class="team-form accept-offer"`,
		`id="none-suitable-board-2"`, `id="offer-time-board-1"`, `id="offer-time-board-2"`)
	f.submit(t, away, target+"/offers", board2(url.Values{"kind": {"none_suitable"}})).wantRefused(t, "A5")
	f.submit(t, away, target+"/offers", board2(url.Values{"kind": {"propose"}, "time": times(21, 1, 2, 3)})).wantOK(t, "recorded")
	f.submit(t, away, target+"/offers", board2(url.Values{"kind": {"none_suitable"}})).wantOK(t, "recorded")
	f.submit(t, home, target+"/offers", board2(url.Values{"kind": {"propose"}, "time": times(12, 1, 2, 3)})).wantOK(t, "recorded")
	at := day.Add(2*24*time.Hour + 12*time.Hour)
	f.submit(t, away, target+"/offers", board2(url.Values{"kind": {"accept"}, "at": {at.Format(time.RFC3339)}})).wantOK(t, "Agreed: board 2 starts")
	got := f.match(t, "atc", m.ID)
	if len(got.BoardTimes) != 4 || !got.BoardTimes[1].Equal(at) || !got.BoardTimes[0].IsZero() || !got.ScheduledAt.IsZero() {
		t.Fatalf("board times %v, match time %v; want board 2 at %v", got.BoardTimes, got.ScheduledAt, at)
	}
	_, body = f.do(t, "GET", target)
	wantContains(t, body, `data-test="board-time">Agreed start <time datetime="`+at.UTC().Format("2006-01-02T15:04:05Z")+`"`, `data-test="board-time">No time offered yet.`)
	if n := len(cells(body, "offer-at")); n != 9 {
		t.Errorf("%d offers in the history, want 9", n)
	}
	// A member who is not the captain acts only for their own board, and
	// the boards of this event were never ranked: nobody knows theirs.
	member := f.signIn(t, "a"+m.Home[len(m.Home)-2:])
	f.submit(t, member, target+"/offers", url.Values{"kind": {"propose"}, "board": {"1"}, "time": times(18, 1, 2, 3)}).wantRefused(t, "only their own board")
}
