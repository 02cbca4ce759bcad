// Package testshared locates the shared material (../shared beside the
// repository: rulebooks, pairing corpus, FIDE references, Lichess fixtures)
// for tests. CI always lays it there; ARBITER_SHARED overrides the path.
package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared directory or fails the test: the differential and
// golden tests must never be skipped silently.
func Dir(t testing.TB) string {
	t.Helper()
	d, err := Find()
	if err != nil {
		t.Fatalf("shared material not found (set ARBITER_SHARED or put it at ../shared beside the repository): %v", err)
	}
	return d
}

// Path joins elements onto Dir.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t)}, elem...)...)
}

// Find returns the shared directory without a testing.TB (for benchmarks and tools).
func Find() (string, error) {
	if d := os.Getenv("ARBITER_SHARED"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(dir), "shared")
			if _, err := os.Stat(s); err != nil {
				return "", err
			}
			return s, nil
		}
		if filepath.Dir(dir) == dir {
			return "", os.ErrNotExist
		}
	}
}
