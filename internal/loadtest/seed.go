package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"arbiter/app"
	"arbiter/demo"
	"arbiter/sqlstore"
	"arbiter/web"
)

// local is the in-process server the load runs against by default: a
// temporary SQLite file (or the database of -db) holding one simulated
// event.
type local struct {
	URL  string
	dir  string
	db   *sqlstore.DB
	stop context.CancelFunc
	done chan error
}

// startLocal seeds a team event of preset with n teams, played until
// round stopAfter is closed, and serves it on 127.0.0.1 with the real
// handler and web.Serve (timeouts and middleware included). With dsn the
// event goes into that database, unless one with the slug is there
// already (then it is served as it is); without, into a temporary SQLite
// file. Logs go to logTo (request lines would cost as much as the
// requests at 500/s, so the caller passes io.Discard unless asked).
func startLocal(ctx context.Context, dsn, preset string, n int, stopAfter, slug string, logTo io.Writer) (*local, error) {
	l := &local{done: make(chan error, 1)}
	if dsn == "" {
		dir, err := os.MkdirTemp("", "arbiter-load-")
		if err != nil {
			return nil, err
		}
		l.dir, dsn = dir, filepath.Join(dir, "load.db")
	}
	var err error
	if l.db, err = sqlstore.Open(ctx, dsn); err != nil {
		l.Close()
		return nil, err
	}
	svc := app.New(l.db, time.Now)
	if _, err := svc.Event(ctx, slug); err == nil {
		fmt.Fprintf(os.Stderr, "serving event %s as it is in %s\n", slug, l.db)
	} else {
		t0 := time.Now()
		sum, err := demo.Run(ctx, svc, demo.Options{Preset: preset, Entrants: n, Seed: 1, StopAfter: stopAfter, Slug: slug})
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("seed the event: %w", err)
		}
		fmt.Fprintf(os.Stderr, "seeded %s: %s, %d teams, %d matches, up to %s closed (%v)\n",
			slug, preset, n, sum.Counts.Matches, stopAfter, time.Since(t0).Round(time.Millisecond))
	}
	h, err := web.New(web.Config{App: svc, Logger: slog.New(slog.NewTextHandler(logTo, nil))})
	if err != nil {
		l.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		l.Close()
		return nil, err
	}
	sctx, stop := context.WithCancel(context.Background())
	l.stop = stop
	go func() { l.done <- web.Serve(sctx, ln, h, nil) }()
	l.URL = "http://" + ln.Addr().String()
	return l, nil
}

// Close stops the server and removes the temporary database.
func (l *local) Close() error {
	var err error
	if l.stop != nil {
		l.stop()
		err = <-l.done
	}
	if l.db != nil {
		l.db.Close()
	}
	if l.dir != "" {
		os.RemoveAll(l.dir)
	}
	return err
}
