package trf

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"arbiter/internal/testshared"
)

// BenchmarkParseWrite parses and writes the largest shared file (the
// 284-player 2005 tournament).
func BenchmarkParseWrite(b *testing.B) {
	data, err := os.ReadFile(testshared.Path(b, "reference", "trf", "karl_mala_gedenkturnier_2005.trf"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := Parse(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Write(&bytes.Buffer{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLongLine parses and writes an 001 line with 9,990 rounds, the
// most a line under the length limit can hold: the cost must stay linear.
func BenchmarkLongLine(b *testing.B) {
	line := setCols("001    1", 81, " 0.0       ") + strings.Repeat("   2 w 1  ", 9990)
	data := []byte(line + "\n" + strings.Replace(line, "001    1", "001    2", 1))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := Parse(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Write(&bytes.Buffer{}); err != nil {
			b.Fatal(err)
		}
	}
}
