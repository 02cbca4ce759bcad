package app

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// swissPoolsKO is a compact W8-W10: a one-round Swiss of 8, all 8 into two
// pools of 4 (single round robin), the top 2 of each pool into a knockout
// across pools (winner v the other pool's runner-up).
const swissPoolsKO = `{
  "name": "swiss-pools-ko",
  "title": "Swiss, pools, knockout",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "armageddon": {"black": "3+0", "black_draw_odds": true, "equal_bids": "coin_flip"},
  "stages": [
    {"name": "swiss", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 1}, "advance": {"fixed": 8},
     "tiebreaks": ["buchholz"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "pools", "kind": "pool", "pairing": "berger", "cycles": 1,
     "pools": [{"name": "upper", "places": [1, 4, 5, 8], "advance": 2}, {"name": "lower", "places": [2, 3, 6, 7], "advance": 2}],
     "tiebreaks": ["mutual_match_score", "mutual_game_score"], "tiebreak_clause": "W9",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "knockout", "kind": "knockout", "pairing": "bracket", "seeding": "cross_pool",
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss",
               "tie": [{"kind": "armageddon"}]}}
  ]
}`

// playWith pairs, publishes, enters every open match's result as result
// (home, away) decides, and closes the round at its deadline.
func playWith(t *testing.T, s *Service, c *clock, slug string, result func(home, away string) string) []arbiter.Match {
	t.Helper()
	rd, ms, err := s.PairRound(ctx, td, slug)
	must(ms, err)
	must(s.PublishRound(ctx, td, slug))
	c.t = rd.Start.Add(3600e9)
	for _, m := range ms {
		if m.Status != arbiter.MatchFinal {
			must(s.OverrideResult(ctx, td, slug, m.ID, ResultInput{Summary: result(m.Home, m.Away)}, "from the Lichess games", 0))
		}
	}
	c.t = rd.End
	must(s.CloseRound(ctx, td, slug))
	return ms
}

// betterSeedWins: p01 beats p02 beats ... (the names sort by seed).
func betterSeedWins(home, away string) string {
	if home < away {
		return "6-4"
	}
	return "4-6"
}

// TestPoolWinnerTie: a pool's winner and runner-up that W9's tiebreaks
// cannot separate are not ordered by the seeds: AdvanceStage refuses naming
// them and W9, and the TDs' order (with a reason) decides the semifinals.
func TestPoolWinnerTie(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "pk", Format: []byte(swissPoolsKO), Start: utc(2023, 3, 21, 0, 0)}))
		for _, n := range registerPlayers(t, s, "pk", 8) {
			must(s.Approve(ctx, td, "pk", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "pk"))
		playWith(t, s, c, "pk", betterSeedWins)
		// Four winners on 1 and four losers on 0 with equal Buchholz: the
		// places go to different pools, so the TDs order them (here: by seed).
		seeds := []string{"p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08"}
		ev := must(s.AdvanceStage(ctx, td, "pk", AdvanceOptions{TieOrder: seeds, Reason: "drawing of lots"}))
		if p := ev.Stages[1].Pools; !sameSet(p[0].Seeds, []string{"p01", "p04", "p05", "p08"}) || !sameSet(p[1].Seeds, []string{"p02", "p03", "p06", "p07"}) {
			t.Fatalf("pools %+v", p)
		}
		// Upper pool: p01 and p04 draw 5-5 and both beat p05 and p08 (6-4);
		// p05 beats p08. p01 and p04 end on 2.5 with the mutual match and
		// game scores equal: W9 cannot tell the winner from the runner-up.
		// Lower pool: the better seed wins (p02 3, p03 2, p06 1, p07 0).
		pools := func(home, away string) string {
			if (home == "p01" && away == "p04") || (home == "p04" && away == "p01") {
				return "5-5"
			}
			return betterSeedWins(home, away)
		}
		for range 3 {
			playWith(t, s, c, "pk", pools)
		}
		up := must(s.PoolStandings(ctx, "pk", 1, "upper"))
		if up.Rows[0].Rank != up.Rows[1].Rank || up.Rows[2].Rank == up.Rows[1].Rank {
			t.Fatalf("upper pool %+v: want exactly places 1-2 tied", up.Rows)
		}
		_, err := s.AdvanceStage(ctx, td, "pk", AdvanceOptions{})
		wantErr(t, err, arbiter.ERULE, "W9")
		want := "pool upper: the tiebreaks leave p01, p04 tied on places 1-2"
		if msg := err.Error(); !strings.Contains(msg, want) {
			t.Fatalf("refusal %q, want it to name %q", msg, want)
		}
		// The TDs' order lists every pool's two, pool after pool; only tied
		// entrants may be swapped, and everyone listed must be in a pool.
		for _, bad := range [][]string{
			{"p04", "p01", "p03", "p02"}, // p02 ranks above p03
			{"p04", "p01", "p02"},        // the lower pool's runner-up missing
			{"p04", "p01", "p02", "p03", "zz"},
		} {
			_, err = s.AdvanceStage(ctx, td, "pk", AdvanceOptions{TieOrder: bad, Reason: "lots"})
			wantErr(t, err, arbiter.EINVALID, "W9")
		}
		_, err = s.AdvanceStage(ctx, td, "pk", AdvanceOptions{TieOrder: []string{"p04", "p01", "p02", "p03"}})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		must(s.AdvanceStage(ctx, td, "pk", AdvanceOptions{TieOrder: []string{"p04", "p01", "p02", "p03"}, Reason: "drawing of lots"}))
		// W10 with the TDs' order: p04 (upper winner) v p03 (lower
		// runner-up), p02 (lower winner) v p01 (upper runner-up).
		_, semis, err := s.PairRound(ctx, td, "pk")
		must(semis, err)
		got := [][2]string{{semis[0].Home, semis[0].Away}, {semis[1].Home, semis[1].Away}}
		if !sameSet(pairKeys(got), pairKeys([][2]string{{"p04", "p03"}, {"p02", "p01"}})) {
			t.Fatalf("semifinals %v", got)
		}
		log := must(s.Audit(ctx, td, "pk", sqlstore.AuditFilter{}))
		last := log[len(log)-1]
		for _, e := range log {
			if e.Action == "stage.advance" {
				last = e
			}
		}
		if last.Action != "stage.advance" || last.Reason != "drawing of lots" {
			t.Fatalf("advance audited as %+v", last)
		}
	})
}
