package app

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/format"
)

// TestLichessOfferMessages: a player's time offer reaches the opponent
// with the times and the match page; two offers within the bundle's two
// minutes are one message; the opponent's counter-offer reaches the
// first player as a counter-offer; nothing is told twice, and nothing to
// a player who opted out.
func TestLichessOfferMessages(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Name: "ACWC 2023", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		names := registerPlayers(t, s, "wc", 12)
		r := newLichessRig(t, s, c, names...)
		for _, n := range names {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.SetMessages(ctx, td, "wc", true))
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c) // the pairings: one message each
		m, o := ms[0], ms[1]
		must(0, s.SetMessageOptOut(ctx, player(o.Away), "wc", true))
		link := "http://localhost:8080/events/wc/matches/" + m.ID
		day := func(d int) time.Time { return utc(2023, 3, d, 18, 0) }

		c.t = utc(2023, 3, 20, 10, 0)
		must2(s.Negotiate(ctx, player(m.Home), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{day(22), day(23), day(24)}}))
		c.t = c.t.Add(time.Minute)
		must2(s.Negotiate(ctx, player(m.Home), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{day(25)}}))
		must2(s.Negotiate(ctx, player(o.Home), "wc", o.ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{day(22), day(23), day(24)}}))
		c.t = utc(2023, 3, 20, 10, 2)
		runJobs(t, s, c)
		box := inbox(r.f)
		want := "ACWC 2023: 2 updates\n" +
			"\n- ACWC 2023: " + m.Home + " offers to play your match at Wednesday 2023-03-22 18:00 UTC, Thursday 2023-03-23 18:00 UTC or Friday 2023-03-24 18:00 UTC. Accept one or offer others on the match page: " + link +
			"\n- ACWC 2023: " + m.Home + " offers to play your match at Saturday 2023-03-25 18:00 UTC. Accept one or offer others on the match page: " + link
		if len(box[m.Away]) != 2 || box[m.Away][1] != want {
			t.Fatalf("%s's messages %q,\nwant the pairing and %q", m.Away, box[m.Away], want)
		}
		if len(box[m.Home]) != 1 || len(box[o.Away]) != 1 {
			t.Fatalf("the offerer heard of their own offer (%q), or the player who opted out heard of one (%q)", box[m.Home], box[o.Away])
		}

		// The counter-offer.
		c.t = utc(2023, 3, 20, 11, 0)
		must2(s.Negotiate(ctx, player(m.Away), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: []time.Time{day(21), utc(2023, 3, 22, 9, 0), day(26)}}))
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		c.t = c.t.Add(time.Hour)
		runJobs(t, s, c)
		box = inbox(r.f)
		want = "ACWC 2023: " + m.Away + " answers with a counter-offer for your match: Tuesday 2023-03-21 18:00 UTC, Wednesday 2023-03-22 09:00 UTC or Sunday 2023-03-26 18:00 UTC. Accept one or offer others on the match page: " + link
		if len(box[m.Home]) != 2 || box[m.Home][1] != want {
			t.Fatalf("%s's messages %q,\nwant the pairing and %q", m.Home, box[m.Home], want)
		}
		if n := len(r.f.Messages()); n != 12+2 {
			t.Fatalf("%d messages, want 12 pairings, the offers and the counter-offer once each", n)
		}
		// An accepted time tells nobody of an offer.
		must2(s.Negotiate(ctx, player(m.Home), "wc", m.ID, NegotiationStep{Kind: NegAccept, At: day(26)}))
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		if n := len(r.f.Messages()); n != 14 {
			t.Fatalf("%d messages after an acceptance, want 14", n)
		}
	})
}

// TestLichessTeamAnnouncements: where the format names the event's
// Lichess team, the pairings of a round published and the results of a
// round closed go to every member of the team once, from the organiser
// who leads it; with messages off, nothing does.
func TestLichessTeamAnnouncements(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("acwc-2023"))
		f.Lichess.Team = "acwc"
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Name: "ACWC 2023", Format: doc.Bytes(), Start: utc(2023, 3, 19, 12, 0)}))
		names := registerPlayers(t, s, "wc", 13)
		r := newLichessRig(t, s, c, names...)
		r.f.AddTeam("acwc", "ACWC", false, append([]string{"organiser", "fan"}, names...)...)
		for _, n := range names {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.SetMessages(ctx, td, "wc", true))
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		if len(r.f.TeamMessages("acwc")) != 0 {
			t.Fatal("announced before the jobs ran")
		}
		runJobs(t, s, c)
		if len(r.f.TeamMessages("acwc")) != 0 {
			t.Fatal("pairings announced before they were published")
		}
		must(s.PublishRound(ctx, td, "wc"))
		runJobs(t, s, c)
		runJobs(t, s, c)
		var lines []string
		for _, m := range ms {
			if m.IsBye() {
				lines = append(lines, "- "+m.Home+": bye")
			} else {
				lines = append(lines, "- "+m.Home+" v "+m.Away)
			}
		}
		want := "ACWC 2023, round 1: the pairings are out. Deadline Monday 2023-03-27 23:59 UTC.\n\n" + strings.Join(lines, "\n") +
			"\n\nPairings: http://localhost:8080/events/wc/rounds/s1r1"
		got := r.f.TeamMessages("acwc")
		members := append([]string{"fan"}, names...)
		if len(got) != 1 || got[0].Text != want || got[0].From != "organiser" || !slices.Equal(got[0].To, members) {
			t.Fatalf("announcements %+v,\nwant once from organiser to %v: %q", got, members, want)
		}
		if len(ms) != 7 || !ms[6].IsBye() {
			t.Fatalf("13 players: want 6 matches and a bye, got %+v", ms)
		}

		// The round closes: its results.
		must(s.OverrideResult(ctx, td, "wc", ms[0].ID, ResultInput{Summary: "5.5-2.5"}, "games checked on Lichess", 0))
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "wc"))
		runJobs(t, s, c)
		c.t = c.t.Add(time.Hour)
		runJobs(t, s, c)
		got = r.f.TeamMessages("acwc")
		if len(got) != 2 || !strings.HasPrefix(got[1].Text, "ACWC 2023, round 1: the results.\n\n- "+ms[0].Home+" 5.5-2.5 "+ms[0].Away+"\n- "+ms[1].Home+" ") ||
			!strings.HasSuffix(got[1].Text, "\n- "+ms[6].Home+": bye\n\nStandings: http://localhost:8080/events/wc/standings") {
			t.Fatalf("results announcement %q", got[len(got)-1].Text)
		}

		// Messages off: round 2 is not announced.
		must(s.SetMessages(ctx, td, "wc", false))
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = c.t.Add(time.Hour)
		runJobs(t, s, c)
		if n := len(r.f.TeamMessages("acwc")); n != 2 {
			t.Fatalf("%d announcements with messages off, want the 2 of round 1", n)
		}
	})
}

// TestLichessOfferMessagesBoards: in the antichess cup each board's
// players negotiate their own time (A5), or a captain for them (A16): an
// offer on board 2 reaches the other team's board-2 player, not their
// captain, and says which board; a captain's offer on board 3 names the
// captain and the team.
func TestLichessOfferMessagesBoards(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Name: "Antichess Cup", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		players := submitCupBoards(t, s, "atc", 10)
		r := newLichessRig(t, s, c, players...)
		must(s.SetMessages(ctx, td, "atc", true))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 7, 10, 0)
		m := ms[0]
		link := "http://localhost:8080/events/atc/matches/" + m.ID
		times := []time.Time{utc(2025, 1, 8, 18, 0), utc(2025, 1, 9, 18, 0), utc(2025, 1, 10, 18, 0)}
		must2(s.Negotiate(ctx, player(m.HomeBoards[1]), "atc", m.ID, NegotiationStep{Board: 2, Kind: NegPropose, Times: times}))
		homeCap := "cap" + strings.TrimPrefix(m.Home, "team-")
		must2(s.Negotiate(ctx, arbiter.Actor{Name: homeCap, Role: arbiter.RoleCaptain}, "atc", m.ID, NegotiationStep{Board: 3, Kind: NegPropose, Times: times}))
		c.t = c.t.Add(MessageBundle)
		runJobs(t, s, c)
		box := inbox(r.f)
		var home arbiter.Entrant
		for _, e := range must(s.Entrants(ctx, "atc")) {
			if e.ID == m.Home {
				home = e
			}
		}
		if home.Name == "" {
			t.Fatalf("no team %s", m.Home)
		}
		at := "Wednesday 2025-01-08 18:00 UTC, Thursday 2025-01-09 18:00 UTC or Friday 2025-01-10 18:00 UTC"
		want2 := "Antichess Cup: " + m.HomeBoards[1] + " (" + home.Name + ") offers to play your game on board 2 at " + at + ". Accept one or offer others on the match page: " + link
		want3 := "Antichess Cup: " + homeCap + " (" + home.Name + ") offers to play your game on board 3 at " + at + ". Accept one or offer others on the match page: " + link
		if got := box[m.AwayBoards[1]]; len(got) != 1 || got[0] != want2 {
			t.Errorf("board 2's away player got %q,\nwant %q", got, want2)
		}
		if got := box[m.AwayBoards[2]]; len(got) != 1 || got[0] != want3 {
			t.Errorf("board 3's away player got %q,\nwant %q", got, want3)
		}
		awayCap := "cap" + strings.TrimPrefix(m.Away, "team-")
		if got := box[awayCap]; len(got) != 1 || !strings.HasPrefix(got[0], "Antichess Cup, round 1: you play ") {
			t.Errorf("the away captain heard of the boards' offers: %q", got)
		}
	})
}
