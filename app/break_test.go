package app

import (
	"strings"
	"testing"
	"time"
)

// TestStageBreaks: each stage's break_weeks_before idles the calendar before
// that stage only (W13: a break before the candidates and the semifinals,
// none before the final). Here two weeks before the second Swiss and none
// before the knockout: the old single "between stages" number could not
// say this.
func TestStageBreaks(t *testing.T) {
	t.Parallel()
	f := strings.Replace(swissKO, `"advance": {"fixed": 4},`, `"advance": {"fixed": 8},`, 1)
	f = strings.Replace(f, `{"name": "knockout",`, `{"name": "second", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 1}, "advance": {"fixed": 4},
     "break_weeks_before": 2, "tiebreaks": ["buchholz"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "knockout",`, 1)
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "br", Format: []byte(f), Start: utc(2023, 3, 21, 0, 0)}))
		for _, n := range registerPlayers(t, s, "br", 8) {
			must(s.Approve(ctx, td, "br", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "br"))
		cal := ev.Calendar
		// Swiss 1 round, second Swiss 1 round, knockout of 4 (2 rounds).
		if len(cal) != 4 {
			t.Fatalf("%d rounds in the calendar, want 4", len(cal))
		}
		week := 7 * 24 * time.Hour
		if got := cal[1].Start.Sub(cal[0].End); got != 2*week {
			t.Errorf("break before the second Swiss %v, want two weeks", got)
		}
		if !cal[2].Start.Equal(cal[1].End) || !cal[3].Start.Equal(cal[2].End) {
			t.Errorf("knockout rounds %v and %v do not follow %v directly", cal[2].Start, cal[3].Start, cal[1].End)
		}
	})
}
