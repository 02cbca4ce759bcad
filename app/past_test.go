package app

import (
	"testing"

	"arbiter"
)

// TestPastStartRefused: a start already in the past is refused unless the
// TD confirms it; so is closing registration once round 1's deadline has
// passed (the scheduler would close the round at once as unplayed).
func TestPastStartRefused(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		c.t = utc(2023, 3, 22, 9, 0) // a Wednesday
		// The ACWC's first pairings on Tuesday 2023-03-21 18:00: yesterday.
		_, err := s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 18, 0)})
		wantErr(t, err, arbiter.EINVALID, PastRule)
		if e := err.(*arbiter.Error); e.Field != "start" {
			t.Fatalf("field %q", e.Field)
		}
		if _, err := s.Event(ctx, "wc"); arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
			t.Fatalf("a refused event was stored: %v", err)
		}
		// Now is a valid start; so is a past one the TD confirms.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "now", Preset: "acwc-2023", Start: c.t}))
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 18, 0), AllowPast: true}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		// Round 1 runs to the Monday 23:59 after the Tuesday on or after
		// the pairings: Monday 2023-03-27 23:59. At Tuesday 00:00 it is gone.
		c.t = utc(2023, 3, 28, 0, 0)
		_, err = s.CloseRegistrationWith(ctx, td, "wc", CloseOptions{})
		wantErr(t, err, arbiter.EINVALID, PastRule)
		if ev := must(s.Event(ctx, "wc")); ev.Status != arbiter.EventRegistration {
			t.Fatalf("status %s after the refusal", ev.Status)
		}
		c.t = utc(2023, 3, 27, 23, 58) // the deadline's last minute is still ahead
		ev := must(s.CloseRegistrationWith(ctx, td, "wc", CloseOptions{}))
		if !ev.Calendar[0].End.Equal(utc(2023, 3, 28, 0, 0)) {
			t.Fatalf("round 1 ends %v", ev.Calendar[0].End)
		}
	})
}
