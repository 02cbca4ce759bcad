package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/internal/testshared"
	"arbiter/lichess"
	"arbiter/lichess/lichesstest"
)

// fakeLichessGames is a fake Lichess holding the shared hand-made
// antichess match (PlayerA v PlayerB, 2026-01-01).
func fakeLichessGames(t *testing.T) *lichesstest.Fake {
	t.Helper()
	file, err := os.Open(testshared.Path(t, "lichess-api", "fixtures", "synthetic", "games_antichess_match.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	lc := lichesstest.Start(t, lichesstest.Options{})
	if err := lc.AddGamesNDJSON(file); err != nil {
		t.Fatal(err)
	}
	return lc
}

// lichessDown is a fake Lichess answering every request with HTTP 500.
func lichessDown(t *testing.T) *lichesstest.Fake {
	down := lichesstest.Start(t, lichesstest.Options{})
	down.Inject(lichesstest.Fault{Status: http.StatusInternalServerError, Body: `{"error":"boom"}`, Times: 1000})
	return down
}

// verifyEvent is an antichess round robin of PlayerA and PlayerB whose
// match has the fixture's clocks (2 x 3+2, 1 x 1+2, 1 x 0+2), ACWC's
// clauses; PlayerA (home) reported 3+2 "1 =", 1+2 "0" and 0+2 "1" (the
// last is wrong: PlayerB won SynTh004).
func verifyEvent(t *testing.T, f *fixture) arbiter.Match {
	t.Helper()
	ctx := context.Background()
	doc := `{"name": "lichess-check", "title": "Lichess check", "entrant": "individual", "variant": "antichess",
  "clauses": {"games": "W2", "decided": "W4"},
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "stages": [{"name": "all", "kind": "round_robin", "pairing": "berger", "cycles": 1, "tiebreaks": ["mutual_match_score"],
    "match": {"kind": "individual",
      "parts": [{"tc": "3+2", "games": 2, "win": 1, "draw": 0.5}, {"tc": "1+2", "games": 1, "win": 1, "draw": 0.5}, {"tc": "0+2", "games": 1, "win": 1, "draw": 0.5}],
      "play_all_games": true, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}}]}`
	f.now = time.Date(2025, 12, 29, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.CreateEvent(ctx, tdActor, app.NewEvent{Slug: "lc", Name: "Lichess check", Format: []byte(doc), Start: time.Date(2025, 12, 30, 0, 0, 0, 0, time.UTC)}))
	for i, n := range []string{"PlayerA", "PlayerB"} {
		e, err := f.app.Register(ctx, arbiter.Actor{Name: n, Role: arbiter.RolePlayer}, "lc", arbiter.Entrant{Player: n, Rating: 2000 - i})
		if err != nil {
			t.Fatal(err)
		}
		ok(t)(f.app.Approve(ctx, tdActor, "lc", e.ID, 0))
	}
	f.now = time.Date(2025, 12, 30, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.CloseRegistration(ctx, tdActor, "lc"))
	_, ms, err := f.app.PairRound(ctx, tdActor, "lc")
	if err != nil || len(ms) != 1 || ms[0].Home != "playera" {
		t.Fatalf("paired %+v, %v", ms, err)
	}
	ok(t)(f.app.PublishRound(ctx, tdActor, "lc"))
	f.now = time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	m, err := f.app.ReportResult(ctx, arbiter.Actor{Name: "PlayerA", Role: arbiter.RolePlayer}, "lc", ms[0].ID, app.ResultInput{
		Sheet: []byte(`{"parts": [{"tc": "3+2", "results": "1 ="}, {"tc": "1+2", "results": "0"}, {"tc": "0+2", "results": "1"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTDVerifyMatch: the TD's "Check games on Lichess" form and the API
// route against a fake Lichess serving the fixture's games: refused
// without a Lichess client, then the page's table lists each part's
// games with links and the discrepancies with their clauses (the casual
// SynTh006, W2; the 0+2 score, W2); the result is unchanged. Only the
// event's TD may check.
func TestTDVerifyMatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := verifyEvent(t, f)
	tdTok, pa := f.signIn(t, "ArbiterTD"), f.signIn(t, "PlayerA")
	page := "/events/lc/td/matches/" + m.ID
	api := "/api/events/lc/matches/" + m.ID + "/verify"

	// The page offers the form; nothing checked yet.
	res, body := f.as(t, tdTok, "GET", page, nil)
	wantStatus(t, res, body, 200)
	wantContains(t, body, `<form id="verify-games"`, `value="verify">Check games on Lichess</button>`)
	if strings.Contains(body, `id="verification"`) {
		t.Fatal("a verification table before any check")
	}
	// Without a Lichess client: refused with the reason.
	f.submit(t, tdTok, page, url.Values{"action": {"verify"}}).wantRefused(t, "result verification is unavailable")
	wantAPIErrorAs(t, f, tdTok, api, 422, "rule")

	lc := fakeLichessGames(t)
	c, err := lichess.New(lichess.Options{BaseURL: lc.URL, MinInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.app.SetGameSource(app.LichessGames{Client: c})

	// A player of the match may not check (form and API); Lichess is not asked.
	res, body = f.as(t, pa, "POST", page, url.Values{"action": {"verify"}})
	wantStatus(t, res, body, 403)
	wantAPIErrorAs(t, f, pa, api, 403, "forbidden")
	if len(lc.Log()) != 0 {
		t.Fatalf("refused checks sent %d requests", len(lc.Log()))
	}

	f.submit(t, tdTok, page, url.Values{"action": {"verify"}}).
		wantOK(t, "Games of s1r1b1 checked on Lichess: 2 discrepancies: casual_game (W2), score_mismatch (W2).")
	if len(lc.Log()) != 1 {
		t.Fatalf("%d requests for one pair", len(lc.Log()))
	}
	res, body = f.as(t, tdTok, "GET", page, nil)
	wantStatus(t, res, body, 200)
	checkPage(t, page, body)
	wantContains(t, body,
		"Last checked Fri 2 Jan 2026 12:00 UTC by arbitertd against report s1r1b1-1; antichess games from Tue 30 Dec 2025 00:00 UTC to Fri 2 Jan 2026 12:00 UTC:",
		"<strong>2 discrepancies: casual_game (W2), score_mismatch (W2)</strong>")
	rows := tableRowsOf(t, body, "verification")
	want := []string{
		"3+2 (2 games)|playera – playerb|1.5-0.5|1.5-0.5|SynTh001 1, SynTh002 =|W2 casual game: game SynTh006 in 3+2 was casual; only rated games count (SynTh006)",
		"1+2 (1 game)|playera – playerb|0-1|0-1|SynTh003 0|none",
		"0+2 (1 game)|playera – playerb|1-0|0-1|SynTh004 0|W2 score mismatch: reported 1-0, Lichess shows 0-1",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("verification rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	wantContains(t, body, `<a href="https://lichess.org/SynTh001">SynTh001</a>`, `<a href="https://lichess.org/SynTh006">SynTh006</a>`)
	if got := f.match(t, "lc", m.ID); got.Status != arbiter.MatchReported || got.Version != m.Version {
		t.Fatalf("the check changed the match: %+v", got)
	}

	// The API answers the same verification, stored again (version 2).
	f.now = time.Date(2026, 1, 3, 8, 0, 0, 0, time.UTC)
	var v app.MatchVerification
	var raw map[string]json.RawMessage
	f.apiAs(t, tdTok, "POST", api, nil, 200, &raw)
	b, _ := json.Marshal(raw)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Match != m.ID || v.By != "arbitertd" || !v.At.Equal(f.now) || !v.To.Equal(f.now) || v.Consistent || v.Discrepancies != 2 || len(v.Checks) != 3 ||
		v.Checks[2].Reported == nil || *v.Checks[2].Reported != (app.PairScore{Home: arbiter.P(1), Away: 0}) ||
		v.Checks[2].Lichess != (app.PairScore{Home: 0, Away: arbiter.P(1)}) || v.Checks[2].Found[0].URL != "https://lichess.org/SynTh004" ||
		v.Checks[0].Discrepancies[0] != (app.Finding{Kind: "casual_game", Clause: "W2", Game: "SynTh006", Message: "game SynTh006 in 3+2 was casual; only rated games count"}) {
		t.Fatalf("API verification %+v", v)
	}
	for _, k := range []string{"match", "at", "by", "report", "variant", "from", "to", "checks", "discrepancies", "consistent"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("API answer lacks %s", k)
		}
	}
	if stored, err := f.app.Verification(context.Background(), arbiter.NamedUser("arbitertd"), "lc", m.ID); err != nil || stored == nil || stored.Version != 2 {
		t.Fatalf("stored %+v, %v", stored, err)
	}
}

// wantAPIErrorAs posts to an API route as the session's user and checks
// the error's status and code.
func wantAPIErrorAs(t *testing.T, f *fixture, tok, target string, status int, code string) {
	t.Helper()
	var e apiErr
	f.apiAs(t, tok, "POST", target, nil, status, &e)
	if e.Error.Code != code || e.Error.Message == "" {
		t.Fatalf("POST %s: error %+v, want %d %s", target, e.Error, status, code)
	}
}

// tableRowsOf is the text of the body rows of the table with the given
// id: each cell's text without tags, spaces collapsed, joined by "|".
func tableRowsOf(t *testing.T, body, id string) []string {
	t.Helper()
	i := strings.Index(body, `<table id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no table %s", id)
	}
	body = body[i:]
	body = body[strings.Index(body, "<tbody>"):strings.Index(body, "</tbody>")]
	var out []string
	for _, tr := range strings.Split(body, "<tr>")[1:] {
		var cells []string
		for _, c := range strings.Split(tr, "<td")[1:] {
			c = c[strings.Index(c, ">")+1:]
			c = c[:strings.Index(c, "</td>")]
			cells = append(cells, strings.Join(strings.Fields(html.UnescapeString(stripTags(c))), " "))
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}

// TestTDVerifyLichessDown: when Lichess answers 500, the TD is told that
// Lichess failed and may try again — the API answers 503 "unavailable",
// the form an error message, never "internal error".
func TestTDVerifyLichessDown(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := verifyEvent(t, f)
	tdTok := f.signIn(t, "ArbiterTD")
	c, err := lichess.New(lichess.Options{BaseURL: lichessDown(t).URL, MinInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.app.SetGameSource(app.LichessGames{Client: c})
	wantAPIErrorAs(t, f, tdTok, "/api/events/lc/matches/"+m.ID+"/verify", 503, "unavailable")
	f.submit(t, tdTok, "/events/lc/td/matches/"+m.ID, url.Values{"action": {"verify"}}).wantRefused(t, "from Lichess failed; try again later")
}
