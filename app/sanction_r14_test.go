package app

import (
	"bytes"
	"fmt"
	"testing"

	"arbiter"
	"arbiter/format"
)

// r14Sheet: team-N (home) v team-M: the 3+2 set 4-2 to home (160-80,
// R10's factor 40), the 1.5+1 set 6-4 to home (144-96, factor 24), the
// 0.75+0 set 7-9 to away (105-135, factor 15): 2 sets to 1, 409-311, a
// home win (R11). The players are named: capN v capM, aN v aM, bN v bM.
func r14Sheet(h, a int) string {
	return fmt.Sprintf(`{"sets": [
		{"tc": "3+2", "home_player": "cap%[1]d", "away_player": "cap%[2]d", "results": "1 1 1 1 0 0"},
		{"tc": "1.5+1", "home_player": "a%[1]d", "away_player": "a%[2]d", "results": "1 1 1 1 1 1 0 0 0 0"},
		{"tc": "0.75+0", "home_player": "b%[1]d", "away_player": "b%[2]d", "results": "0 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1"}]}`, h, a)
}

// TestR14PerPlayer: R14, "any player found in violation of the Lichess
// TOS ... all of their previous results will be changed to a full points
// forfeit in their opponent's favour": a1 played team-1's 1.5+1 set in
// round 1 (r14Sheet against team-5). That set becomes R15's full forfeit,
// 0-240; the team's other sets stand: 160-80 and 105-135. The match is
// scored again: 1 set to 2, 265-455, team-5 wins (R11), so the standings
// after round 1 give team-5 the match point and team-1 265 set points.
// team-1's round 2 match, not played yet, is left to its replacement.
func TestR14PerPlayer(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		ms := rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 8, 12, 0)
		if ms[0].Home != "team-1" || ms[0].Away != "team-5" {
			t.Fatalf("board 1 %s-%s", ms[0].Home, ms[0].Away)
		}
		m := must(s.OverrideResult(ctx, td, "rk", ms[0].ID, ResultInput{Sheet: []byte(r14Sheet(1, 5))}, "entered from Lichess", 0))
		if m.Result.Result != "home_win" || m.Result.Home.Points != arbiter.P(409) || m.Result.Away.Points != arbiter.P(311) {
			t.Fatalf("before the sanction: %+v", m.Result)
		}
		for _, m := range ms[1:] {
			must(s.OverrideResult(ctx, td, "rk", m.ID, ResultInput{Summary: "forfeit:home"}, "no-show", 0))
		}
		c.t = utc(2025, 1, 13, 0, 0)
		must(s.CloseRound(ctx, td, "rk"))
		pairOK(s.PairRound(ctx, td, "rk"))
		must(s.PublishRound(ctx, td, "rk"))

		x, changed := must2(s.Sanction(ctx, td, "rk", SanctionRequest{Entrant: "team-1", Player: "a1", Kind: "tos_violation", Reason: "Lichess closed a1's account for a TOS violation"}))
		if x.Rule != "R14" || len(changed) != 1 || changed[0].ID != ms[0].ID {
			t.Fatalf("sanction %+v, changed %+v", x, changed)
		}
		m = changed[0]
		want := []arbiter.PartResult{{TC: "3+2", Home: arbiter.P(160), Away: arbiter.P(80)}, {TC: "1.5+1", Home: 0, Away: arbiter.P(240)},
			{TC: "0.75+0", Home: arbiter.P(105), Away: arbiter.P(135)}}
		if m.Result.Result != "away_win" || m.Result.Home.Points != arbiter.P(265) || m.Result.Away.Points != arbiter.P(455) ||
			m.Result.Home.SetsWon != 1 || m.Result.Away.SetsWon != 2 || fmt.Sprint(m.Result.Sets) != fmt.Sprint(want) || m.Decision != "sanction" {
			t.Fatalf("after R14: %s %+v", m.Decision, m.Result)
		}
		if len(m.Rulings) != 1 || m.Rulings[0].Set != "1.5+1" || m.Rulings[0].Forfeit != "away" || m.Rulings[0].Clause != "R14" || m.Rulings[0].Player != "a1" {
			t.Fatalf("rulings %+v", m.Rulings)
		}
		for _, rm := range must(s.Matches(ctx, "rk", "s1r2")) {
			if (rm.Home == "team-1" || rm.Away == "team-1") && (rm.Status != arbiter.MatchScheduled || len(rm.Rulings) != 0) {
				t.Fatalf("team-1's round 2 match %+v", rm)
			}
		}
		tab := must(s.StandingsAfter(ctx, "rk", 0, "", 1))
		for _, r := range tab.Rows {
			switch r.ID {
			case "team-1":
				if r.Score != 0 || r.Values[1] != arbiter.P(265) { // R12: match points, then set points
					t.Fatalf("team-1 after round 1: %+v", r)
				}
			case "team-5":
				if r.Score != arbiter.P(1) || r.Values[1] != arbiter.P(455) {
					t.Fatalf("team-5 after round 1: %+v", r)
				}
			}
		}
		e := must(s.Entrants(ctx, "rk"))[0]
		if e.ID != "team-1" || e.Status != arbiter.EntrantApproved {
			t.Fatalf("team-1: %+v", e)
		}
	})
}

// TestR14Knockout: R14 after a knockout round: the recomputed semifinal
// changes its winner, and the final, paired but not played, follows. An
// RKCC knockout of four teams (the preset's knockout stage alone): the
// semifinals are team-1 v team-4 and team-2 v team-3. team-1 wins 409-311
// (r14Sheet), team-2 wins too; a1's 1.5+1 set then becomes 0-240: team-4
// wins its semifinal 455-265 and takes team-1's place in the final.
func TestR14Knockout(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("rkcc-team-three-tc"))
		f.Name, f.Stages = "rkcc-ko", f.Stages[1:]
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		c.t = utc(2025, 1, 3, 12, 0)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Format: doc.Bytes(), Start: utc(2025, 1, 6, 0, 0)}))
		for i := 1; i <= 4; i++ {
			capt := fmt.Sprintf("cap%d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "ko", arbiter.Entrant{
				Name: fmt.Sprintf("Team %d", i), Captain: capt, Rating: 2000 - i, Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}}))
			must(s.Approve(ctx, td, "ko", e.ID, 0))
		}
		must(s.CloseRegistration(ctx, td, "ko"))
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		if semis[0].Home != "team-1" || semis[0].Away != "team-4" {
			t.Fatalf("semifinal 1 %s-%s", semis[0].Home, semis[0].Away)
		}
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 8, 12, 0)
		must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Sheet: []byte(r14Sheet(1, 4))}, "entered from Lichess", 0))
		must(s.OverrideResult(ctx, td, "ko", semis[1].ID, ResultInput{Sheet: []byte(r14Sheet(2, 3))}, "entered from Lichess", 0))
		c.t = utc(2025, 1, 13, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		final := pairOK(s.PairRound(ctx, td, "ko"))[0]
		if final.Home != "team-1" || final.Away != "team-2" {
			t.Fatalf("final %s-%s", final.Home, final.Away)
		}
		_, changed := must2(s.Sanction(ctx, td, "ko", SanctionRequest{Entrant: "team-1", Player: "a1", Kind: "tos_violation", Reason: "TOS violation"}))
		if len(changed) != 1 || changed[0].Result.Result != "away_win" || changed[0].Result.Away.Points != arbiter.P(455) {
			t.Fatalf("semifinal after R14: %+v", changed)
		}
		final = must(s.Matches(ctx, "ko", "s1r2"))[0]
		if final.Home != "team-4" || final.Away != "team-2" || final.Status != arbiter.MatchScheduled {
			t.Fatalf("the final after R14: %s-%s (%s)", final.Home, final.Away, final.Status)
		}
	})
}
