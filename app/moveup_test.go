package app

import (
	"strings"
	"testing"

	"arbiter"
)

// TestMoveUpFinal: W17 after the semifinals. Swiss round 1 of 8 (1-5,
// 6-2, 3-7, 8-4, the better seed wins) leaves p01-p04 on one point each,
// in seed order; the knockout pairs p01-p04 and p02-p03 and the better
// seeds win again. When finalist p01 withdraws before the final, p04 (the
// semifinal opponent p01 beat, the player below) takes p01's place against
// p02, and p03, the other semifinal loser, is third. Both before the final
// is paired and after.
func TestMoveUpFinal(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(swissKO, `"entrant": "individual",`, `"entrant": "individual", "sanctions": "acwc",`, 1)
	backends(t, func(t *testing.T, s *Service, c *clock) {
		for _, slug := range []string{"early", "late"} {
			must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(doc), Start: utc(2023, 3, 21, 0, 0), AllowPast: true}))
			for _, n := range registerPlayers(t, s, slug, 8) {
				must(s.Approve(ctx, td, slug, n, 0))
			}
			must(s.CloseRegistrationWith(ctx, td, slug, CloseOptions{AllowPast: true}))
			playRound(t, s, c, slug)
			ev := advanceTied(t, s, slug, "format.stages[0].tiebreaks", []string{"p01", "p02", "p03", "p04"})
			if got := strings.Join(ev.Stages[1].Seeds, " "); got != "p01 p02 p03 p04" {
				t.Fatalf("knockout seeds %s", got)
			}
			semis := playRound(t, s, c, slug)
			if len(semis) != 2 {
				t.Fatalf("semifinals %+v", semis)
			}
			if slug == "early" {
				must2(s.Sanction(ctx, td, slug, SanctionRequest{Entrant: "p01", Kind: "withdrawal", Reason: "cannot play the final"}))
				ms := pairOK(s.PairRound(ctx, td, slug))
				if len(ms) != 2 || ms[0].Format != "final" || ms[0].Home != "p04" || ms[0].Away != "p02" {
					t.Fatalf("final after W17 %+v", ms)
				}
				if tp := ms[1]; tp.Format != "third_place" || tp.Home != "p03" || !tp.IsBye() || tp.Status != arbiter.MatchFinal {
					t.Fatalf("third-place match %+v", tp)
				}
				continue
			}
			ms := pairOK(s.PairRound(ctx, td, slug))
			if ms[0].Format != "final" || !sameSet([]string{ms[0].Home, ms[0].Away}, []string{"p01", "p02"}) {
				t.Fatalf("final %+v", ms[0])
			}
			must(s.PublishRound(ctx, td, slug))
			_, changed := must2(s.Sanction(ctx, td, slug, SanctionRequest{Entrant: "p01", Kind: "withdrawal", Reason: "cannot play the final"}))
			if len(changed) != 2 {
				t.Fatalf("changed %+v", changed)
			}
			fin, tp := changed[0], changed[1]
			if !sameSet([]string{fin.Home, fin.Away}, []string{"p04", "p02"}) || fin.Status != arbiter.MatchScheduled {
				t.Fatalf("final after W17 %+v", fin)
			}
			winner := tp.Home
			if tp.Result.Result == "away_win" {
				winner = tp.Away
			}
			if tp.Format != "third_place" || tp.Decision != "moved_up" || winner != "p03" {
				t.Fatalf("third-place match %+v %+v", tp, tp.Result)
			}
		}
	})
}
