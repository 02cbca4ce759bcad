package web

import (
	"context"
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
)

// teamSheet is the A18/A19 example of package score's tests: board 1 won
// 144-0 (3 parts x 48), boards 2-4 drawn but for the last 1+2 game each,
// 68-76 per board: 144+3*68 = 348 to 3*76 = 228, a home win.
const teamSheet = `{"boards": [
	{"board": 1, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}]},
	{"board": 2, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]},
	{"board": 3, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]},
	{"board": 4, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]}]}`

var tdActor = arbiter.Actor{Name: "ArbiterTD", Role: arbiter.RoleTD}

func captain(i int) arbiter.Actor {
	return arbiter.Actor{Name: fmt.Sprintf("cap%02d", i), Role: arbiter.RoleCaptain}
}

// ok fails the test on a use case's error; its value is not needed.
func ok(t testing.TB) func(any, error) {
	return func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// antichessEvent creates the antichess cup "atc" with ten approved teams
// (A9: the fewest it runs with), still in registration.
func antichessEvent(t testing.TB, f *fixture) {
	t.Helper()
	ctx := context.Background()
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "atc", Name: "Antichess Team Cup 2025", Preset: "antichess-team-cup",
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)}))
	for i := 1; i <= 10; i++ {
		c := captain(i).Name
		e := arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: c, Rating: 2300 - 10*i,
			Members: []string{c, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}}
		e, err := f.app.Register(ctx, captain(i), "atc", e)
		if err != nil {
			t.Fatal(err)
		}
		ok(t)(f.app.Approve(ctx, tdActor, "atc", e.ID, 0))
	}
}

// playRound1 closes registration and plays round 1: team-01 beats
// team-06 348-228 on the sheet, the other four matches are not played.
func playRound1(t testing.TB, f *fixture) {
	t.Helper()
	ctx := context.Background()
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Home != "team-01" || ms[0].Away != "team-06" {
		t.Fatalf("board 1 is %s-%s, want team-01-team-06", ms[0].Home, ms[0].Away)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	f.now = time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.ReportResult(ctx, captain(1), "atc", ms[0].ID, app.ResultInput{Sheet: []byte(teamSheet)}))
	ok(t)(f.app.ConfirmResult(ctx, captain(6), "atc", ms[0].ID, 0))
	f.now = time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC) // A4: after Monday 13 January 23:59
	ok(t)(f.app.CloseRound(ctx, tdActor, "atc"))
	// Nobody offered a time in the four other matches: A5 holds them for
	// the TDs, who rule them 0-0 draws (double forfeits).
	decideHeld(t, f, "atc")
}

// decideHeld has the TD rule every match held at a deadline a double
// forfeit (A5: no offers from either side, nobody to blame).
func decideHeld(t testing.TB, f *fixture, slug string) {
	t.Helper()
	ctx := context.Background()
	ms, err := f.app.Matches(ctx, slug, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Status == arbiter.MatchHeld {
			ok(t)(f.app.OverrideResult(ctx, tdActor, slug, m.ID, app.ResultInput{Summary: "forfeit:double"}, "neither team offered a time (A5): a 0-0 draw", 0))
		}
	}
}

func TestEventPageDuringRegistration(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	res, body := f.do(t, "GET", "/events/atc")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	wantContains(t, body, "<h1>Antichess Team Cup 2025</h1>", "Registration is open", `href="/formats/antichess-team-cup"`,
		"Tue 7 Jan 2025 00:00 UTC", "<caption>Calendar</caption>")

	res, body = f.do(t, "GET", "/events/atc/standings")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Registration is open: there are standings once it closes")
}

func TestEventPageRunning(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	res, body := f.do(t, "GET", "/")
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<a href="/events/atc/standings">Standings<span class="visually-hidden"> of Antichess Team Cup 2025</span></a>`)

	res, body = f.do(t, "GET", "/events/atc")
	wantStatus(t, res, body, 200)
	// A10: 10 teams play 7 Swiss rounds, the top 4 go to a knockout of
	// 2 rounds; A9: teams of 4, so 576 points a match (A18).
	if got := cells(body, "rounds"); strings.Join(got, ",") != "7,2" {
		t.Errorf("stage rounds %v, want 7,2", got)
	}
	if mx := cells(body, "max-points"); len(mx) == 0 || mx[0] != "576" {
		t.Errorf("max points %v", mx)
	}
	wantContains(t, body, `href="/formats/antichess-team-cup?entrants=10"`, "top 4")
	// A4: round 1 is due Monday 13 January 23:59 UTC; 9 rounds in all.
	deadlines := cells(body, "deadline")
	if len(deadlines) != 9 {
		t.Fatalf("%d rounds in the calendar, want 9", len(deadlines))
	}
	states := cells(body, "round-state")
	if states[0] != "closed" || states[1] != "scheduled" {
		t.Errorf("round states %v", states)
	}
	if !strings.Contains(body, `<td data-test="deadline"><time datetime="2025-01-13T23:59:00Z">Mon 13 Jan 2025 23:59 UTC</time>`) {
		t.Errorf("round 1 deadline missing")
	}
}

func TestStandingsEveryTiebreakAsColumn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	res, body := f.do(t, "GET", "/events/atc/standings")
	wantStatus(t, res, body, 200)
	wantHTML(t, res, body)
	// A21: points difference, points scored, median Buchholz.
	wantContains(t, body, `<th scope="col"><code>points_difference</code></th><th scope="col"><code>points_scored</code></th><th scope="col"><code>median_buchholz</code></th>`)
	rows := tableRows(body)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10:\n%s", len(rows), body)
	}
	// team-01 won 348-228: 1 match point, +120, 348. A5: the double
	// forfeits are 0-0 draws, 0.5 each with nothing scored. team-06 lost.
	if !strings.HasPrefix(rows[0], "1|Team 01|1|120|348|") {
		t.Errorf("first row %q", rows[0])
	}
	if !strings.HasPrefix(rows[9], "10|Team 06|0|-120|228|") {
		t.Errorf("last row %q", rows[9])
	}
	for _, r := range rows[1:9] {
		if c := strings.Split(r, "|"); c[2] != "0.5" || c[3] != "0" || c[4] != "0" {
			t.Errorf("middle row %q", r)
		}
	}
	// The knockout has no results yet: its table lists no entrants.
	res, body = f.do(t, "GET", "/events/atc/standings?stage=2")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Stage 2: ", `aria-current="page">`)
}

// tableRows returns the body rows of the standings table as
// "cell|cell|...", with tags stripped.
func tableRows(body string) []string {
	i := strings.Index(body, `<table class="standings">`)
	if i < 0 {
		return nil
	}
	body = body[i:]
	body = body[strings.Index(body, "<tbody>"):strings.Index(body, "</tbody>")]
	var out []string
	for _, tr := range strings.Split(body, "<tr>")[1:] {
		var cells []string
		for _, c := range strings.Split(tr, "</t")[:] {
			j := strings.LastIndex(c, ">")
			if j < 0 || !strings.Contains(c, "<t") {
				continue
			}
			cells = append(cells, html.UnescapeString(stripTags(c[j+1:])))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

func TestEventErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/events/nope", 404, "not_found"},
		{"/events/nope/standings", 404, "not_found"},
		{"/events/atc/standings?stage=3", 400, "invalid"},
		{"/events/atc/standings?stage=x", 400, "invalid"},
		{"/events/atc/standings?stage=0", 400, "invalid"},
	} {
		res, body := f.do(t, "GET", c.path)
		wantStatus(t, res, body, c.status)
		wantContains(t, body, "<code>"+c.code+"</code>")
	}
	res, body := f.do(t, "POST", "/events/atc")
	wantStatus(t, res, body, 405)
}

// ownFormat is a one-stage individual Swiss given as a format file, not a
// preset: the event page must not link it to /formats.
const ownFormat = `{
  "name": "club-swiss",
  "title": "Club Swiss",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "stages": [{
    "name": "swiss", "kind": "swiss", "pairing": "dutch",
    "rounds": {"fixed": 5},
    "tiebreaks": ["buchholz", "sonneborn_berger"],
    "match": {"kind": "individual", "parts": [{"tc": "3+2", "games": 2, "win": 1, "draw": 0.5}], "play_all_games": true,
      "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}
  }]
}`

func TestEventWithOwnFormat(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, err := f.app.CreateEvent(context.Background(), tdActor, app.NewEvent{Slug: "club", Name: "Club Swiss 2025", Format: []byte(ownFormat),
		Start: time.Date(2025, 1, 7, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	res, body := f.do(t, "GET", "/events/club")
	wantStatus(t, res, body, 200)
	wantContains(t, body, "Club Swiss (<code>club-swiss</code>, the event's own format file)")
	if strings.Contains(body, `href="/formats/club-swiss`) {
		t.Error("the event links its own format to /formats, which only knows the presets")
	}
	// The home page lists it with a link to the event.
	res, body = f.do(t, "GET", "/")
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<a href="/events/club">Club Swiss 2025</a>`)
}
