package web

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"arbiter"
	"arbiter/app"
)

// API tokens for bots (docs/exports.md): a TD creates them on the console
// (/events/{slug}/td/tokens) or through the API; a bot sends one as
// "Authorization: Bearer arbt_..." to the API of its event only. Each
// scope opens some routes; the use cases then check the user the token
// acts for (the entrant's captain or player) as for anyone else.

// tokenScopeRoutes are the routes each scope opens, under the token's
// own event.
var tokenScopeRoutes = []struct {
	scope  string
	method string
	re     *regexp.Regexp
}{
	{app.ScopeRead, http.MethodGet, regexp.MustCompile(`^/api/events/[^/]+(/.*)?$`)},
	{app.ScopeRead, http.MethodHead, regexp.MustCompile(`^/api/events/[^/]+(/.*)?$`)},
	{app.ScopeReport, http.MethodPost, regexp.MustCompile(`^/api/events/[^/]+/matches/[^/]+/(reports|confirm|dispute)$`)},
	{app.ScopeOffers, http.MethodPost, regexp.MustCompile(`^/api/events/[^/]+/matches/[^/]+/offers$`)},
}

// serveToken serves an API request made with a bot token: refused unless
// the token is valid, for this event, and its scopes open the route;
// then as the user it acts for (or as anyone, for a token acting for
// nobody).
func (s *Server) serveToken(next http.Handler, w http.ResponseWriter, r *http.Request, secret string) {
	acc, err := s.app.UseAPIToken(r.Context(), secret)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if err := tokenAllows(acc, r); err != nil {
		s.apiFail(w, r, err)
		return
	}
	if acc.As == "" {
		next.ServeHTTP(w, r)
		return
	}
	u := app.TokenUser(acc)
	serveAs(next, w, r, &u)
}

// tokenAllows checks that the token's event and scopes cover r.
func tokenAllows(acc app.TokenAccess, r *http.Request) error {
	p := r.URL.Path
	prefix := "/api/events/" + acc.Event
	if p != prefix && !strings.HasPrefix(p, prefix+"/") {
		return arbiter.Errorf(arbiter.EFORBIDDEN, "this API token is for the event %s only", acc.Event)
	}
	for _, rt := range tokenScopeRoutes {
		if r.Method == rt.method && rt.re.MatchString(p) {
			if acc.Allows(rt.scope) {
				return nil
			}
			return arbiter.Errorf(arbiter.EFORBIDDEN, "this API token has no %q scope (it has %s)", rt.scope, strings.Join(acc.Token.Scopes, ", "))
		}
	}
	return arbiter.Errorf(arbiter.EFORBIDDEN, "an API token reads the event, reports results and posts time offers; %s %s is for signed-in users", r.Method, p)
}

// apiTokens lists the event's tokens (TD).
func (s *Server) apiTokens(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	ts, err := s.app.APITokens(r.Context(), a, r.PathValue("slug"))
	if ts == nil {
		ts = []app.APIToken{}
	}
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"tokens": ts}, err)
}

type apiNewToken struct {
	Name    string   `json:"name"`
	Scopes  []string `json:"scopes"`
	Entrant string   `json:"entrant"`
}

// apiCreateToken makes a token (TD); the answer holds its secret, once.
func (s *Server) apiCreateToken(w http.ResponseWriter, r *http.Request) {
	var in apiNewToken
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	secret, t, err := s.app.CreateAPIToken(r.Context(), a, r.PathValue("slug"), app.NewAPIToken(in))
	w.Header().Set("Cache-Control", "no-store")
	s.apiAnswer(w, r, http.StatusCreated, map[string]any{"secret": secret, "token": t}, err)
}

// apiRevokeToken revokes a token (TD).
func (s *Server) apiRevokeToken(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	t, err := s.app.RevokeAPIToken(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"token": t}, err)
}

// tdTokensData is the console's API tokens page.
type tdTokensData struct {
	Ev       arbiter.Event
	Here     string
	Tokens   []app.APIToken
	Entrants []arbiter.Entrant // approved, for the "acts for" choice
	Names    map[string]string
	// Secret is the token just created, shown this once.
	Secret string
	New    *app.APIToken
}

// tdTokenRoutes registers the console's API tokens page and forms.
func (s *Server) tdTokenRoutes() {
	s.handleFunc("GET /events/{slug}/td/tokens", s.tdTokensPage)
	s.handleFunc("POST /events/{slug}/td/tokens", s.tdCreateToken)
	s.handleFunc("POST /events/{slug}/td/tokens/{id}", s.tdRevokeToken)
}

func (s *Server) tokensData(ctx context.Context, ev arbiter.Event, a arbiter.Actor) (tdTokensData, error) {
	d := tdTokensData{Ev: ev, Here: "tokens", Names: map[string]string{}}
	var err error
	if d.Tokens, err = s.app.APITokens(ctx, a, ev.Slug); err != nil {
		return d, err
	}
	es, err := s.app.Entrants(ctx, ev.Slug)
	if err != nil {
		return d, err
	}
	for _, e := range es {
		d.Names[e.ID] = e.Name
		if e.Status == arbiter.EntrantApproved {
			d.Entrants = append(d.Entrants, e)
		}
	}
	return d, nil
}

func (s *Server) tdTokensPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	d, err := s.tokensData(r.Context(), ev, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "td_tokens", page{Title: "API tokens: " + ev.Name, Nav: "home", Data: d})
}

// tdCreateToken makes a token and shows its secret on the answer page
// itself (no redirect: the secret must not travel in a cookie or a URL).
func (s *Server) tdCreateToken(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	req := app.NewAPIToken{Name: r.FormValue("name"), Entrant: r.FormValue("entrant")}
	if err := r.ParseForm(); err == nil {
		req.Scopes = r.PostForm["scopes"]
	}
	secret, t, err := s.app.CreateAPIToken(r.Context(), a, ev.Slug, req)
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		s.setFlash(w, r, true, userMessage(err))
		http.Redirect(w, r, consoleURL(ev.Slug)+"/tokens", http.StatusSeeOther)
		return
	}
	d, err := s.tokensData(r.Context(), ev, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Secret, d.New = secret, &t
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, "td_tokens", page{Title: "API tokens: " + ev.Name, Nav: "home", Data: d})
}

func (s *Server) tdRevokeToken(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, consoleURL(slug)+"/tokens", func(a arbiter.Actor) (string, error) {
		t, err := s.app.RevokeAPIToken(r.Context(), a, slug, id)
		return "Revoked the token " + t.Name + ": it no longer works.", err
	})
}
