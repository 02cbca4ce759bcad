package web

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"arbiter"
	"arbiter/app"
)

// apiTDRoutes are the API routes of the TD console (web/openapi/td.json):
// the same use cases as the console's forms, acting as TD. Package app
// checks that the caller is a TD of the event.
var apiTDRoutes = []apiRoute{
	{"POST /api/events", func(s *Server) http.HandlerFunc { return s.apiCreateEvent }},
	{"POST /api/events/{slug}/entrants/{id}/approve", func(s *Server) http.HandlerFunc { return s.apiApprove }},
	{"POST /api/events/{slug}/entrants/{id}/reject", func(s *Server) http.HandlerFunc { return s.apiReject }},
	{"POST /api/events/{slug}/entrants/{id}/eligibility", func(s *Server) http.HandlerFunc { return s.apiCheckEligibility }},
	{"POST /api/events/{slug}/registration/close", func(s *Server) http.HandlerFunc { return s.apiCloseRegistration }},
	{"POST /api/events/{slug}/rounds", func(s *Server) http.HandlerFunc { return s.apiPairRound }},
	{"POST /api/events/{slug}/rounds/{round}/publish", func(s *Server) http.HandlerFunc { return s.apiRoundAction("publish") }},
	{"POST /api/events/{slug}/rounds/{round}/close", func(s *Server) http.HandlerFunc { return s.apiRoundAction("close") }},
	{"POST /api/events/{slug}/rounds/{round}/discard", func(s *Server) http.HandlerFunc { return s.apiRoundAction("discard") }},
	{"POST /api/events/{slug}/matches/{match}/override", func(s *Server) http.HandlerFunc { return s.apiOverride }},
	{"POST /api/events/{slug}/appeals/{id}/decision", func(s *Server) http.HandlerFunc { return s.apiDecideAppeal }},
	{"POST /api/events/{slug}/sanctions", func(s *Server) http.HandlerFunc { return s.apiSanction }},
	{"POST /api/events/{slug}/stages/advance", func(s *Server) http.HandlerFunc { return s.apiAdvanceStage }},
	{"POST /api/events/{slug}/rounds/{round}/deadline", func(s *Server) http.HandlerFunc { return s.apiBringForward }},
	{"POST /api/events/{slug}/matches/{match}/wrong-tc", func(s *Server) http.HandlerFunc { return s.apiWrongTC }},
	{"POST /api/events/{slug}/matches/{match}/verify", func(s *Server) http.HandlerFunc { return s.apiVerify }},
	{"POST /api/events/{slug}/officials", func(s *Server) http.HandlerFunc { return s.apiAddTD }},
	{"POST /api/events/{slug}/forbidden", func(s *Server) http.HandlerFunc { return s.apiForbid }},
	{"POST /api/events/{slug}/forbidden/{id}/remove", func(s *Server) http.HandlerFunc { return s.apiRemoveForbidden }},
	{"POST /api/events/{slug}/separated", func(s *Server) http.HandlerFunc { return s.apiSeparate }},
	{"POST /api/events/{slug}/separated/{id}/remove", func(s *Server) http.HandlerFunc { return s.apiRemoveSeparated }},
	{"POST /api/events/{slug}/bans", func(s *Server) http.HandlerFunc { return s.apiBan }},
	{"POST /api/events/{slug}/bans/{id}/lift", func(s *Server) http.HandlerFunc { return s.apiLiftBan }},
	{"GET /api/events/{slug}/cheating", func(s *Server) http.HandlerFunc { return s.apiCheatReports }},
	{"POST /api/events/{slug}/cheating/{id}/close", func(s *Server) http.HandlerFunc { return s.apiCloseCheating }},
	{"GET /api/events/{slug}/audit", func(s *Server) http.HandlerFunc { return s.apiAudit }},
	{"GET /api/events/{slug}/appeals", func(s *Server) http.HandlerFunc { return s.apiAppeals }},
	{"GET /api/events/{slug}/entrants/{id}/eligibility", func(s *Server) http.HandlerFunc { return s.apiEligibility }},
	{"GET /api/events/{slug}/jobs", func(s *Server) http.HandlerFunc { return s.apiJobs }},
	{"GET /api/events/{slug}/jobs/{id}", func(s *Server) http.HandlerFunc { return s.apiJob }},
	{"POST /api/events/{slug}/jobs/{id}/retry", func(s *Server) http.HandlerFunc { return s.apiRetryJob }},
}

// apiTD is the caller acting as TD, with the request body decoded into
// in (when not nil): 401 without a session (checked first, so that an
// anonymous request learns nothing else), 400 for a bad body.
func (s *Server) apiTD(w http.ResponseWriter, r *http.Request, in any) (arbiter.Actor, bool) {
	a, ok := s.apiActorAs(w, r, arbiter.RoleTD)
	if !ok {
		return a, false
	}
	if in != nil && !(optionalBody(in) && emptyBody(r)) {
		if err := decodeJSON(r, in); err != nil {
			s.apiFail(w, r, err)
			return a, false
		}
	}
	return a, true
}

// optionalBody marks request types whose every field is optional, so
// that an empty body means "all defaults".
type optionalBodyType interface{ optional() }

func optionalBody(v any) bool { _, ok := v.(optionalBodyType); return ok }

// emptyBody tells whether the request has no body, also when it is sent
// chunked (unknown length); the body stays readable.
func emptyBody(r *http.Request) bool {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return true
	}
	br := bufio.NewReader(r.Body)
	_, err := br.Peek(1)
	r.Body = struct {
		io.Reader
		io.Closer
	}{br, r.Body}
	return err == io.EOF
}

// apiAnswer writes v with status, or the error.
func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, status, v)
}

type apiNewEvent struct {
	Slug   string          `json:"slug"`
	Name   string          `json:"name"`
	Preset string          `json:"preset"`
	Format json.RawMessage `json:"format"`
	Start  string          `json:"start"`
	// AllowPast accepts a start in the past (app.NewEvent.AllowPast).
	AllowPast bool `json:"allow_past"`
}

func (s *Server) apiCreateEvent(w http.ResponseWriter, r *http.Request) {
	var in apiNewEvent
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	start, err := parseUTC("start", in.Start)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	req := app.NewEvent{Slug: in.Slug, Name: in.Name, Preset: in.Preset, Start: start, AllowPast: in.AllowPast}
	if len(in.Format) > 0 && string(in.Format) != "null" {
		req.Format = in.Format
	}
	ev, err := s.createEvent(r, a, req)
	if err == nil {
		w.Header().Set("Location", "/api/events/"+ev.Slug)
	}
	s.apiAnswer(w, r, http.StatusCreated, ev, err)
}

// apiVersion is an optional record version for optimistic locking (0:
// the current one).
type apiVersion struct {
	Version int64 `json:"version"`
}

func (apiVersion) optional() {}

func (s *Server) apiApprove(w http.ResponseWriter, r *http.Request) {
	var in apiVersion
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	e, err := s.app.Approve(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Version)
	s.apiAnswer(w, r, http.StatusOK, e, err)
}

type apiReason struct {
	Reason  string `json:"reason"`
	Version int64  `json:"version"`
}

func (s *Server) apiReject(w http.ResponseWriter, r *http.Request) {
	var in apiReason
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	e, err := s.app.Reject(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Reason, in.Version)
	s.apiAnswer(w, r, http.StatusOK, e, err)
}

type apiCloseOptions struct {
	InitialColour string `json:"initial_colour"`
	Reason        string `json:"reason"`
	AllowPast     bool   `json:"allow_past"`
}

func (apiCloseOptions) optional() {}

func (s *Server) apiCloseRegistration(w http.ResponseWriter, r *http.Request) {
	var in apiCloseOptions
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	ev, err := s.app.CloseRegistrationWith(r.Context(), a, r.PathValue("slug"), app.CloseOptions{InitialColour: in.InitialColour, Reason: in.Reason, AllowPast: in.AllowPast})
	s.apiAnswer(w, r, http.StatusOK, ev, err)
}

// apiPaired is a round as paired, with its matches, for the TDs' review.
type apiPaired struct {
	Round   arbiter.Round   `json:"round"`
	Matches []arbiter.Match `json:"matches"`
}

func (s *Server) apiPairRound(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	rd, ms, err := s.app.PairRound(r.Context(), a, r.PathValue("slug"))
	if err == nil {
		w.Header().Set("Location", "/api/events/"+r.PathValue("slug")+"/rounds/"+rd.ID+"/matches")
	}
	s.apiAnswer(w, r, http.StatusCreated, apiPaired{Round: rd, Matches: ms}, err)
}

type apiDiscard struct {
	Reason string `json:"reason"`
}

func (apiDiscard) optional() {}

// apiRoundAction publishes, closes or discards the round in the path,
// which must be the current round.
func (s *Server) apiRoundAction(action string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in apiDiscard
		var body any
		if action == "discard" {
			body = &in
		}
		a, ok := s.apiTD(w, r, body)
		if !ok {
			return
		}
		ctx, slug := r.Context(), r.PathValue("slug")
		if err := s.checkRound(ctx, slug, r.PathValue("round")); err != nil {
			s.apiFail(w, r, err)
			return
		}
		var rd arbiter.Round
		var err error
		switch action {
		case "publish":
			rd, err = s.app.PublishRound(ctx, a, slug)
		case "close":
			rd, err = s.app.CloseRound(ctx, a, slug)
		default:
			rd, err = s.app.DiscardRound(ctx, a, slug, in.Reason)
		}
		s.apiAnswer(w, r, http.StatusOK, rd, err)
	}
}

// apiResult is a result in a request: a summary or a match sheet.
type apiResult struct {
	Summary string          `json:"summary"`
	Sheet   json.RawMessage `json:"sheet"`
	WrongTC []string        `json:"wrong_tc"`
}

func (x apiResult) input() (app.ResultInput, error) {
	sheet := ""
	if len(x.Sheet) > 0 && string(x.Sheet) != "null" {
		sheet = string(x.Sheet)
	}
	if x.Summary != "" && sheet != "" {
		return app.ResultInput{}, arbiter.FieldError("sheet", "web.result", "give a summary or a sheet, not both")
	}
	if strings.HasPrefix(x.Summary, "forfeit:") {
		return resultInput(x.Summary, "", "", x.WrongTC)
	}
	if sheet != "" {
		return resultInput("sheet", "", sheet, x.WrongTC)
	}
	return resultInput("summary", x.Summary, "", x.WrongTC)
}

type apiOverride struct {
	apiResult
	Reason  string `json:"reason"`
	Version int64  `json:"version"`
}

func (s *Server) apiOverride(w http.ResponseWriter, r *http.Request) {
	var in apiOverride
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	if strings.TrimSpace(in.Reason) == "" {
		s.apiFail(w, r, arbiter.FieldError("reason", "web.reason", "an override needs a reason (it is kept in the audit log)"))
		return
	}
	res, err := in.input()
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	m, err := s.app.OverrideResult(r.Context(), a, r.PathValue("slug"), r.PathValue("match"), res, in.Reason, in.Version)
	s.apiAnswer(w, r, http.StatusOK, m, err)
}

type apiDecision struct {
	Accept *bool      `json:"accept"`
	Reason string     `json:"reason"`
	Result *apiResult `json:"result"`
}

func (s *Server) apiDecideAppeal(w http.ResponseWriter, r *http.Request) {
	var in apiDecision
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	if in.Accept == nil {
		s.apiFail(w, r, arbiter.FieldError("accept", "web.required", "accept is required: true to accept the appeal, false to reject it"))
		return
	}
	var res app.ResultInput
	if in.Result != nil {
		var err error
		if res, err = in.Result.input(); err != nil {
			s.apiFail(w, r, err)
			return
		}
	}
	ap, err := s.app.DecideAppeal(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), *in.Accept, res, in.Reason)
	s.apiAnswer(w, r, http.StatusOK, ap, err)
}

type apiSanctionRequest struct {
	Entrant        string `json:"entrant"`
	Player         string `json:"player"`
	Kind           string `json:"kind"`
	NotForCheating bool   `json:"not_for_cheating"`
	Reason         string `json:"reason"`
}

type apiSanctioned struct {
	Sanction arbiter.Sanction `json:"sanction"`
	Changed  []arbiter.Match  `json:"changed"`
}

func (s *Server) apiSanction(w http.ResponseWriter, r *http.Request) {
	var in apiSanctionRequest
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	x, changed, err := s.app.Sanction(r.Context(), a, r.PathValue("slug"), app.SanctionRequest(in))
	if changed == nil {
		changed = []arbiter.Match{}
	}
	s.apiAnswer(w, r, http.StatusCreated, apiSanctioned{Sanction: x, Changed: changed}, err)
}

type apiAdvance struct {
	TieOrder []string `json:"tie_order"`
	Reason   string   `json:"reason"`
}

func (apiAdvance) optional() {}

func (s *Server) apiAdvanceStage(w http.ResponseWriter, r *http.Request) {
	var in apiAdvance
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	ev, err := s.app.AdvanceStage(r.Context(), a, r.PathValue("slug"), app.AdvanceOptions{TieOrder: in.TieOrder, Reason: in.Reason})
	s.apiAnswer(w, r, http.StatusOK, ev, err)
}

// apiAudit answers the event's audit log newest first, with the page's
// filters and paging (?kind, actor, record, before, limit).
func (s *Server) apiAudit(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	aq, err := readAuditQuery(r, 100)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	log, err := s.app.Audit(r.Context(), a, r.PathValue("slug"), aq.Filter)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := struct {
		Entries []app.AuditEntry `json:"entries"`
		Older   int64            `json:"older,omitempty"`
	}{}
	out.Entries, out.Older = newestFirst(log, aq)
	if out.Entries == nil {
		out.Entries = []app.AuditEntry{}
	}
	s.writeJSON(w, r, http.StatusOK, out)
}

// apiAppeals lists the event's appeals; TD only (an appeal's reason may
// name players).
func (s *Server) apiAppeals(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	ctx, slug := r.Context(), r.PathValue("slug")
	if err := s.requireTDAPI(r, a, slug); err != nil {
		s.apiFail(w, r, err)
		return
	}
	aps, err := s.app.Appeals(ctx, slug)
	if aps == nil {
		aps = []arbiter.Appeal{}
	}
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"appeals": aps}, err)
}

// requireTDAPI refuses a caller who is not a TD of the event, for reads
// that app does not restrict itself (app.Appeals is open to all).
func (s *Server) requireTDAPI(r *http.Request, a arbiter.Actor, slug string) error {
	roles, err := s.app.RolesOf(r.Context(), slug, a.Name)
	if err != nil {
		return err
	}
	if !roles.TD {
		return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of event %s may list its appeals", slug)
	}
	return nil
}
