package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"arbiter"
	"arbiter/standings"
)

// rankedKO is a one-round Swiss of 8 ranked by points scored, whose top 4
// play a knockout, with a third-place match when %v is true.
const rankedKO = `{
  "name": "ranked-ko",
  "title": "Swiss then knockout",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "stages": [
    {"name": "swiss", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 1}, "advance": {"fixed": 4},
     "tiebreaks": ["points_scored"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "knockout", "kind": "knockout", "pairing": "bracket", "seeding": "standings", "third_place": %v,
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}}
  ]
}`

// playScores enters the open round's results as TD decisions: scores maps
// "home-away" (player IDs) to the home side's game score.
func playScores(t *testing.T, s *Service, c *clock, slug string, scores map[string]string) {
	t.Helper()
	rounds := must(s.Rounds(ctx, slug))
	rd := rounds[len(rounds)-1]
	c.t = rd.Start.Add(3600e9)
	for _, m := range must(s.Matches(ctx, slug, rd.ID)) {
		sum, ok := scores[m.Home+"-"+m.Away]
		if !ok {
			t.Fatalf("%s: no score given for %s-%s", m.ID, m.Home, m.Away)
		}
		must(s.OverrideResult(ctx, td, slug, m.ID, ResultInput{Summary: sum}, "entered from the Lichess games", 0))
	}
	c.t = rd.End
	must(s.CloseRound(ctx, td, slug))
}

// TestFinalRanking: the final ranking runs across the stages. By hand:
// round 1 of the Swiss (C.04.3: 1-5, 6-2, 3-7, 8-4) gives p01 9-1, p02
// 8-2, p03 7-3, p04 6-4 against p05, p06, p07, p08: the top 4 by points
// scored are p01 (9), p02 (8), p03 (7), p04 (6), then p08 (4), p07 (3),
// p06 (2), p05 (1). The semifinals are 1 v 4 and 2 v 3: p04 beats p01 and
// p02 beats p03; p02 wins the final against p04.
//   - With a third-place match (p03 beats p01): 1 p02, 2 p04, 3 p03, 4 p01,
//     then the Swiss: 5 p08, 6 p07, 7 p06, 8 p05. The losing finalist is
//     2nd, not tied with the third-place winner.
//   - Without one (R2's knockout names none): the semifinal losers are
//     ordered by their knockout seed, the Swiss place: 3 p01, 4 p03.
func TestFinalRanking(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		for _, third := range []bool{true, false} {
			slug := fmt.Sprintf("ko-%v", third)
			c.t = utc(2023, 3, 12, 9, 0)
			must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(fmt.Sprintf(rankedKO, third)), Start: utc(2023, 3, 21, 0, 0)}))
			for _, n := range registerPlayers(t, s, slug, 8) {
				must(s.Approve(ctx, td, slug, n, 0))
			}
			must(s.CloseRegistration(ctx, td, slug))
			pairOK(s.PairRound(ctx, td, slug))
			must(s.PublishRound(ctx, td, slug))
			playScores(t, s, c, slug, map[string]string{"p01-p05": "9-1", "p06-p02": "2-8", "p03-p07": "7-3", "p08-p04": "4-6"})
			_, err := s.Ranking(ctx, slug)
			wantErr(t, err, arbiter.ERULE, "app.ranking") // still running
			ev := must(s.AdvanceStage(ctx, td, slug, AdvanceOptions{}))
			if !slices.Equal(ev.Stages[1].Seeds, []string{"p01", "p02", "p03", "p04"}) {
				t.Fatalf("knockout seeds %v", ev.Stages[1].Seeds)
			}
			pairOK(s.PairRound(ctx, td, slug))
			must(s.PublishRound(ctx, td, slug))
			playScores(t, s, c, slug, map[string]string{"p01-p04": "4-6", "p02-p03": "7-3"})
			// After the semifinals the stage table has the finalists ahead.
			tab := must(s.Standings(ctx, slug, 1))
			if got := rankRows(tab.Rows); got != "1=p02 1=p04 3=p01 3=p03" {
				t.Fatalf("knockout table after the semifinals: %s", got)
			}
			pairOK(s.PairRound(ctx, td, slug))
			must(s.PublishRound(ctx, td, slug))
			scores := map[string]string{"p04-p02": "3-7", "p02-p04": "7-3"}
			if third {
				scores["p01-p03"], scores["p03-p01"] = "4-6", "6-4"
			}
			playScores(t, s, c, slug, scores)
			if ev := must(s.Event(ctx, slug)); ev.Status != arbiter.EventFinished {
				t.Fatalf("status %s after the final", ev.Status)
			}
			got := must(s.Ranking(ctx, slug))
			var line []string
			for _, p := range got {
				line = append(line, fmt.Sprintf("%d %s %s", p.Rank, p.Entrant, p.DecidedBy))
			}
			want := []string{"1 p02 final", "2 p04 final", "3 p03 third_place", "4 p01 third_place",
				"5 p08 standings", "6 p07 standings", "7 p06 standings", "8 p05 standings"}
			wantTable := "1 p02, 2 p04, 3 p03, 4 p01"
			if !third {
				want[2], want[3] = "3 p01 knockout_round", "4 p03 knockout_round"
				wantTable = "1 p02, 2 p04, 3= p01, 3= p03"
			}
			if !slices.Equal(line, want) {
				t.Fatalf("ranking (third place %v):\n%s\nwant\n%s", third, strings.Join(line, "\n"), strings.Join(want, "\n"))
			}
			if got[0].How != "won the final" || got[1].How != "lost the final" || got[4].How != "place 5 in the swiss" || got[0].Stage != "knockout" || got[4].Stage != "swiss" {
				t.Fatalf("how: %+v", got)
			}
			if !third && got[2].How != "lost in the semifinals; ordered by the swiss (knockout seed 1)" {
				t.Fatalf("semifinal loser: %q", got[2].How)
			}
			tab = must(s.Standings(ctx, slug, 1))
			if rankRows(tab.Rows) != tableWant(wantTable) {
				t.Fatalf("knockout table: %s, want %s", rankRows(tab.Rows), tableWant(wantTable))
			}
		}
	})
}

// rankRows writes rows as "1=p02 2p04": rank, "=" when shared, ID.
func rankRows(rows []standings.Row) string {
	var out []string
	for _, r := range rows {
		sep := ""
		if r.Shared {
			sep = "="
		}
		out = append(out, fmt.Sprintf("%d%s%s", r.Rank, sep, r.ID))
	}
	return strings.Join(out, " ")
}

// tableWant turns "1 p02, 3= p01" into rankRows' form.
func tableWant(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), ",", " ")
}
