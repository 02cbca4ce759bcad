package app

import (
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/standings"
)

// playRound pairs, publishes and plays the current round: the entrant with
// the better initial seed wins every match (reported by home,
// confirmed by away), and closes the round at its deadline.
func playRound(t *testing.T, s *Service, c *clock, slug string) []arbiter.Match {
	t.Helper()
	pairOK(s.PairRound(ctx, td, slug))
	must(s.PublishRound(ctx, td, slug))
	return playOpen(t, s, c, slug)
}

// playOpen plays and closes the published round.
func playOpen(t *testing.T, s *Service, c *clock, slug string) []arbiter.Match {
	t.Helper()
	rounds := must(s.Rounds(ctx, slug))
	rd := rounds[len(rounds)-1]
	ms := must(s.Matches(ctx, slug, rd.ID))
	c.t = rd.Start.Add(3600e9)
	seed := map[string]int{}
	for _, e := range must(s.Entrants(ctx, slug)) {
		seed[e.ID] = e.Seed
	}
	for _, m := range ms {
		if m.Status == arbiter.MatchFinal { // a bye, or a removed player's match
			continue
		}
		// All the games, won by one game more than half (W4: 6-4; W11: 7-5).
		f := must(s.Format(ctx, slug))
		g := f.Stages[m.Stage].MatchFor(m.Format).Parts[0].Games
		sum := fmt.Sprintf("%d-%d", g/2+1, g/2-1)
		if seed[m.Away] < seed[m.Home] {
			sum = fmt.Sprintf("%d-%d", g/2-1, g/2+1)
		}
		must(s.ReportResult(ctx, player(m.Home), slug, m.ID, ResultInput{Summary: sum}))
		must(s.ConfirmResult(ctx, player(m.Away), slug, m.ID, 0))
	}
	c.t = rd.End
	must(s.CloseRound(ctx, td, slug))
	return ms
}

// TestACWCStages runs the ACWC preset through its three stages: the Swiss
// (W5: 13 players, 5 rounds), the top 12 (W6) into two pools by the W8
// pattern, a double round robin in each (10 rounds), the pool winners v
// the other pool's runners-up (W10), then the final and third-place match
// (W11).
func TestACWCStages(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 13) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "wc"))
		if got := []int{ev.Stages[0].Rounds, ev.Stages[1].Rounds, ev.Stages[2].Rounds}; !slices.Equal(got, []int{5, 10, 2}) {
			t.Fatalf("rounds per stage %v, want [5 10 2] (W5, W8, W10-W11)", got)
		}
		_, err := s.AdvanceStage(ctx, td, "wc", AdvanceOptions{})
		wantErr(t, err, arbiter.ERULE, "app.stage") // no round played yet
		for range 5 {
			playRound(t, s, c, "wc")
		}
		tab := must(s.Standings(ctx, "wc", 0))
		var order []string
		for _, r := range tab.Rows {
			order = append(order, r.ID)
		}
		t.Logf("qualification: %v", order)
		_, err = s.AdvanceStage(ctx, player("p01"), "wc", AdvanceOptions{})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		// Whatever the tiebreaks leave tied across two pools (W8) the TDs
		// decide: here they put the tied 5th and 6th the other way round.
		_, err = s.AdvanceStage(ctx, td, "wc", AdvanceOptions{})
		wantErr(t, err, arbiter.ERULE, "W7")
		if tab.Rows[4].Rank != tab.Rows[5].Rank {
			t.Fatalf("expected the tie on places 5-6: %+v", tab.Rows)
		}
		order[4], order[5] = order[5], order[4]
		ev = must(s.AdvanceStage(ctx, td, "wc", AdvanceOptions{TieOrder: order[:12], Reason: "drawing of lots"}))
		if ev.Stage != 1 || !slices.Equal(ev.Stages[1].Seeds, order[:12]) {
			t.Fatalf("candidates %v, want the top 12 %v", ev.Stages[1].Seeds, order[:12])
		}
		// W8: upper pool = places 12, 9, 7, 6, 4, 1; lower = 11, 10, 8, 5, 3, 2.
		at := func(places ...int) []string {
			var out []string
			for _, p := range places {
				out = append(out, order[p-1])
			}
			return out
		}
		pools := ev.Stages[1].Pools
		if len(pools) != 2 || pools[0].Name != "upper" || !sameSet(pools[0].Seeds, at(12, 9, 7, 6, 4, 1)) || !sameSet(pools[1].Seeds, at(11, 10, 8, 5, 3, 2)) {
			t.Fatalf("pools %+v", pools)
		}
		// After the first candidates round the weakest of the lower pool
		// withdraws: W17 disregards all their candidates games.
		gone := ""
		for round := 1; round <= 10; round++ {
			if round == 2 {
				gone = pools[1].Seeds[5]
				_, changed := must2(s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: gone, Kind: "withdrawal", Reason: "left the event"}))
				if len(changed) != 1 || changed[0].Decision != "disregarded" || changed[0].Result != nil {
					t.Fatalf("W17 candidates withdrawal changed %+v", changed)
				}
			}
			ms := playRound(t, s, c, "wc")
			if len(ms) != 6 || ms[0].Pool != "upper" || ms[5].Pool != "lower" {
				t.Fatalf("a candidates round is 3 matches per pool: %+v", ms)
			}
			for _, m := range ms {
				if gone != "" && (m.Home == gone || m.Away == gone) && m.Decision != "disregarded" {
					t.Fatalf("round %d: %s's match %+v", round, gone, m)
				}
			}
		}
		// The better initial seed won every game, so each pool's order is
		// its initial seeding order: 10 and 8 points of 10 matches; in the
		// lower pool the two games against the withdrawn player are gone.
		// W9's last tiebreaks: the previous final (entered by the TDs) and
		// the qualification result (place 1 of 12 is worth 12).
		_, err = s.SetTiebreakValue(ctx, td, "wc", order[0], "qualification", arbiter.P(5))
		wantErr(t, err, arbiter.EINVALID, "app.tiebreak")
		must(s.SetTiebreakValue(ctx, td, "wc", order[0], "previous_final", arbiter.P(2)))
		qual := map[string]arbiter.Points{}
		for i, id := range order[:12] {
			qual[id] = arbiter.P(float64(12 - i))
		}
		var winners [2][2]string
		for i, p := range []string{"upper", "lower"} {
			pt := must(s.PoolStandings(ctx, "wc", 1, p))
			for _, r := range pt.Rows {
				prev := arbiter.Points(0)
				if r.ID == order[0] {
					prev = arbiter.P(2)
				}
				if pt.Tiebreaks[4].String() != "td_value:qualification" || r.Values[4] != qual[r.ID] || r.Values[3] != prev {
					t.Fatalf("pool %s row %+v (tiebreaks %v), want qualification %s", p, r, pt.Tiebreaks, qual[r.ID])
				}
			}
			winners[i] = [2]string{pt.Rows[0].ID, pt.Rows[1].ID}
			first, second := arbiter.P(10), arbiter.P(8)
			if p == "lower" {
				first, second = arbiter.P(8), arbiter.P(6)
			}
			if pt.Rows[0].Score != first || pt.Rows[1].Score != second {
				t.Fatalf("pool %s: %+v", p, pt.Rows)
			}
		}
		_, err = s.Standings(ctx, "wc", 1)
		wantErr(t, err, arbiter.EINVALID, "app.stage")
		ev = must(s.AdvanceStage(ctx, td, "wc", AdvanceOptions{}))
		// W10: pool winner v the other pool's runner-up.
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		semis := [][2]string{{ms[0].Home, ms[0].Away}, {ms[1].Home, ms[1].Away}}
		wantSemis := [][2]string{{winners[0][0], winners[1][1]}, {winners[1][0], winners[0][1]}}
		if !sameSet(pairKeys(semis), pairKeys(wantSemis)) || len(ms) != 2 {
			t.Fatalf("semifinals %v, want %v", semis, wantSemis)
		}
		must(s.PublishRound(ctx, td, "wc"))
		// W17: the upper pool's winner withdraws before the semifinals are
		// played; the upper pool's 2nd and 3rd move up, so the semifinals
		// become upper 2nd v lower 2nd and lower 1st v upper 3rd.
		upper := must(s.PoolStandings(ctx, "wc", 1, "upper"))
		third := upper.Rows[2].ID
		must2(s.Sanction(ctx, td, "wc", SanctionRequest{Entrant: winners[0][0], Kind: "withdrawal", Reason: "cannot play the semifinal"}))
		ms = playOpen(t, s, c, "wc")
		semis = [][2]string{{ms[0].Home, ms[0].Away}, {ms[1].Home, ms[1].Away}}
		wantSemis = [][2]string{{winners[0][1], winners[1][1]}, {winners[1][0], third}}
		if !sameSet(pairKeys(semis), pairKeys(wantSemis)) {
			t.Fatalf("semifinals after W17 %v, want %v", semis, wantSemis)
		}
		final := playRound(t, s, c, "wc")
		if len(final) != 2 || final[0].Format != "final" || final[1].Format != "third_place" {
			t.Fatalf("final round %+v", final)
		}
		if ev := must(s.Event(ctx, "wc")); ev.Status != arbiter.EventFinished {
			t.Fatalf("event is %s after the final", ev.Status)
		}
		_, _, err = s.PairRound(ctx, td, "wc")
		wantErr(t, err, arbiter.ERULE, "app.event")
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func pairKeys(ps [][2]string) []string {
	var out []string
	for _, p := range ps {
		x := []string{p[0], p[1]}
		slices.Sort(x)
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// swissKO is a one-round Swiss whose top 4 play a knockout with a
// third-place match; a tied knockout match goes to 4 tiebreak games, then
// armageddon (W11's procedure).
const swissKO = `{
  "name": "swiss-ko",
  "title": "Swiss then knockout",
  "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "pairings_by": {"day": "tuesday", "time": "23:59"}, "deadline": {"day": "monday", "time": "23:59"}},
  "armageddon": {"black": "3+0", "black_draw_odds": true, "equal_bids": "coin_flip"},
  "stages": [
    {"name": "swiss", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 1}, "advance": {"fixed": 4},
     "tiebreaks": ["buchholz"],
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}},
    {"name": "knockout", "kind": "knockout", "pairing": "bracket", "seeding": "standings", "third_place": true,
     "match": {"kind": "individual", "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}], "play_all_games": true,
               "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss",
               "tie": [{"kind": "games", "games": 4, "tc": "1+2"}, {"kind": "armageddon"}]}}
  ]
}`

func TestSwissToKnockout(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		setup := func(slug string) {
			must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Format: []byte(swissKO), Start: utc(2023, 3, 21, 0, 0)}))
			for _, n := range registerPlayers(t, s, slug, 8) {
				must(s.Approve(ctx, td, slug, n, 0))
			}
			must(s.CloseRegistration(ctx, td, slug))
			pairOK(s.PairRound(ctx, td, slug))
			must(s.PublishRound(ctx, td, slug))
			c.t = utc(2023, 3, 22, 0, 0)
		}
		// Every match drawn: eight players on ½ with equal Buchholz, so the
		// cut at 4 is a tie the tiebreaks cannot break.
		setup("tied")
		for _, m := range must(s.Matches(ctx, "tied", "s1r1")) {
			must(s.OverrideResult(ctx, td, "tied", m.ID, ResultInput{Summary: "5-5"}, "entered from the Lichess games", 0))
		}
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "tied"))
		_, err := s.AdvanceStage(ctx, td, "tied", AdvanceOptions{})
		wantErr(t, err, arbiter.ERULE, "format.stages[0].tiebreaks")
		// The TDs draw lots and give the order, with a reason.
		lots := []string{"p03", "p01", "p07", "p05"}
		_, err = s.AdvanceStage(ctx, td, "tied", AdvanceOptions{TieOrder: lots})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.AdvanceStage(ctx, td, "tied", AdvanceOptions{TieOrder: lots[:3], Reason: "lots"})
		wantErr(t, err, arbiter.EINVALID, "format.stages[0].tiebreaks")
		_, err = s.AdvanceStage(ctx, td, "tied", AdvanceOptions{TieOrder: []string{"p03", "p01", "p03", "p05"}, Reason: "lots"})
		wantErr(t, err, arbiter.EINVALID, "format.stages[0].tiebreaks")
		ev := must(s.AdvanceStage(ctx, td, "tied", AdvanceOptions{TieOrder: lots, Reason: "drawing of lots, 2023-03-28"}))
		if !slices.Equal(ev.Stages[1].Seeds, lots) {
			t.Fatalf("seeds %v, want the TDs' order %v", ev.Stages[1].Seeds, lots)
		}

		// Round 1 is 1-5, 6-2, 3-7, 8-4 (C.04.3); the better seed wins, so
		// p01-p04 go on, ranked by the stage's order.
		c.t = utc(2023, 3, 21, 0, 0)
		setup("ko")
		for _, m := range must(s.Matches(ctx, "ko", "s1r1")) {
			sum := "6-4"
			if m.Home > m.Away {
				sum = "4-6"
			}
			must(s.OverrideResult(ctx, td, "ko", m.ID, ResultInput{Summary: sum}, "entered from the Lichess games", 0))
		}
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		// Four winners on 1 point whose tiebreaks cannot tell them apart:
		// the knockout seeding is refused, not taken from the seed order.
		ev = advanceTied(t, s, "ko", "format.stages[0].tiebreaks", []string{"p02", "p01", "p04", "p03"})
		seeds := ev.Stages[1].Seeds
		if !slices.Equal(seeds, []string{"p02", "p01", "p04", "p03"}) {
			t.Fatalf("knockout seeds %v, want the TDs' order", seeds)
		}
		if !sameSet(seeds, []string{"p01", "p02", "p03", "p04"}) {
			t.Fatalf("knockout seeds %v", seeds)
		}
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		// Standard seeding: 1 v 4, 2 v 3 (by the Swiss order).
		if semis[0].Home != seeds[0] || semis[0].Away != seeds[3] || semis[1].Home != seeds[1] || semis[1].Away != seeds[2] {
			t.Fatalf("semifinals %+v, seeds %v", semis, seeds)
		}
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2023, 3, 29, 0, 0)
		// Semifinal 1 goes to armageddon (A3 rules, coin flip): sealed bids
		// first, revealed once both are in; the lower bid (away, 2:00) plays
		// White.
		id0 := semis[0].ID
		rules := armageddon.RulesA3()
		cHome, sHome := must2(armageddon.Seal(rules, id0, armageddon.SideA, 150*time.Second, rand.Reader))
		cAway, sAway := must2(armageddon.Seal(rules, id0, armageddon.SideB, 120*time.Second, rand.Reader))
		_, err = s.BidArmageddon(ctx, player(semis[1].Home), "ko", id0, &cHome, nil)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(s.BidArmageddon(ctx, player(semis[0].Home), "ko", id0, &cHome, nil))
		_, err = s.BidArmageddon(ctx, player(semis[0].Home), "ko", id0, nil, &sHome)
		wantErr(t, err, arbiter.ERULE, "A3") // the other bid is not in yet
		must(s.BidArmageddon(ctx, player(semis[0].Away), "ko", id0, &cAway, nil))
		_, err = s.BidArmageddon(ctx, player(semis[0].Away), "ko", id0, nil, &sHome) // not its own secret
		if err == nil {
			t.Fatal("a reveal that does not match the commitment was accepted")
		}
		must(s.BidArmageddon(ctx, player(semis[0].Home), "ko", id0, nil, &sHome))
		auc := must(s.BidArmageddon(ctx, player(semis[0].Away), "ko", id0, nil, &sAway))
		if auc.Outcome == nil || auc.Outcome.White != armageddon.SideB || auc.Outcome.WhiteTime != 120*time.Second {
			t.Fatalf("auction %+v", auc.Outcome)
		}
		arm := func(homeBid int) string {
			return fmt.Sprintf(`{"parts": [{"tc": "1+2", "results": "1 1 1 1 1 0 0 0 0 0"}], "tie": {"games": "1 = = 0",
				"armageddon": {"home_bid": %d, "away_bid": 120, "white": "away", "result": "1"}}}`, homeBid)
		}
		_, err = s.ReportResult(ctx, player(semis[0].Home), "ko", id0, ResultInput{Sheet: []byte(arm(160))})
		wantErr(t, err, arbiter.EINVALID, "A3")
		m0 := must(s.ReportResult(ctx, player(semis[0].Home), "ko", id0, ResultInput{Sheet: []byte(arm(150))}))
		if m0.Result.Result != "home_win" || m0.Result.DecidedBy != "armageddon" {
			t.Fatalf("armageddon result %+v", m0.Result)
		}
		// A drawn knockout match needs its tie procedure: a summary cannot
		// carry it, a sheet with the tiebreak games can (2.5-1.5).
		_, err = s.ReportResult(ctx, player(semis[1].Home), "ko", semis[1].ID, ResultInput{Summary: "5-5"})
		if err == nil {
			t.Fatal("a tied knockout match without its tie procedure was accepted")
		}
		tie := `{"parts": [{"tc": "1+2", "results": "1 1 1 1 1 0 0 0 0 0"}], "tie": {"games": "0 0 = 1"}}`
		m := must(s.ReportResult(ctx, player(semis[1].Home), "ko", semis[1].ID, ResultInput{Sheet: []byte(tie)}))
		if m.Result.Result != "away_win" || m.Result.DecidedBy != "tiebreak_games" {
			t.Fatalf("tie %+v", m.Result)
		}
		c.t = utc(2023, 4, 4, 0, 0)
		_, _, err = s.PairRound(ctx, td, "ko")
		wantErr(t, err, arbiter.ERULE, "app.round") // round still open
		must(s.CloseRound(ctx, td, "ko"))
		final := pairOK(s.PairRound(ctx, td, "ko"))
		// Winners: semis[0].Home and semis[1].Away; the losers play for third.
		if final[0].Format != "final" || final[0].Home != semis[0].Home || final[0].Away != semis[1].Away ||
			final[1].Format != "third_place" || final[1].Home != semis[0].Away || final[1].Away != semis[1].Home {
			t.Fatalf("final round %+v", final)
		}
	})
}

// W8 sends places 5 and 6 to different pools (lower, upper) but places 2
// and 3 both to the lower pool: a tie on 5-6 needs the TDs, one on 2-3 not.
func TestPoolTies(t *testing.T) {
	t.Parallel()
	f := must(format.Preset("acwc-2023"))
	table := func(ranks ...int) standings.Table {
		var tab standings.Table
		for i, r := range ranks {
			tab.Rows = append(tab.Rows, standings.Row{Rank: r, ID: fmt.Sprintf("e%d", i+1)})
		}
		return tab
	}
	if err := poolTies(table(1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12), &f.Stages[1], "W7"); err != nil {
		t.Fatalf("tie on places 2-3: %v", err)
	}
	err := poolTies(table(1, 2, 3, 4, 5, 5, 7, 8, 9, 10, 11, 12), &f.Stages[1], "W7")
	wantErr(t, err, arbiter.ERULE, "W7")
}

// advanceTied checks that AdvanceStage refuses ties that decide the next
// stage's pairings, naming clause and every entrant of order (all tied),
// then advances with order as the TDs' decision.
func advanceTied(t *testing.T, s *Service, slug, clause string, order []string) arbiter.Event {
	t.Helper()
	_, err := s.AdvanceStage(ctx, td, slug, AdvanceOptions{})
	wantErr(t, err, arbiter.ERULE, clause)
	for _, id := range order {
		if !strings.Contains(err.Error(), id) {
			t.Fatalf("refusal does not name %s: %v", id, err)
		}
	}
	return must(s.AdvanceStage(ctx, td, slug, AdvanceOptions{TieOrder: order, Reason: "drawing of lots"}))
}
