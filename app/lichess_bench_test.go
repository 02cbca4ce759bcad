package app

import (
	"fmt"
	"testing"
	"time"

	"arbiter"
	"arbiter/lichess/lichesstest"
	"arbiter/lineup"
	"arbiter/sqlstore/storetest"
)

// The cost on Lichess of running a round through the jobs, with the
// client's real pacing (one request at a time, a second between starts)
// counted on a virtual clock against the fake, which answers at once:
// every game is finished between two looks (GamesPoll), so these are the
// fewest requests a round takes; each extra minute a game lasts costs one
// more export request per match (per board in the cup) being played.
//
//	go test -run '^$' -bench LichessRound -benchtime 1x ./app/

func benchLichessRound(b *testing.B, setup func(b *testing.B, s *Service, c *clock) (*lichessRig, []arbiter.Match, time.Time)) {
	for b.Loop() {
		c := &clock{t: utc(2023, 3, 12, 9, 0)}
		s := New(storetest.SQLite(b), c.now)
		r, ms, start := setup(b, s, c)
		r.f.ResetLog()
		paced := r.pacing.Waited()
		c.t = start
		if _, err := s.Jobs().RunDue(ctx, c.t, 4); err != nil {
			b.Fatal(err)
		}
		looks := 0
		for ; looks < 60; looks++ {
			if _, err := r.f.FinishAll(func(p lichesstest.Pending) lichesstest.Result { return lichesstest.WhiteWins }); err != nil {
				b.Fatal(err)
			}
			c.t = c.t.Add(GamesPoll)
			if _, err := s.Jobs().RunDue(ctx, c.t, 4); err != nil {
				b.Fatal(err)
			}
			if len(r.f.Pending()) == 0 && !gamesJobsLeft(b, s, c) {
				break
			}
		}
		byRoute := map[string]int{}
		for _, q := range r.f.Log() {
			if q.Status != 200 {
				b.Fatalf("%s %s: %d", q.Method, q.Path, q.Status)
			}
			byRoute[q.Method+" "+q.Route]++
		}
		reported := 0
		for _, m := range must(s.Matches(ctx, "ev", "")) {
			if m.Status == arbiter.MatchReported {
				reported++
			}
		}
		if reported != len(ms) {
			b.Fatalf("%d of %d matches reported from Lichess", reported, len(ms))
		}
		b.ReportMetric(float64(looks+1), "looks/op")
		b.ReportMetric(float64(byRoute["POST /api/challenge/open"]), "create-requests/op")
		b.ReportMetric(float64(byRoute["POST /api/games/export/_ids"]), "export-by-id-requests/op")
		b.ReportMetric(float64(byRoute["GET /api/games/user/{username}"]), "export-by-user-requests/op")
		b.ReportMetric(float64(len(r.f.Log())), "requests/op")
		b.ReportMetric((r.pacing.Waited() - paced).Seconds(), "paced-s/op")
	}
}

// BenchmarkLichessRoundACWC40: a 40-player ACWC round, 20 matches of 10
// games (White wins every game: 5-5, every game played).
func BenchmarkLichessRoundACWC40(b *testing.B) {
	benchLichessRound(b, func(b *testing.B, s *Service, c *clock) (*lichessRig, []arbiter.Match, time.Time) {
		var names []string
		for i := 1; i <= 40; i++ {
			names = append(names, fmt.Sprintf("p%02d", i))
		}
		r := newLichessRig(b, s, c, names...)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ev", Name: "ACWC 2023", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for i, n := range names {
			must(s.Register(ctx, player(n), "ev", arbiter.Entrant{Player: n, Rating: 2550 - 10*i}))
			must(s.Approve(ctx, td, "ev", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "ev"))
		ms := pairOK(s.PairRound(ctx, td, "ev"))
		must(s.PublishRound(ctx, td, "ev"))
		c.t = utc(2023, 3, 20, 10, 0)
		start := utc(2023, 3, 22, 18, 0)
		offers := []time.Time{start, utc(2023, 3, 23, 18, 0), utc(2023, 3, 24, 18, 0)}
		for _, m := range ms {
			must2(s.Negotiate(ctx, player(m.Home), "ev", m.ID, NegotiationStep{Kind: NegPropose, Times: offers}))
			must2(s.Negotiate(ctx, player(m.Away), "ev", m.ID, NegotiationStep{Kind: NegAccept, At: start}))
		}
		return r, ms, start
	})
}

// BenchmarkLichessRoundCup12: a 12-team antichess-cup round, 6 matches of
// 4 boards of 18 games, each board at its own agreed time (A5).
func BenchmarkLichessRoundCup12(b *testing.B) {
	benchLichessRound(b, func(b *testing.B, s *Service, c *clock) (*lichessRig, []arbiter.Match, time.Time) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ev", Name: "Antichess Cup", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(b, s, "ev", 12, 1, false)
		must(s.CloseRegistration(ctx, td, "ev"))
		var players []string
		for i := 1; i <= 12; i++ {
			var members []lineup.Member
			for j, p := range []string{"cap", "a", "b", "c"} {
				name := fmt.Sprintf("%s%02d", p, i)
				players = append(players, name)
				members = append(members, lineup.Member{Name: name, Rating: 2000 - 10*j})
			}
			bt := must(s.RankBoards(ctx, td, "ev", fmt.Sprintf("team-%02d", i), members, nil))
			must(s.SubmitBoards(ctx, arbiter.Actor{Name: fmt.Sprintf("cap%02d", i), Role: arbiter.RoleCaptain}, "ev", fmt.Sprintf("team-%02d", i), bt.TDOrder))
		}
		r := newLichessRig(b, s, c, players...)
		ms := pairOK(s.PairRound(ctx, td, "ev"))
		must(s.PublishRound(ctx, td, "ev"))
		c.t = utc(2025, 1, 7, 10, 0)
		start := utc(2025, 1, 8, 18, 0)
		offers := []time.Time{start, utc(2025, 1, 9, 18, 0), utc(2025, 1, 10, 18, 0)}
		for _, m := range ms {
			for bd := range 4 {
				must2(s.Negotiate(ctx, player(m.HomeBoards[bd]), "ev", m.ID, NegotiationStep{Board: bd + 1, Kind: NegPropose, Times: offers}))
				must2(s.Negotiate(ctx, player(m.AwayBoards[bd]), "ev", m.ID, NegotiationStep{Board: bd + 1, Kind: NegAccept, At: start}))
			}
		}
		return r, ms, start
	})
}
