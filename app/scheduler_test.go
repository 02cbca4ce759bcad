package app

import (
	"sync"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// dueEvent creates an 8-player Swiss whose round 1 (deadline Monday
// 2023-03-27 23:59 UTC, W13) is paired and, when publish, published.
func dueEvent(t *testing.T, s *Service, slug string, publish bool) {
	t.Helper()
	must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
	for _, n := range registerPlayers(t, s, slug, 8) {
		must(s.Approve(ctx, td, slug, n, 0))
	}
	must(s.CloseRegistration(ctx, td, slug))
	pairOK(s.PairRound(ctx, td, slug))
	if publish {
		must(s.PublishRound(ctx, td, slug))
	}
}

func TestCloseDueRounds(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		dueEvent(t, s, "due", true)
		dueEvent(t, s, "review", false) // paired, not published: not the scheduler's
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "open", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		// p01 reports round 1 board 1 (p01-p06); nobody confirms.
		c.t = utc(2023, 3, 22, 12, 0)
		must(s.ReportResult(ctx, player("p01"), "due", "s1r1b1", ResultInput{Summary: "6-2"}))

		// One minute before the deadline: nothing closes.
		c.t = utc(2023, 3, 27, 23, 59)
		if got := must(s.CloseDueRounds(ctx)); len(got) != 0 {
			t.Fatalf("closed %v before the deadline", got)
		}
		for _, m := range must(s.Matches(ctx, "due", "s1r1")) {
			if m.Status == arbiter.MatchFinal {
				t.Fatalf("%s final before the deadline", m.ID)
			}
		}

		c.t = utc(2023, 3, 28, 0, 0) // the deadline
		got := must(s.CloseDueRounds(ctx))
		if len(got) != 1 || got[0].ID != "s1r1" || got[0].Status != arbiter.RoundClosed {
			t.Fatalf("closed %+v, want due's s1r1", got)
		}
		// R5's window, the format's 24 h after the round end.
		if !got[0].AppealsUntil.Equal(utc(2023, 3, 29, 0, 0)) {
			t.Fatalf("appeals until %v", got[0].AppealsUntil)
		}
		for _, m := range must(s.Matches(ctx, "due", "s1r1")) {
			want := "double_forfeit"
			if m.ID == "s1r1b1" {
				want = "accepted_at_deadline" // reported, not disputed
			}
			if m.Status != arbiter.MatchFinal || m.Decision != want {
				t.Fatalf("%s: %s %s, want final %s", m.ID, m.Status, m.Decision, want)
			}
		}
		for _, m := range must(s.Matches(ctx, "review", "s1r1")) {
			if m.Status != arbiter.MatchScheduled {
				t.Fatalf("unpublished round's %s is %s", m.ID, m.Status)
			}
		}
		log := must(s.Audit(ctx, td, "due", sqlstore.AuditFilter{}))
		closes := 0
		for _, e := range log {
			if e.Action == "round.close" {
				closes++
				if e.Actor.Name != "scheduler" || e.Actor.Role != arbiter.RoleSystem {
					t.Fatalf("closed by %+v", e.Actor)
				}
			}
		}
		if closes != 1 {
			t.Fatalf("%d round.close entries", closes)
		}

		// A second run finds nothing to do.
		c.t = utc(2023, 3, 28, 0, 5)
		if got := must(s.CloseDueRounds(ctx)); len(got) != 0 {
			t.Fatalf("second run closed %v", got)
		}
	})
}

// TestCloseDueRoundsConcurrent runs two schedulers at once: exactly one
// closes the round, the other does nothing and reports no error.
func TestCloseDueRoundsConcurrent(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		dueEvent(t, s, "race", true)
		c.t = utc(2023, 3, 28, 0, 0)
		var wg sync.WaitGroup
		res := make([][]arbiter.Round, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() { res[i], errs[i] = s.CloseDueRounds(ctx) })
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("errors %v / %v", errs[0], errs[1])
		}
		if n := len(res[0]) + len(res[1]); n != 1 {
			t.Fatalf("%d rounds closed, want exactly 1: %v / %v", n, res[0], res[1])
		}
		n := 0
		for _, e := range must(s.Audit(ctx, td, "race", sqlstore.AuditFilter{})) {
			if e.Action == "result.double_forfeit" {
				n++
			}
		}
		if n != 4 {
			t.Fatalf("%d double forfeits logged, want 4 (one per board, once)", n)
		}
	})
}
