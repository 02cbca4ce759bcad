package web

import (
	"errors"
	"net/http"

	"arbiter"
)

// maxBody bounds every request body, forms and JSON alike: no form of the
// site or request of the API comes near it, and a client cannot make the
// server read or keep more (a 5 MB "username" is cut off here).
const maxBody = maxAPIBody

// limitBodies refuses a body announced as too large with 413 and cuts off
// one that turns out too large (reads then fail; handlers see an empty or
// bad form).
func (s *Server) limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxBody {
			w.Header().Set("Connection", "close")
			s.failFor(w, r, &arbiter.Error{Code: arbiter.EINVALID, Field: "body", Rule: "web.body",
				Message: "the request is too large"})
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

func isTooLarge(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}

// rateLimited gives the kind of per-user limit (app.RateLimits) of each
// route that sends something to other people: registrations (to the
// TDs), result reports and reports of cheating, appeals, time offers.
var rateLimited = map[string]string{
	"POST /events/{slug}/register":                    "register",
	"POST /api/events/{slug}/entrants":                "register",
	"POST /events/{slug}/matches/{match}/report":      "report",
	"POST /api/events/{slug}/matches/{match}/reports": "report",
	"POST /events/{slug}/cheating":                    "report",
	"POST /api/events/{slug}/cheating":                "report",
	"POST /events/{slug}/matches/{match}/appeal":      "appeal",
	"POST /api/events/{slug}/matches/{match}/appeals": "appeal",
	"POST /events/{slug}/matches/{match}/offers":      "offer",
	"POST /api/events/{slug}/matches/{match}/offers":  "offer",
}

// rateLimit counts each request of a signed-in user against the kind's
// limit, shared by every process through the database (app.Limit), and
// answers 429 with Retry-After beyond it. Anonymous requests pass (the
// handler sends them to sign in); a TD of the event registering entrants
// is not limited.
func (s *Server) rateLimit(kind string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := currentUser(r)
		if u == nil {
			next.ServeHTTP(w, r)
			return
		}
		if kind == "register" {
			roles, err := s.app.RolesOf(r.Context(), r.PathValue("slug"), u.LichessUsername)
			if err == nil && roles.TD {
				next.ServeHTTP(w, r)
				return
			}
		}
		if err := s.app.Limit(r.Context(), kind, u.LichessUsername); err != nil {
			s.failFor(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}
