package web

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"arbiter"
	"arbiter/app"
)

// Sessions. A browser holds the session token in an HttpOnly cookie; an
// API client sends the same kind of token as "Authorization: Bearer".
// Sessions are package app's (app.SignInLocal and the others); the web
// app only carries their tokens.
const (
	sessionCookie = "arbiter_session"
	sessionTTL    = app.SessionTTL
	flashCookie   = "arbiter_flash"
)

type userKey struct{}

// currentUser is the signed-in user of the request, or nil.
func currentUser(r *http.Request) *arbiter.User {
	u, _ := r.Context().Value(userKey{}).(*arbiter.User)
	return u
}

// actorAs is the signed-in user acting in role; package app checks that
// the user really holds the role in the event (a captain of that team, a
// TD of that event, a player of that match). Not signed in is
// EUNAUTHORIZED.
func actorAs(r *http.Request, role string) (arbiter.Actor, error) {
	u := currentUser(r)
	if u == nil {
		return arbiter.Actor{}, arbiter.Errorf(arbiter.EUNAUTHORIZED, "sign in first")
	}
	return u.As(role), nil
}

// authenticate puts the session's user, if any, into the request context.
// Under /api/ a bearer token is accepted, and a bad one is refused (the
// client asked to be someone); pages use the cookie only. A stale cookie
// is dropped and the request goes on anonymously.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token, ok := bearerToken(r); ok && isAPIPath(r.URL.Path) {
			if app.IsAPIToken(token) {
				s.serveToken(next, w, r, token) // a bot's API token (tokens.go)
				return
			}
			u, err := s.app.SessionUser(r.Context(), token)
			if err != nil {
				s.apiFail(w, r, err)
				return
			}
			serveAs(next, w, r, &u)
			return
		}
		c, err := r.Cookie(sessionCookie)
		if err != nil || c.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		u, err := s.app.SessionUser(r.Context(), c.Value)
		if err != nil {
			if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
				s.failFor(w, r, err)
				return
			}
			s.clearCookie(w, r, sessionCookie)
			next.ServeHTTP(w, r)
			return
		}
		serveAs(next, w, r, &u)
	})
}

// serveAs serves r as user u. The mux records the matched pattern on the
// request it is given; it is copied back so the request log names it.
func serveAs(next http.Handler, w http.ResponseWriter, r *http.Request, u *arbiter.User) {
	r2 := r.WithContext(context.WithValue(r.Context(), userKey{}, u))
	next.ServeHTTP(w, r2)
	r.Pattern = r2.Pattern
}

func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true // a credential we do not accept: refused, never ignored
	}
	return strings.TrimSpace(token), true
}

// failFor answers err as JSON under /api/ and as a page elsewhere.
func (s *Server) failFor(w http.ResponseWriter, r *http.Request, err error) {
	if isAPIPath(r.URL.Path) {
		s.apiFail(w, r, err)
		return
	}
	s.fail(w, r, err)
}

// secure tells whether cookies must be Secure: always when configured,
// and whenever the request came over TLS (directly or via a proxy that
// says so).
func (s *Server) secure(r *http.Request) bool {
	return s.secureCookies || r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value, path string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: path, MaxAge: int(maxAge / time.Second),
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
}

func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
}

// keepSession keeps the session app opened on this browser.
func (s *Server) keepSession(w http.ResponseWriter, r *http.Request, ses app.Session) {
	s.setCookie(w, r, sessionCookie, ses.Token, "/", sessionTTL)
}

// flash is a one-time message shown on the next page: the outcome of a
// form, which redirects (post/redirect/get) so a reload never repeats it.
type flash struct {
	Error   bool
	Message string
}

// setFlash keeps msg for the next page this browser loads. It travels in
// a short-lived cookie, never in the URL, so no link can forge one.
func (s *Server) setFlash(w http.ResponseWriter, r *http.Request, isError bool, msg string) {
	kind := "ok"
	if isError {
		kind = "error"
	}
	s.setCookie(w, r, flashCookie, kind+"."+base64.RawURLEncoding.EncodeToString([]byte(msg)), "/", time.Minute)
}

// takeFlash reads and clears the flash message, if any.
func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request) *flash {
	c, err := r.Cookie(flashCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	s.clearCookie(w, r, flashCookie)
	kind, enc, _ := strings.Cut(c.Value, ".")
	msg, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(msg) == 0 || len(msg) > 1000 {
		return nil
	}
	return &flash{Error: kind == "error", Message: string(msg)}
}

// signInFirst sends an anonymous visitor to the sign-in page, to come
// back here afterwards.
func (s *Server) signInFirst(w http.ResponseWriter, r *http.Request) {
	next := r.URL.RequestURI()
	if r.Method != http.MethodGet {
		next = r.Header.Get("Referer")
		if u, err := url.Parse(next); err == nil {
			next = u.RequestURI()
		}
	}
	http.Redirect(w, r, "/login?next="+url.QueryEscape(localPath(next)), http.StatusSeeOther)
}

// localPath returns p when it is a clean absolute path on this site (with
// an optional query), and "/" otherwise, so that a "next" parameter can
// never send a user to another site. Browsers drop tabs and line breaks
// from a Location and read a backslash as a slash, so "/\t/evil.example"
// or "/\\evil.example" would become "//evil.example", another host: p is
// refused if it holds any control character, space or backslash, raw or
// percent-encoded, names a scheme or host, or is not clean ("/a/../b").
func localPath(p string) string {
	if len(p) == 0 || len(p) > maxNext || p[0] != '/' || unsafeInPath(p) {
		return "/"
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || unsafeInPath(u.Path) {
		return "/"
	}
	if q, err := url.QueryUnescape(u.RawQuery); err != nil || strings.ContainsFunc(q, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "/"
	}
	clean := path.Clean(u.Path)
	if clean != u.Path && clean+"/" != u.Path {
		return "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.RequestURI()
}

// maxNext bounds a "next" path; no page of the site has a longer address.
const maxNext = 2048

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r == '\\' || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

func unsafeInPath(s string) bool { return strings.ContainsFunc(s, unsafeRune) }

// act runs the action of a page form (post/redirect/get): the visitor
// must be signed in (otherwise they are sent to sign in), fn runs as the
// signed-in user in role, and the browser is redirected with 303 to back
// with the outcome as a flash message: fn's success message, or the
// error's user-safe message naming the field and the rule. Internal
// errors show the 500 page and are logged.
func (s *Server) act(w http.ResponseWriter, r *http.Request, role, back string, fn func(a arbiter.Actor) (string, error)) {
	a, err := actorAs(r, role)
	if err != nil {
		s.signInFirst(w, r)
		return
	}
	msg, err := fn(a)
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		if arbiter.RetryAfter(err) > 0 {
			s.fail(w, r, err) // a busy database or a rate limit: 503 or 429 with Retry-After
			return
		}
		s.setFlash(w, r, true, userMessage(err))
	} else if msg != "" {
		s.setFlash(w, r, false, msg)
	}
	http.Redirect(w, r, localPath(back), http.StatusSeeOther)
}

// userMessage is err's user-safe message for a page, with the field and
// the rulebook clause it names, e.g. "sets: a lineup names 3 players
// (rule A12)" (plainMessage, words.go).
func userMessage(err error) string { return plainMessage(err) }
