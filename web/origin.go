package web

import (
	"net/http"
	"net/url"
	"strings"
)

// originScheme refuses a state-changing request whose Origin names this
// host under another scheme (https://host for a server reached over
// http://host, or the reverse). http.CrossOriginProtection compares the
// Origin's host with the Host header only, so without this an https page
// of the same name could post to the plain-HTTP server. The server's
// scheme is the request's, or behind a proxy the forwarded one
// (X-Forwarded-Proto, or --secure-cookies for a proxy that sends none;
// see secure). A browser's Sec-Fetch-Site: same-origin already compared
// whole origins, scheme included, and is trusted; requests without Origin
// are left to CrossOriginProtection.
func (s *Server) originScheme(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" || origin == "null" || r.Header.Get("Sec-Fetch-Site") == "same-origin" {
			next.ServeHTTP(w, r)
			return
		}
		u, err := url.Parse(origin)
		if err != nil {
			s.crossOriginDenied(w, r)
			return
		}
		scheme := "http"
		if s.secure(r) {
			scheme = "https"
		}
		if strings.EqualFold(u.Host, r.Host) && !strings.EqualFold(u.Scheme, scheme) {
			s.crossOriginDenied(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
