package web

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"time"

	"arbiter"
	"arbiter/format/strictjson"
)

// apiAuthRoutes: API sessions. A script signs in with a local account and
// gets a bearer token; a browser uses its session cookie.
var apiAuthRoutes = []apiRoute{
	{"POST /api/session", func(s *Server) http.HandlerFunc { return s.apiSignIn }},
	{"DELETE /api/session", func(s *Server) http.HandlerFunc { return s.apiSignOut }},
	{"GET /api/me", func(s *Server) http.HandlerFunc { return s.apiMe }},
}

// maxAPIBody bounds a JSON request body.
const maxAPIBody = 1 << 20

// decodeJSON reads the request body into v, strictly (package
// strictjson, as format files and match sheets are read): keys match
// exactly (`{"SUMMARY":…}` is an unknown field, not "summary"), unknown
// fields, trailing data and wrong types are EINVALID naming the field's
// JSON path, and a body over maxAPIBody is refused.
func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return arbiter.FieldError("Content-Type", "api.json", "send the request body as application/json, not %s", ct)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAPIBody+1))
	switch {
	case err != nil && !isTooLarge(err):
		return arbiter.FieldError("body", "api.json", "the body could not be read")
	case isTooLarge(err) || len(body) > maxAPIBody:
		return arbiter.FieldError("body", "api.json", "the body is larger than %d bytes", maxAPIBody)
	case len(bytes.TrimSpace(body)) == 0:
		return arbiter.FieldError("body", "api.json", "the request needs a JSON body")
	}
	return strictjson.Decode(bytes.NewReader(body), v, "api.json")
}

// apiActorAs is the signed-in user acting in role; it answers 401 and
// returns false when the request carries no session.
func (s *Server) apiActorAs(w http.ResponseWriter, r *http.Request, role string) (arbiter.Actor, bool) {
	a, err := actorAs(r, role)
	if err != nil {
		s.apiFail(w, r, arbiter.Errorf(arbiter.EUNAUTHORIZED, "sign in first: send the session cookie or \"Authorization: Bearer TOKEN\" (POST /api/session)"))
		return a, false
	}
	return a, true
}

type apiSignInRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type apiSession struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
	User      apiUser   `json:"user"`
}

type apiUser struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
	Local       bool   `json:"local"`
}

func userJSON(u arbiter.User) apiUser {
	return apiUser{Username: u.LichessUsername, DisplayName: u.DisplayName, Local: u.Local}
}

func (s *Server) apiSignIn(w http.ResponseWriter, r *http.Request) {
	var req apiSignInRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiFail(w, r, err)
		return
	}
	ses, err := s.app.SignInLocal(r.Context(), strings.TrimSpace(req.Username), req.Password, s.clientAddr(r))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusCreated, apiSession{Token: ses.Token, ExpiresAt: ses.Expires, User: userJSON(ses.User)})
}

// apiSignOut ends the session of the bearer token or cookie used.
func (s *Server) apiSignOut(w http.ResponseWriter, r *http.Request) {
	token, ok := bearerToken(r)
	if !ok {
		if c, err := r.Cookie(sessionCookie); err == nil {
			token = c.Value
		}
	}
	if currentUser(r) == nil || token == "" {
		s.apiFail(w, r, arbiter.Errorf(arbiter.EUNAUTHORIZED, "not signed in"))
		return
	}
	if err := s.app.SignOut(r.Context(), token); err != nil {
		s.apiFail(w, r, err)
		return
	}
	if !ok {
		s.clearCookie(w, r, sessionCookie)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) apiMe(w http.ResponseWriter, r *http.Request) {
	u := currentUser(r)
	if u == nil {
		s.apiFail(w, r, arbiter.Errorf(arbiter.EUNAUTHORIZED, "not signed in"))
		return
	}
	s.writeJSON(w, r, http.StatusOK, userJSON(*u))
}
