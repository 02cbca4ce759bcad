package app

import (
	"testing"
	"time"

	"arbiter"
)

// TestTDDiscretionAppeal: the ACWC preset has no fixed appeal window; the
// TDs "make the final call" on disputes (ACWC §1), so an appeal against a
// closed round is taken until the next round is published, however long
// after the round end, and refused after that citing format.appeals.
func TestTDDiscretionAppeal(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		home := func(m arbiter.Match) arbiter.Actor { return player(m.Home) }

		// Before the round closes: refused, naming the format's rule.
		c.t = ev.Calendar[0].Start.Add(24 * time.Hour)
		_, err := s.Appeal(ctx, home(ms[0]), "wc", ms[0].ID, "my opponent never answered")
		wantErr(t, err, arbiter.ERULE, "format.appeals")

		// Every match unplayed: double forfeits at the deadline.
		c.t = ev.Calendar[0].End
		rd := must(s.CloseRound(ctx, td, "wc"))
		if !rd.AppealsUntil.IsZero() {
			t.Fatalf("td_discretion opens no fixed window, got until %v", rd.AppealsUntil)
		}

		// Three days after the round end (past any 24 h window): taken.
		c.t = ev.Calendar[0].End.Add(72 * time.Hour)
		_, err = s.Appeal(ctx, player(ms[1].Home), "wc", ms[0].ID, "not my match")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		ap := must(s.Appeal(ctx, home(ms[0]), "wc", ms[0].ID, "we played 5-5; the result never reached the TDs"))
		if ap.Status != arbiter.AppealPending {
			t.Fatalf("appeal %+v", ap)
		}
		_, err = s.DecideAppeal(ctx, home(ms[0]), "wc", ap.ID, true, ResultInput{Summary: "5-5"}, "mine")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		ap = must(s.DecideAppeal(ctx, td, "wc", ap.ID, true, ResultInput{Summary: "5-5"}, "games found on Lichess"))
		if ap.Status != arbiter.AppealAccepted {
			t.Fatalf("decided %+v", ap)
		}
		m := must(s.Matches(ctx, "wc", "s1r1"))[0]
		// W7: a 5-5 match is a draw, half a match point each.
		if m.Result.Home.MatchPoints != arbiter.P(0.5) || m.Result.Away.MatchPoints != arbiter.P(0.5) {
			t.Fatalf("after the appeal %s: %+v", m.ID, m.Result)
		}

		// Round 2 paired but not yet published: still taken.
		pairOK(s.PairRound(ctx, td, "wc"))
		ap2 := must(s.Appeal(ctx, home(ms[1]), "wc", ms[1].ID, "my opponent agreed to a time and did not show"))
		// Once round 2 is published the TDs take no new appeal on round 1.
		must(s.PublishRound(ctx, td, "wc"))
		_, err = s.Appeal(ctx, home(ms[2]), "wc", ms[2].ID, "we played")
		wantErr(t, err, arbiter.ERULE, "format.appeals")
		// An appeal filed in time is still decided.
		ap2 = must(s.DecideAppeal(ctx, td, "wc", ap2.ID, false, ResultInput{}, "no evidence of the agreed time"))
		if ap2.Status != arbiter.AppealRejected {
			t.Fatalf("decided %+v", ap2)
		}
	})
}
