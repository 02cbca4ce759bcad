package format

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPresetsLoadAndRoundTrip(t *testing.T) {
	names := Presets()
	want := []string{"acwc-2023", "antichess-team-cup", "rkcc-team-three-tc"}
	if !cmp.Equal(names, want) {
		t.Fatalf("Presets() = %v, want %v", names, want)
	}
	for _, name := range names {
		f, err := Preset(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Name != name {
			t.Errorf("%s: name %q", name, f.Name)
		}
		var buf bytes.Buffer
		if err := Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		g, err := Load(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: reload: %v\n%s", name, err, buf.String())
		}
		if d := cmp.Diff(f, g); d != "" {
			t.Errorf("%s: round trip changed the format (-want +got):\n%s", name, d)
		}
		var again bytes.Buffer
		Write(&again, g)
		if again.String() != buf.String() {
			t.Errorf("%s: Write is not stable", name)
		}
	}
	if _, err := Preset("nope"); err == nil {
		t.Error("unknown preset: want error")
	}
}
