package web

import (
	"net/http/httptest"
	"testing"
)

// BenchmarkFormatExplainPage renders the largest public page: a preset
// explained for N entrants, through the whole middleware chain.
func BenchmarkFormatExplainPage(b *testing.B) {
	f := newFixture(b)
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, httptest.NewRequest("GET", "/formats/acwc-2023?entrants=40", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkStandingsPage renders an event's standings (store reads and
// the standings computation through package app included).
func BenchmarkStandingsPage(b *testing.B) {
	f := newFixture(b)
	antichessEvent(b, f)
	playRound1(b, f)
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, httptest.NewRequest("GET", "/events/atc/standings", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
