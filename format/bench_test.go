package format

import (
	"bytes"
	"testing"
)

// BenchmarkLoadPreset loads and validates the largest preset from JSON.
func BenchmarkLoadPreset(b *testing.B) {
	data, err := presetFS.ReadFile("presets/antichess-team-cup.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
