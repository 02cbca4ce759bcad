package app

import (
	"math"
	"testing"
	"time"

	"arbiter"
	"arbiter/odds"
)

// The odds of an ACWC event after three Swiss rounds: every band's chances
// add up to its places, the answer is cached per event state, a new
// result gives the previous answer at once (stale) and a fresh one from
// the background, and the cache's watch refreshes it without a read.
func TestOddsCachedPerState(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		s.SetOddsWatch(20*time.Millisecond, time.Minute)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		_, err := s.Odds(ctx, "wc", OddsRequest{})
		wantErr(t, err, arbiter.ERULE, "registration")
		for _, n := range registerPlayers(t, s, "wc", 13) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		for range 3 {
			playRound(t, s, c, "wc")
		}
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))

		req := OddsRequest{Sims: 300, Seed: 7}
		o := must(s.Odds(ctx, "wc", req))
		if o.Stale || o.Sims != 300 || o.Seed != 7 || o.Event != "wc" || o.State == "" || len(o.Entrants) != 13 {
			t.Fatalf("odds %+v", o)
		}
		if o.Bands[0].ID != "candidates" || o.Bands[0].Places != 12 {
			t.Fatalf("bands %+v", o.Bands)
		}
		for k, b := range o.Bands {
			sum := 0.0
			for _, e := range o.Entrants {
				sum += e.Bands[k].P
			}
			if math.Abs(sum-float64(b.Places)) > 1e-9 {
				t.Errorf("band %s adds up to %v", b.ID, sum)
			}
		}
		if again := must(s.Odds(ctx, "wc", req)); again != o {
			t.Errorf("the same state simulated twice")
		}

		// A result: the previous answer at once, then a fresh one.
		ms := must(s.Matches(ctx, "wc", "s1r4"))
		c.t = c.t.Add(time.Hour)
		must(s.ReportResult(ctx, player(ms[0].Home), "wc", ms[0].ID, ResultInput{Summary: "6-4"}))
		must(s.ConfirmResult(ctx, player(ms[0].Away), "wc", ms[0].ID, 0))
		stale := must(s.Odds(ctx, "wc", req))
		fresh := waitOdds(t, s, req, o.State)
		if !stale.Stale && stale.State == o.State {
			t.Errorf("after a result: %+v", stale)
		}
		if fresh.State == o.State {
			t.Errorf("no new simulation after a result")
		}
		for _, e := range fresh.Entrants {
			if (e.Entrant == ms[0].Home || e.Entrant == ms[0].Away) && e.Next != nil && e.Next.Match == ms[0].ID {
				t.Errorf("%s: the played match is still next", e.Entrant)
			}
		}

		// The watch: a change without a read starts a simulation.
		must(s.ReportResult(ctx, player(ms[1].Home), "wc", ms[1].ID, ResultInput{Summary: "6-4"}))
		deadline := time.Now().Add(20 * time.Second)
		for {
			cache := s.odds()
			cache.mu.Lock()
			e := cache.entries["wc|"+req.key()]
			got := e.odds.State
			cache.mu.Unlock()
			if got != fresh.State {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the watch did not refresh the odds")
			}
			time.Sleep(10 * time.Millisecond)
		}

		// Results fixed by hand are checked.
		_, err = s.Odds(ctx, "wc", OddsRequest{Sims: 50, Fixed: []odds.Fixed{{Match: "s1r1b1", Result: odds.HomeWins}}})
		wantErr(t, err, arbiter.EINVALID, "odds.fixed")
		_, err = s.Odds(ctx, "wc", OddsRequest{Sims: MaxOddsSims + 1})
		wantErr(t, err, arbiter.EINVALID, "odds.sims")
		_, err = s.Odds(ctx, "wc", OddsRequest{Sims: MaxOddsSims}) // more than a minute of computing for anyone
		wantErr(t, err, arbiter.EINVALID, "odds.sims")
		_, err = s.Odds(ctx, "nope", req)
		wantErr(t, err, arbiter.ENOTFOUND, "")
		fx := must(s.Odds(ctx, "wc", OddsRequest{Sims: 50, Fixed: []odds.Fixed{{Match: ms[2].ID, Result: odds.AwayWins}}}))
		if len(fx.Fixed) != 1 {
			t.Errorf("fixed %+v", fx.Fixed)
		}
		// NoWait with nothing cached: nil at once.
		if o, err := s.Odds(ctx, "wc", OddsRequest{Sims: 60, NoWait: true}); o != nil || err != nil {
			t.Errorf("no wait: %v %v", o, err)
		}
	})
}

// waitOdds reads the odds until they come from another state than old.
func waitOdds(t *testing.T, s *Service, req OddsRequest, old string) *Odds {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		o := must(s.Odds(ctx, "wc", req))
		if !o.Stale && o.State != old {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("no fresh odds: %+v", o)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
