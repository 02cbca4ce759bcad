package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arbiter/app"
	"arbiter/demo"
	"arbiter/standings"
)

// load64Slug is the 64-team event of the load test (internal/loadtest,
// docs/load.md): the RKCC preset played until round 3 is closed.
const load64Slug = "load"

// load64 seeds that event (a few seconds: with b.Loop a benchmark's body
// runs once, so once per benchmark).
func load64(b *testing.B) *fixture {
	b.Helper()
	f := newFixtureOn(b, testSQLite(b))
	_, err := demo.Run(context.Background(), app.New(f.db, time.Now),
		demo.Options{Preset: "rkcc-team-three-tc", Entrants: 64, Seed: 1, StopAfter: "s1r3", Slug: load64Slug})
	if err != nil {
		b.Fatal(err)
	}
	return f
}

func benchGet(b *testing.B, f *fixture, path string) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

// BenchmarkStandingsPage64 renders the standings page of the 64-team
// event through the whole handler (store reads, standings, template).
func BenchmarkStandingsPage64(b *testing.B) {
	benchGet(b, load64(b), "/events/"+load64Slug+"/standings")
}

// BenchmarkMatchesAPI64 answers the 32 matches of round 3 as JSON.
func BenchmarkMatchesAPI64(b *testing.B) {
	benchGet(b, load64(b), "/api/events/"+load64Slug+"/rounds/s1r3/matches")
}

// BenchmarkStandingsAPI64 answers the standings as JSON.
func BenchmarkStandingsAPI64(b *testing.B) {
	benchGet(b, load64(b), "/api/events/"+load64Slug+"/standings")
}

// BenchmarkReadCacheHit64 is what a read costs when the standings are
// kept (live_cache.go): the change log's mark and a map lookup, against
// computing the standings afresh.
func BenchmarkReadCacheHit64(b *testing.B) {
	f := load64(b)
	c := newReadCache(f.app)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, err := cachedRead(c, ctx, load64Slug, "standings/0/", func() (standings.Table, error) {
			return f.app.Standings(ctx, load64Slug, 0)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStandings64 computes the standings without the cache.
func BenchmarkStandings64(b *testing.B) {
	f := load64(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.app.Standings(ctx, load64Slug, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// publicPages64 are the public pages and read API routes of the 64-team
// event (what the load test mixes; docs/load.md). The first team's page
// is filled in by BenchmarkPublicPages64.
var publicPages64 = []string{
	"/", "/formats", "/formats/rkcc-team-three-tc?entrants=64",
	"/events/load", "/events/load/standings", "/events/load/rounds/s1r3", "/events/load/crosstable",
	"/events/load/bracket", "/events/load/pools", "/events/load/entrants", "/events/load/entrants/{team}",
	"/events/load/matches/s1r3b1",
	"/api/events/load", "/api/events/load/rounds", "/api/events/load/rounds/s1r3/matches", "/api/events/load/standings",
	"/api/events/load/entrants", "/api/events/load/entrants/{team}", "/api/events/load/crosstable",
	"/api/events/load/matches/s1r3b1",
}

// BenchmarkPublicPages64 serves each public page of the 64-team event,
// one request at a time, through the whole handler (the speed target of
// every public page: docs/load.md).
func BenchmarkPublicPages64(b *testing.B) {
	f := load64(b)
	es, err := f.app.Entrants(context.Background(), load64Slug)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range publicPages64 {
		p = strings.ReplaceAll(p, "{team}", es[0].ID)
		b.Run(strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "_"), func(b *testing.B) { benchGet(b, f, p) })
	}
}
