package app

import "testing"

// SetOddsSims (what the test fixtures of packages web and browsertest use
// to keep the standings pages cheap) sets the runs of a request that names
// none; a request that names its runs keeps them.
func TestSetOddsSims(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		s.SetOddsSims(70)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 13) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		if o := must(s.Odds(ctx, "wc", OddsRequest{})); o.Sims != 70 || o.Seed != DefaultOddsSeed {
			t.Errorf("a request naming no runs: %d runs, seed %d; want 70, seed %d", o.Sims, o.Seed, DefaultOddsSeed)
		}
		if o := must(s.Odds(ctx, "wc", OddsRequest{Sims: 40})); o.Sims != 40 {
			t.Errorf("a request for 40 runs: %d runs", o.Sims)
		}
	})
}
