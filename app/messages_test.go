package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/lichess/lichesstest"
)

// inbox is who got which messages, by user id.
func inbox(f *lichesstest.Fake) map[string][]string {
	out := map[string][]string{}
	for _, m := range f.Messages() {
		out[m.To] = append(out[m.To], m.Text)
	}
	return out
}

// TestLichessMessages: with messages on, the pairing is told to every
// player once (p01 opted out), a time agreed brings a reminder an hour
// before and the games' result from Lichess asks both sides to confirm;
// things happening together are one message; nothing is sent twice.
func TestLichessMessages(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		names := registerPlayers(t, s, "wc", 12)
		r := newLichessRig(t, s, c, names...)
		for _, n := range names {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		_, err := s.SetMessages(ctx, player("p02"), "wc", true)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(s.SetMessages(ctx, td, "wc", true))
		must(0, s.SetMessageOptOut(ctx, player("p01"), "wc", true))
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		runJobs(t, s, c)
		if n := len(r.f.Messages()); n != 0 {
			t.Fatalf("%d messages before the bundle's wait", n)
		}
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		box := inbox(r.f)
		if len(box) != 11 || box["p01"] != nil || len(box["p07"]) != 1 ||
			box["p07"][0] != "ACWC 2023, round 1: you play p01. Deadline Monday 2023-03-27 23:59 UTC. Agree a time on the match page: http://localhost:8080/events/wc/matches/"+ms[0].ID {
			t.Fatalf("pairing messages %q", box)
		}
		c.t = c.t.Add(time.Hour)
		runJobs(t, s, c)
		if n := len(r.f.Messages()); n != 11 {
			t.Fatalf("%d messages after running again, want the 11 once", n)
		}

		// p02's match: a time agreed, then the reminder an hour before.
		m := ms[1]
		c.t = utc(2023, 3, 20, 10, 0)
		start := utc(2023, 3, 22, 18, 0)
		must2(s.Negotiate(ctx, player(m.Home), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{start, start.Add(24 * time.Hour), start.Add(48 * time.Hour)}}))
		must2(s.Negotiate(ctx, player(m.Away), "wc", m.ID, NegotiationStep{Kind: NegAccept, At: start}))
		// The offer's message goes out after the bundle's wait, on its own
		// (else it joins whatever else is due when the jobs next run).
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		c.t = start.Add(-time.Hour)
		runJobs(t, s, c)
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		box = inbox(r.f)
		if len(box[m.Home]) != 2 || !strings.HasPrefix(box[m.Home][1], "ACWC 2023: your match starts at Wednesday 2023-03-22 18:00 UTC, in one hour.") {
			t.Fatalf("reminder %q", box[m.Home])
		}
		// The games are played; the result from Lichess asks both to confirm.
		c.t = start
		runJobs(t, s, c)
		r.play(t, s, c, func(p lichesstest.Pending) lichesstest.Result {
			if p.White == m.Home {
				return lichesstest.WhiteWins
			}
			return lichesstest.BlackWins
		})
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		box = inbox(r.f)
		// m.Away heard of the offer it accepted (TestLichessOfferMessages).
		if len(box[m.Away]) != 4 || !strings.HasPrefix(box[m.Away][1], "ACWC 2023: "+m.Home+" offers to play your match at Wednesday 2023-03-22 18:00 UTC,") ||
			!strings.HasPrefix(box[m.Away][3], "ACWC 2023: a result of your match was reported (6-0, from Lichess). Confirm or dispute it:") {
			t.Fatalf("result message %q", box[m.Away])
		}
		// 24 h before the deadline, the matches without a time hear of it:
		// with the pairing of nobody else pending, one line each.
		c.t = utc(2023, 3, 27, 0, 0)
		runJobs(t, s, c)
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		box = inbox(r.f)
		if len(box[ms[2].Home]) != 2 || !strings.Contains(box[ms[2].Home][1], "has no agreed time and the round ends Monday 2023-03-27 23:59 UTC") ||
			len(box[m.Home]) != 3 {
			t.Fatalf("deadline messages %q / %q", box[ms[2].Home], box[m.Home])
		}
	})
}
