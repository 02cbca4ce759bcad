package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestNegotiationACWC: W14 time offers for round 1 of the ACWC preset
// (round from Sunday 2023-03-19 12:00, offers due Friday 2023-03-24 23:59).
func TestNegotiationACWC(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		if w := ev.Calendar[0]; !w.OfferDeadline.Equal(utc(2023, 3, 25, 0, 0)) || !w.End.Equal(utc(2023, 3, 28, 0, 0)) {
			t.Fatalf("round 1 window %+v", w)
		}
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		if ms[0].Home != "p01" || ms[0].Away != "p07" {
			t.Fatalf("board 1 %s-%s", ms[0].Home, ms[0].Away)
		}
		b1, b3 := ms[0].ID, ms[2].ID
		_, _, err := s.Negotiate(ctx, player("p01"), "wc", b1, NegotiationStep{Kind: NegPropose, Times: []time.Time{utc(2023, 3, 22, 18, 0)}})
		wantErr(t, err, arbiter.ERULE, "W14") // not published yet
		must(s.PublishRound(ctx, td, "wc"))
		c.t = utc(2023, 3, 20, 10, 0)
		// W14: at most two offers on one UTC date.
		_, _, err = s.Negotiate(ctx, player("p01"), "wc", b1, NegotiationStep{Kind: NegPropose,
			Times: []time.Time{utc(2023, 3, 22, 10, 0), utc(2023, 3, 22, 13, 0), utc(2023, 3, 22, 16, 0)}})
		wantErr(t, err, arbiter.ERULE, "W14")
		_, _, err = s.Negotiate(ctx, player("p03"), "wc", b1, NegotiationStep{Kind: NegPropose, Times: []time.Time{utc(2023, 3, 22, 18, 0)}})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		offers := []time.Time{utc(2023, 3, 22, 18, 0), utc(2023, 3, 23, 18, 0), utc(2023, 3, 24, 18, 0)}
		neg, m := must2(s.Negotiate(ctx, player("p01"), "wc", b1, NegotiationStep{Kind: NegPropose, Times: offers}))
		if len(neg.State.Offers) != 3 || !m.ScheduledAt.IsZero() {
			t.Fatalf("after the offers: %+v %+v", neg.State, m)
		}
		_, _, err = s.Negotiate(ctx, player("p07"), "wc", b1, NegotiationStep{Kind: NegAccept, At: utc(2023, 3, 23, 19, 0)})
		wantErr(t, err, arbiter.ERULE, "W14") // not an offered time
		_, m = must2(s.Negotiate(ctx, player("p07"), "wc", b1, NegotiationStep{Kind: NegAccept, At: offers[1]}))
		if !m.ScheduledAt.Equal(offers[1]) || m.Status != arbiter.MatchScheduled {
			t.Fatalf("agreed: %+v", m)
		}

		// Board 3: nobody offered by the deadline; W14 makes it a draw.
		_, _, err = s.Negotiate(ctx, td, "wc", b3, NegotiationStep{Kind: NegExpire})
		wantErr(t, err, arbiter.ERULE, "W14") // before the deadline
		c.t = utc(2023, 3, 25, 0, 0)
		_, _, err = s.Negotiate(ctx, player("p03"), "wc", b3, NegotiationStep{Kind: NegExpire})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, m = must2(s.Negotiate(ctx, td, "wc", b3, NegotiationStep{Kind: NegExpire}))
		if m.Status != arbiter.MatchFinal || m.Decision != "negotiation" || m.Result.Home.MatchPoints != arbiter.P(0.5) ||
			m.Result.Away.MatchPoints != arbiter.P(0.5) || m.Result.Home.Points != arbiter.P(5) {
			t.Fatalf("W14 draw: %+v %+v", m, m.Result)
		}

		// A format without negotiation rules has none.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "plain", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 0, 0), AllowPast: true}))
		for _, n := range registerPlayers(t, s, "plain", 8) {
			must(s.Approve(ctx, td, "plain", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "plain"))
		ms = pairOK(s.PairRound(ctx, td, "plain"))
		_, _, err = s.Negotiate(ctx, player("p01"), "plain", ms[0].ID, NegotiationStep{Kind: NegPropose, Times: offers})
		wantErr(t, err, arbiter.ERULE, "app.negotiation")
	})
}

// TestForfeitNotes: W16 — a player forfeited in two matches is
// disqualified; closing a round tells the TDs who.
func TestForfeitNotes(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		// Round 1: nothing played, six double forfeits: one forfeit each.
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = ev.Calendar[0].End
		if rd := must(s.CloseRound(ctx, td, "wc")); len(rd.Notes) != 0 {
			t.Fatalf("after one forfeit each: %v", rd.Notes)
		}
		// Round 2: board 1 is played, the rest are double forfeits again.
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		must(s.OverrideResult(ctx, td, "wc", ms[0].ID, ResultInput{Summary: "6-4"}, "played, entered from Lichess", 0))
		c.t = ev.Calendar[1].End
		rd := must(s.CloseRound(ctx, td, "wc"))
		if len(rd.Notes) != 10 {
			t.Fatalf("notes %v, want the 10 players of the unplayed boards", rd.Notes)
		}
		for _, n := range rd.Notes {
			if strings.HasPrefix(n, ms[0].Home+" ") || strings.HasPrefix(n, ms[0].Away+" ") || !strings.Contains(n, "W16 disqualifies") {
				t.Fatalf("note %q (board 1 was %s-%s)", n, ms[0].Home, ms[0].Away)
			}
		}
	})
}
