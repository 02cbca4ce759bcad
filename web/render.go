package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"arbiter"
)

//go:embed templates/*.html
var templateFS embed.FS

// page is what every template receives: the layout's fields and the
// page's own data in Data.
type page struct {
	Title   string // the page's <title>, and its <h1> unless Heading is set
	Heading string
	Nav     string // which main navigation entry is current
	// Live is the server-sent events URL of this page's event (live.go);
	// when set, the page refreshes itself as the event changes.
	Live      string
	RequestID string
	User      *arbiter.User // the signed-in user, or nil (set by render)
	Flash     *flash        // the outcome of the last form, shown once (set by render unless given)
	Data      any
}

// The embedded files are the same for every Server of the process, so
// they are read, hashed and parsed once, by the first New (a test binary
// builds hundreds of servers; parsing the templates was a third of package
// web's test time). The parsed pages are only ever executed, never changed
// after parsing, which html/template allows from many goroutines at once.
var (
	sharedAssets = sync.OnceValues(loadAssets)
	sharedPages  = sync.OnceValues(func() (map[string]*template.Template, error) {
		a, err := sharedAssets()
		if err != nil {
			return nil, err
		}
		return parseTemplates(a)
	})
	sharedOpenAPI = sync.OnceValues(mergeOpenAPI)
)

// parseTemplates parses each page together with the shared layout.
func parseTemplates(assets *assets) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"static":       assets.url,
		"words":        words,
		"plural":       count,
		"countOr":      countOr,
		"tiebreak":     tiebreakName,
		"intOr":        intOr,
		"weekTime":     weekTime,
		"add":          func(a, b int) int { return a + b },
		"stageMatches": stageMatches,
		"utcTime":      utcTime,
		"ordinal":      ordinal,
		"offerTable":   offerTable,
		// deadline shows a window's exclusive end as its last minute, as
		// the rulebooks and the public calendar name it ("Sunday 23:59");
		// lastMinute shows a deadline already held as its last minute.
		"deadline":      func(end time.Time) string { return deadlineText(deadlineOf(end)) },
		"lastMinute":    deadlineText,
		"deadlineStamp": deadlineStamp,
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if base == "layout" || strings.HasPrefix(base, "_") {
			continue
		}
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/_*.html", n)
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", n, err)
		}
		pages[base] = t
	}
	return pages, nil
}

// render executes a page into a buffer first, so that a template failure
// becomes a clean 500 instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	t, ok := s.pages[name]
	if !ok {
		s.internal(w, r, fmt.Errorf("web: no template %q", name))
		return
	}
	p.RequestID = requestID(r)
	p.User = currentUser(r)
	if p.Flash == nil {
		p.Flash = s.takeFlash(w, r)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		if name == "error" {
			// The error page itself failed: answer in plain text.
			s.log.LogAttrs(r.Context(), slog.LevelError, "render error page", slog.String("error", err.Error()))
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		s.internal(w, r, fmt.Errorf("web: render %s: %w", name, err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", fmt.Sprint(buf.Len()))
	setCacheControl(h, r)
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// errorPage is the data of the error template.
type errorPage struct {
	Status  int
	Code    string // the arbiter.Error code (or an HTTP-level one)
	Message string // user-safe
}

// renderError shows an error page. message must be safe for users.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	s.render(w, r, status, "error", page{
		Title: http.StatusText(status),
		Data:  errorPage{Status: status, Code: code, Message: message},
	})
}

// fail answers with the page for err: its arbiter code and user-safe
// message. Internal errors are logged with their cause, which the page
// never shows.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := arbiter.ErrorCode(err)
	if code == arbiter.EINTERNAL {
		s.internal(w, r, err)
		return
	}
	setRetryAfter(w, err)
	s.renderError(w, r, httpStatus(code), code, plainMessage(err))
}

func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.LogAttrs(r.Context(), slog.LevelError, "internal error",
		slog.String("error", err.Error()), slog.String("path", r.URL.Path), slog.String("request_id", requestID(r)))
	s.renderError(w, r, http.StatusInternalServerError, arbiter.EINTERNAL, arbiter.ErrorMessage(err))
}

// httpStatus maps an arbiter error code to its HTTP status; the JSON API
// will use the same table.
func httpStatus(code string) int {
	switch code {
	case arbiter.EINVALID:
		return http.StatusBadRequest
	case arbiter.ERULE, arbiter.ENOPAIRING:
		return http.StatusUnprocessableEntity
	case arbiter.ECONFLICT:
		return http.StatusConflict
	case arbiter.ENOTFOUND:
		return http.StatusNotFound
	case arbiter.EFORBIDDEN:
		return http.StatusForbidden
	case arbiter.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case arbiter.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case arbiter.ETOOMANY:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// setCacheControl marks a page or API answer as always revalidated, unless
// the handler chose otherwise. What a signed-in user sees depends on who
// they are (the account corner, a match's hidden lineups, the TD's view of
// a round), so an answer to a request with a session is private: no shared
// cache may keep it; and every answer varies with the credentials, so a
// shared cache never hands an anonymous copy to a signed-in user.
func setCacheControl(h http.Header, r *http.Request) {
	h.Add("Vary", "Cookie")
	h.Add("Vary", "Authorization")
	if h.Get("Cache-Control") != "" {
		return
	}
	if _, err := r.Cookie(sessionCookie); err == nil || r.Header.Get("Authorization") != "" {
		h.Set("Cache-Control", "private, no-cache")
		return
	}
	h.Set("Cache-Control", "no-cache")
}
