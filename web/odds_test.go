package web

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// GET /api/events/{slug}/odds after the antichess cup's first round: the
// chances of the knockout's 4 places add up to 4, the same seed answers
// the same, a result fixed by hand is listed, bad queries are refused.
func TestAPIOdds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	type chance struct {
		P     float64 `json:"p"`
		Exact string  `json:"exact"`
	}
	var o struct {
		Event string `json:"event"`
		State string `json:"state"`
		Sims  int    `json:"sims"`
		Seed  uint64 `json:"seed"`
		Bands []struct {
			ID     string `json:"id"`
			Places int    `json:"places"`
		} `json:"bands"`
		Fixed    []map[string]string `json:"fixed"`
		Entrants []struct {
			Entrant string   `json:"entrant"`
			Qualify float64  `json:"qualify"`
			Bands   []chance `json:"bands"`
		} `json:"entrants"`
	}
	apiDo(t, f, "GET", "/api/events/atc/odds?sims=80&seed=4", 200, &o)
	if o.Event != "atc" || o.Sims != 80 || o.Seed != 4 || o.State == "" || len(o.Entrants) != 10 || o.Bands[0].ID != "knockout" || o.Bands[0].Places != 4 {
		t.Fatalf("odds %+v", o)
	}
	sum := 0.0
	for _, e := range o.Entrants {
		if e.Qualify != e.Bands[0].P {
			t.Errorf("%s: qualify %v, first band %v", e.Entrant, e.Qualify, e.Bands[0].P)
		}
		sum += e.Qualify
	}
	if math.Abs(sum-4) > 1e-9 {
		t.Errorf("chances of the knockout add up to %v", sum)
	}
	_, first := f.do(t, "GET", "/api/events/atc/odds?sims=80&seed=4")
	_, again := f.do(t, "GET", "/api/events/atc/odds?seed=4&sims=80")
	if first != again {
		t.Errorf("same request, another answer")
	}
	a, b := o.Entrants[0].Entrant, o.Entrants[1].Entrant
	apiDo(t, f, "GET", "/api/events/atc/odds?sims=40&fix="+a+":"+b+"="+b, 200, &o)
	if len(o.Fixed) != 1 || o.Fixed[0]["result"] != "away" {
		t.Errorf("fixed %+v", o.Fixed)
	}
	wantAPIError(t, f, "GET", "/api/events/atc/odds?sims=0", 400, "invalid", "sims")
	wantAPIError(t, f, "GET", "/api/events/atc/odds?sims=1000000", 400, "invalid", "sims")
	wantAPIError(t, f, "GET", "/api/events/atc/odds?seed=-1", 400, "invalid", "seed")
	wantAPIError(t, f, "GET", "/api/events/atc/odds?sims=10&fix=s1r1b1=home", 400, "invalid", "fixed[0].match")
	if e := wantAPIError(t, f, "GET", "/api/events/zz/odds", 404, "not_found", ""); !strings.Contains(e.Error.Message, "zz") {
		t.Logf("not found: %s", e.Error.Message)
	}
}

// A page that says no-store (the standings while their simulation runs)
// is not kept by the page cache: the next visit gets the finished one.
func TestPageCacheKeepsNoStore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	antichessEvent(t, f)
	playRound1(t, f)
	n := 0
	h := f.srv.cachePage("GET /events/{slug}/probe", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("Cache-Control", "no-store")
		}
		fmt.Fprintf(w, "page %d", n)
	}))
	get := func() string {
		req := httptest.NewRequest("GET", "/events/atc/probe", nil)
		req.SetPathValue("slug", "atc")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	if a, b, c := get(), get(), get(); a != "page 1" || b != "page 2" || c != "page 2" {
		t.Errorf("pages %q %q %q; want the no-store page made again, the next kept", a, b, c)
	}
}
