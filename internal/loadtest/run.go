package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// endpoints are the public pages and read API routes the tool knows, by
// name: every page a visitor reads without signing in.
func endpoints(slug, round, entrant, match string) []target {
	e := "/events/" + url.PathEscape(slug)
	a := "/api/events/" + url.PathEscape(slug)
	return []target{
		{Name: "home", Path: "/"},
		{Name: "formats", Path: "/formats"},
		{Name: "format", Path: "/formats/rkcc-team-three-tc?entrants=64"},
		{Name: "event", Path: e},
		{Name: "page", Path: e + "/standings"},
		{Name: "round", Path: e + "/rounds/" + url.PathEscape(round)},
		{Name: "crosstable", Path: e + "/crosstable"},
		{Name: "entrants", Path: e + "/entrants"},
		{Name: "entrant", Path: e + "/entrants/" + url.PathEscape(entrant)},
		{Name: "match", Path: e + "/matches/" + url.PathEscape(match)},
		{Name: "api-event", Path: a},
		{Name: "rounds", Path: a + "/rounds"},
		{Name: "matches", Path: a + "/rounds/" + url.PathEscape(round) + "/matches"},
		{Name: "standings", Path: a + "/standings"},
		{Name: "api-entrants", Path: a + "/entrants"},
		{Name: "api-crosstable", Path: a + "/crosstable"},
		{Name: "api-match", Path: a + "/matches/" + url.PathEscape(match)},
	}
}

func endpointNames() []string {
	var out []string
	for _, t := range endpoints("", "", "", "") {
		out = append(out, t.Name)
	}
	return out
}

// target is one endpoint of the mix with its weight.
type target struct {
	Name   string
	Path   string
	Weight int
}

// result is what one request came to.
type result struct {
	target  int
	latency time.Duration // from the request's scheduled instant
	err     bool
}

// stats are one endpoint's figures.
type stats struct {
	Name             string
	Sent, OK, Errors int
	Rate             float64 // completed requests per second of the run
	P50, P90, P99    time.Duration
	Max              time.Duration
}

// load sends rate requests per second for d, open loop: request i is
// due at start + i/rate whatever happened to the ones before, so a slow
// server meets more concurrent requests instead of fewer (a closed loop
// would slow down with it and hide the queueing). Latency is measured from
// the instant a request was due, so time spent waiting to be sent counts.
// At most maxInFlight requests run at once; one due beyond that is
// counted as an error, not sent. Requests are spread over the targets by
// weight in a fixed interleaving.
func load(ctx context.Context, client *http.Client, bases []string, targets []target, rate int, d time.Duration, maxInFlight int) ([]stats, time.Duration) {
	n := int(math.Round(float64(rate) * d.Seconds()))
	var order []int // one cycle of the mix
	for i, t := range targets {
		for range t.Weight {
			order = append(order, i)
		}
	}
	results := make(chan result, n)
	sem := make(chan struct{}, maxInFlight)
	var wg sync.WaitGroup
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		if wait := time.Until(due); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				n = i
			}
		}
		if ctx.Err() != nil {
			n = i
			break
		}
		ti := order[i%len(order)]
		select {
		case sem <- struct{}{}:
		default:
			results <- result{target: ti, err: true, latency: 0}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results <- result{target: ti, err: !get(ctx, client, bases[i%len(bases)]+targets[ti].Path), latency: time.Since(due)}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(results)

	lat := make([][]time.Duration, len(targets)+1) // the last one: every endpoint
	sent := make([]int, len(targets)+1)
	errs := make([]int, len(targets)+1)
	for r := range results {
		for _, i := range []int{r.target, len(targets)} {
			sent[i]++
			if r.err {
				errs[i]++
			} else {
				lat[i] = append(lat[i], r.latency)
			}
		}
	}
	out := make([]stats, len(targets)+1)
	for i := range out {
		name := "all"
		if i < len(targets) {
			name = targets[i].Name
		}
		out[i] = summarize(name, lat[i], sent[i], errs[i], elapsed)
	}
	return out, elapsed
}

func summarize(name string, lat []time.Duration, sent, errs int, elapsed time.Duration) stats {
	slices.Sort(lat)
	s := stats{Name: name, Sent: sent, OK: len(lat), Errors: errs, Rate: float64(len(lat)) / elapsed.Seconds(),
		P50: quantile(lat, 0.50), P90: quantile(lat, 0.90), P99: quantile(lat, 0.99)}
	if len(lat) > 0 {
		s.Max = lat[len(lat)-1]
	}
	return s
}

// get fetches url and reads the whole body; false on any failure or a
// status other than 200.
func get(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return false
	}
	res, err := client.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return false
	}
	return res.StatusCode == http.StatusOK
}

// quantile is the q-quantile of sorted (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

// report prints the figures as a table, one line per endpoint and one for
// all of them together (the last of all).
func report(w io.Writer, all []stats, elapsed time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tsent\tok\terrors\treq/s\tp50\tp90\tp99\tmax\t")
	for _, s := range all {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\t\n", s.Name, s.Sent, s.OK, s.Errors, s.Rate,
			ms(s.P50), ms(s.P90), ms(s.P99), ms(s.Max))
	}
	tw.Flush()
	fmt.Fprintf(w, "run time %v\n", elapsed.Round(time.Millisecond))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }

// parseMix reads "page=2,matches=1,standings=1" into weights by name.
func parseMix(s string, known []string) (map[string]int, error) {
	out := map[string]int{}
	for part := range strings.SplitSeq(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(part), "=")
		var n int
		if _, err := fmt.Sscanf(w, "%d", &n); !ok || err != nil || n < 0 || n > 100 {
			return nil, fmt.Errorf("-mix: %q is not name=weight (a weight from 0 to 100)", part)
		}
		if !slices.Contains(known, name) {
			return nil, fmt.Errorf("-mix: unknown endpoint %q (known: %s)", name, strings.Join(known, ", "))
		}
		out[name] = n
	}
	return out, nil
}
