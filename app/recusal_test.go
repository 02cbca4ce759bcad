package app

import (
	"testing"
	"time"

	"arbiter"
)

// TestPlayerTDRecuses: A23 ("the 'player TD' will not take part in the
// decision process"). In an ACWC event where p01 is both a TD and a
// player, p01 may not override, decide the appeal of, rule on the time
// control of, or sanction their own match or entrant; another TD may, and
// p01 still decides matches they do not play in.
func TestPlayerTDRecuses(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(0, s.AddTD(ctx, td, "wc", "p01"))
		must(0, s.AddTD(ctx, td, "wc", "Other"))
		playerTD := arbiter.Actor{Name: "P01", Role: arbiter.RoleTD} // names compare case-insensitively
		other := arbiter.Actor{Name: "other", Role: arbiter.RoleTD}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		var own, notOwn arbiter.Match
		for _, m := range ms {
			if m.Home == "p01" || m.Away == "p01" {
				own = m
			} else if notOwn.ID == "" && !m.IsBye() {
				notOwn = m
			}
		}
		if own.ID == "" || notOwn.ID == "" {
			t.Fatalf("round 1 pairs p01 in no match or in every match: %+v", ms)
		}

		_, err := s.OverrideResult(ctx, playerTD, "wc", own.ID, ResultInput{Summary: "10-0"}, "I won", 0)
		wantErr(t, err, arbiter.ERULE, "A23")
		_, _, err = s.WrongTimeControl(ctx, playerTD, "wc", own.ID, "1+2", "wrong tc")
		wantErr(t, err, arbiter.ERULE, "A23")
		_, _, err = s.Sanction(ctx, playerTD, "wc", SanctionRequest{Entrant: "p01", Kind: "withdrawal", Reason: "leaving"})
		wantErr(t, err, arbiter.ERULE, "A23")
		// A TD not involved decides p01's match; p01 decides one they do not play.
		m := must(s.OverrideResult(ctx, other, "wc", own.ID, ResultInput{Summary: "5-5"}, "games found on Lichess", 0))
		if m.Status != arbiter.MatchFinal || m.Decision != "override" {
			t.Fatalf("override by another TD: %+v", m)
		}
		m = must(s.OverrideResult(ctx, playerTD, "wc", notOwn.ID, ResultInput{Summary: "5-5"}, "games found on Lichess", 0))
		if m.Status != arbiter.MatchFinal {
			t.Fatalf("override by p01 of a match they do not play: %+v", m)
		}

		// Appeals after the round: p01 appeals as a player; p01 as TD may
		// not decide it, another TD does.
		c.t = ev.Calendar[0].End
		must(s.CloseRound(ctx, td, "wc"))
		c.t = ev.Calendar[0].End.Add(time.Hour)
		ap := must(s.Appeal(ctx, player("p01"), "wc", own.ID, "we played 6-4"))
		_, err = s.DecideAppeal(ctx, playerTD, "wc", ap.ID, true, ResultInput{Summary: "6-4"}, "I say so")
		wantErr(t, err, arbiter.ERULE, "A23")
		ap = must(s.DecideAppeal(ctx, other, "wc", ap.ID, false, ResultInput{}, "the games show 5-5"))
		if ap.Status != arbiter.AppealRejected || ap.Decided != "other" {
			t.Fatalf("decided %+v", ap)
		}
	})
}

// TestInvolves: who counts as playing for an entrant (A23).
func TestInvolves(t *testing.T) {
	t.Parallel()
	team := arbiter.Entrant{Kind: arbiter.EntrantTeam, Captain: "cap", Members: []string{"a", "b"}, Substitute: "sub"}
	solo := arbiter.Entrant{Kind: arbiter.EntrantPlayer, Player: "p"}
	for _, c := range []struct {
		e    arbiter.Entrant
		user string
		want bool
	}{
		{team, "cap", true}, {team, "a", true}, {team, "sub", true}, {team, "x", false}, {team, "", false},
		{solo, "p", true}, {solo, "cap", false},
	} {
		if got := involves(c.e, c.user); got != c.want {
			t.Errorf("involves(%+v, %q) = %v, want %v", c.e, c.user, got, c.want)
		}
	}
}
