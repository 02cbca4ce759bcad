package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"arbiter"
	"arbiter/app"
)

// LocalTD is the local TD account (app.LocalTD).
const LocalTD = app.LocalTD

// Sign-in with Lichess is OAuth2 authorization code with PKCE: Lichess
// needs no client secret or registration, the client id is any name. The
// state and PKCE verifier live in a short-lived HttpOnly cookie, so any
// of several stateless serve processes can finish a sign-in another one
// started.
const (
	oauthCookie  = "arbiter_oauth"
	oauthTimeout = 10 * time.Minute
	// DefaultOAuthClientID is the client id shown to users on Lichess's
	// consent page.
	DefaultOAuthClientID = "arbiter"
)

// LichessAuth configures sign-in with Lichess.
type LichessAuth struct {
	// BaseURL is Lichess's address; "" means https://lichess.org. Tests
	// point it at a local fake.
	BaseURL string
	// ClientID is the OAuth client id; "" means DefaultOAuthClientID.
	ClientID string
	// HTTPClient makes the token and account requests; nil means a
	// client with a 10 s timeout.
	HTTPClient *http.Client
}

func (s *Server) authRoutes() {
	s.handleFunc("GET /login", s.loginPage)
	s.handleFunc("POST /login", s.loginLocal)
	s.handleFunc("POST /logout", s.logout)
	s.handleFunc("GET /auth/lichess", s.lichessStart)
	s.handleFunc("GET /auth/lichess/callback", s.lichessCallback)
	s.handleFunc("POST /login/demo", s.loginDemo)
}

type loginData struct {
	Next     string
	Username string
	// Demo lists who one may sign in as without a password when demo
	// sign-in is on (nil otherwise).
	Demo []demoUser
}

type demoUser struct{ Name, Part string }

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	d := loginData{Next: localPath(r.URL.Query().Get("next"))}
	if s.demoSignIn {
		var err error
		if d.Demo, err = s.demoUsers(r.Context()); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "login", page{Title: "Sign in", Nav: "login", Data: d})
}

// demoUsers are the TDs, captains and players of the demo events ("demo-"
// slugs), a few of each, for the demo sign-in list.
func (s *Server) demoUsers(ctx context.Context) ([]demoUser, error) {
	out := []demoUser{{Name: LocalTD, Part: "TD of every demo event (password printed at first start)"}}
	events, err := s.app.ListEvents(ctx)
	if err != nil {
		return nil, err
	}
	for _, ev := range events {
		if !strings.HasPrefix(ev.Slug, "demo-") {
			continue
		}
		es, err := s.app.Entrants(ctx, ev.Slug)
		if err != nil {
			return nil, err
		}
		for i, e := range es {
			if i == 3 {
				break
			}
			if e.Kind == arbiter.EntrantTeam {
				out = append(out, demoUser{Name: e.Captain, Part: "captain of " + e.Name + " in " + ev.Name})
			} else {
				out = append(out, demoUser{Name: e.Player, Part: "player in " + ev.Name})
			}
		}
	}
	return out, nil
}

// loginDemo signs in as any Lichess-style username with no password. It
// exists only when the server runs with demo sign-in on (serve --demo),
// so a newcomer can see the captain and player pages of the demo events;
// a real deployment never turns it on.
func (s *Server) loginDemo(w http.ResponseWriter, r *http.Request) {
	if !s.demoSignIn {
		s.renderError(w, r, http.StatusNotFound, arbiter.ENOTFOUND, "Demo sign-in is off on this server.")
		return
	}
	ses, err := s.app.SignInDemo(r.Context(), r.PostFormValue("username"))
	if err == nil {
		s.keepSession(w, r, ses)
	}
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		s.setFlash(w, r, true, userMessage(err))
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, localPath(r.PostFormValue("next")), http.StatusSeeOther)
}

// loginLocal signs in a local account with its password. Failures say
// only "wrong name or password" and are throttled (app.SignInLocal).
func (s *Server) loginLocal(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("username"))
	next := localPath(r.PostFormValue("next"))
	ses, err := s.app.SignInLocal(r.Context(), name, r.PostFormValue("password"), s.clientAddr(r))
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		setRetryAfter(w, err)
		if len(name) > app.MaxAccountName {
			name = "" // not echoed back into the form
		}
		s.render(w, r, httpStatus(arbiter.ErrorCode(err)), "login", page{Title: "Sign in", Nav: "login",
			Flash: &flash{Error: true, Message: userMessage(err)}, Data: loginData{Next: next, Username: name}})
		return
	}
	s.keepSession(w, r, ses)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.app.SignOut(r.Context(), c.Value); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.clearCookie(w, r, sessionCookie)
	s.setFlash(w, r, false, "You are signed out.")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// oauthConfig is the OAuth2 client for this request (the redirect URL is
// this server as the browser reached it).
func (s *Server) oauthConfig(r *http.Request) *oauth2.Config {
	scheme := "http"
	if s.secure(r) {
		scheme = "https"
	}
	base := strings.TrimRight(s.lichess.BaseURL, "/")
	return &oauth2.Config{
		ClientID:    s.lichess.ClientID,
		Endpoint:    oauth2.Endpoint{AuthURL: base + "/oauth", TokenURL: base + "/api/token", AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: scheme + "://" + r.Host + "/auth/lichess/callback",
	}
}

// lichessStart sends the browser to Lichess's consent page.
func (s *Server) lichessStart(w http.ResponseWriter, r *http.Request) {
	b := make([]byte, 16)
	rand.Read(b)
	state := base64.RawURLEncoding.EncodeToString(b)
	verifier := oauth2.GenerateVerifier()
	next := localPath(r.URL.Query().Get("next"))
	// From the pages of an event whose TDs chose bulk pairing, the
	// sign-in asks for challenge:write (app.PlayerLichessScopes);
	// elsewhere for no scope at all.
	var scopes []string
	if rest, ok := strings.CutPrefix(next, "/events/"); ok {
		slug, _, _ := strings.Cut(rest, "/")
		slug, _, _ = strings.Cut(slug, "?")
		scopes = s.app.PlayerLichessScopes(r.Context(), slug)
	}
	value := state + "." + verifier + "." + base64.RawURLEncoding.EncodeToString([]byte(next)) + "." +
		base64.RawURLEncoding.EncodeToString([]byte(strings.Join(scopes, " ")))
	s.setCookie(w, r, oauthCookie, value, "/auth/lichess", oauthTimeout)
	cfg := s.oauthConfig(r)
	cfg.Scopes = scopes
	http.Redirect(w, r, cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), http.StatusFound)
}

// lichessCallback finishes the sign-in: it checks the state, trades the
// code (with the PKCE verifier) for a token, asks Lichess who the token
// belongs to, and starts a session for that user. The Lichess token is
// kept only when the sign-in asked for challenge:write (bulk pairing,
// app.GrantLichess); otherwise Arbiter only needs to know who signed in.
func (s *Server) lichessCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c, err := r.Cookie(oauthCookie)
	parts := []string{}
	if err == nil {
		parts = strings.Split(c.Value, ".")
	}
	http.SetCookie(w, &http.Cookie{Name: oauthCookie, Path: "/auth/lichess", MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	if q.Get("error") != "" {
		s.renderError(w, r, http.StatusUnauthorized, arbiter.EUNAUTHORIZED, "Lichess did not sign you in ("+q.Get("error")+"). Try again.")
		return
	}
	if len(parts) != 4 || q.Get("state") == "" || q.Get("state") != parts[0] || q.Get("code") == "" {
		s.renderError(w, r, http.StatusBadRequest, arbiter.EINVALID, "This sign-in link is stale or was not started here. Start again from the sign-in page.")
		return
	}
	next := "/"
	if b, err := base64.RawURLEncoding.DecodeString(parts[2]); err == nil {
		next = localPath(string(b))
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.lichess.HTTPClient)
	tok, err := s.oauthConfig(r).Exchange(ctx, q.Get("code"), oauth2.VerifierOption(parts[1]))
	if err != nil {
		s.log.Warn("lichess token exchange failed", "error", err.Error(), "request_id", requestID(r))
		s.renderError(w, r, http.StatusBadGateway, arbiter.EUNAUTHORIZED, "Lichess did not confirm the sign-in. Try again.")
		return
	}
	username, err := s.lichessAccount(ctx, tok.AccessToken)
	if err != nil {
		s.log.Warn("lichess account lookup failed", "error", err.Error(), "request_id", requestID(r))
		s.renderError(w, r, http.StatusBadGateway, arbiter.EUNAUTHORIZED, "Lichess did not say who you are. Try again.")
		return
	}
	ses, err := s.app.SignInLichess(r.Context(), username)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if b, err := base64.RawURLEncoding.DecodeString(parts[3]); err == nil && len(b) > 0 {
		// The player granted the scopes asked (Lichess grants all or
		// none): keep the token for bulk pairing. It is never logged.
		if err := s.app.GrantLichess(r.Context(), username, tok.AccessToken, strings.Fields(string(b))); err != nil {
			s.log.Warn("keeping the Lichess grant failed", "user", username, "error", arbiter.ErrorMessage(err), "request_id", requestID(r))
		}
	}
	s.keepSession(w, r, ses)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// lichessAccount returns the username the token belongs to (GET
// /api/account).
func (s *Server) lichessAccount(ctx context.Context, token string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(s.lichess.BaseURL, "/")+"/api/account", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	res, err := s.lichess.HTTPClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /api/account: %s", res.Status)
	}
	var acct struct {
		Username string `json:"username"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&acct); err != nil {
		return "", fmt.Errorf("GET /api/account: %w", err)
	}
	if acct.Username == "" {
		return "", fmt.Errorf("GET /api/account: no username")
	}
	return acct.Username, nil
}
