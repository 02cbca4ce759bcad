package web

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// getPage fetches a page, wants status 200 and checks its markup.
func getPage(t *testing.T, f *fixture, path string) string {
	t.Helper()
	res, body := f.do(t, "GET", path)
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	checkPage(t, path, body)
	return body
}

var cellRE = regexp.MustCompile(`(?s)<t[dh]\b[^>]*>(.*?)</t[dh]>`)

// rowsOf returns the body rows of the first table with class cls as
// "cell|cell|...", each cell's text with its tags stripped.
func rowsOf(body, cls string) []string {
	i := strings.Index(body, `<table class="`+cls+`"`)
	if i < 0 {
		return nil
	}
	body = body[i:]
	body = body[strings.Index(body, "<tbody>"):strings.Index(body, "</tbody>")]
	var out []string
	for _, tr := range strings.Split(body, "<tr")[1:] {
		var cells []string
		for _, m := range cellRE.FindAllStringSubmatch(tr, -1) {
			cells = append(cells, html.UnescapeString(stripTags(m[1])))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

func TestRoundPagePairingsAndResults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	body := getPage(t, f, "/events/atc/rounds/s1r1")
	wantContains(t, body, "<h1>Round 1: Antichess Team Cup 2025</h1>", `data-live="/events/atc/live"`,
		// A4: the round runs from Tuesday 7 January to Monday 13 January 23:59 UTC;
		// the datetime attribute lets localtime.js add the reader's own time.
		`<dd data-test="round-start"><time datetime="2025-01-07T00:00:00Z" data-local>Tue 7 Jan 2025 00:00 UTC</time></dd>`,
		`<dd data-test="round-deadline"><time datetime="2025-01-13T23:59:00Z" data-local>Mon 13 Jan 2025 23:59 UTC</time></dd>`,
		`<a rel="next" href="/events/atc/rounds/s1r2">Round 2 →</a>`, `<script src="/static/localtime.js?v=`,
		`<a href="/events/atc/matches/s1r1b1">s1r1b1</a>`, `<a href="/events/atc/rounds/s1r1" aria-current="page">Pairings</a>`)
	if strings.Contains(body, `rel="prev"`) {
		t.Error("round 1 links a previous round")
	}
	rows := rowsOf(body, "pairings")
	if len(rows) != 5 {
		t.Fatalf("%d pairings, want 5 (10 teams): %q", len(rows), rows)
	}
	// team-01 beat team-06 348-228 on the sheet; the four other matches
	// were not played: A5 double forfeits, scored as 0-0 draws.
	if rows[0] != "1|Team 01|Team 06|348–228, Team 01 won|final|–|s1r1b1" {
		t.Errorf("board 1 %q", rows[0])
	}
	for _, r := range rows[1:] {
		if c := strings.Split(r, "|"); c[3] != "0–0, drawn (double forfeit)" || c[4] != "final" {
			t.Errorf("unplayed board %q", r)
		}
	}
}

func TestRoundPageBeforeAndDuringReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	// Round 2 is in the calendar but not paired: its window, no pairings.
	body := getPage(t, f, "/events/atc/rounds/s1r2")
	wantContains(t, body, "<h1>Round 2: Antichess Team Cup 2025</h1>", "This round is not paired yet",
		`<a rel="prev" href="/events/atc/rounds/s1r1">← Round 1</a>`, `<span data-test="round-status">scheduled</span>`)
	// Paired but not published: the TDs are still reviewing, so the
	// pairings stay hidden here and on the entrant pages.
	if _, _, err := f.app.PairRound(context.Background(), tdActor, "atc"); err != nil {
		t.Fatal(err)
	}
	body = getPage(t, f, "/events/atc/rounds/s1r2")
	wantContains(t, body, "The TDs are reviewing this round&#39;s pairings", `<span data-test="round-status">paired</span>`)
	if strings.Contains(body, "s1r2b1") {
		t.Error("unpublished pairings shown")
	}
	body = getPage(t, f, "/events/atc/entrants/team-01")
	if strings.Contains(body, "s1r2b1") || len(rowsOf(body, "entrant-matches")) != 1 {
		t.Errorf("entrant page shows unpublished matches: %q", rowsOf(body, "entrant-matches"))
	}
}

func TestCrosstablePage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	body := getPage(t, f, "/events/atc/crosstable")
	wantContains(t, body, "<h1>Crosstable: Antichess Team Cup 2025</h1>", "Stage 1: swiss",
		`<th scope="col">R1</th>`, `<th scope="col"><code>points_difference</code></th>`)
	rows := rowsOf(body, "crosstable")
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	// team-01 is first, team-06 last (line 10): team-01 beat it with
	// White on board 1 (home), 348-228, 1 match point, +120, 348 scored.
	if rows[0] != "1|1|Team 01|10w1348–228|1|120|348|0" {
		t.Errorf("first row %q", rows[0])
	}
	if rows[9] != "10|10|Team 06|1b0228–348|0|-120|228|0" {
		t.Errorf("last row %q", rows[9])
	}
	// Screen readers get the cell spelled out.
	wantContains(t, body, `<a href="/events/atc/matches/s1r1b1" aria-label="Round 1: against Team 06, white, won 348–228">10w1</a>`,
		`aria-label="Round 1: against Team 01, black, lost 228–348">1b0</a>`)
	// The others drew 0-0 by double forfeit (=, not ½: not played), each
	// against another of lines 2-9 with the opposite colour.
	seen := map[string]bool{}
	for _, r := range rows[1:9] {
		c := strings.Split(r, "|")
		m := regexp.MustCompile(`^([2-9])([wb])=0–0double forfeit$`).FindStringSubmatch(c[3])
		if m == nil || c[1] != "2=" || c[4] != "0.5" {
			t.Errorf("middle row %q", r)
			continue
		}
		seen[c[0]+m[2]] = true
	}
	if len(seen) != 8 {
		t.Errorf("middle rows %q", rows[1:9])
	}
	// The knockout stage has no crosstable.
	body = getPage(t, f, "/events/atc/crosstable?stage=2")
	wantContains(t, body, "Stage knockout is a knockout: it has no crosstable.")
}

func TestPublicPagesBeforeRegistrationCloses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	for path, want := range map[string]string{
		"/events/atc/crosstable": "Registration is open: the crosstable starts once it closes",
		"/events/atc/bracket":    "Registration is open: the knockout bracket is drawn once its entrants are known.",
		"/events/atc/pools":      "This event has no pool stage.",
	} {
		body := getPage(t, f, path)
		wantContains(t, body, want)
	}
	body := getPage(t, f, "/events/atc/entrants")
	rows := rowsOf(body, "entrants")
	// Before the seeding the entrants are listed by ID, without seeds.
	if len(rows) != 10 || rows[0] != "–|Team 01|2290|approved|cap01|cap01, a01, b01, c01" {
		t.Errorf("entrants %q", rows)
	}
	res, body := f.do(t, "GET", "/events/atc/rounds/s1r1")
	wantStatus(t, res, body, 404) // no calendar yet
}

func TestEntrantsAndEntrantPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	body := getPage(t, f, "/events/atc/entrants")
	wantContains(t, body, "<h1>Entrants: Antichess Team Cup 2025</h1>", "<caption>Entrants by seed</caption>")
	rows := rowsOf(body, "entrants")
	// Seeded by rating: Team 01 (2290) first, Team 10 (2200) last.
	if len(rows) != 10 || rows[0] != "1|Team 01|2290|approved|cap01|cap01, a01, b01, c01" ||
		rows[9] != "10|Team 10|2200|approved|cap10|cap10, a10, b10, c10" {
		t.Errorf("entrants %q", rows)
	}

	body = getPage(t, f, "/events/atc/entrants/team-06")
	wantContains(t, body, "<h1>Team 06</h1>", `<dd data-test="seed">6</dd>`, `<dd data-test="captain">cap06</dd>`,
		"<li>cap06 (captain)</li>", "<li>a06</li>", "The captain has not given the board order yet.")
	ms := rowsOf(body, "entrant-matches")
	// team-06 lost to team-01 as the away side (Black on board 1).
	if len(ms) != 1 || ms[0] != "swiss 1|Team 01|black|lost 228–348|final|–|s1r1b1" {
		t.Errorf("team-06 matches %q", ms)
	}
	wantContains(t, body, `<a href="/events/atc/rounds/s1r1">swiss 1</a>`, `<a href="/events/atc/entrants/team-01">Team 01</a>`)

	for _, p := range []string{"/events/atc/entrants/nope", "/events/nope/entrants", "/events/nope/entrants/team-01"} {
		res, body := f.do(t, "GET", p)
		wantStatus(t, res, body, 404)
		wantContains(t, body, "<code>not_found</code>")
	}
}

func TestEventPageLinksAndYourPart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	// During registration a signed-in visitor is offered to register.
	tok := f.signIn(t, "someone")
	_, body := f.as(t, tok, "GET", "/events/atc", nil)
	checkPage(t, "/events/atc", body)
	wantContains(t, body, "Your part in this event", `<a href="/events/atc/register">Register for this event</a>`)

	playRound1(t, f)
	body = getPage(t, f, "/events/atc")
	wantContains(t, body, `data-live="/events/atc/live"`, `<a href="/events/atc" aria-current="page">Event</a>`,
		`<a href="/events/atc/entrants">Entrants</a>`, `<a href="/events/atc/rounds/s1r1">Pairings</a>`,
		`<a href="/events/atc/standings">Standings</a>`, `<a href="/events/atc/crosstable">Crosstable</a>`,
		`<a href="/events/atc/bracket">Bracket</a>`, `<th scope="row"><a href="/events/atc/rounds/s1r1">1</a></th>`,
		// The calendar's times get the reader's local time too.
		`<div class="table-wrap" role="region" aria-label="Rounds" tabindex="0" data-local>`, `<script src="/static/localtime.js?v=`)
	if strings.Contains(body, "Your part") || strings.Contains(body, `href="/events/atc/pools"`) {
		t.Error("anonymous part box, or a pools link for a format without pools")
	}

	// cap01 captains team-01, which played s1r1b1, the latest round.
	_, body = f.as(t, f.signIn(t, "cap01"), "GET", "/events/atc", nil)
	checkPage(t, "/events/atc", body)
	wantContains(t, body, `<a href="/events/atc/teams/team-01/captain">Captain's page of Team 01</a>`,
		`<a href="/events/atc/entrants/team-01">You play for Team 01</a>`,
		`<a href="/events/atc/matches/s1r1b1">Your match: Team 01 v Team 06 (round s1r1, final)</a>`)
	for _, not := range []string{`/events/atc/td"`, "/events/atc/register", "team-02/captain"} {
		if strings.Contains(body, not) {
			t.Errorf("cap01 offered %s", not)
		}
	}
	// b06 plays for team-06 but captains nothing.
	_, body = f.as(t, f.signIn(t, "b06"), "GET", "/events/atc", nil)
	wantContains(t, body, `<a href="/events/atc/matches/s1r1b1">Your match: Team 01 v Team 06`, "You play for Team 06")
	if strings.Contains(body, "/captain") {
		t.Error("a member is offered the captain's page")
	}
	// The TD gets the console.
	_, body = f.as(t, f.signIn(t, "ArbiterTD"), "GET", "/events/atc", nil)
	wantContains(t, body, `<a href="/events/atc/td">TD console</a>`)
	if strings.Contains(body, "Your match") {
		t.Error("the TD is offered a match")
	}
	// Someone without a part is told so.
	_, body = f.as(t, tok, "GET", "/events/atc", nil)
	wantContains(t, body, "You have no part in this event.")
	// The standings page is live too.
	body = getPage(t, f, "/events/atc/standings")
	wantContains(t, body, `data-live="/events/atc/live"`)
}

func TestPublicPageErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/events/nope/rounds/s1r1", 404, "not_found"},
		{"/events/atc/rounds/s9r9", 404, "not_found"},
		{"/events/atc/rounds/x", 404, "not_found"},
		{"/events/nope/crosstable", 404, "not_found"},
		{"/events/nope/bracket", 404, "not_found"},
		{"/events/nope/pools", 404, "not_found"},
		{"/events/atc/crosstable?stage=3", 404, "not_found"},
		{"/events/atc/bracket?stage=3", 404, "not_found"},
		{"/events/atc/pools?stage=3", 404, "not_found"},
		{"/events/atc/crosstable?stage=x", 400, "invalid"},
		{"/events/atc/bracket?stage=0", 400, "invalid"},
		{"/events/atc/pools?stage=-1", 400, "invalid"},
	} {
		res, body := f.do(t, "GET", c.path)
		wantStatus(t, res, body, c.status)
		wantContains(t, body, "<code>"+c.code+"</code>")
		checkPage(t, c.path, body)
	}
	res, body := f.do(t, "GET", "/events/atc/crosstable?stage=x")
	wantStatus(t, res, body, 400)
	wantContains(t, body, "stage: stage must be a stage number from 1 to 2")
	res, body = f.do(t, "POST", "/events/atc/bracket")
	wantStatus(t, res, body, 405)
}

// TestPagesOfAFormatWithoutKnockout: a one-stage individual Swiss given
// as a format file has no bracket and no pools, and says so.
func TestPagesOfAFormatWithoutKnockout(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "club", Name: "Club Swiss 2025", Format: []byte(ownFormat),
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alice", "bob"} {
		e, err := f.app.Register(ctx, arbiter.Actor{Name: name, Role: arbiter.RolePlayer}, "club", arbiter.Entrant{Kind: arbiter.EntrantPlayer, Player: name, Name: name, Rating: 1500})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.Approve(ctx, tdActor, "club", e.ID, 0); err != nil {
			t.Fatal(err)
		}
	}
	body := getPage(t, f, "/events/club/bracket")
	wantContains(t, body, "This event has no knockout stage, so it has no bracket.")
	body = getPage(t, f, "/events/club/pools")
	wantContains(t, body, "This event has no pool stage.")
	body = getPage(t, f, "/events/club")
	if strings.Contains(body, "/events/club/bracket") || strings.Contains(body, "/events/club/pools") || !strings.Contains(body, `href="/events/club/crosstable"`) {
		t.Error("event navigation offers pages the format cannot have")
	}
	body = getPage(t, f, "/events/club/entrants")
	// Players: no captain or member columns.
	if rows := rowsOf(body, "entrants"); len(rows) != 2 || rows[0] != "–|alice|1500|approved" {
		t.Errorf("players %q", rows)
	}
	body = getPage(t, f, "/events/club/entrants/alice")
	wantContains(t, body, `<a href="https://lichess.org/@/alice" rel="noopener">alice</a>`, "No published match yet.")
}
