package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/sqlstore"
)

// apiTDRefusals checks a TD route's refusals: 401 without a session,
// 403 for the captain and for a stranger, 404 for an unknown event.
func apiTDRefusals(t *testing.T, f *fixture, tk tdTokens, method, target string, body any) {
	t.Helper()
	var e apiErr
	f.apiAs(t, "", method, target, body, http.StatusUnauthorized, &e)
	if e.Error.Code != arbiter.EUNAUTHORIZED {
		t.Errorf("%s %s anonymous: %+v", method, target, e.Error)
	}
	for _, tok := range []string{tk.cap, tk.other} {
		e = apiErr{}
		f.apiAs(t, tok, method, target, body, http.StatusForbidden, &e)
		if e.Error.Code != arbiter.EFORBIDDEN {
			t.Errorf("%s %s as non-TD: %+v", method, target, e.Error)
		}
	}
	e = apiErr{}
	f.apiAs(t, tk.td, method, strings.Replace(target, "/atc", "/nope", 1), body, http.StatusNotFound, &e)
	if e.Error.Code != arbiter.ENOTFOUND {
		t.Errorf("%s %s unknown event: %+v", method, target, e.Error)
	}
}

// wantField sends body as the TD and wants the status with the field
// named in the error.
func wantField(t *testing.T, f *fixture, tok, method, target string, body any, status int, field string) {
	t.Helper()
	var e apiErr
	f.apiAs(t, tok, method, target, body, status, &e)
	if e.Error.Field != field {
		t.Errorf("%s %s %v: error %+v, want field %q", method, target, body, e.Error, field)
	}
}

func TestAPICreateEvent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var e apiErr
	body := map[string]any{"slug": "cup", "name": "Cup", "preset": "acwc-2023", "start": "2025-03-21T10:00Z"}
	f.apiAs(t, "", "POST", "/api/events", body, 401, &e)
	tok := f.signIn(t, "Organiser")
	var ev arbiter.Event
	res := f.apiAs(t, tok, "POST", "/api/events", body, 201, &ev)
	if ev.Slug != "cup" || ev.Status != arbiter.EventRegistration || res.Header.Get("Location") != "/api/events/cup" {
		t.Fatalf("event %+v", ev)
	}
	if roles, _ := f.app.RolesOf(context.Background(), "cup", "organiser"); !roles.TD {
		t.Error("the creator is not TD")
	}
	f.apiAs(t, tok, "POST", "/api/events", body, 409, &e)
	wantField(t, f, tok, "POST", "/api/events", map[string]any{"slug": "c2", "name": "C", "preset": "acwc-2023", "start": "someday"}, 400, "start")
	wantField(t, f, tok, "POST", "/api/events", map[string]any{"slug": "c3", "name": "C", "preset": "acwc-2023", "begin": "x"}, 400, "begin")
	wantField(t, f, tok, "POST", "/api/events", map[string]any{"slug": "c4", "name": 7, "preset": "acwc-2023"}, 400, "name")
	f.apiAs(t, tok, "POST", "/api/events", map[string]any{"slug": "c5", "name": "C", "preset": "chess960", "start": "2025-03-21"}, 400, &e)
	if !strings.Contains(e.Error.Field+e.Error.Message, "preset") {
		t.Errorf("unknown preset: %+v", e.Error)
	}
}

func TestAPIApproveReject(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	pendingTeam(t, f)
	tk := signInTD(t, f)
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/entrants/team-11/approve", map[string]any{})
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/entrants/team-11/reject", map[string]any{"reason": "x"})
	wantField(t, f, tk.td, "POST", "/api/events/atc/entrants/team-11/reject", map[string]any{}, 400, "reason")
	wantField(t, f, tk.td, "POST", "/api/events/atc/entrants/team-11/approve", map[string]any{"version": "one"}, 400, "version")
	var e apiErr
	f.apiAs(t, tk.td, "POST", "/api/events/atc/entrants/team-11/approve", map[string]any{"version": 5}, 409, &e)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/entrants/team-99/approve", nil, 404, &e)
	var got arbiter.Entrant
	f.apiAs(t, tk.td, "POST", "/api/events/atc/entrants/team-11/reject", map[string]any{"reason": "late", "version": 1}, 200, &got)
	if got.Status != arbiter.EntrantRejected || got.Reason != "late" {
		t.Fatalf("rejected %+v", got)
	}
	// No body at all: approve the current version.
	f.apiAs(t, tk.td, "POST", "/api/events/atc/entrants/team-11/approve", nil, 200, &got)
	if got.Status != arbiter.EntrantApproved || entrant(t, f, "team-11").Status != arbiter.EntrantApproved {
		t.Fatalf("approved %+v", got)
	}
}

func TestAPIRegistrationAndRounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/registration/close", nil)
	wantField(t, f, tk.td, "POST", "/api/events/atc/registration/close", map[string]any{"initial_colour": "black"}, 400, "reason")
	wantField(t, f, tk.td, "POST", "/api/events/atc/registration/close", map[string]any{"colour": "black"}, 400, "colour")
	var ev arbiter.Event
	f.apiAs(t, tk.td, "POST", "/api/events/atc/registration/close", nil, 200, &ev)
	if ev.Status != arbiter.EventRunning || ev.Entrants != 10 || ev.InitialColourLot == "" {
		t.Fatalf("closed %+v", ev)
	}
	var e apiErr
	f.apiAs(t, tk.td, "POST", "/api/events/atc/registration/close", nil, 422, &e)

	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/rounds", nil)
	var paired apiPaired
	res := f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds", nil, 201, &paired)
	if paired.Round.ID != "s1r1" || paired.Round.Status != arbiter.RoundPaired || len(paired.Matches) != 5 ||
		res.Header.Get("Location") != "/api/events/atc/rounds/s1r1/matches" {
		t.Fatalf("paired %+v", paired)
	}
	// The previous round is not closed: no second pairing.
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds", nil, 422, &e)

	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/rounds/s1r1/discard", map[string]any{"reason": "x"})
	wantField(t, f, tk.td, "POST", "/api/events/atc/rounds/s1r1/discard", map[string]any{}, 400, "reason")
	var rd arbiter.Round
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r1/discard", map[string]any{"reason": "late withdrawal"}, 200, &rd)
	if rs, _ := f.app.Rounds(ctx, "atc"); len(rs) != 0 {
		t.Fatalf("rounds after discard %v", rs)
	}
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds", nil, 201, &paired)

	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/rounds/s1r1/publish", nil)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r9/publish", nil, 404, &e)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r1/publish", nil, 200, &rd)
	if rd.Status != arbiter.RoundPublished {
		t.Fatalf("published %+v", rd)
	}
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/rounds/s1r1/close", nil)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r1/close", nil, 422, &e) // before the deadline
	if e.Error.Rule == "" {
		t.Errorf("early close: no rule named: %+v", e.Error)
	}
	f.now = time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r1/close", nil, 200, &rd)
	if rd.Status != arbiter.RoundClosed {
		t.Fatalf("closed %+v", rd)
	}
	// A5: the unplayed matches are held for the TDs, who decide them
	// before the next round is paired.
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds", nil, 422, &e)
	decideHeld(t, f, "atc")
	// A stale client acting on an old round once a newer one exists.
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds", nil, 201, &paired)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/rounds/s1r1/publish", nil, 409, &e)
	if rs, _ := f.app.Rounds(ctx, "atc"); rs[1].Status != arbiter.RoundPaired {
		t.Errorf("round 2 %s after a refused publish", rs[1].Status)
	}
}

func TestAPIOverride(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	publishedRound(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	target := "/api/events/atc/matches/s1r1b1/override"
	good := map[string]any{"sheet": json.RawMessage(teamSheet), "reason": "sheet sent by mail", "version": 1}
	apiTDRefusals(t, f, tk, "POST", target, good)
	wantField(t, f, tk.td, "POST", target, map[string]any{"summary": "forfeit:home"}, 400, "reason")
	wantField(t, f, tk.td, "POST", target, map[string]any{"reason": "x"}, 400, "summary")
	wantField(t, f, tk.td, "POST", target, map[string]any{"reason": "x", "summary": "forfeit:home", "sheet": json.RawMessage(teamSheet)}, 400, "sheet")
	wantField(t, f, tk.td, "POST", target, map[string]any{"reason": "x", "winner": "home"}, 400, "winner")
	var e apiErr
	f.apiAs(t, tk.td, "POST", "/api/events/atc/matches/s9r9b9/override", map[string]any{"reason": "x", "summary": "forfeit:home"}, 404, &e)
	var m arbiter.Match
	f.apiAs(t, tk.td, "POST", target, good, 200, &m)
	if m.Status != arbiter.MatchFinal || m.Decision != "override" || m.Result.Home.Points != arbiter.P(348) {
		t.Fatalf("match %+v", m)
	}
	f.apiAs(t, tk.td, "POST", target, good, 409, &e) // version 1 is stale now
	log, _ := f.app.Audit(ctx, tdActor, "atc", sqlstore.AuditFilter{RecordID: "s1r1b1", Kind: "match"})
	if log[len(log)-1].Reason != "sheet sent by mail" {
		t.Errorf("audit %+v", log[len(log)-1])
	}
}

func TestAPIAppeals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	ms, _ := f.app.Matches(ctx, "atc", "s1r1")
	a1, err := f.app.Appeal(ctx, capOf(ms[1].Home), "atc", ms[1].ID, "no-show")
	if err != nil {
		t.Fatal(err)
	}
	apiTDRefusals(t, f, tk, "GET", "/api/events/atc/appeals", nil)
	var list struct {
		Appeals []arbiter.Appeal `json:"appeals"`
	}
	f.apiAs(t, tk.td, "GET", "/api/events/atc/appeals", nil, 200, &list)
	if len(list.Appeals) != 1 || list.Appeals[0].ID != a1.ID || list.Appeals[0].Status != arbiter.AppealPending {
		t.Fatalf("appeals %+v", list)
	}
	target := "/api/events/atc/appeals/" + a1.ID + "/decision"
	apiTDRefusals(t, f, tk, "POST", target, map[string]any{"accept": false, "reason": "x"})
	wantField(t, f, tk.td, "POST", target, map[string]any{"reason": "x"}, 400, "accept")
	wantField(t, f, tk.td, "POST", target, map[string]any{"accept": false}, 400, "reason")
	wantField(t, f, tk.td, "POST", target, map[string]any{"accept": true, "reason": "x", "result": map[string]any{"summary": ""}}, 400, "summary")
	var e apiErr
	f.apiAs(t, tk.td, "POST", "/api/events/atc/appeals/zz/decision", map[string]any{"accept": false, "reason": "x"}, 404, &e)
	var ap arbiter.Appeal
	f.apiAs(t, tk.td, "POST", target, map[string]any{"accept": true, "reason": "the away team did not show", "result": map[string]any{"summary": "forfeit:home"}}, 200, &ap)
	if ap.Status != arbiter.AppealAccepted || ap.Result == nil || ap.Result.Home.MatchPoints != arbiter.Point {
		t.Fatalf("appeal %+v", ap)
	}
	f.apiAs(t, tk.td, "POST", target, map[string]any{"accept": false, "reason": "x"}, 409, &e)
}

func TestAPISanction(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	target := "/api/events/atc/sanctions"
	good := map[string]any{"entrant": "team-10", "player": "c10", "kind": "withdrawal", "reason": "family emergency"}
	apiTDRefusals(t, f, tk, "POST", target, good)
	wantField(t, f, tk.td, "POST", target, map[string]any{"entrant": "team-10", "player": "c10", "kind": "scold", "reason": "x"}, 400, "kind")
	wantField(t, f, tk.td, "POST", target, map[string]any{"entrant": "team-10", "kind": "withdrawal", "reason": "x"}, 400, "player")
	wantField(t, f, tk.td, "POST", target, map[string]any{"entrant": "team-10", "player": "c10", "kind": "withdrawal", "reason": "x", "until": "x"}, 400, "until")
	var out apiSanctioned
	f.apiAs(t, tk.td, "POST", target, good, 201, &out)
	if out.Sanction.Kind != "withdrawal" || out.Sanction.Player != "c10" || out.Changed == nil {
		t.Fatalf("sanction %+v", out)
	}
	xs, _ := f.app.Sanctions(context.Background(), "atc")
	if len(xs) != 1 || xs[0].Reason != "family emergency" {
		t.Errorf("sanctions %+v", xs)
	}
}

func TestAPIAdvanceAndAudit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	tk := signInTD(t, f)
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/stages/advance", nil)
	wantField(t, f, tk.td, "POST", "/api/events/atc/stages/advance", map[string]any{"order": []string{"a"}}, 400, "order")
	var e apiErr
	// Six Swiss rounds remain (A10): refused, naming the rule.
	f.apiAs(t, tk.td, "POST", "/api/events/atc/stages/advance", nil, 422, &e)
	if e.Error.Code != arbiter.ERULE {
		t.Errorf("advance %+v", e.Error)
	}

	apiTDRefusals(t, f, tk, "GET", "/api/events/atc/audit", nil)
	var log struct {
		Entries []sqlstore.AuditEntry `json:"entries"`
		Older   int64                 `json:"older"`
	}
	f.apiAs(t, tk.td, "GET", "/api/events/atc/audit?kind=round&limit=2", nil, 200, &log)
	if len(log.Entries) != 2 || log.Entries[0].Action != "round.close" || log.Entries[1].Action != "round.publish" || log.Older != log.Entries[1].Seq {
		t.Fatalf("audit %+v", log)
	}
	before := strconv.FormatInt(log.Older, 10)
	log.Entries, log.Older = nil, 0
	f.apiAs(t, tk.td, "GET", "/api/events/atc/audit?kind=round&before="+before, nil, 200, &log)
	if len(log.Entries) != 1 || log.Entries[0].Action != "round.pair" || log.Older != 0 {
		t.Fatalf("second page %+v", log)
	}
	wantField(t, f, tk.td, "GET", "/api/events/atc/audit?limit=lots", nil, 400, "limit")
	wantField(t, f, tk.td, "GET", "/api/events/atc/audit?before=-1", nil, 400, "before")
}

func TestAPIDeadlineOfficialsForbidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	ms := publishedRound(t, f)
	tk := signInTD(t, f)
	ctx := context.Background()
	var e apiErr

	// A4: the deadline moves forward only once every match is final.
	target := "/api/events/atc/rounds/s1r1/deadline"
	apiTDRefusals(t, f, tk, "POST", target, map[string]any{"end": "2025-01-11T00:00Z"})
	wantField(t, f, tk.td, "POST", target, map[string]any{"end": "Friday"}, 400, "end")
	f.apiAs(t, tk.td, "POST", target, map[string]any{"end": "2025-01-11T00:00Z"}, 422, &e)
	for _, m := range ms {
		ok(t)(f.app.OverrideResult(ctx, tdActor, "atc", m.ID, appResult("forfeit:double"), "nobody played", 0))
	}
	var rd arbiter.Round
	f.apiAs(t, tk.td, "POST", target, map[string]any{"end": "2025-01-11T00:00Z"}, 200, &rd)
	if !rd.End.Equal(time.Date(2025, 1, 11, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("end %v", rd.End)
	}

	wt := "/api/events/atc/matches/s1r1b1/wrong-tc"
	apiTDRefusals(t, f, tk, "POST", wt, map[string]any{"tc": "2+5", "reason": "x"})
	f.apiAs(t, tk.td, "POST", wt, map[string]any{"tc": "2+5", "reason": "x"}, 422, &e) // antichess has no R6
	wantField(t, f, tk.td, "POST", wt, map[string]any{"set": "2+5"}, 400, "set")

	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/officials", map[string]any{"user": "deputy"})
	wantField(t, f, tk.td, "POST", "/api/events/atc/officials", map[string]any{"user": ""}, 400, "user")
	f.apiAs(t, tk.td, "POST", "/api/events/atc/officials", map[string]any{"user": "Deputy"}, 200, nil)
	if roles, _ := f.app.RolesOf(ctx, "atc", "deputy"); !roles.TD {
		t.Error("deputy is not a TD")
	}

	fb := map[string]any{"stage": 1, "entrants": []string{"team-01", "team-02"}, "reason": "same club"}
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/forbidden", fb)
	wantField(t, f, tk.td, "POST", "/api/events/atc/forbidden", map[string]any{"stage": 0, "entrants": []string{"team-01", "team-02"}, "reason": "x"}, 400, "stage")
	var got struct {
		ID       string   `json:"id"`
		Stage    int      `json:"stage"`
		Entrants []string `json:"entrants"`
		Removed  bool     `json:"removed"`
	}
	f.apiAs(t, tk.td, "POST", "/api/events/atc/forbidden", fb, 201, &got)
	if got.ID != "f1" || got.Stage != 0 || len(got.Entrants) != 2 {
		t.Fatalf("forbidden %+v", got)
	}
	apiTDRefusals(t, f, tk, "POST", "/api/events/atc/forbidden/f1/remove", map[string]any{"reason": "x"})
	wantField(t, f, tk.td, "POST", "/api/events/atc/forbidden/f1/remove", nil, 400, "reason")
	f.apiAs(t, tk.td, "POST", "/api/events/atc/forbidden/f9/remove", map[string]any{"reason": "x"}, 404, &e)
	f.apiAs(t, tk.td, "POST", "/api/events/atc/forbidden/f1/remove", map[string]any{"reason": "clubs merged"}, 200, &got)
	if !got.Removed {
		t.Errorf("not removed: %+v", got)
	}
}

func appResult(summary string) app.ResultInput { return app.ResultInput{Summary: summary} }

// TestAPIOptionalBodyChunked: a route whose fields are all optional takes
// an empty body even when it is sent without a length (chunked).
func TestAPIOptionalBodyChunked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	tk := signInTD(t, f)
	req := httptest.NewRequest("POST", "/api/events/atc/registration/close", strings.NewReader(""))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+tk.td)
	res, body := f.send(req)
	wantStatus(t, res, body, 200)
	req = httptest.NewRequest("POST", "/api/events/atc/stages/advance", strings.NewReader(`{"tie_order": 3}`))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+tk.td)
	res, body = f.send(req)
	wantStatus(t, res, body, 400)
	wantContains(t, body, `"field": "tie_order"`)
}
