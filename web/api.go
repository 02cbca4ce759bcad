package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/standings"
)

// openAPIDoc is the hand-written OpenAPI 3.1 description of the API;
// api_test.go checks it against apiRoutes in both directions.
//
//go:embed openapi.json
var openAPIDoc []byte

// apiRoute is one JSON route. Patterns start with a method ("GET " also
// answers HEAD); the rest is the path as the OpenAPI document spells it.
type apiRoute struct {
	Pattern string
	handler func(*Server) http.HandlerFunc
}

// allAPIRoutes is the one list of the API's routes: routes() registers
// them and the tests compare them with the OpenAPI document. Each group
// of routes is defined beside its handlers.
func allAPIRoutes() []apiRoute {
	return slices.Concat(apiRoutes, apiAuthRoutes, apiPublicRoutes, apiTDRoutes, apiTeamRoutes, apiExportRoutes, apiPairingEditRoutes, apiWebhookRoutes, apiOddsRoutes)
}

// apiRoutes are the public read routes of this file.
var apiRoutes = []apiRoute{
	{"GET /api/openapi.json", func(s *Server) http.HandlerFunc { return s.apiOpenAPI }},
	{"GET /api/formats", func(s *Server) http.HandlerFunc { return s.apiFormats }},
	{"GET /api/formats/{name}", func(s *Server) http.HandlerFunc { return s.apiFormat }},
	{"GET /api/events", func(s *Server) http.HandlerFunc { return s.apiEvents }},
	{"GET /api/events/{slug}", func(s *Server) http.HandlerFunc { return s.apiEvent }},
	{"GET /api/events/{slug}/rounds", func(s *Server) http.HandlerFunc { return s.apiRounds }},
	{"GET /api/events/{slug}/rounds/{round}/matches", func(s *Server) http.HandlerFunc { return s.apiMatches }},
	{"GET /api/events/{slug}/standings", func(s *Server) http.HandlerFunc { return s.apiStandings }},
}

func isAPIPath(p string) bool { return p == "/api" || strings.HasPrefix(p, "/api/") }

// apiErrorBody is the error document of every /api/ answer but 2xx.
type apiErrorBody struct {
	Error apiErrorDetail `json:"error"`
}

type apiErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

// writeJSON answers v as JSON; a HEAD request gets the headers only.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		s.apiInternal(w, r, fmt.Errorf("web: encode JSON: %w", err))
		return
	}
	s.writeRaw(w, r, status, buf.Bytes())
}

func (s *Server) writeRaw(w http.ResponseWriter, r *http.Request, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	setCacheControl(h, r)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// apiError answers an error document. message must be safe for users.
func (s *Server) apiError(w http.ResponseWriter, r *http.Request, status int, d apiErrorDetail) {
	s.writeJSON(w, r, status, apiErrorBody{Error: d})
}

// apiFail maps err the way fail does for pages: its code to the status,
// its user-safe message, and the field and rule of bad input.
func (s *Server) apiFail(w http.ResponseWriter, r *http.Request, err error) {
	code := arbiter.ErrorCode(err)
	if code == arbiter.EINTERNAL {
		s.apiInternal(w, r, err)
		return
	}
	setRetryAfter(w, err)
	d := apiErrorDetail{Code: code, Message: arbiter.ErrorMessage(err)}
	var e *arbiter.Error
	if errors.As(err, &e) {
		d.Field, d.Rule = e.Field, e.Rule
	}
	s.apiError(w, r, httpStatus(code), d)
}

// apiInternal logs err and answers 500 with no detail.
func (s *Server) apiInternal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.LogAttrs(r.Context(), slog.LevelError, "internal error",
		slog.String("error", err.Error()), slog.String("request_id", requestID(r)))
	s.apiError(w, r, http.StatusInternalServerError, apiErrorDetail{Code: arbiter.EINTERNAL, Message: "internal error"})
}

func (s *Server) apiOpenAPI(w http.ResponseWriter, r *http.Request) {
	s.writeRaw(w, r, http.StatusOK, s.openAPI)
}

type apiFormatSummary struct {
	Name     string         `json:"name"`
	Title    string         `json:"title"`
	Entrant  string         `json:"entrant"`
	Rulebook string         `json:"rulebook"`
	Stages   []format.Stage `json:"stages"`
}

func (s *Server) apiFormats(w http.ResponseWriter, r *http.Request) {
	rows, err := presetRows()
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := make([]apiFormatSummary, 0, len(rows))
	for _, p := range rows {
		out = append(out, apiFormatSummary(p))
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"formats": out})
}

// apiFormat answers a preset and, with ?entrants=N, format.Explain for N.
func (s *Server) apiFormat(w http.ResponseWriter, r *http.Request) {
	f, err := format.Preset(r.PathValue("name"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Format      *format.Format      `json:"format"`
		Explanation *format.Explanation `json:"explanation,omitempty"`
	}{Format: f}
	if q := r.URL.Query(); q.Has("entrants") {
		n, err := parseEntrants(strings.TrimSpace(q.Get("entrants")))
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		x, err := f.Explain(n)
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		out.Explanation = &x
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	evs, err := s.app.ListEvents(r.Context())
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if evs == nil {
		evs = []arbiter.Event{}
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"events": evs})
}

func (s *Server) apiEvent(w http.ResponseWriter, r *http.Request) {
	ev, err := s.app.Event(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, ev)
}

// apiRound is a round as the public pages show it: the TDs' notes stay
// out.
type apiRound struct {
	ID          string    `json:"id"`
	Stage       int       `json:"stage"`
	Number      int       `json:"number"`
	Status      string    `json:"status"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Method      string    `json:"method"`
	Matches     []string  `json:"matches"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	ClosedAt    time.Time `json:"closed_at,omitzero"`
}

func (s *Server) apiRounds(w http.ResponseWriter, r *http.Request) {
	rs, err := s.app.Rounds(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := make([]apiRound, 0, len(rs))
	for _, rd := range rs {
		out = append(out, apiRound{ID: rd.ID, Stage: rd.Stage, Number: rd.Number, Status: rd.Status, Start: rd.Start, End: rd.End,
			Method: rd.Method, Matches: rd.Matches, PublishedAt: rd.PublishedAt, ClosedAt: rd.ClosedAt})
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"rounds": out})
}

// apiMatches lists a paired round's matches as the caller may see them
// (app.RoundView decides: none while the TDs review them, unless the
// caller is one); a round not paired (or not existing) is not found.
func (s *Server) apiMatches(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("round")
	rv, err := s.app.RoundView(r.Context(), currentUser(r), slug, id)
	if err == nil && rv.Round == nil {
		err = arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no paired round %q", slug, id)
	}
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	ms := rv.Matches
	if ms == nil {
		ms = []arbiter.Match{}
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"round": id, "matches": ms})
}

type apiTable struct {
	Pool      string               `json:"pool,omitempty"`
	Tiebreaks []standings.Tiebreak `json:"tiebreaks"`
	Rows      []standings.Row      `json:"rows"`
	// After is the stage's round the table stands after (0: before its
	// first completed round); Completed how many of its rounds are.
	After     int `json:"after"`
	Completed int `json:"completed"`
}

// apiStandings answers a stage's standings (?stage=N, 1-based; default
// the stage being played) after its last completed round, or after the
// completed round ?after=N: one table, or one per pool.
func (s *Server) apiStandings(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	ev, err := s.reads.event(ctx, s.app, slug)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Stage  int        `json:"stage"` // 1-based
		Tables []apiTable `json:"tables"`
	}{Stage: ev.Stage + 1, Tables: []apiTable{}}
	if ev.Status == arbiter.EventRegistration || len(ev.Stages) == 0 {
		// No stage is sized yet: there are no tables, whatever ?stage says.
		s.writeJSON(w, r, http.StatusOK, out)
		return
	}
	q := r.URL.Query()
	if q.Has("stage") {
		v := q.Get("stage")
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > len(ev.Stages) {
			s.apiFail(w, r, arbiter.FieldError("stage", "web.stage", "stage must be a number from 1 to %d", len(ev.Stages)))
			return
		}
		out.Stage = n
	}
	i := out.Stage - 1
	sg := ev.Stages[i]
	after, err := afterParam(q.Get("after"), sg.Rounds)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	add := func(pool string, t app.StageTable) {
		rows := t.Rows
		if rows == nil {
			rows = []standings.Row{}
		}
		out.Tables = append(out.Tables, apiTable{Pool: pool, Tiebreaks: t.Tiebreaks, Rows: rows, After: t.After, Completed: t.Completed})
	}
	pools := []string{""}
	if sg.Kind == format.Pool {
		pools = pools[:0]
		for _, p := range sg.Pools {
			pools = append(pools, p.Name)
		}
	}
	for _, p := range pools {
		t, err := s.reads.standings(ctx, s.app, slug, i, p, after)
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		add(p, t)
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// afterParam reads ?after=N: a round of the stage (1..rounds), or 0 (the
// last completed round) when it is empty.
func afterParam(v string, rounds int) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > rounds {
		return 0, arbiter.FieldError("after", "web.after", "after must be a round number from 1 to %d", rounds)
	}
	return n, nil
}

// apiUnrouted answers the mux's own 404 and 405 on /api/ paths as JSON
// errors (keeping the Allow header of a 405).
func (s *Server) apiUnrouted(w http.ResponseWriter, r *http.Request, probe *probeWriter) {
	if probe.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", probe.header.Get("Allow"))
		s.apiError(w, r, http.StatusMethodNotAllowed, apiErrorDetail{Code: "method_not_allowed",
			Message: "this address does not accept a " + r.Method + " request"})
		return
	}
	s.apiError(w, r, http.StatusNotFound, apiErrorDetail{Code: arbiter.ENOTFOUND, Message: "there is no API route at this address"})
}
