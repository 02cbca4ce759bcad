package web

import (
	"context"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lineup"
)

// rankBoards is the TDs' A12 ranking of team-NN: capNN 2400, aNN 2350,
// bNN 2300, cNN 2290, so the boards are capNN, aNN, bNN, cNN.
func rankBoards(t *testing.T, f *fixture, nn string) {
	t.Helper()
	ms := []lineup.Member{{Name: "cap" + nn, Rating: 2400}, {Name: "a" + nn, Rating: 2350}, {Name: "b" + nn, Rating: 2300}, {Name: "c" + nn, Rating: 2290}}
	ok(t)(f.app.RankBoards(context.Background(), tdActor, "atc", "team-"+nn, ms, nil))
}

// joined is the cells marked data-test=name, joined by commas.
func joined(body, name string) string { return strings.Join(cells(body, name), ",") }

var sheetExampleRE = regexp.MustCompile(`(?s)<pre id="sheet-example">(.*?)</pre>`)

// sheetExampleOf is the report form's example match sheet on a page.
func sheetExampleOf(t *testing.T, body string) string {
	t.Helper()
	m := sheetExampleRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no sheet example on the page")
	}
	return html.UnescapeString(m[1])
}

// TestMatchBoardsShowPlayers: in the antichess cup the board lists as
// paired (A12 board order) name each board's players, for everyone: in
// the lineup table, the score by board and the report form's example.
func TestMatchBoardsShowPlayers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ctx := context.Background()
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "atc"))
	rankBoards(t, f, "01")
	rankBoards(t, f, "06")
	rankBoards(t, f, "07")
	// team-01 orders b01 and c01 the other way round (interchange allowed
	// by the TDs, A12) before the pairings.
	ok(t)(f.app.RankBoards(ctx, tdActor, "atc", "team-01", []lineup.Member{{Name: "cap01", Rating: 2400}, {Name: "a01", Rating: 2350},
		{Name: "b01", Rating: 2300}, {Name: "c01", Rating: 2290}}, lineup.Comparable{{"b01", "c01"}}))
	ok(t)(f.app.SubmitBoards(ctx, captain(1), "atc", "team-01", []string{"cap01", "a01", "c01", "b01"}))
	_, ms, err := f.app.PairRound(ctx, tdActor, "atc")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "atc"))
	if ms[0].ID != "s1r1b1" || ms[0].Home != "team-01" || ms[0].Away != "team-06" {
		t.Fatalf("board 1 %s %s-%s", ms[0].ID, ms[0].Home, ms[0].Away)
	}
	target := "/events/atc/matches/s1r1b1"

	// Before the result: the board lists, for anyone.
	for _, tok := range []string{"", f.signIn(t, "stranger"), f.signIn(t, "cap06"), f.signIn(t, "a01"), f.signIn(t, "ArbiterTD")} {
		res, body := f.as(t, tok, "GET", target, nil)
		wantStatus(t, res, body, 200)
		wantContains(t, body, `<h2 id="lineups">Boards</h2>`, "<caption>Board lists when the round was paired (A12 board order, A14 substitutions)</caption>",
			`<th scope="row">board 4</th>`)
		if got := joined(body, "lineup-home"); got != "cap01,a01,c01,b01" {
			t.Errorf("home boards %s", got)
		}
		if got := joined(body, "lineup-away"); got != "cap06,a06,b06,c06" {
			t.Errorf("away boards %s", got)
		}
		if strings.Contains(body, `class="lineup-notes"`) {
			t.Error("notes under complete board lists")
		}
	}
	// The API answers the same board lists, to anyone.
	var out rkccMatchLineups
	f.apiAs(t, "", "GET", "/api/events/atc/matches/s1r1b1", nil, 200, &out)
	if l := out.Lineups; l == nil || l.Kind != "boards" || l.Seq != 1 || !l.Deadline.IsZero() || strings.Join(l.Labels, ",") != "board 1,board 2,board 3,board 4" ||
		l.Home.String() != "paired:cap01,a01,c01,b01//0001-01-01T00:00:00Z" || l.Away.String() != "paired:cap06,a06,b06,c06//0001-01-01T00:00:00Z" {
		t.Errorf("API lineups %+v", out.Lineups)
	}
	wantDocumentedLineups(t, f, "/api/events/atc/matches/s1r1b1")
	// The home captain's example sheet names the players of each board.
	cap01 := f.signIn(t, "cap01")
	_, body := f.as(t, cap01, "GET", target, nil)
	var sheet struct {
		Boards []struct {
			Board      int    `json:"board"`
			HomePlayer string `json:"home_player"`
			AwayPlayer string `json:"away_player"`
		} `json:"boards"`
	}
	if err := json.Unmarshal([]byte(sheetExampleOf(t, body)), &sheet); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range sheet.Boards {
		got = append(got, b.HomePlayer+"-"+b.AwayPlayer)
	}
	if strings.Join(got, ",") != "cap01-cap06,a01-a06,c01-b06,b01-c06" || sheet.Boards[3].Board != 4 {
		t.Errorf("example boards %+v", sheet.Boards)
	}

	// The score by board names the players beside the points (A19).
	f.now = time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
	f.submit(t, cap01, target+"/report", url.Values{"sheet": {teamSheet}}).wantOK(t, "reported")
	_, body = f.do(t, "GET", target)
	wantContains(t, body, "<caption>Score by board</caption>", `<th scope="col">Team 01 player</th><th scope="col">Team 01</th>`,
		`<th scope="col">Team 06 player</th><th scope="col">Team 06</th>`)
	for name, want := range map[string]string{"part-home-player": "cap01,a01,c01,b01", "part-home": "144,68,68,68",
		"part-away-player": "cap06,a06,b06,c06", "part-away": "0,76,76,76"} {
		if got := joined(body, name); got != want {
			t.Errorf("%s %s, want %s", name, got, want)
		}
	}

	// A match with one ranked team: the other's boards are unknown.
	m := ms[1]
	if m.Home != "team-07" && m.Away != "team-07" {
		t.Fatalf("board 2 %s-%s, want team-07 in it", m.Home, m.Away)
	}
	_, body = f.do(t, "GET", "/events/atc/matches/"+m.ID)
	home, away := joined(body, "lineup-home"), joined(body, "lineup-away")
	if m.Away == "team-07" {
		home, away = away, home
	}
	if home != "cap07,a07,b07,c07" || away != "–,–,–,–" {
		t.Errorf("board 2: team-07 %s, opponent %s", home, away)
	}
	wantContains(t, body, `boards not ranked when the round was paired.`)
	// Neither team ranked: no board table.
	_, body = f.do(t, "GET", "/events/atc/matches/"+ms[2].ID)
	if strings.Contains(body, `id="lineups"`) {
		t.Error("a board table for two unranked teams")
	}
}

// rkccMatchLineups is the API's lineups of a match.
type rkccMatchLineups struct {
	Lineups *struct {
		Kind     string    `json:"kind"`
		Seq      int       `json:"seq"`
		Deadline time.Time `json:"deadline"`
		Labels   []string  `json:"labels"`
		Home     apiSide   `json:"home"`
		Away     apiSide   `json:"away"`
	} `json:"lineups"`
}

type apiSide struct {
	Status      string    `json:"status"`
	Players     []string  `json:"players"`
	SitsOut     []string  `json:"sits_out"`
	FromSeq     int       `json:"from_seq"`
	VisibleFrom time.Time `json:"visible_from"`
}

func (s apiSide) String() string {
	return s.Status + ":" + strings.Join(s.Players, ",") + "/" + strings.Join(s.SitsOut, ",") + "/" + s.VisibleFrom.Format(time.RFC3339)
}

// TestMatchLineupsRKCC: R7 set lineups on the match page and its API:
// each team's own captain and members and the TDs see its lineup before
// the round start; the opponent and everyone else only from the round
// start on, when every lineup is shown; a team without a lineup for the
// round plays the previous round's, marked as carried.
func TestMatchLineupsRKCC(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rkccEvent(t, f) // now: Sunday 5 January 2025 12:00, round 1 starts Monday 6 January 00:00
	ctx := context.Background()
	cap1, cap5 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}, arbiter.Actor{Name: "cap5", Role: arbiter.RoleCaptain}
	ok(t)(f.app.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"cap1", "a1", "b1"}))
	ok(t)(f.app.SubmitLineup(ctx, cap5, "rk", "team-5", 1, []string{"a5", "b5", "c5"}))
	_, ms, err := f.app.PairRound(ctx, tdActor, "rk")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "rk"))
	if ms[0].ID != "s1r1b1" || ms[0].Home != "team-1" || ms[0].Away != "team-5" {
		t.Fatalf("board 1 %s %s-%s", ms[0].ID, ms[0].Home, ms[0].Away)
	}
	target, api := "/events/rk/matches/s1r1b1", "/api/events/rk/matches/s1r1b1"
	start := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)
	tok := map[string]string{"anonymous": ""}
	for _, u := range []string{"stranger", "cap1", "a1", "c1", "cap5", "b5", "cap3", "ArbiterTD"} {
		tok[u] = f.signIn(t, u)
	}
	const hidden = "hidden,hidden,hidden"
	home, away := "cap1,a1,b1", "a5,b5,c5"
	type want struct{ home, away, homeOut, awayOut string }
	// Before the deadline (R7): each side's own people and the TDs.
	before := map[string]want{
		"anonymous": {hidden, hidden, "hidden", "hidden"},
		"stranger":  {hidden, hidden, "hidden", "hidden"},
		"cap3":      {hidden, hidden, "hidden", "hidden"}, // another team's captain
		"cap1":      {home, hidden, "c1", "hidden"},
		"a1":        {home, hidden, "c1", "hidden"},
		"c1":        {home, hidden, "c1", "hidden"}, // the substitute, sitting out
		"cap5":      {hidden, away, "hidden", "cap5"},
		"b5":        {hidden, away, "hidden", "cap5"},
		"ArbiterTD": {home, away, "c1", "cap5"},
	}
	check := func(when string, wants map[string]want) {
		t.Helper()
		for u, w := range wants {
			res, body := f.as(t, tok[u], "GET", target, nil)
			wantStatus(t, res, body, 200)
			wantContains(t, html.UnescapeString(body), `<h2 id="lineups">Lineups</h2>`, "<caption>Who plays each set in round 1 (R7)</caption>",
				`<th scope="row">3+2</th><td data-test="lineup-home">`, `<th scope="row">0.75+0</th>`)
			got := want{joined(body, "lineup-home"), joined(body, "lineup-away"), joined(body, "sits-out-home"), joined(body, "sits-out-away")}
			if got != w {
				t.Errorf("%s, %s sees %+v, want %+v", when, u, got, w)
			}
			for side, team := range map[string]string{w.home: "Team 1", w.away: "Team 5"} {
				note := team + ": lineup not disclosed before the round start, "
				if shown := strings.Contains(body, note); shown != (side == hidden) {
					t.Errorf("%s, %s: note %q shown %v", when, u, note, shown)
				}
			}
			if due := strings.Contains(body, `<li id="lineup-due">Lineups are due by the round start, <time datetime="2025-01-06T00:00:00Z"`); due != (when == "before") {
				t.Errorf("%s, %s: deadline note shown %v", when, u, due)
			}
			// The API answers the same players.
			var out rkccMatchLineups
			f.apiAs(t, tok[u], "GET", api, nil, 200, &out)
			l := out.Lineups
			if l == nil || l.Kind != "sets" || l.Seq != 1 || !l.Deadline.Equal(start) || strings.Join(l.Labels, ",") != "3+2,1.5+1,0.75+0" {
				t.Fatalf("%s, %s: API lineups %+v", when, u, l)
			}
			apiWant := func(players, out string) string {
				if players == hidden {
					return "hidden://" + start.Format(time.RFC3339)
				}
				return "submitted:" + players + "/" + out + "/0001-01-01T00:00:00Z"
			}
			if g, w := l.Home.String(), apiWant(w.home, w.homeOut); g != w {
				t.Errorf("%s, %s: API home %s, want %s", when, u, g, w)
			}
			if g, w := l.Away.String(), apiWant(w.away, w.awayOut); g != w {
				t.Errorf("%s, %s: API away %s, want %s", when, u, g, w)
			}
		}
	}
	check("before", before)
	wantDocumentedLineups(t, f, api) // hidden sides, with visible_from
	// The home captain's example sheet names the players it may see; the
	// opponent's are left out rather than guessed.
	_, body := f.as(t, tok["cap1"], "GET", target, nil)
	ex := sheetExampleOf(t, body)
	if !strings.Contains(ex, `"home_player": "cap1"`) || strings.Contains(ex, "away_player") || strings.Contains(ex, "home-player") {
		t.Errorf("example before the deadline:\n%s", ex)
	}
	wantContains(t, body, `<p id="sheet-players">The players are those of the lineups above; a lineup not disclosed yet is left out (the players are optional).</p>`)

	// From the round start on, everyone sees both lineups.
	f.now = start
	after := map[string]want{}
	for u := range before {
		after[u] = want{home, away, "c1", "cap5"}
	}
	check("after", after)

	// The example sheet now names both sides' players, and is accepted as
	// it stands (R7: the sheet's players are the lineups').
	f.now = start.Add(30 * time.Hour)
	_, body = f.as(t, tok["cap1"], "GET", target, nil)
	ex = sheetExampleOf(t, body)
	var sheet struct {
		Sets []struct {
			TC         string `json:"tc"`
			HomePlayer string `json:"home_player"`
			AwayPlayer string `json:"away_player"`
		} `json:"sets"`
	}
	if err := json.Unmarshal([]byte(ex), &sheet); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sheet.Sets {
		got = append(got, s.TC+" "+s.HomePlayer+"-"+s.AwayPlayer)
	}
	if strings.Join(got, ",") != "3+2 cap1-a5,1.5+1 a1-b5,0.75+0 b1-c5" {
		t.Errorf("example sets %v", got)
	}
	f.submit(t, tok["cap1"], target+"/report", url.Values{"sheet": {ex}}).wantOK(t, "reported")
	ok(t)(f.app.ConfirmResult(ctx, cap5, "rk", "s1r1b1", 0))
	// R10: every game drawn, 120-120 in each set; the score by set names
	// its players.
	_, body = f.do(t, "GET", target)
	wantContains(t, body, "<caption>Score by set</caption>", `<th scope="col">Team 1 player</th>`)
	for name, want := range map[string]string{"part-home-player": home, "part-home": "120,120,120", "part-away-player": away} {
		if got := joined(body, name); got != want {
			t.Errorf("%s %s, want %s", name, got, want)
		}
	}

	// Round 2: team-1 sent no lineup, so round 1's plays (R7), marked as
	// carried; a team that never sent one has none.
	ev, err := f.app.Event(ctx, "rk")
	if err != nil {
		t.Fatal(err)
	}
	f.now = ev.Calendar[0].End
	ok(t)(f.app.CloseRound(ctx, tdActor, "rk"))
	_, ms2, err := f.app.PairRound(ctx, tdActor, "rk")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "rk"))
	var m arbiter.Match
	for _, x := range ms2 {
		if x.Home == "team-1" || x.Away == "team-1" {
			m = x
		}
	}
	if m.ID == "" || m.IsBye() {
		t.Fatalf("team-1 has no match in round 2: %+v", ms2)
	}
	f.now = ev.Calendar[1].Start.Add(time.Hour)
	_, body = f.do(t, "GET", "/events/rk/matches/"+m.ID)
	wantContains(t, html.UnescapeString(body), "<caption>Who plays each set in round 2 (R7)</caption>",
		"Team 1: carried from round 1; no lineup was sent for round 2, so round 1's plays (R7).")
	one, other := joined(body, "lineup-home"), joined(body, "lineup-away")
	if m.Away == "team-1" {
		one, other = other, one
	}
	if one != home || other != "–,–,–" {
		t.Errorf("round 2: team-1 %s, opponent %s", one, other)
	}
	var out rkccMatchLineups
	f.apiAs(t, "", "GET", "/api/events/rk/matches/"+m.ID, nil, 200, &out)
	wantDocumentedLineups(t, f, "/api/events/rk/matches/"+m.ID)
	t1, opp := out.Lineups.Home, out.Lineups.Away
	if m.Away == "team-1" {
		t1, opp = opp, t1
	}
	if t1.Status != "carried" || t1.FromSeq != 1 || strings.Join(t1.Players, ",") != home || opp.Status != "none" || opp.Players != nil {
		t.Errorf("round 2 API: team-1 %+v, opponent %+v", t1, opp)
	}
}

// TestLineupVisible: the disclosure rule on its own.
func TestLineupVisible(t *testing.T) {
	t.Parallel()
	deadline := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)
	before, at := deadline.Add(-time.Second), deadline
	for _, c := range []struct {
		name  string
		roles app.Roles
		now   time.Time
		want  bool
	}{
		{"anyone before", app.Roles{}, before, false},
		{"anyone at the deadline", app.Roles{}, at, true},
		{"captain before", app.Roles{Captain: []string{"team-1"}}, before, true},
		{"member before", app.Roles{Member: []string{"team-1"}}, before, true},
		{"opponent before", app.Roles{Captain: []string{"team-5"}, Member: []string{"team-5"}}, before, false},
		{"TD before", app.Roles{TD: true}, before, true},
	} {
		if got := app.LineupVisible(c.roles, "team-1", deadline, c.now); got != c.want {
			t.Errorf("%s: %v", c.name, got)
		}
	}
	if app.LineupVisible(app.Roles{}, "team-1", time.Time{}, at) {
		t.Error("an unknown deadline discloses the lineup")
	}
}

// wantDocumentedLineups checks that every field of the lineups of the
// match answer at target is in the OpenAPI document (MatchLineups,
// LineupSide) and every required one is there.
func wantDocumentedLineups(t *testing.T, f *fixture, target string) {
	t.Helper()
	doc := loadOpenAPI(t, f)
	type schema struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	schemaOf := func(name string) schema {
		var s schema
		if err := json.Unmarshal(doc.Components.Schemas[name], &s); err != nil || len(s.Properties) == 0 {
			t.Fatalf("schema %s: %v", name, err)
		}
		return s
	}
	check := func(what string, obj map[string]json.RawMessage, s schema) {
		for k := range obj {
			if _, ok := s.Properties[k]; !ok {
				t.Errorf("%s: field %s undocumented", what, k)
			}
		}
		for _, k := range s.Required {
			if _, ok := obj[k]; !ok {
				t.Errorf("%s: required field %s missing", what, k)
			}
		}
	}
	var out struct {
		Lineups map[string]json.RawMessage `json:"lineups"`
	}
	f.apiAs(t, "", "GET", target, nil, 200, &out)
	check("lineups", out.Lineups, schemaOf("MatchLineups"))
	for _, side := range []string{"home", "away"} {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(out.Lineups[side], &obj); err != nil {
			t.Fatal(err)
		}
		check("lineups."+side, obj, schemaOf("LineupSide"))
	}
}
