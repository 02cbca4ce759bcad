package calendar

import (
	"testing"

	"arbiter/format"

	"github.com/google/go-cmp/cmp"
)

// TestRulesFromFormat: the presets' data give the rulebooks' calendar rules
// as written by hand in RKCC(), AntichessTeamCup() and ACWC().
func TestRulesFromFormat(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   Rules
	}{{"rkcc-team-three-tc", RKCC()}, {"antichess-team-cup", AntichessTeamCup()}, {"acwc-2023", ACWC()}} {
		f, err := format.Preset(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		got, err := RulesFromFormat(f)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s (-rulebook +format):\n%s", c.preset, d)
		}
	}
}

// TestRulesFromCustomFormat: a format without clause IDs cites its fields.
func TestRulesFromCustomFormat(t *testing.T) {
	f, err := format.Preset("acwc-2023")
	if err != nil {
		t.Fatal(err)
	}
	f.Clauses = format.Clauses{}
	got, err := RulesFromFormat(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.RoundClause != "format.calendar" || got.OfferClause != "format.calendar.negotiation" {
		t.Errorf("clauses %q %q", got.RoundClause, got.OfferClause)
	}
	f.Calendar.Deadline.Day = "someday"
	if _, err := RulesFromFormat(f); err == nil {
		t.Error("bad weekday accepted")
	}
}
