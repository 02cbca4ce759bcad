package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"arbiter"
)

// requestIDKey carries the request id in the request context so that error
// pages can show it (users quote it; operators find the log line).
type requestIDKey struct{}

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(requestIDKey{}).(string)
	return id
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// statusWriter remembers the status and size of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushing for server-sent events later).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests writes one structured line per request: method, path,
// route pattern, status, size, duration and request id. It logs the path
// only: query strings, headers and cookies may hold secrets (OAuth codes,
// session tokens) and are never logged.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := newRequestID()
		w.Header().Set("X-Request-Id", id)
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		if r.Method == http.MethodHead {
			sw.bytes = 0 // the server drops a HEAD response's body
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(r.Context(), level, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.String("route", r.Pattern),
			slog.Int("status", sw.status),
			slog.Int64("bytes", sw.bytes),
			slog.Duration("duration", time.Since(start)),
			slog.String("request_id", id))
	})
}

// contentSecurityPolicy allows only the app's own scripts, styles, images
// and form targets; no inline script or style, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers every response carries.
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		next.ServeHTTP(w, r)
	})
}

// recoverPanics turns a handler panic into a logged error and a 500 page
// with no internal detail. http.ErrAbortHandler keeps its meaning.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.LogAttrs(r.Context(), slog.LevelError, "panic",
				slog.Any("value", v), slog.String("stack", string(debug.Stack())),
				slog.String("request_id", requestID(r)))
			if isAPIPath(r.URL.Path) {
				s.apiError(w, r, http.StatusInternalServerError, apiErrorDetail{Code: "internal", Message: "internal error"})
				return
			}
			s.renderError(w, r, http.StatusInternalServerError, "internal", "Something went wrong on our side.")
		}()
		next.ServeHTTP(w, r)
	})
}

// crossOriginDenied answers a state-changing request that the browser
// marked as cross-origin (http.CrossOriginProtection): the API's JSON
// error on /api/ paths, an error page elsewhere.
func (s *Server) crossOriginDenied(w http.ResponseWriter, r *http.Request) {
	if isAPIPath(r.URL.Path) {
		s.apiError(w, r, http.StatusForbidden, apiErrorDetail{Code: arbiter.EFORBIDDEN, Message: "cross-origin requests that change data are refused"})
		return
	}
	s.renderError(w, r, http.StatusForbidden, "forbidden", "Cross-origin requests that change data are refused.")
}
