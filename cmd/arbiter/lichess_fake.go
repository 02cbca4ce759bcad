package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"arbiter"
	"arbiter/lichess/lichesstest"
)

func init() {
	register(&command{name: "lichess", summary: "Lichess tools: run a fake Lichess to rehearse a round locally (lichess fake)", run: runLichess})
}

func lichessUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: arbiter lichess SUBCOMMAND

Subcommands:
  fake   run a fake Lichess that speaks the real API, for rehearsals and demos
`)
}

func runLichess(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		lichessUsage(e.stderr)
		return usagef("missing subcommand: fake")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		lichessUsage(e.stdout)
		return flag.ErrHelp
	case "fake":
		return runLichessFake(ctx, e, args[1:])
	}
	return usagef("unknown subcommand %q: want fake", args[0])
}

const fakeHelp = `
The fake knows every user name it is asked about (an established
antichess and blitz player), so 'serve --demo' works against it. The
organiser's token printed has every scope. Games Arbiter creates wait
for a result; give them one with the control endpoints:

  curl -X POST URL/_fake/finish                      # every pending game, random (seeded)
  curl -X POST 'URL/_fake/finish?result=white&id=ID' # one game: white, black, draw, aborted, nostart
  curl URL/_fake/pending                             # what waits for a result
  curl URL/_fake/messages                            # the inbox messages sent
  curl -X POST 'URL/_fake/team?id=acwc&members=organiser,p01,p02' # a team the organiser leads
  curl 'URL/_fake/team-messages?id=acwc'             # the announcements sent to it
  curl URL/_fake/log                                 # every API request answered
  curl -X POST 'URL/_fake/token?user=NAME&scopes=challenge:write'

or --finish-every to finish them on a timer. Sign-in with Lichess
against the fake asks whom to sign in as.
`

// runLichessFake serves the fake Lichess until interrupted.
func runLichessFake(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "lichess fake", "lichess fake [--addr 127.0.0.1:9090] [--seed N] [--token-file FILE] [--finish-every DURATION]")
	addr := fs.String("addr", "127.0.0.1:9090", "TCP address to listen on (port 0 picks a free one)")
	seed := fs.Uint64("seed", 1, "seed of the random results and ids (same seed, same rehearsal)")
	tokenFile := fs.String("token-file", "", "also write the organiser's token to this file (for serve --lichess-token-file)")
	every := fs.Duration("finish-every", 0, "finish every pending game with a random result this often (0: only through /_fake/finish)")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: arbiter lichess fake [--addr 127.0.0.1:9090] [--seed N] [--token-file FILE] [--finish-every DURATION]\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprint(e.stderr, fakeHelp)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return &arbiter.Error{Code: arbiter.EINVALID, Field: "--addr", Message: "cannot listen on " + *addr + ": " + err.Error(), Err: err}
	}
	url := "http://" + ln.Addr().String()
	f := lichesstest.New(lichesstest.Options{Seed: *seed, AutoUsers: true, GameURL: url})
	const organiser = "organiser"
	token := fmt.Sprintf("lip_fake%d", *seed)
	f.AddToken(token, organiser, lichesstest.AllScopes...)
	if *tokenFile != "" {
		if err := os.WriteFile(*tokenFile, []byte(token+"\n"), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	fmt.Fprintf(e.stdout, "Fake Lichess at %s\nOrganiser's token (user %s, every scope): %s\n", url, organiser, token)
	fmt.Fprintf(e.stdout, "Point Arbiter at it: LICHESS_TOKEN=%s arbiter serve --lichess-url %s\n", token, url)
	fmt.Fprintf(e.stdout, "Finish the pending games: curl -X POST %s/_fake/finish\n", url)
	srv := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	if *every > 0 {
		go func() {
			t := time.NewTicker(*every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if ids, err := f.FinishAll(f.Random); err != nil {
						fmt.Fprintf(e.stderr, "finishing games: %v\n", err)
					} else if len(ids) > 0 {
						fmt.Fprintf(e.stdout, "finished %s\n", arbiter.Count(len(ids), "game"))
					}
				}
			}
		}()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}
