package format

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
)

func TestBreakErrors(t *testing.T) {
	for _, c := range []struct{ old, new, field, msg string }{
		{`"kind": "swiss"`, `"kind": "swiss", "break_weeks_before": 1`, "stages[0].break_weeks_before", "first stage"},
		{`"kind": "knockout"`, `"kind": "knockout", "break_weeks_before": -1`, "stages[1].break_weeks_before", "want 0 to 52"},
		{`"kind": "knockout"`, `"kind": "knockout", "break_weeks_before": 53`, "stages[1].break_weeks_before", "want 0 to 52"},
		{`"rounds_per_week": 1,`, `"rounds_per_week": 1, "break_weeks_between_stages": 1,`, "calendar.break_weeks_between_stages", "break_weeks_before on each stage"},
	} {
		doc := strings.Replace(minimal, c.old, c.new, 1)
		if doc == minimal {
			t.Fatalf("case %q does not apply", c.old)
		}
		_, err := Load(strings.NewReader(doc))
		var e *arbiter.Error
		if !errors.As(err, &e) || e.Code != arbiter.EINVALID || e.Field != c.field || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: got %v, want field %s and %q", c.new, err, c.field, c.msg)
		}
	}
	f, err := Load(strings.NewReader(strings.Replace(minimal, `"kind": "knockout"`, `"kind": "knockout", "break_weeks_before": 2`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := f.Explain(16)
	if x.Stages[0].BreakWeeksBefore != 0 || x.Stages[1].BreakWeeksBefore != 2 {
		t.Errorf("explain breaks %d %d", x.Stages[0].BreakWeeksBefore, x.Stages[1].BreakWeeksBefore)
	}
}
