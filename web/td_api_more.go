package web

import (
	"net/http"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
)

// The TD API routes for what the console does beyond the round and
// result basics: deadlines, the wrong time control rule, officials and
// forbidden pairings.

type apiDeadline struct {
	End string `json:"end"`
}

// apiBringForward moves the current round's deadline earlier (A4).
func (s *Server) apiBringForward(w http.ResponseWriter, r *http.Request) {
	var in apiDeadline
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	end, err := parseUTC("end", in.End)
	if err == nil {
		err = s.checkRound(r.Context(), r.PathValue("slug"), r.PathValue("round"))
	}
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	rd, err := s.app.BringForward(r.Context(), a, r.PathValue("slug"), end)
	s.apiAnswer(w, r, http.StatusOK, rd, err)
}

type apiWrongTC struct {
	TC     string `json:"tc"`
	Reason string `json:"reason"`
}

// apiWrongTCResult is the match after R6 and whether the grace applied.
type apiWrongTCResult struct {
	Match arbiter.Match `json:"match"`
	Grace bool          `json:"grace"`
}

func (s *Server) apiWrongTC(w http.ResponseWriter, r *http.Request) {
	var in apiWrongTC
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	m, grace, err := s.app.WrongTimeControl(r.Context(), a, r.PathValue("slug"), r.PathValue("match"), in.TC, in.Reason)
	s.apiAnswer(w, r, http.StatusOK, apiWrongTCResult{Match: m, Grace: grace}, err)
}

// apiVerify checks the match's games on Lichess (R6 detection, W2, W4)
// and answers the stored verification; the result is not changed.
func (s *Server) apiVerify(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	if s.app.Jobs() != nil { // a background job: 202 (td_jobs.go)
		j, err := s.app.RequestVerification(r.Context(), a, r.PathValue("slug"), r.PathValue("match"))
		s.apiQueued(w, r, j, err)
		return
	}
	v, err := s.app.VerifyMatch(r.Context(), a, r.PathValue("slug"), r.PathValue("match"))
	s.apiAnswer(w, r, http.StatusOK, v, err)
}

// apiCheckEligibility checks an entrant's players on Lichess against the
// format's eligibility rules (A2, W1) and answers the stored check.
func (s *Server) apiCheckEligibility(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	if s.app.Jobs() != nil { // a background job: 202 (td_jobs.go)
		j, err := s.app.RequestEligibility(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
		s.apiQueued(w, r, j, err)
		return
	}
	c, err := s.app.CheckEligibility(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusOK, c, err)
}

type apiOfficial struct {
	User string `json:"user"`
}

func (s *Server) apiAddTD(w http.ResponseWriter, r *http.Request) {
	var in apiOfficial
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	if strings.TrimSpace(in.User) == "" {
		s.apiFail(w, r, arbiter.FieldError("user", "web.required", "give the Lichess username of the new TD"))
		return
	}
	err := s.app.AddTD(r.Context(), a, r.PathValue("slug"), strings.TrimSpace(in.User))
	s.apiAnswer(w, r, http.StatusOK, map[string]string{"user": strings.ToLower(strings.TrimSpace(in.User)), "role": arbiter.RoleTD}, err)
}

type apiForbid struct {
	Stage    int      `json:"stage"` // 1-based
	Entrants []string `json:"entrants"`
	Reason   string   `json:"reason"`
}

func (s *Server) apiForbid(w http.ResponseWriter, r *http.Request) {
	var in apiForbid
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	if in.Stage < 1 {
		s.apiFail(w, r, arbiter.FieldError("stage", "web.stage", "stage must be a number from 1"))
		return
	}
	fb, err := s.app.Forbid(r.Context(), a, r.PathValue("slug"), app.ForbidRequest{Stage: in.Stage - 1, Entrants: in.Entrants, Reason: in.Reason})
	s.apiAnswer(w, r, http.StatusCreated, fb, err)
}

func (s *Server) apiRemoveForbidden(w http.ResponseWriter, r *http.Request) {
	var in apiDiscard
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	fb, err := s.app.RemoveForbidden(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Reason)
	s.apiAnswer(w, r, http.StatusOK, fb, err)
}

type apiSeparate struct {
	Players []string `json:"players"`
	Reason  string   `json:"reason"`
}

func (s *Server) apiSeparate(w http.ResponseWriter, r *http.Request) {
	var in apiSeparate
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	sp, err := s.app.Separate(r.Context(), a, r.PathValue("slug"), app.SeparateRequest{Players: in.Players, Reason: in.Reason})
	s.apiAnswer(w, r, http.StatusCreated, sp, err)
}

func (s *Server) apiRemoveSeparated(w http.ResponseWriter, r *http.Request) {
	var in apiDiscard
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	sp, err := s.app.RemoveSeparated(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Reason)
	s.apiAnswer(w, r, http.StatusOK, sp, err)
}

type apiBan struct {
	Player    string    `json:"player"`
	Permanent bool      `json:"permanent"`
	Until     time.Time `json:"until,omitzero"`
	Events    int       `json:"events"`
	Reason    string    `json:"reason"`
}

func (s *Server) apiBan(w http.ResponseWriter, r *http.Request) {
	var in apiBan
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	b, err := s.app.Ban(r.Context(), a, r.PathValue("slug"), app.BanRequest{Player: in.Player, Permanent: in.Permanent,
		Until: in.Until, Events: in.Events, Reason: in.Reason})
	s.apiAnswer(w, r, http.StatusCreated, b, err)
}

func (s *Server) apiLiftBan(w http.ResponseWriter, r *http.Request) {
	var in apiDiscard
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	b, err := s.app.LiftBan(r.Context(), a, r.PathValue("slug"), r.PathValue("id"), in.Reason)
	s.apiAnswer(w, r, http.StatusOK, b, err)
}
