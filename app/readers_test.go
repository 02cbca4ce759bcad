package app

import (
	"testing"
	"time"
)

func TestReaders(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		if neg := must(s.NegotiationOf(ctx, "wc", ms[0].ID)); neg != nil {
			t.Fatalf("negotiation before any offer: %+v", neg)
		}
		c.t = utc(2023, 3, 20, 12, 0)
		offer := utc(2023, 3, 22, 18, 0)
		must2(s.Negotiate(ctx, player("p01"), "wc", ms[0].ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{offer}}))
		neg := must(s.NegotiationOf(ctx, "wc", ms[0].ID))
		if neg == nil || neg.Version != 1 {
			t.Fatalf("negotiation after an offer: %+v", neg)
		}
		if _, err := s.NegotiationOf(ctx, "nope", ms[0].ID); err == nil {
			t.Error("unknown event: no error")
		}
		if bt := must(s.BoardsOf(ctx, "wc", "p01")); bt != nil {
			t.Errorf("board order of an individual entrant: %+v", bt)
		}
		offs := must(s.Officials(ctx, "wc"))
		if len(offs) != 1 || offs[0].User != "arbitertd" {
			t.Errorf("officials %+v", offs)
		}
	})
}
