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
// server-sent events streams (live.go) extend their own deadlines through
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
//
// Shutdown does not cancel the contexts of requests in flight, so
// long-lived responses (the live streams) watch shutdownSignal instead and
// end at once rather than holding shutdown up for ShutdownTimeout.
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
	down := make(chan struct{})
	base := context.WithValue(context.Background(), shutdownKey{}, (<-chan struct{})(down))
	srv.BaseContext = func(net.Listener) context.Context { return base }
	srv.RegisterOnShutdown(func() { close(down) }) // Shutdown runs it once
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

// shutdownKey carries, in every request context of Serve, a channel closed
// when the server starts shutting down.
type shutdownKey struct{}

// shutdownSignal returns the channel closed when the server serving ctx's
// request starts shutting down; nil (never closed) outside Serve.
func shutdownSignal(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(shutdownKey{}).(<-chan struct{})
	return ch
}
