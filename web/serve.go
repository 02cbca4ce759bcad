package web

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Timeouts of the HTTP server. WriteTimeout bounds a whole response; the
// planned server-sent events stream will extend its own deadline through
// http.ResponseController.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 60 * time.Second
	IdleTimeout       = 120 * time.Second
	// ShutdownTimeout is how long in-flight requests may run after the
	// context is cancelled before their connections are closed.
	ShutdownTimeout = 15 * time.Second
	maxHeaderBytes  = 64 << 10
)

// Serve serves h on ln until ctx is cancelled, then shuts down gracefully:
// it stops accepting connections, waits up to ShutdownTimeout for
// in-flight requests and closes the rest. It returns nil after a clean
// shutdown and the listener's error if serving failed.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err // Serve only returns early on a listener failure
	case <-ctx.Done():
	}
	log.Info("shutting down", slog.Duration("grace", ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if err != nil {
		log.Warn("shutdown timed out; closing open connections", slog.String("error", err.Error()))
		_ = srv.Close()
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	log.Info("stopped")
	return nil
}
