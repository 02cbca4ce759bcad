package trf

import (
	"os"
	"path/filepath"
	"testing"

	"arbiter/internal/testshared"
)

// corpusFiles lists every TRF file of the shared material: the pairing
// corpus (cases, extra, full) and the reference files.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range [][]string{
		{"pairing-corpus", "cases", "*.trf"},
		{"pairing-corpus", "extra", "*.trf"},
		{"pairing-corpus", "full", "*.trf"},
		{"reference", "trf", "*.trf"},
	} {
		m, err := filepath.Glob(testshared.Path(t, pat...))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no files match %v", pat)
		}
		files = append(files, m...)
	}
	return files
}

func parseFile(t testing.TB, path string) *File {
	t.Helper()
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := Parse(r)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return f
}

func TestCorpusParses(t *testing.T) {
	files := corpusFiles(t)
	if len(files) < 280 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	for _, path := range files {
		f := parseFile(t, path)
		if len(f.Players) == 0 {
			t.Errorf("%s: no players", filepath.Base(path))
		}
	}
}

// Every shared file is internally consistent: opponents exist and both
// sides of each game agree.
func TestCorpusValidates(t *testing.T) {
	for _, path := range corpusFiles(t) {
		if err := parseFile(t, path).Validate(); err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
	}
}
