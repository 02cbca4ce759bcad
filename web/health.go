package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// healthTimeout bounds the database ping so that a hung database makes
// /healthz fail fast instead of piling up probes.
const healthTimeout = 2 * time.Second

// health answers GET /healthz: 200 {"status":"ok","db":"ok"} when the
// database answers a ping, else 503 {"status":"error","db":"unavailable"}.
// The cause goes to the log only.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	status, body := http.StatusOK, map[string]string{"status": "ok", "db": "ok"}
	if err := s.app.Health(ctx); err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelError, "health: database ping failed",
			slog.String("error", err.Error()), slog.String("request_id", requestID(r)))
		status, body = http.StatusServiceUnavailable, map[string]string{"status": "error", "db": "unavailable"}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
