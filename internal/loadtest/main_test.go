package main

import (
	"strings"
	"testing"
	"time"
)

func TestCheckLoopback(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:8080", "http://127.0.0.2:1/", "http://[::1]:8080", "http://localhost:8080", "https://localhost"} {
		if err := checkLoopback(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1:8080", "http://example.org", "http://127.0.0.1.example.org", "http://[::2]:80",
		"ftp://127.0.0.1", "http://127.0.0.1:8080/events", "http://u:p@127.0.0.1", "127.0.0.1:8080", "http://0.0.0.0:8080"} {
		if err := checkLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestParseMix(t *testing.T) {
	known := []string{"page", "matches", "standings"}
	got, err := parseMix("page=2, matches=1,standings=0", known)
	if err != nil || got["page"] != 2 || got["matches"] != 1 || got["standings"] != 0 {
		t.Fatalf("parseMix: %v %v", got, err)
	}
	for _, bad := range []string{"page", "page=x", "page=-1", "page=101", "nosuch=1"} {
		if _, err := parseMix(bad, known); err == nil || !strings.Contains(err.Error(), "-mix") {
			t.Errorf("parseMix(%q): %v", bad, err)
		}
	}
}

// TestQuantile: nearest rank on 1..100 ms.
func TestQuantile(t *testing.T) {
	var l []time.Duration
	for i := 1; i <= 100; i++ {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.9: 90 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond} {
		if got := quantile(l, q); got != want {
			t.Errorf("quantile %v: %v, want %v", q, got, want)
		}
	}
	if quantile(nil, 0.5) != 0 {
		t.Error("quantile of nothing")
	}
}
