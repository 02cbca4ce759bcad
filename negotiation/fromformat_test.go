package negotiation

import (
	"testing"

	"arbiter/format"

	"github.com/google/go-cmp/cmp"
)

// TestRulesFromFormat: the presets' negotiation data give A5's and W14's
// rules as written by hand; RKCC has no negotiation.
func TestRulesFromFormat(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   Rules
		ok     bool
	}{{"antichess-team-cup", RulesAntichess(), true}, {"acwc-2023", RulesACWC(), true}, {"rkcc-team-three-tc", Rules{}, false}} {
		f, err := format.Preset(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := RulesFromFormat(f)
		if ok != c.ok {
			t.Fatalf("%s: ok %v", c.preset, ok)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s (-rulebook +format):\n%s", c.preset, d)
		}
	}
}
