package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lineup"
	"arbiter/sqlstore"
)

// The role matrix: every route the server registers (pages and API),
// requested by every role, with the exact answer each role gets. A route
// registered without a row here fails TestRoleMatrix, so a new route
// cannot ship without deciding who may use it (docs/web.md, Permissions).

// role is who sends a request, relative to the row's scene: the team (or
// match side) in question and its event.
type role int

const (
	anonymous    role = iota // no session
	signedIn                 // a signed-in user with no role in the event
	player                   // a member of the team in question (not its captain)
	teamCaptain              // the captain of the team in question (the home side of a match)
	otherCaptain             // the captain of a team of the event not in the match
	opponent                 // the captain of the other side of the match
	otherTD                  // a TD of another event
	eventTD                  // a TD of this event
	nRoles
)

var roleNames = [nRoles]string{"anonymous", "user", "player", "captain", "other-captain", "opponent", "other-td", "td"}

// scene names the users of each role for one row.
type scene [nRoles]string

// matrixRow is one registered route: a request that an allowed role can
// make, and what each role gets. A want is the status, and
//   - for the API, the error code of a refusal: "403 forbidden";
//   - for a page form's redirect: "login" (sent to sign in), "303 ok" or
//     "303 err" (the flash message of success or of a refusal), "303"
//     (no flash).
type matrixRow struct {
	pattern string // as registered
	path    string // the request's path (a GET pattern is sent as GET, or HEAD when head is set)
	head    bool
	form    url.Values // a page form's fields
	body    any        // an API request's JSON body
	scene   scene
	want    [nRoles]string
	// noAudit marks a route whose success writes nothing to the audit log
	// (sessions).
	noAudit bool
	// fresh runs every role on its own copy of the base (a new server):
	// the sign-in throttle counts failures per client address.
	fresh bool
}

// wants lists one want per role, in the order of the role constants.
func wants(ws ...string) [nRoles]string {
	if len(ws) != int(nRoles) {
		panic(fmt.Sprintf("wants: %d wants, need %d", len(ws), nRoles))
	}
	var out [nRoles]string
	copy(out[:], ws)
	return out
}

func everyone(w string) [nRoles]string { return wants(w, w, w, w, w, w, w, w) }

// signedInOnly: anonymous refused with anon, anyone signed in gets w.
func signedInOnly(anon, w string) [nRoles]string { return wants(anon, w, w, w, w, w, w, w) }

// tdOnly: anonymous gets anon, this event's TD td, everyone else refused.
func tdOnly(anon, refused, td string) [nRoles]string {
	return wants(anon, refused, refused, refused, refused, refused, refused, td)
}

const (
	apiAnon    = "401 unauthorized"
	apiRefused = "403 forbidden"
	pageAnon   = "login"
	pageRefuse = "303 err"
)

// matrixBase builds the shared state: the antichess cup "atc" with round
// 1 closed (an appeal pending on one of its matches, a forbidden pairing
// f1, a list s1 of players kept apart, a ban b1, a private report c1) and round 2 published, its board 2 reported by the home captain;
// the RKCC event "rk" (sets lineups) and "oth", an event in registration
// whose TD is OtherTD. Every user of the scenes is signed in.
type matrixBase struct {
	f       *fixture
	tokens  map[string]string // user → session token
	m1, m2  arbiter.Match     // round 2, boards 1 and 2
	m3      arbiter.Match     // round 1 (closed), board 3: not played
	appeal  string            // a pending appeal's ID
	m1Scene scene             // the home team of board 1
	m2Scene scene             // the home team of board 2 (its reporter)
	m3Scene scene             // the home team of m3
	rkScene scene             // team-1 of "rk"
}

func newMatrixBase(t *testing.T) *matrixBase {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	antichessEvent(t, f)
	playRound1(t, f)
	r1, err := f.app.Matches(ctx, "atc", "s1r1")
	if err != nil {
		t.Fatal(err)
	}
	ap, err := f.app.Appeal(ctx, capOf(r1[1].Home), "atc", r1[1].ID, "no-show")
	if err != nil {
		t.Fatal(err)
	}
	ok(t)(f.app.Forbid(ctx, tdActor, "atc", app.ForbidRequest{Stage: 0, Entrants: []string{"team-01", "team-02"}, Reason: "same club"}))
	ok(t)(f.app.Separate(ctx, tdActor, "atc", app.SeparateRequest{Players: []string{"star1", "star2"}, Reason: "the strongest (A11)"}))
	ok(t)(f.app.Ban(ctx, tdActor, "atc", app.BanRequest{Player: "cheat1", Permanent: true, Reason: "engine use (R17)"}))
	ok(t)(f.app.ReportCheating(ctx, capOf("team-01"), "atc", app.CheatReportRequest{Suspect: "b02", Text: "engine moves in game 2"}))
	ms := openRound2(t, f)
	b := &matrixBase{f: f, tokens: map[string]string{}, m1: ms[0], m2: ms[1], m3: r1[2], appeal: ap.ID}
	// The TDs rank the boards of board 1's home team (A12), so that its
	// captain can order them and substitute (A14).
	h := strings.TrimPrefix(b.m1.Home, "team-")
	ok(t)(f.app.RankBoards(ctx, tdActor, "atc", b.m1.Home, []lineup.Member{{Name: "cap" + h, Rating: 2400}, {Name: "a" + h, Rating: 2350},
		{Name: "b" + h, Rating: 2300}, {Name: "c" + h, Rating: 2290}}, lineup.Comparable{{"b" + h, "c" + h}}))
	f.now = time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	ok(t)(f.app.ReportResult(ctx, capOf(b.m2.Home), "atc", b.m2.ID, app.ResultInput{Summary: "forfeit:away"}))

	rkccEvent(t, f)
	f.now = time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	otherTDActor := arbiter.Actor{Name: "OtherTD", Role: arbiter.RoleTD}
	ok(t)(f.app.CreateEvent(ctx, otherTDActor, app.NewEvent{Slug: "oth", Name: "Other Open", Preset: "acwc-2023",
		Start: time.Date(2025, 3, 19, 12, 0, 0, 0, time.UTC)}))

	matchScene := func(ms []arbiter.Match, m arbiter.Match) scene {
		return scene{"", "stranger", "a" + strings.TrimPrefix(m.Home, "team-"), captainOf(m.Home), outsiderOf(ms, m),
			captainOf(m.Away), "OtherTD", tdActor.Name}
	}
	b.m1Scene, b.m2Scene, b.m3Scene = matchScene(ms, b.m1), matchScene(ms, b.m2), matchScene(r1, b.m3)
	b.rkScene = scene{"", "stranger", "a1", "cap1", "cap3", "cap2", "OtherTD", tdActor.Name}
	for _, sc := range []scene{b.m1Scene, b.m2Scene, b.m3Scene, b.rkScene} {
		for _, u := range sc[1:] {
			if _, done := b.tokens[u]; !done {
				b.tokens[u] = f.signIn(t, u)
			}
		}
	}
	return b
}

// outsiderOf is the captain of a team that plays neither m nor the other
// side's opponent: in another match of the round.
func outsiderOf(ms []arbiter.Match, m arbiter.Match) string {
	for _, o := range ms {
		if o.ID != m.ID && o.Home != "" && o.Away != "" {
			return captainOf(o.Home)
		}
	}
	panic("no other match")
}

// auditMark is the whole audit log's size and newest sequence number:
// any change to any record moves it.
func auditMark(t *testing.T, db *sqlstore.DB) string {
	t.Helper()
	var n, seq int64
	if err := db.SQLDB().QueryRowContext(context.Background(), `SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM audit`).Scan(&n, &seq); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d/%d", n, seq)
}

// clone copies the base's database into a new fixture, for a request that
// succeeds in changing it.
func (b *matrixBase) clone(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	dst := filepath.Join(t.TempDir(), "clone.db")
	if _, err := b.f.db.SQLDB().ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		t.Fatal(err)
	}
	db, err := sqlstore.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	g := newFixtureOn(t, db)
	g.now = b.f.now
	return g
}

// outcome sends the row's request as the user of tok and describes the
// answer in the form of a want.
func (row matrixRow) outcome(t *testing.T, f *fixture, tok string) string {
	t.Helper()
	method, _, _ := strings.Cut(row.pattern, " ")
	if row.head {
		method = http.MethodHead
	}
	api := isAPIPath(row.path)
	var body io.Reader
	switch {
	case row.form != nil:
		body = strings.NewReader(row.form.Encode())
	case row.body != nil:
		j, err := json.Marshal(row.body)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, row.path, body)
	switch {
	case row.form != nil:
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case row.body != nil:
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		if api {
			req.Header.Set("Authorization", "Bearer "+tok)
		} else {
			req.AddCookie(&http.Cookie{Name: sessionCookie, Value: tok})
		}
	}
	res, text := f.send(req)
	st := res.StatusCode
	switch {
	case api && st >= 400:
		var e apiErr
		if err := json.Unmarshal([]byte(text), &e); err != nil {
			return fmt.Sprintf("%d (not JSON: %.80q)", st, text)
		}
		return fmt.Sprintf("%d %s", st, e.Error.Code)
	case st == http.StatusSeeOther && strings.HasPrefix(res.Header.Get("Location"), "/login?next="):
		return pageAnon
	case st == http.StatusSeeOther:
		c := cookieOf(res, flashCookie)
		if c == nil || c.Value == "" {
			return "303"
		}
		kind, _, _ := strings.Cut(c.Value, ".")
		if kind == "error" {
			return pageRefuse
		}
		return "303 ok"
	}
	return fmt.Sprint(st)
}

// changes tells whether a want is a write that succeeds (run on a clone).
func (row matrixRow) changes(want string) bool {
	method, _, _ := strings.Cut(row.pattern, " ")
	if method == "GET" {
		return false
	}
	return strings.HasPrefix(want, "2") || want == "303 ok" || want == "303"
}

func (b *matrixBase) rows() []matrixRow {
	m1, m2, m3 := "/events/atc/matches/"+b.m1.ID, "/events/atc/matches/"+b.m2.ID, "/events/atc/matches/"+b.m3.ID
	api1, api2, api3 := "/api"+m1, "/api"+m2, "/api"+m3
	home := b.m1.Home
	team, apiTeam := "/events/atc/teams/"+home, "/api/events/atc/teams/"+home
	td := "/events/atc/td"
	m1s, m2s, m3s, rks := b.m1Scene, b.m2Scene, b.m3Scene, b.rkScene
	// A side of a match acts; the player is a member, not the captain,
	// and a TD's decisions belong to the console.
	sides := func(anon, refused, ok string) [nRoles]string {
		return wants(anon, refused, refused, ok, refused, ok, refused, refused)
	}
	// Only the captain of the team in question acts for it.
	captainOnly := func(anon, refused, ok string) [nRoles]string {
		return wants(anon, refused, refused, ok, refused, refused, refused, refused)
	}
	// Only the other side of a reported match confirms or disputes it.
	otherSide := func(anon, refused, ok string) [nRoles]string {
		return wants(anon, refused, refused, refused, refused, ok, refused, refused)
	}
	pub := everyone("200")
	tdPage := tdOnly(pageAnon, "403", "200")
	tdForm := func(td string) [nRoles]string { return tdOnly(pageAnon, "403", td) }
	tdAPI := func(td string) [nRoles]string { return tdOnly(apiAnon, apiRefused, td) }
	offerTime := []string{"2025-01-16T18:00", "2025-01-17T18:00", "2025-01-18T18:00"}
	offerTimes := []string{"2025-01-16T18:00:00Z", "2025-01-17T18:00:00Z", "2025-01-18T18:00:00Z"}
	newEvent := url.Values{"slug": {"made"}, "name": {"Made Cup"}, "preset": {"antichess-team-cup"}, "start": {"2025-02-07T00:00"}}
	H := strings.TrimPrefix(home, "team-")
	boards := []string{"cap" + H, "a" + H, "c" + H, "b" + H}

	return append(slices.Concat(b.exportRows(), b.webhookRows()), []matrixRow{
		// Public pages (server.go, public.go).
		{pattern: "GET /{$}", path: "/", want: pub},
		{pattern: "GET /healthz", path: "/healthz", want: pub},
		{pattern: "GET /formats", path: "/formats", want: pub},
		{pattern: "GET /formats/{name}", path: "/formats/antichess-team-cup", want: pub},
		{pattern: "GET /events/{slug}", path: "/events/atc", want: pub},
		{pattern: "GET /events/{slug}/standings", path: "/events/atc/standings", want: pub},
		{pattern: "GET /static/{file}", path: "/static/style.css", want: pub},
		{pattern: "GET /events/{slug}/rounds/{round}", path: "/events/atc/rounds/s1r2", want: pub},
		{pattern: "GET /events/{slug}/crosstable", path: "/events/atc/crosstable", want: pub},
		{pattern: "GET /events/{slug}/bracket", path: "/events/atc/bracket", want: pub},
		{pattern: "GET /events/{slug}/pools", path: "/events/atc/pools", want: pub},
		{pattern: "GET /events/{slug}/entrants", path: "/events/atc/entrants", want: pub},
		{pattern: "GET /events/{slug}/entrants/{id}", path: "/events/atc/entrants/" + home, want: pub},
		{pattern: "GET /events/{slug}/live", path: "/events/atc/live", head: true, want: pub},

		// Sign-in (login.go).
		{pattern: "GET /login", path: "/login", want: pub},
		{pattern: "POST /login", path: "/login", form: url.Values{"username": {"nobody@local"}, "password": {"not-the-password"}}, want: everyone("401"), fresh: true},
		{pattern: "POST /logout", path: "/logout", form: url.Values{}, want: everyone("303 ok"), noAudit: true},
		{pattern: "GET /auth/lichess", path: "/auth/lichess", want: everyone("302")},
		{pattern: "GET /auth/lichess/callback", path: "/auth/lichess/callback", want: everyone("400")},
		{pattern: "POST /login/demo", path: "/login/demo", form: url.Values{"username": {"p01"}}, want: everyone("404")},

		// The TD console (td.go).
		{pattern: "GET /events/new", path: "/events/new", want: signedInOnly(pageAnon, "200")},
		{pattern: "POST /events/new", path: "/events/new", form: newEvent, want: signedInOnly(pageAnon, "303 ok")},
		{pattern: "GET /events/{slug}/td", path: td, want: tdPage},
		{pattern: "POST /events/{slug}/td/entrants/{id}", path: td + "/entrants/team-01", form: url.Values{"action": {"approve"}}, want: tdForm(pageRefuse)},
		{pattern: "POST /events/{slug}/td/registration", path: td + "/registration", form: url.Values{"reason": {"r"}}, want: tdForm(pageRefuse)},
		{pattern: "POST /events/{slug}/td/rounds", path: td + "/rounds", form: url.Values{"action": {"pair"}}, want: tdForm(pageRefuse)},
		{pattern: "POST /events/{slug}/td/stages", path: td + "/stages", form: url.Values{"action": {"advance"}}, want: tdForm(pageRefuse)},
		{pattern: "POST /events/{slug}/td/officials", path: td + "/officials", form: url.Values{"user": {"DeputyTD"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/forbidden", path: td + "/forbidden", form: url.Values{"stage": {"1"}, "entrants": {"team-03, team-04"}, "reason": {"same club"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/forbidden/{id}", path: td + "/forbidden/f1", form: url.Values{"reason": {"clubs merged"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/separated", path: td + "/separated", form: url.Values{"players": {"star3, star4"}, "reason": {"A11"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/messages", path: td + "/messages", form: url.Values{"on": {"1"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/bulk-pairing", path: td + "/bulk-pairing", form: url.Values{"on": {"1"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/separated/{id}", path: td + "/separated/s1", form: url.Values{"reason": {"list withdrawn"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/bans", path: td + "/bans", form: url.Values{"player": {"cheat2"}, "events": {"2"}, "reason": {"R17"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/bans/{id}", path: td + "/bans/b1", form: url.Values{"reason": {"appeal upheld"}}, want: tdForm("303 ok")},
		{pattern: "GET /events/{slug}/td/matches/{match}", path: td + "/matches/" + b.m1.ID, want: tdPage},
		{pattern: "POST /events/{slug}/td/matches/{match}", path: td + "/matches/" + b.m1.ID, form: url.Values{"action": {"override"}, "outcome": {"forfeit:double"}, "reason": {"nobody showed"}}, want: tdForm("303 ok")},
		{pattern: "GET /events/{slug}/td/appeals", path: td + "/appeals", want: tdPage},
		{pattern: "POST /events/{slug}/td/appeals/{id}", path: td + "/appeals/" + b.appeal, form: url.Values{"action": {"reject"}, "reason": {"no grounds"}}, want: tdForm("303 ok")},
		{pattern: "GET /events/{slug}/td/sanctions", path: td + "/sanctions", want: tdPage},
		{pattern: "POST /events/{slug}/td/sanctions", path: td + "/sanctions", form: url.Values{"entrant": {"team-10"}, "player": {"c10"}, "kind": {"withdrawal"}, "reason": {"family emergency"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/replacements", path: td + "/replacements", form: url.Values{"rating": {"high"}}, want: tdForm(pageRefuse)},
		{pattern: "GET /events/{slug}/td/audit", path: td + "/audit", want: tdPage},
		{pattern: "POST /events/{slug}/td/entrants/{id}/eligibility", path: td + "/entrants/team-01/eligibility", want: tdForm(pageRefuse)},
		// The matrix's event is running: A11's check runs (without Lichess, unknown).
		{pattern: "POST /events/{slug}/td/entrants/{id}/team-rules", path: td + "/entrants/team-01/team-rules", form: url.Values{"titles": {"cap01:AGM"}}, want: tdForm("303 ok")},
		// No Lichess client and no job queue: a refresh of the ratings is refused.
		{pattern: "POST /events/{slug}/td/ratings", path: td + "/ratings", want: tdForm(pageRefuse)},
		// This server runs no background jobs: there is none to retry.
		{pattern: "POST /events/{slug}/td/jobs/{id}", path: td + "/jobs/1", want: tdForm(pageRefuse)},
		{pattern: "POST /events/{slug}/td/entrants/{id}/values", path: td + "/entrants/team-01/values", form: url.Values{"action": {"tiebreak"}, "key": {"previous_final"}, "value": {"1.5"}}, want: tdForm("303 ok")},
		// Pairing review and edits, late entries, entrant corrections (td_pairing_edit.go, td_entrant_edit.go):
		// round 2 is published, so an edit is refused on the page (422).
		{pattern: "GET /events/{slug}/td/pairings", path: td + "/pairings", want: tdPage},
		{pattern: "POST /events/{slug}/td/pairings", path: td + "/pairings", form: url.Values{"round": {"s1r2"}, "kind": {"swap"}, "a": {"team-01"}, "b": {"team-02"}, "reason": {"r"}}, want: tdForm("422")},
		{pattern: "GET /events/{slug}/td/entrants/{id}/edit", path: td + "/entrants/team-01/edit", want: tdPage},
		{pattern: "POST /events/{slug}/td/entrants/{id}/edit", path: td + "/entrants/team-01/edit", form: url.Values{"name": {"Team Uno"}, "reason": {"the captain's spelling"}}, want: tdForm("303 ok")},
		{pattern: "GET /events/{slug}/td/late-entry", path: td + "/late-entry", want: tdPage},
		{pattern: "POST /events/{slug}/td/late-entry", path: td + "/late-entry", form: url.Values{"name": {"Late Team"}, "captain": {"capl"}, "members": {"capl, al, bl, cl"}, "reason": {"by message"}}, want: tdForm("303 ok")},
		{pattern: "POST /events/{slug}/td/boards", path: td + "/boards", form: url.Values{"entrant": {"team-02"}, "rank": {"a02:2250, cap02:2300, c02:2100, b02:2200"}, "comparable": {"b02/c02"}}, want: tdForm("303 ok")},

		// Captains' and players' pages (team.go).
		{pattern: "GET /me", path: "/me", want: signedInOnly(pageAnon, "200")},
		{pattern: "GET /events/{slug}/register", path: "/events/oth/register", want: signedInOnly(pageAnon, "200")},
		{pattern: "POST /events/{slug}/register", path: "/events/oth/register", form: url.Values{"rating": {"2100"}}, want: signedInOnly(pageAnon, "303 ok")},
		{pattern: "GET /events/{slug}/matches/{match}", path: m1, want: pub},
		{pattern: "POST /events/{slug}/matches/{match}/offers", path: m1 + "/offers", form: url.Values{"kind": {"propose"}, "board": {"1"}, "time": offerTime}, scene: m1s, want: sides(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/matches/{match}/check", path: m1 + "/check", form: url.Values{"r-1-0-0": {"1"}}, scene: m1s,
			want: wants("401", "403", "403", "200", "403", "200", "403", "200"), noAudit: true},
		{pattern: "POST /events/{slug}/matches/{match}/report", path: m1 + "/report", form: url.Values{"summary": {"forfeit:away"}}, scene: m1s, want: sides(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/matches/{match}/confirm", path: m2 + "/confirm", form: url.Values{}, scene: m2s, want: otherSide(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/matches/{match}/dispute", path: m2 + "/dispute", form: url.Values{"reason": {"they did show"}}, scene: m2s, want: otherSide(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/matches/{match}/appeal", path: m3 + "/appeal", form: url.Values{"reason": {"we played it"}}, scene: m3s, want: sides(pageAnon, pageRefuse, pageRefuse)},
		{pattern: "POST /events/{slug}/matches/{match}/armageddon", path: m1 + "/armageddon", form: url.Values{"bid": {"100"}}, scene: m1s, want: sides(pageAnon, pageRefuse, pageRefuse)},
		{pattern: "GET /events/{slug}/teams/{team}/captain", path: team + "/captain", scene: m1s, want: wants(pageAnon, "403", "200", "200", "403", "403", "403", "200")},
		{pattern: "POST /events/{slug}/teams/{team}/boards", path: team + "/boards", form: url.Values{"board": boards}, scene: m1s, want: captainOnly(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/teams/{team}/lineup", path: "/events/rk/teams/team-1/lineup", form: url.Values{"round": {"3"}, "set": {"cap1", "a1", "b1"}}, scene: rks, want: captainOnly(pageAnon, pageRefuse, "303 ok")},
		{pattern: "POST /events/{slug}/teams/{team}/wildcard", path: "/events/rk/teams/team-1/wildcard", form: url.Values{"round": {"1"}, "x": {"cap1"}, "y": {"a1"}}, scene: rks, want: captainOnly(pageAnon, pageRefuse, pageRefuse)},
		{pattern: "POST /events/{slug}/teams/{team}/substitution", path: team + "/substitution", form: url.Values{"in": {"c" + H}, "out": {"b" + H}}, scene: m1s, want: captainOnly(pageAnon, pageRefuse, pageRefuse)},

		// The public API (api.go, public.go).
		{pattern: "GET /api/openapi.json", path: "/api/openapi.json", want: pub},
		{pattern: "GET /api/formats", path: "/api/formats", want: pub},
		{pattern: "GET /api/formats/{name}", path: "/api/formats/antichess-team-cup", want: pub},
		{pattern: "GET /api/events", path: "/api/events", want: pub},
		{pattern: "GET /api/events/{slug}", path: "/api/events/atc", want: pub},
		{pattern: "GET /api/events/{slug}/rounds", path: "/api/events/atc/rounds", want: pub},
		{pattern: "GET /api/events/{slug}/rounds/{round}/matches", path: "/api/events/atc/rounds/s1r2/matches", want: pub},
		{pattern: "GET /api/events/{slug}/standings", path: "/api/events/atc/standings", want: pub},
		{pattern: "GET /api/events/{slug}/entrants", path: "/api/events/atc/entrants", want: pub},
		{pattern: "GET /api/events/{slug}/entrants/{id}", path: "/api/events/atc/entrants/" + home, want: pub},
		{pattern: "GET /api/events/{slug}/crosstable", path: "/api/events/atc/crosstable", want: pub},
		{pattern: "GET /api/events/{slug}/bracket", path: "/api/events/atc/bracket", want: pub},
		{pattern: "GET /api/events/{slug}/pools", path: "/api/events/atc/pools", want: pub},
		// The event is running: no final ranking yet, for anyone.
		{pattern: "GET /api/events/{slug}/ranking", path: "/api/events/atc/ranking", want: everyone("422 rule")},
		{pattern: "GET /api/events/{slug}/odds", path: "/api/events/atc/odds?sims=50", want: pub},

		// API sessions (api_auth.go).
		{pattern: "POST /api/session", path: "/api/session", body: map[string]any{"username": "nobody@local", "password": "not-the-password"}, want: everyone(apiAnon), fresh: true},
		{pattern: "DELETE /api/session", path: "/api/session", want: signedInOnly(apiAnon, "204"), noAudit: true},
		{pattern: "GET /api/me", path: "/api/me", want: signedInOnly(apiAnon, "200")},

		// The TD API (td_api.go).
		{pattern: "POST /api/events", path: "/api/events", body: map[string]any{"slug": "made", "name": "Made Cup", "preset": "acwc-2023", "start": "2025-03-21T10:00Z"}, want: signedInOnly(apiAnon, "201")},
		{pattern: "POST /api/events/{slug}/entrants/{id}/approve", path: "/api/events/atc/entrants/team-01/approve", body: map[string]any{}, want: tdAPI("422 rule")},
		// Without a Lichess client the check is refused (app.lichess); with one, see TestTDCheckEligibility.
		{pattern: "POST /api/events/{slug}/entrants/{id}/eligibility", path: "/api/events/atc/entrants/team-01/eligibility", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/entrants/{id}/team-rules", path: "/api/events/atc/entrants/team-01/team-rules", body: map[string]any{"titles": map[string]string{"cap01": "AGM"}}, want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/entrants/{id}/eligibility", path: "/api/events/atc/entrants/team-01/eligibility", want: tdAPI("404 not_found")},
		{pattern: "GET /api/events/{slug}/jobs", path: "/api/events/atc/jobs", want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/jobs/{id}", path: "/api/events/atc/jobs/1", want: tdAPI("404 not_found")},
		{pattern: "POST /api/events/{slug}/jobs/{id}/retry", path: "/api/events/atc/jobs/1/retry", body: map[string]any{}, want: tdAPI("404 not_found")},
		{pattern: "POST /api/events/{slug}/entrants/{id}/reject", path: "/api/events/atc/entrants/team-01/reject", body: map[string]any{"reason": "late"}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/registration/close", path: "/api/events/atc/registration/close", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/rounds", path: "/api/events/atc/rounds", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/rounds/{round}/publish", path: "/api/events/atc/rounds/s1r2/publish", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/rounds/{round}/close", path: "/api/events/atc/rounds/s1r2/close", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/rounds/{round}/discard", path: "/api/events/atc/rounds/s1r2/discard", body: map[string]any{"reason": "x"}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/matches/{match}/override", path: api1 + "/override", body: map[string]any{"summary": "forfeit:double", "reason": "nobody showed"}, want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/appeals/{id}/decision", path: "/api/events/atc/appeals/" + b.appeal + "/decision", body: map[string]any{"accept": false, "reason": "no grounds"}, want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/sanctions", path: "/api/events/atc/sanctions", body: map[string]any{"entrant": "team-10", "player": "c10", "kind": "withdrawal", "reason": "family emergency"}, want: tdAPI("201")},
		{pattern: "POST /api/events/{slug}/stages/advance", path: "/api/events/atc/stages/advance", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/rounds/{round}/deadline", path: "/api/events/atc/rounds/s1r2/deadline", body: map[string]any{"end": "2025-01-18T00:00Z"}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/matches/{match}/wrong-tc", path: api2 + "/wrong-tc", body: map[string]any{"tc": "2+5", "reason": "x"}, want: tdAPI("422 rule")},
		// Without a Lichess client the check is refused (app.lichess); with one, see TestTDVerifyMatch.
		{pattern: "POST /api/events/{slug}/matches/{match}/verify", path: api2 + "/verify", body: map[string]any{}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/officials", path: "/api/events/atc/officials", body: map[string]any{"user": "Deputy"}, want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/forbidden", path: "/api/events/atc/forbidden", body: map[string]any{"stage": 1, "entrants": []string{"team-03", "team-04"}, "reason": "same club"}, want: tdAPI("201")},
		{pattern: "POST /api/events/{slug}/forbidden/{id}/remove", path: "/api/events/atc/forbidden/f1/remove", body: map[string]any{"reason": "clubs merged"}, want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/separated", path: "/api/events/atc/separated", body: map[string]any{"players": []string{"star3", "star4"}, "reason": "A11"}, want: tdAPI("201")},
		{pattern: "POST /api/events/{slug}/separated/{id}/remove", path: "/api/events/atc/separated/s1/remove", body: map[string]any{"reason": "list withdrawn"}, want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/bans", path: "/api/events/atc/bans", body: map[string]any{"player": "cheat2", "permanent": true, "reason": "R17"}, want: tdAPI("201")},
		{pattern: "POST /api/events/{slug}/bans/{id}/lift", path: "/api/events/atc/bans/b1/lift", body: map[string]any{"reason": "appeal upheld"}, want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/audit", path: "/api/events/atc/audit", want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/appeals", path: "/api/events/atc/appeals", want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/cheating", path: "/api/events/atc/cheating", want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/cheating/{id}/close", path: "/api/events/atc/cheating/c1/close", body: map[string]any{"outcome": "no evidence"}, want: tdAPI("200")},
		{pattern: "GET /api/events/{slug}/rounds/{round}/review", path: "/api/events/atc/rounds/s1r2/review", want: tdAPI("200")},
		{pattern: "POST /api/events/{slug}/rounds/{round}/edits", path: "/api/events/atc/rounds/s1r2/edits", body: map[string]any{"kind": "swap", "entrants": []string{"team-01", "team-02"}, "reason": "r"}, want: tdAPI("422 rule")},
		{pattern: "POST /api/events/{slug}/late-entries", path: "/api/events/atc/late-entries", body: map[string]any{"name": "Late Team", "captain": "capl", "members": []string{"capl", "al", "bl", "cl"}, "reason": "by message"}, want: tdAPI("201")},
		{pattern: "POST /api/events/{slug}/entrants/{id}/edit", path: "/api/events/atc/entrants/team-01/edit", body: map[string]any{"name": "Team Uno", "reason": "the captain's spelling"}, want: tdAPI("200")},
		{pattern: "POST /events/{slug}/td/cheating/{id}", path: td + "/cheating/c1", form: url.Values{"outcome": {"no evidence"}}, want: tdForm("303 ok")},
		// A private report of cheating (A6): whoever plays in the event.
		{pattern: "POST /events/{slug}/cheating", path: "/events/atc/cheating", form: url.Values{"suspect": {"b09"}, "text": {"engine moves"}}, scene: m1s,
			want: wants(pageAnon, pageRefuse, "303 ok", "303 ok", "303 ok", "303 ok", pageRefuse, pageRefuse)},
		{pattern: "POST /api/events/{slug}/cheating", path: "/api/events/atc/cheating", body: map[string]any{"suspect": "b09", "text": "engine moves"}, scene: m1s,
			want: wants(apiAnon, apiRefused, "201", "201", "201", "201", apiRefused, apiRefused)},

		// The captains' and players' API (team.go).
		{pattern: "GET /api/me/events", path: "/api/me/events", want: signedInOnly(apiAnon, "200")},
		{pattern: "POST /api/events/{slug}/entrants", path: "/api/events/oth/entrants", body: map[string]any{"rating": 2100}, want: signedInOnly(apiAnon, "201")},
		{pattern: "GET /api/events/{slug}/matches/{match}", path: api1, want: pub},
		{pattern: "GET /api/events/{slug}/matches/{match}/reports", path: api2 + "/reports", scene: m2s, want: wants(apiAnon, apiRefused, "200", "200", apiRefused, "200", apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/matches/{match}/offers", path: api1 + "/offers", body: map[string]any{"kind": "propose", "board": 1, "times": offerTimes}, scene: m1s, want: sides(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/matches/{match}/reports", path: api1 + "/reports", body: map[string]any{"summary": "forfeit:away"}, scene: m1s, want: sides(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/matches/{match}/confirm", path: api2 + "/confirm", body: map[string]any{}, scene: m2s, want: otherSide(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/matches/{match}/dispute", path: api2 + "/dispute", body: map[string]any{"reason": "they did show"}, scene: m2s, want: otherSide(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/matches/{match}/appeals", path: api3 + "/appeals", body: map[string]any{"reason": "we played it"}, scene: m3s, want: sides(apiAnon, apiRefused, "422 rule")},
		{pattern: "POST /api/events/{slug}/matches/{match}/armageddon", path: api1 + "/armageddon", body: map[string]any{"bid_seconds": 100}, scene: m1s, want: sides(apiAnon, apiRefused, "422 rule")},
		{pattern: "PUT /api/events/{slug}/teams/{team}/boards", path: apiTeam + "/boards", body: map[string]any{"boards": boards}, scene: m1s, want: captainOnly(apiAnon, apiRefused, "200")},
		{pattern: "PUT /api/events/{slug}/teams/{team}/lineups/{seq}", path: "/api/events/rk/teams/team-1/lineups/3", body: map[string]any{"sets": []string{"cap1", "a1", "b1"}}, scene: rks, want: captainOnly(apiAnon, apiRefused, "200")},
		{pattern: "POST /api/events/{slug}/teams/{team}/substitutions", path: apiTeam + "/substitutions", body: map[string]any{"in": "c" + H, "out": "b" + H}, scene: m1s, want: captainOnly(apiAnon, apiRefused, "400 invalid")},
	}...)
}

// TestRoleMatrix sends every registered route's request as every role
// and checks the exact answer; a refused or failed write changes nothing
// (the audit log, where every change of every record is written, stays
// as it was), and an allowed write changes the store.
func TestRoleMatrix(t *testing.T) {
	t.Parallel()
	b := newMatrixBase(t)
	rows := b.rows()

	// Every registered route has exactly one row, and every row a route.
	var patterns []string
	for _, r := range rows {
		if slices.Contains(patterns, r.pattern) {
			t.Errorf("two rows for %q", r.pattern)
		}
		patterns = append(patterns, r.pattern)
	}
	for _, p := range b.f.srv.patterns {
		if !slices.Contains(patterns, p) {
			t.Errorf("route %q is registered but has no row in the role matrix", p)
		}
	}
	for _, p := range patterns {
		if !slices.Contains(b.f.srv.patterns, p) {
			t.Errorf("the role matrix has a row for %q, which is not registered", p)
		}
	}

	// The rows run in parallel: a row that changes the store works on its
	// own clone, the others only read the shared base.
	var cases atomic.Int64
	t.Cleanup(func() { t.Logf("%d routes × %d roles = %d cases", len(rows), nRoles, cases.Load()) })
	for _, row := range rows {
		sc := row.scene
		if sc == (scene{}) {
			sc = b.m1Scene
		}
		t.Run(strings.ReplaceAll(row.pattern, "/", "_"), func(t *testing.T) {
			t.Parallel()
			for ro := range nRoles {
				cases.Add(1)
				want := row.want[ro]
				f := b.f
				if row.fresh || row.changes(want) {
					f = b.clone(t)
				}
				before := auditMark(t, f.db)
				got := row.outcome(t, f, b.tokens[sc[ro]])
				if got != want {
					t.Errorf("%s as %s (%s): got %q, want %q", row.path, roleNames[ro], sc[ro], got, want)
					continue
				}
				after := auditMark(t, f.db)
				switch {
				case !row.changes(want) && after != before:
					t.Errorf("%s as %s: %q changed the store (audit %s → %s)", row.path, roleNames[ro], got, before, after)
				case row.changes(want) && !row.noAudit && after == before:
					t.Errorf("%s as %s: %q but nothing changed", row.path, roleNames[ro], got)
				}
			}
		})
	}
}

// TestCrossOriginRefusedEverywhere: every route that changes data refuses
// a cross-origin request from a browser (http.CrossOriginProtection),
// even from a signed-in TD: 403 as a page or as the API's JSON error, and
// nothing changes.
func TestCrossOriginRefusedEverywhere(t *testing.T) {
	t.Parallel()
	b := newMatrixBase(t)
	f := b.f
	n := 0
	for _, row := range b.rows() {
		method, _, _ := strings.Cut(row.pattern, " ")
		if method == "GET" {
			continue
		}
		for _, ro := range []role{teamCaptain, opponent, eventTD} {
			sc := row.scene
			if sc == (scene{}) {
				sc = b.m1Scene
			}
			before := auditMark(t, f.db)
			req := httptest.NewRequest(method, row.path, strings.NewReader(row.form.Encode()))
			req.Header.Set("Sec-Fetch-Site", "cross-site")
			req.Header.Set("Origin", "https://evil.example")
			tok := b.tokens[sc[ro]]
			if isAPIPath(row.path) {
				j, _ := json.Marshal(row.body)
				req = httptest.NewRequest(method, row.path, bytes.NewReader(j))
				req.Header.Set("Sec-Fetch-Site", "cross-site")
				req.Header.Set("Origin", "https://evil.example")
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tok)
			} else {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.AddCookie(&http.Cookie{Name: sessionCookie, Value: tok})
			}
			res, body := f.send(req)
			n++
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("cross-origin %s %s as %s: status %d, want 403", method, row.path, roleNames[ro], res.StatusCode)
				continue
			}
			if isAPIPath(row.path) {
				var e apiErr
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != arbiter.EFORBIDDEN {
					t.Errorf("cross-origin %s %s: %v %.200q, want the JSON error forbidden", method, row.path, err, body)
				}
			} else if !strings.Contains(body, "Cross-origin requests that change data are refused") {
				t.Errorf("cross-origin %s %s: %.200q", method, row.path, body)
			}
			if c := cookieOf(res, sessionCookie); c != nil {
				t.Errorf("cross-origin %s %s touched the session cookie", method, row.path)
			}
			if after := auditMark(t, f.db); after != before {
				t.Errorf("cross-origin %s %s as %s changed the store", method, row.path, roleNames[ro])
			}
		}
	}
	// The same request from the app's own pages goes through.
	res, body := f.as(t, b.tokens[tdActor.Name], "POST", "/events/atc/td/officials", url.Values{"user": {"DeputyTD"}})
	wantStatus(t, res, body, http.StatusSeeOther)
	if msg, isErr := flashOf(t, res); isErr {
		t.Fatalf("same-origin form refused: %s", msg)
	}
	t.Logf("%d cross-origin writes refused", n)
}

// TestOwnDisputedResult: a player cannot confirm the result they
// reported once the opponent disputes it (nor before), on the page or
// through the API; the opponent's dispute stands and only a TD settles it.
func TestOwnDisputedResult(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := acwcEvent(t, f)
	target := "/events/wc/matches/" + m.ID
	p01, p07, p02, stranger := f.signIn(t, "p01"), f.signIn(t, "p07"), f.signIn(t, "p02"), f.signIn(t, "stranger")
	f.submit(t, p01, target+"/report", url.Values{"summary": {"6-4"}}).wantOK(t, "reported")
	f.submit(t, p01, target+"/confirm", url.Values{}).wantRefused(t, "own side")
	f.submit(t, p07, target+"/dispute", url.Values{"reason": {"I won 6-4"}}).wantOK(t, "disputed")

	before := auditMark(t, f.db)
	f.submit(t, p01, target+"/confirm", url.Values{}).wantRefused(t, "own side")
	var e apiErr
	f.apiAs(t, p01, "POST", "/api"+target+"/confirm", map[string]any{}, http.StatusForbidden, &e)
	if e.Error.Code != arbiter.EFORBIDDEN {
		t.Errorf("own confirm through the API: %+v", e.Error)
	}
	// Nor does a player who plays another match, nor a stranger.
	f.apiAs(t, p02, "POST", "/api"+target+"/confirm", map[string]any{}, http.StatusForbidden, &e)
	f.apiAs(t, stranger, "POST", "/api"+target+"/confirm", map[string]any{}, http.StatusForbidden, &e)
	if after := auditMark(t, f.db); after != before {
		t.Fatalf("refused confirmations changed the store (%s → %s)", before, after)
	}
	if got := f.match(t, "wc", m.ID); got.Status != arbiter.MatchDisputed {
		t.Fatalf("match %s after refused confirmations, want disputed", got.Status)
	}
	// Only a TD settles it: the override of the console.
	f.apiAs(t, p07, "POST", "/api"+target+"/override", map[string]any{"summary": "4-6", "reason": "video"}, http.StatusForbidden, &e)
	f.apiAs(t, f.signIn(t, tdActor.Name), "POST", "/api"+target+"/override", map[string]any{"summary": "4-6", "reason": "video"}, http.StatusOK, nil)
	if got := f.match(t, "wc", m.ID); got.Status != arbiter.MatchFinal {
		t.Fatalf("match %s after the override, want final", got.Status)
	}
}

// TestSessionCookieFlags: the session cookie is HttpOnly, SameSite=Lax,
// for the whole site, with an expiry; Secure over TLS, behind a proxy
// that says https, and always with Config.SecureCookies.
func TestSessionCookieFlags(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	pw, err := f.app.EnsureLocalTD(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	login := func(hdr ...string) *http.Cookie {
		t.Helper()
		req := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"username": {LocalTD}, "password": {pw}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, body := f.send(req)
		wantStatus(t, res, body, http.StatusSeeOther)
		c := cookieOf(res, sessionCookie)
		if c == nil || c.Value == "" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge <= 0 {
			t.Fatalf("session cookie %+v", c)
		}
		return c
	}
	if c := login(); c.Secure {
		t.Error("Secure on plain HTTP without SecureCookies: the browser would drop it")
	}
	if c := login("X-Forwarded-Proto", "https"); !c.Secure {
		t.Error("not Secure behind a TLS proxy")
	}
	f.srv.secureCookies = true
	if c := login(); !c.Secure {
		t.Error("not Secure with Config.SecureCookies")
	}
}

// TestNoSecretsInLogs: passwords and session tokens never reach the log,
// at any level, whether a request succeeds, is refused or fails, and
// wherever the client put the token.
func TestNoSecretsInLogs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.srv.log = slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()
	pw, err := f.app.EnsureLocalTD(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	antichessEvent(t, f)
	// A wrong password, then the right one, on the page and the API.
	f.as(t, "", "POST", "/login", url.Values{"username": {LocalTD}, "password": {pw + "-wrong"}})
	res, body := f.as(t, "", "POST", "/login", url.Values{"username": {LocalTD}, "password": {pw}})
	wantStatus(t, res, body, http.StatusSeeOther)
	cookie := cookieOf(res, sessionCookie).Value
	f.apiAs(t, "", "POST", "/api/session", map[string]any{"username": LocalTD, "password": pw + "-wrong"}, http.StatusUnauthorized, nil)
	var s apiSession
	f.apiAs(t, "", "POST", "/api/session", map[string]any{"username": LocalTD, "password": pw}, http.StatusCreated, &s)
	// The tokens in use: allowed, refused, unknown routes, a bad body, a
	// token in the query string.
	f.as(t, cookie, "GET", "/events/atc/td", nil)
	f.as(t, cookie, "POST", "/events/atc/td/officials", url.Values{"user": {""}})
	f.apiAs(t, s.Token, "GET", "/api/me", nil, http.StatusOK, nil)
	f.apiAs(t, s.Token, "POST", "/api/events/atc/officials", map[string]any{"user": 7}, http.StatusBadRequest, nil)
	f.apiAs(t, s.Token, "GET", "/api/nowhere?token="+s.Token, nil, http.StatusNotFound, nil)
	f.do(t, "GET", "/events/atc?session="+cookie+"&password="+pw)
	f.apiAs(t, s.Token, "DELETE", "/api/session", nil, http.StatusNoContent, nil)
	f.as(t, cookie, "POST", "/logout", url.Values{})

	logs := f.logs.String()
	if !strings.Contains(logs, "path=/api/me") {
		t.Fatalf("the requests were not logged:\n%s", logs)
	}
	for name, secret := range map[string]string{"password": pw, "session cookie": cookie, "API token": s.Token} {
		if strings.Contains(logs, secret) {
			t.Errorf("the %s is in the log:\n%s", name, logs)
		}
	}
}
