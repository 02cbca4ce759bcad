package format_test

// An external test: package calendar imports package format.

import (
	"testing"
	"time"

	"arbiter/calendar"
	"arbiter/format"
)

// TestACWCBreaksBuildTheW13Calendar: the preset's per-stage breaks, fed to
// calendar.Build, give W13's timeline: a week off before the candidates and
// before the semifinals, none between the semifinals and the final. Dates
// by hand from the first pairings (Sunday 2023-03-19): qualification round
// 1 due Monday 03-27 23:59, 7 rounds (W5, 40 players) to 05-08; break week;
// candidates 05-16 .. 07-24 (10 rounds); break week; semifinals 08-01 ..
// 08-07; final 08-08 .. 08-14.
func TestACWCBreaksBuildTheW13Calendar(t *testing.T) {
	f, err := format.Preset("acwc-2023")
	if err != nil {
		t.Fatal(err)
	}
	x, err := f.Explain(40)
	if err != nil {
		t.Fatal(err)
	}
	var stages []calendar.Stage
	for _, se := range x.Stages {
		stages = append(stages, calendar.Stage{Name: se.Name, Rounds: *se.Rounds, BreakBefore: time.Duration(se.BreakWeeksBefore) * calendar.Week})
	}
	if got := []int{x.Stages[0].BreakWeeksBefore, x.Stages[1].BreakWeeksBefore, x.Stages[2].BreakWeeksBefore}; got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("breaks %v, want 0 1 1", got)
	}
	c, err := calendar.Build(calendar.ACWC(), time.Date(2023, 3, 19, 12, 0, 0, 0, time.UTC), stages)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rounds) != 7+10+2 {
		t.Fatalf("%d rounds", len(c.Rounds))
	}
	day := func(m time.Month, d int) time.Time { return time.Date(2023, m, d, 0, 0, 0, 0, time.UTC) }
	for _, w := range []struct {
		seq        int
		start, end time.Time
	}{
		{7, day(5, 2), day(5, 9)},
		{8, day(5, 16), day(5, 23)},  // candidates round 1 after the break
		{17, day(7, 18), day(7, 25)}, // candidates round 10
		{18, day(8, 1), day(8, 8)},   // semifinals after the break
		{19, day(8, 8), day(8, 15)},  // final: no break
	} {
		r := c.Rounds[w.seq-1]
		if !r.Start.Equal(w.start) || !r.End.Equal(w.end) {
			t.Errorf("round %d: [%s, %s), want [%s, %s)", w.seq, r.Start, r.End, w.start, w.end)
		}
	}
	if got := calendar.Format(c.Rounds[18].LastMinute()); got != "Monday 2023-08-14 23:59 UTC" {
		t.Errorf("final due %s", got)
	}
}
