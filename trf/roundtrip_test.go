package trf

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// unknownTexts lists the verbatim records: they must survive a round trip.
func unknownTexts(f *File) []string {
	var out []string
	for _, r := range f.Records {
		if !r.Known {
			out = append(out, r.Text)
		}
	}
	return out
}

// diffFiles compares two files field by field; Records are compared by
// their unknown texts only (known records are regenerated, so their text
// and line numbers change).
func diffFiles(a, b *File) string {
	// cmp is slow on large files: settle the common equal case first.
	a0, b0 := *a, *b
	a0.Records, b0.Records = nil, nil
	if reflect.DeepEqual(a0, b0) && reflect.DeepEqual(unknownTexts(a), unknownTexts(b)) {
		return ""
	}
	d := cmp.Diff(a, b, cmpopts.IgnoreFields(File{}, "Records"), cmpopts.EquateEmpty())
	d += cmp.Diff(unknownTexts(a), unknownTexts(b), cmpopts.EquateEmpty())
	return d
}

// roundTrip writes f and parses the result back.
func roundTrip(t testing.TB, f *File) (*File, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatalf("Write: %v", err)
	}
	g, err := Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("re-Parse: %v\n%s", err, buf.Bytes())
	}
	return g, buf.Bytes()
}

func TestCorpusRoundTrip(t *testing.T) {
	for _, path := range corpusFiles(t) {
		f := parseFile(t, path)
		g, out := roundTrip(t, f)
		if d := diffFiles(f, g); d != "" {
			t.Errorf("%s: round trip differs (-orig +rewritten):\n%s\n%s", filepath.Base(path), d, out)
		}
		// Writing is deterministic and idempotent.
		if _, out2 := roundTrip(t, g); !bytes.Equal(out, out2) {
			t.Errorf("%s: second write differs from the first", filepath.Base(path))
		}
	}
}
