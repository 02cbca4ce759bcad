// Package web is Arbiter's web app: the HTTP handler behind 'arbiter
// serve'. It renders server-side HTML with html/template (every page works
// without JavaScript; htmx only enhances), serves its embedded stylesheet
// and scripts, the JSON API under /api/ (described by openapi.json), live
// updates, and reports health for load balancers: the public event pages,
// sign-in, the TD console and the captains' and players' pages.
//
// It holds the public pages (events, formats, an event's rounds, matches,
// standings, crosstable, bracket, pools, entrants, ranking, odds, exports
// and live updates by server-sent events); sign-in with Lichess (OAuth2
// with PKCE), with a local password or, in a demo, as a demo user, with
// its cookies and throttling; the pages of players and captains
// (registration, /me, result reports, time offers, lineups, boards,
// armageddon bids, appeals); the TD console (new events, registrations,
// pairing review and edits, rounds, results, appeals, sanctions, the
// audit log, jobs, webhooks, Challonge, API tokens); and the JSON API
// under /api/, which reads and writes everything the pages do, signed in
// by a session or an API token (api*.go, td_api*.go, match_api.go,
// described by openapi.json).
//
// It holds no application logic and no data access: every read and write
// goes through package app (the one door; a test fails if web imports the
// store), which knows who is asking and reads a page's data in one
// transaction (app.MatchView, app.RoundView, app.BracketView,
// app.SignInLocal, …); web does not re-check what a viewer may see.
// Web keeps cookies, redirects, the client's address and page layout.
// See docs/architecture.md and docs/web.md.
package web

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"time"

	"arbiter/app"
)

// Config is what a Server needs.
type Config struct {
	// App is the one door to the data (package app); required. Its
	// database's health is what /healthz reports.
	App *app.Service
	// Logger receives one line per request and every internal error; nil
	// discards them.
	Logger *slog.Logger
	// Lichess configures sign-in with Lichess (OAuth2 with PKCE).
	Lichess LichessAuth
	// SecureCookies marks every cookie Secure even on plain HTTP (set it
	// behind a TLS-terminating proxy that does not send
	// X-Forwarded-Proto).
	SecureCookies bool
	// TrustProxy takes the client's address from the last entry of
	// X-Forwarded-For (set it behind a reverse proxy, whose address every
	// request would otherwise share): sign-in throttles and the live
	// streams' cap per client use it.
	TrustProxy bool
	// DemoSignIn lets anyone sign in as any Lichess username without a
	// password (POST /login/demo), to try the demo events' captain and
	// player pages. Only for demos: never on a real event.
	DemoSignIn bool
}

// Server is the web app's http.Handler.
type Server struct {
	app     *app.Service
	log     *slog.Logger
	pages   map[string]*template.Template
	assets  *assets
	mux     *http.ServeMux
	handler http.Handler

	lichess       LichessAuth
	secureCookies bool
	demoSignIn    bool
	trustProxy    bool       // client addresses from X-Forwarded-For (clientAddr)
	openAPI       []byte     // the merged OpenAPI document (openapi.go)
	patterns      []string   // every pattern registered, in order (routes)
	reads         *readCache // the public reads, kept while their event stands still (live_cache.go)
	pageCache     *pageCache // anonymous answers of the public pages, likewise (page_cache.go)
}

// New builds the handler and parses every template, so that a broken
// template fails at start-up rather than on a request.
func New(c Config) (*Server, error) {
	if c.App == nil {
		return nil, errors.New("web: Config.App is required")
	}
	s := &Server{app: c.App, log: c.Logger, lichess: c.Lichess, secureCookies: c.SecureCookies, demoSignIn: c.DemoSignIn, trustProxy: c.TrustProxy, reads: newReadCache(c.App), pageCache: newPageCache()}
	if s.lichess.BaseURL == "" {
		s.lichess.BaseURL = "https://lichess.org"
	}
	if s.lichess.ClientID == "" {
		s.lichess.ClientID = DefaultOAuthClientID
	}
	if s.lichess.HTTPClient == nil {
		s.lichess.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var err error
	app.WarmPasswords() // so that the first unknown account costs one hash like the others
	if s.assets, err = sharedAssets(); err != nil {
		return nil, err
	}
	if s.pages, err = sharedPages(); err != nil {
		return nil, err
	}
	if s.openAPI, err = sharedOpenAPI(); err != nil {
		return nil, err
	}
	s.mux = http.NewServeMux()
	s.routes()

	// Outermost first: every response is logged and carries the security
	// headers, including the refusals of the cross-origin check and the
	// pages of recovered panics. The cross-origin check runs before the
	// session is looked up, so a forged request never acts as anyone.
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(s.crossOriginDenied))
	s.handler = s.logRequests(s.securityHeaders(s.recoverPanics(s.limitBodies(s.originScheme(csrf.Handler(s.authenticate(http.HandlerFunc(s.route))))))))
	return s, nil
}

// routes registers every page. Patterns starting with GET also answer
// HEAD; any other method on a known path gets 405 with an Allow header.
func (s *Server) routes() {
	s.handleFunc("GET /{$}", s.home)
	s.handleFunc("GET /healthz", s.health)
	s.handleFunc("GET /formats", s.formats)
	s.handleFunc("GET /formats/{name}", s.formatPage)
	s.handleFunc("GET /events/{slug}", s.eventPage)
	s.handleFunc("GET /events/{slug}/standings", s.standingsPage)
	s.handleFunc("GET /static/{file}", s.static)
	// Each group lives in its own file: sign-in (login.go), the public
	// event pages (public.go), the TD console (td.go), captains' and
	// players' pages (team.go) and live updates (live.go).
	s.authRoutes()
	s.publicRoutes()
	s.tdRoutes()
	s.teamRoutes()
	s.liveRoutes()
	s.exportRoutes()  // export.go
	s.tdTokenRoutes() // tokens.go
	s.webhookRoutes() // webhooks.go
	for _, rt := range allAPIRoutes() {
		s.handleFunc(rt.Pattern, rt.handler(s))
	}
}

// handle registers a route and records its pattern, so that tests can
// check every route (the role matrix in roles_matrix_test.go).
func (s *Server) handle(pattern string, h http.Handler) {
	if kind := rateLimited[pattern]; kind != "" {
		h = s.rateLimit(kind, h)
	}
	if cachedPages[pattern] {
		h = s.cachePage(pattern, h)
	}
	s.patterns = append(s.patterns, pattern)
	s.mux.Handle(pattern, h)
}

func (s *Server) handleFunc(pattern string, h http.HandlerFunc) { s.handle(pattern, h) }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// route dispatches through the mux, but renders the mux's own 404 and 405
// answers as HTML error pages (keeping the Allow header of a 405).
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		s.mux.ServeHTTP(w, r)
		return
	}
	probe := &probeWriter{header: http.Header{}}
	h.ServeHTTP(probe, r)
	if isAPIPath(r.URL.Path) {
		s.apiUnrouted(w, r, probe)
		return
	}
	if probe.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", probe.header.Get("Allow"))
		s.renderError(w, r, http.StatusMethodNotAllowed, "method_not_allowed",
			"This page does not accept a "+r.Method+" request.")
		return
	}
	s.renderError(w, r, http.StatusNotFound, "not_found", "There is no page at this address.")
}

// probeWriter records what the mux's built-in 404/405 handler would answer.
type probeWriter struct {
	header http.Header
	status int
}

func (p *probeWriter) Header() http.Header { return p.header }
func (p *probeWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	return len(b), nil
}
func (p *probeWriter) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
}
