package web

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"arbiter/app"
	"arbiter/demo"
	"arbiter/sqlstore/storetest"
	"arbiter/standings"
)

// load64Slug is the 64-team event of the load test (internal/loadtest,
// docs/load.md): the RKCC preset played until round 3 is closed.
const load64Slug = "load"

// load64 seeds that event (a few seconds: with b.Loop a benchmark's body
// runs once, so once per benchmark).
func load64(b *testing.B) *fixture {
	b.Helper()
	f := newFixtureOn(b, storetest.SQLite(b))
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
	c := newReadCache(f.db)
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
