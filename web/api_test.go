package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"arbiter"
)

// apiDo sends one request and decodes the JSON answer into v (when v is
// non-nil), failing unless the status and Content-Type are as wanted.
func apiDo(t *testing.T, f *fixture, method, target string, want int, v any) *http.Response {
	t.Helper()
	res, body := f.do(t, method, target)
	wantStatus(t, res, body, want)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s %s: Content-Type %q", method, target, ct)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("%s %s: security headers missing", method, target)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, target, err, body)
		}
	}
	return res
}

type apiErr struct {
	Error apiErrorDetail `json:"error"`
}

func wantAPIError(t *testing.T, f *fixture, method, target string, status int, code, field string) apiErr {
	t.Helper()
	var e apiErr
	apiDo(t, f, method, target, status, &e)
	if e.Error.Code != code || e.Error.Field != field || e.Error.Message == "" {
		t.Errorf("%s %s: error %+v, want code %q field %q", method, target, e.Error, code, field)
	}
	return e
}

func TestAPIFormats(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var list struct {
		Formats []struct{ Name, Entrant string } `json:"formats"`
	}
	apiDo(t, f, "GET", "/api/formats", 200, &list)
	var names []string
	for _, p := range list.Formats {
		names = append(names, p.Name)
	}
	for _, want := range []string{"acwc-2023", "antichess-team-cup", "rkcc-team-three-tc"} {
		if !slices.Contains(names, want) {
			t.Errorf("formats %v lack %s", names, want)
		}
	}

	var one struct {
		Format      struct{ Name string } `json:"format"`
		Explanation *struct {
			Entrants int  `json:"entrants"`
			Runs     bool `json:"runs"`
			Stages   []struct {
				Rounds int `json:"rounds"`
			} `json:"stages"`
		} `json:"explanation"`
	}
	apiDo(t, f, "GET", "/api/formats/antichess-team-cup", 200, &one)
	if one.Format.Name != "antichess-team-cup" || one.Explanation != nil {
		t.Errorf("without entrants: %+v", one)
	}
	// A10: 10 teams play 7 Swiss rounds, then a knockout of 2 rounds.
	apiDo(t, f, "GET", "/api/formats/antichess-team-cup?entrants=10", 200, &one)
	x := one.Explanation
	if x == nil || x.Entrants != 10 || !x.Runs || len(x.Stages) != 2 || x.Stages[0].Rounds != 7 || x.Stages[1].Rounds != 2 {
		t.Errorf("explanation for 10: %+v", x)
	}
	wantAPIError(t, f, "GET", "/api/formats/antichess-team-cup?entrants=many", 400, "invalid", "entrants")
	wantAPIError(t, f, "GET", "/api/formats/antichess-team-cup?entrants=-1", 400, "invalid", "entrants")
	wantAPIError(t, f, "GET", "/api/formats/no-such-format", 404, "not_found", "")
}

func TestAPIEventsDuringRegistration(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var list struct {
		Events []struct{ Slug string } `json:"events"`
	}
	apiDo(t, f, "GET", "/api/events", 200, &list)
	if list.Events == nil || len(list.Events) != 0 {
		t.Errorf("empty store: %+v", list)
	}
	antichessEvent(t, f)
	apiDo(t, f, "GET", "/api/events", 200, &list)
	if len(list.Events) != 1 || list.Events[0].Slug != "atc" {
		t.Errorf("events %+v", list)
	}
	var st struct {
		Stage  int               `json:"stage"`
		Tables []json.RawMessage `json:"tables"`
	}
	apiDo(t, f, "GET", "/api/events/atc/standings", 200, &st)
	if st.Tables == nil || len(st.Tables) != 0 {
		t.Errorf("standings during registration: %+v", st)
	}
	var rs struct {
		Rounds []json.RawMessage `json:"rounds"`
	}
	apiDo(t, f, "GET", "/api/events/atc/rounds", 200, &rs)
	if rs.Rounds == nil || len(rs.Rounds) != 0 {
		t.Errorf("rounds during registration: %+v", rs)
	}
}

func TestAPIEventRunning(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)

	var ev struct {
		Slug, Name, Status string
		Entrants           int
		Calendar           []json.RawMessage
	}
	apiDo(t, f, "GET", "/api/events/atc", 200, &ev)
	// A10: 7 Swiss rounds and 2 knockout rounds in the calendar.
	if ev.Slug != "atc" || ev.Name != "Antichess Team Cup 2025" || ev.Entrants != 10 || len(ev.Calendar) != 9 {
		t.Errorf("event %+v", ev)
	}

	var rs struct {
		Rounds []map[string]any `json:"rounds"`
	}
	apiDo(t, f, "GET", "/api/events/atc/rounds", 200, &rs)
	if len(rs.Rounds) != 1 || rs.Rounds[0]["id"] != "s1r1" || rs.Rounds[0]["status"] != "closed" {
		t.Fatalf("rounds %+v", rs.Rounds)
	}
	if _, ok := rs.Rounds[0]["notes"]; ok {
		t.Errorf("round exposes the TDs' notes")
	}

	var ms struct {
		Round   string `json:"round"`
		Matches []struct {
			Board      int
			Home, Away string
			Result     *struct {
				Result string
				Home   struct {
					MatchPoints float64 `json:"match_points"`
				}
			}
		} `json:"matches"`
	}
	apiDo(t, f, "GET", "/api/events/atc/rounds/s1r1/matches", 200, &ms)
	// 10 teams: 5 matches; board 1 team-01 beat team-06 (the sheet).
	if ms.Round != "s1r1" || len(ms.Matches) != 5 {
		t.Fatalf("matches %+v", ms)
	}
	m := ms.Matches[0]
	if m.Board != 1 || m.Home != "team-01" || m.Away != "team-06" || m.Result == nil || m.Result.Result != "home_win" || m.Result.Home.MatchPoints != 1 {
		t.Errorf("board 1 %+v", m)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/rounds/s1r2/matches", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/atc/rounds/nonsense/matches", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/nope/rounds/s1r1/matches", 404, "not_found", "")
}

func TestAPIStandingsEveryTiebreak(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	type row struct {
		Rank   int       `json:"rank"`
		ID     string    `json:"id"`
		Score  float64   `json:"score"`
		Values []float64 `json:"values"`
	}
	var st struct {
		Stage  int `json:"stage"`
		Tables []struct {
			Pool      string   `json:"pool"`
			Tiebreaks []string `json:"tiebreaks"`
			Rows      []row    `json:"rows"`
		} `json:"tables"`
	}
	apiDo(t, f, "GET", "/api/events/atc/standings", 200, &st)
	if st.Stage != 1 || len(st.Tables) != 1 {
		t.Fatalf("standings %+v", st)
	}
	tb := st.Tables[0]
	// A21: points difference, points scored, median Buchholz.
	if strings.Join(tb.Tiebreaks, ",") != "points_difference,points_scored,median_buchholz" {
		t.Errorf("tiebreaks %v", tb.Tiebreaks)
	}
	if len(tb.Rows) != 10 {
		t.Fatalf("%d rows, want 10", len(tb.Rows))
	}
	// team-01 won 348-228: 1 match point, +120, 348; team-06 the reverse;
	// A5: the double forfeits are 0-0 draws worth 0.5.
	first, last := tb.Rows[0], tb.Rows[9]
	if first.Rank != 1 || first.ID != "team-01" || first.Score != 1 || len(first.Values) != 3 || first.Values[0] != 120 || first.Values[1] != 348 {
		t.Errorf("first row %+v", first)
	}
	if last.ID != "team-06" || last.Score != 0 || last.Values[0] != -120 || last.Values[1] != 228 {
		t.Errorf("last row %+v", last)
	}
	for _, r := range tb.Rows[1:9] {
		if r.Score != 0.5 || r.Values[0] != 0 || r.Values[1] != 0 {
			t.Errorf("middle row %+v", r)
		}
	}
	// The table says which completed round it stands after; ?after=N asks
	// for an earlier one, and a round not completed is refused.
	var after struct {
		Tables []struct {
			After     int `json:"after"`
			Completed int `json:"completed"`
		} `json:"tables"`
	}
	apiDo(t, f, "GET", "/api/events/atc/standings?after=1", 200, &after)
	if len(after.Tables) != 1 || after.Tables[0].After != 1 || after.Tables[0].Completed != 1 {
		t.Errorf("after=1: %+v", after)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/standings?after=2", 422, "rule", "")
	for _, q := range []string{"0", "8", "x"} { // the Swiss of 10 teams has 7 rounds
		if e := wantAPIError(t, f, "GET", "/api/events/atc/standings?after="+q, 400, "invalid", "after"); e.Error.Rule != "web.after" {
			t.Errorf("after=%s: rule %q", q, e.Error.Rule)
		}
	}
	apiDo(t, f, "GET", "/api/events/atc/standings?stage=2", 200, &st)
	if st.Stage != 2 || len(st.Tables) != 1 {
		t.Errorf("stage 2 %+v", st)
	}
	for _, q := range []string{"0", "3", "x", ""} {
		e := wantAPIError(t, f, "GET", "/api/events/atc/standings?stage="+q, 400, "invalid", "stage")
		if e.Error.Rule != "web.stage" {
			t.Errorf("stage=%s: rule %q", q, e.Error.Rule)
		}
	}
	wantAPIError(t, f, "GET", "/api/events/nope/standings", 404, "not_found", "")
}

func TestAPIErrorsAreJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	wantAPIError(t, f, "GET", "/api/events/nope", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/events/nope/rounds", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api/no/such/route", 404, "not_found", "")
	wantAPIError(t, f, "GET", "/api", 404, "not_found", "")
	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		res := apiDo(t, f, m, "/api/events", 405, nil)
		if a := res.Header.Get("Allow"); a != "GET, HEAD, POST" {
			t.Errorf("%s: Allow %q", m, a)
		}
		wantAPIError(t, f, m, "/api/events", 405, "method_not_allowed", "")
	}
	// The error never shows internal detail: the 404 message is the
	// user-safe text of the app's error.
	e := wantAPIError(t, f, "GET", "/api/events/nope", 404, "not_found", "")
	if strings.Contains(e.Error.Message, "sql") {
		t.Errorf("message leaks detail: %q", e.Error.Message)
	}
}

func TestAPIHeadWithoutBody(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	for _, p := range []string{"/api/formats", "/api/formats/acwc-2023?entrants=40", "/api/events", "/api/events/atc",
		"/api/events/atc/rounds", "/api/events/atc/rounds/s1r1/matches", "/api/events/atc/standings", "/api/openapi.json"} {
		res, err := http.Head(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("HEAD %s: status %d, %d body bytes, %q", p, res.StatusCode, len(body), res.Header.Get("Content-Type"))
		}
	}
	// The recorder keeps what the handler writes: none on HEAD.
	res, body := f.do(t, "HEAD", "/api/events/nope")
	if res.StatusCode != 404 || body != "" {
		t.Errorf("HEAD unknown event: %d %q", res.StatusCode, body)
	}
}

func TestAPIErrorCodesMapToStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, c := range []struct {
		err                  error
		status               int
		code, message, field string
	}{
		{arbiter.FieldError("lineup", "A12", "board order broken"), 400, "invalid", "lineup: board order broken (rule A12)", "lineup"},
		{arbiter.RuleError("R7", "lineup after the deadline"), 422, "rule", "lineup after the deadline (rule R7)", ""},
		{arbiter.Errorf(arbiter.ECONFLICT, "changed meanwhile"), 409, "conflict", "changed meanwhile", ""},
		{arbiter.Errorf(arbiter.EFORBIDDEN, "TDs only"), 403, "forbidden", "TDs only", ""},
		{arbiter.Errorf(arbiter.EUNAUTHORIZED, "sign in"), 401, "unauthorized", "sign in", ""},
		{arbiter.Errorf(arbiter.ENOPAIRING, "no pairing"), 422, "no_pairing", "no pairing", ""},
		{&arbiter.Error{Code: arbiter.EINTERNAL, Message: "db", Err: errors.New("password=hunter2")}, 500, "internal", "internal error", ""},
		{errors.New("plain failure with secret"), 500, "internal", "internal error", ""},
	} {
		rec := httptest.NewRecorder()
		f.srv.apiFail(rec, httptest.NewRequest("GET", "/api/x", nil), c.err)
		var e apiErr
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Fatalf("%v: %v", c.err, err)
		}
		want := apiErrorDetail{Code: c.code, Message: c.message, Field: c.field}
		if c.code == "invalid" || c.code == "rule" {
			want.Rule = map[string]string{"invalid": "A12", "rule": "R7"}[c.code]
		}
		if rec.Code != c.status || e.Error != want {
			t.Errorf("%v: %d %+v, want %d %+v", c.err, rec.Code, e.Error, c.status, want)
		}
		if strings.Contains(rec.Body.String(), "hunter2") || strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("%v: detail leaked", c.err)
		}
	}
}

func TestAPIInternalErrorAndPanicAreJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.db.Close() // the event list fails inside the store
	wantAPIError(t, f, "GET", "/api/events", 500, "internal", "")
	if !strings.Contains(f.logs.String(), "internal error") {
		t.Errorf("internal error not logged:\n%s", f.logs.String())
	}
	h := f.srv.securityHeaders(f.srv.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom: secret state")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/events", nil))
	var e apiErr
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != 500 || e.Error.Code != "internal" ||
		strings.Contains(rec.Body.String(), "secret") || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("panic on /api/: %d %q", rec.Code, rec.Body.String())
	}
}

// Pairings under the TDs' review (paired, not published) are not public:
// the API answers the round with no matches, but to the event's TDs.
func TestAPIMatchesOfUnpublishedRoundOnlyForTDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	if _, _, err := f.app.PairRound(context.Background(), tdActor, "atc"); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Round   string
		Matches []arbiter.Match
	}
	apiDo(t, f, "GET", "/api/events/atc/rounds/s1r2/matches", 200, &got)
	if got.Round != "s1r2" || len(got.Matches) != 0 {
		t.Fatalf("anonymous sees %+v", got)
	}
	f.apiAs(t, f.signIn(t, "cap01"), "GET", "/api/events/atc/rounds/s1r2/matches", nil, 200, &got)
	if len(got.Matches) != 0 {
		t.Fatalf("a captain sees the unpublished pairings %+v", got.Matches)
	}
	f.apiAs(t, f.signIn(t, tdActor.Name), "GET", "/api/events/atc/rounds/s1r2/matches", nil, 200, &got)
	if len(got.Matches) != 5 {
		t.Fatalf("the TD sees %d matches, want the 5 paired", len(got.Matches))
	}
}
