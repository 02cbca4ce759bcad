// Command loadtest drives a constant rate of requests (open loop) at
// Arbiter's public pages and read API and prints the latency percentiles
// and the achieved rate per endpoint. By default it seeds a 64-team event
// in a temporary SQLite file (or the database of -db) and serves it in
// this process on 127.0.0.1; -url targets servers already running on this
// machine (loopback only: it refuses any other host), several of them in
// turn. docs/load.md has the figures.
//
//	go run ./internal/loadtest [-rate 500] [-duration 20s] [-mix all]
//	go run ./internal/loadtest -db 'postgres://…' -mix all
//	go run ./internal/loadtest -url http://127.0.0.1:8081,http://127.0.0.1:8082 -event load -mix all
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// Bounds of a run, so that a typo cannot start an endless flood.
const (
	maxRate     = 5000
	maxDuration = 5 * time.Minute
)

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	targetURL := fs.String("url", "", "base URLs of running servers on loopback, comma separated, sent to in turn (default: seed and serve an event in this process)")
	dsn := fs.String("db", "", "database the in-process server seeds and serves: a SQLite file or a postgres:// URL (default: a temporary SQLite file); an event already there is served as it is")
	slug := fs.String("event", "", "event slug (default: the seeded event, \"load\")")
	round := fs.String("round", "", "round ID of the matches endpoint (default: the event's last paired round)")
	rate := fs.Int("rate", 500, "requests per second, all endpoints together")
	d := fs.Duration("duration", 20*time.Second, "how long to send")
	mix := fs.String("mix", "page=1,matches=1,standings=1", "weights of the endpoints by name ("+strings.Join(endpointNames(), ", ")+"), or all: every one once")
	preset := fs.String("preset", "rkcc-team-three-tc", "preset of the seeded event (antichess-team-cup cannot seed 64 teams: its Swiss size is left to the TDs)")
	teams := fs.Int("teams", 64, "teams of the seeded event")
	stopAfter := fs.String("played", "s1r3", "the seeded event is played until this round is closed")
	inFlight := fs.Int("max-inflight", 1000, "requests in flight at most; one due beyond that counts as an error")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process (client and in-process server) to this file")
	logRequests := fs.Bool("log", false, "log the in-process server's requests to standard error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *rate < 1 || *rate > maxRate {
		return fmt.Errorf("-rate must be from 1 to %d", maxRate)
	}
	if *d <= 0 || *d > maxDuration {
		return fmt.Errorf("-duration must be positive and at most %v", maxDuration)
	}
	if *mix == "all" {
		*mix = strings.Join(endpointNames(), "=1,") + "=1"
	}
	weights, err := parseMix(*mix, endpointNames())
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var bases []string
	if *targetURL != "" {
		for b := range strings.SplitSeq(*targetURL, ",") {
			if err := checkLoopback(strings.TrimSpace(b)); err != nil {
				return err
			}
			bases = append(bases, strings.TrimRight(strings.TrimSpace(b), "/"))
		}
		if *slug == "" {
			return errors.New("-event is required with -url")
		}
	} else {
		if *slug == "" {
			*slug = "load"
		}
		logTo := io.Discard
		if *logRequests {
			logTo = os.Stderr
		}
		l, err := startLocal(ctx, *dsn, *preset, *teams, *stopAfter, *slug, logTo)
		if err != nil {
			return err
		}
		defer l.Close()
		bases = []string{l.URL}
	}
	base := bases[0]
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		MaxIdleConns: *inFlight, MaxIdleConnsPerHost: *inFlight, IdleConnTimeout: time.Minute}}
	if *round == "" {
		if *round, err = lastRound(ctx, client, base, *slug); err != nil {
			return err
		}
	}
	entrant, match, err := firstOf(ctx, client, base, *slug, *round)
	if err != nil {
		return err
	}
	var targets []target
	for _, t := range endpoints(*slug, *round, entrant, match) {
		if t.Weight = weights[t.Name]; t.Weight > 0 {
			// Every endpoint must answer before the run, on every server:
			// a wrong slug should not look like 10 000 errors.
			for _, b := range bases {
				if !get(ctx, client, b+t.Path) {
					return fmt.Errorf("GET %s%s does not answer 200", b, t.Path)
				}
			}
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		return errors.New("-mix gives every endpoint weight 0")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Fprintf(stdout, "%d req/s for %v against %s (event %s, round %s), open loop\n", *rate, *d, strings.Join(bases, ", "), *slug, *round)
	cpu0 := cpuTime()
	all, elapsed := load(ctx, client, bases, targets, *rate, *d, *inFlight)
	cpu := cpuTime() - cpu0
	report(stdout, all, elapsed)
	if total := all[len(all)-1]; total.OK > 0 {
		who := "client and in-process server"
		if *targetURL != "" {
			who = "client only"
		}
		fmt.Fprintf(stdout, "CPU %v (%s): %.2f ms per completed request\n", cpu.Round(time.Millisecond), who,
			float64(cpu)/float64(time.Millisecond)/float64(total.OK))
	}
	if total := all[len(all)-1]; total.Errors > 0 {
		return fmt.Errorf("%d of %d requests failed", total.Errors, total.Sent)
	}
	return nil
}

// checkLoopback refuses a target that is not this machine: the tool
// floods its target, so it must never be pointed at someone else's
// server.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("-url: scheme %q, want http or https", u.Scheme)
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.User != nil {
		return fmt.Errorf("-url: give the server's base URL only, like http://127.0.0.1:8080")
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-url: host %q is not loopback (127.0.0.0/8, ::1 or localhost); the load test only targets this machine", host)
}

// lastRound asks the API for the event's rounds and returns the last one
// with matches.
func lastRound(ctx context.Context, client *http.Client, base, slug string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/events/"+url.PathEscape(slug)+"/rounds", nil)
	if err != nil {
		return "", err
	}
	res, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET rounds of %s: status %d", slug, res.StatusCode)
	}
	var body struct {
		Rounds []struct {
			ID      string   `json:"id"`
			Matches []string `json:"matches"`
		} `json:"rounds"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return "", fmt.Errorf("GET rounds of %s: %v", slug, err)
	}
	last := ""
	for _, r := range body.Rounds {
		if len(r.Matches) > 0 {
			last = r.ID
		}
	}
	if last == "" {
		return "", fmt.Errorf("event %s has no paired round", slug)
	}
	return last, nil
}

// firstOf returns the first entrant of the event and the first match of
// the round, for the entrant and match pages.
func firstOf(ctx context.Context, client *http.Client, base, slug, round string) (entrant, match string, err error) {
	var es struct {
		Entrants []struct {
			ID string `json:"id"`
		} `json:"entrants"`
	}
	if err := getJSON(ctx, client, base+"/api/events/"+url.PathEscape(slug)+"/entrants", &es); err != nil {
		return "", "", err
	}
	var ms struct {
		Matches []struct {
			ID string `json:"id"`
		} `json:"matches"`
	}
	if err := getJSON(ctx, client, base+"/api/events/"+url.PathEscape(slug)+"/rounds/"+url.PathEscape(round)+"/matches", &ms); err != nil {
		return "", "", err
	}
	if len(es.Entrants) == 0 || len(ms.Matches) == 0 {
		return "", "", fmt.Errorf("event %s has no entrant or round %s no match", slug, round)
	}
	return es.Entrants[0].ID, ms.Matches[0].ID, nil
}

func getJSON(ctx context.Context, client *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", u, res.StatusCode)
	}
	return json.NewDecoder(res.Body).Decode(v)
}
