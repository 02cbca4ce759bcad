package app

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
)

// TestR14KnockoutAfterNextMatch: R14 after the next knockout match was
// played. The RKCC knockout of four (TestR14Knockout): team-1 beats team-4
// and team-2 beats team-3 409-311 (r14Sheet); the final team-1 v team-2
// is played too, team-1 winning 409-311 again. Then a1 (team-1) is found
// in violation of the TOS: a1's 1.5+1 set of the semifinal becomes 0-240
// (R15), team-4 wins the semifinal 455-265 (R11), so team-1 was not
// entitled to the final: its result is void and the final is played again
// as team-4 v team-2, a TD entering the replay's result. The replay
// (r14Sheet with team-2 at home) goes to team-2: the final ranking is 1
// team-2, 2 team-4 (the final), then the semifinal losers by knockout seed
// (R2 names no third-place match): 3 team-1 (seed 1), 4 team-3 (seed 3).
func TestR14KnockoutAfterNextMatch(t *testing.T) {
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
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 8, 12, 0)
		must(s.OverrideResult(ctx, td, "ko", semis[0].ID, ResultInput{Sheet: []byte(r14Sheet(1, 4))}, "entered from Lichess", 0))
		must(s.OverrideResult(ctx, td, "ko", semis[1].ID, ResultInput{Sheet: []byte(r14Sheet(2, 3))}, "entered from Lichess", 0))
		c.t = utc(2025, 1, 13, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		final := pairOK(s.PairRound(ctx, td, "ko"))[0]
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 15, 12, 0)
		final = must(s.OverrideResult(ctx, td, "ko", final.ID, ResultInput{Sheet: []byte(r14Sheet(1, 2))}, "entered from Lichess", 0))
		if final.Status != arbiter.MatchFinal || winnerOf(&final) != "team-1" {
			t.Fatalf("final before R14: %s %+v", final.Status, final.Result)
		}

		x, changed := must2(s.Sanction(ctx, td, "ko", SanctionRequest{Entrant: "team-1", Player: "a1", Kind: "tos_violation", Reason: "TOS violation"}))
		if len(changed) != 1 || changed[0].ID != semis[0].ID || changed[0].Result.Result != "away_win" || changed[0].Result.Away.Points != arbiter.P(455) {
			t.Fatalf("semifinal after R14: %+v", changed)
		}
		if !strings.Contains(strings.Join(x.Notes, "\n"), "match "+final.ID+" (team-1 v team-2) was played by an entrant no longer in it: it is void, to be played again as team-4 v team-2") {
			t.Fatalf("sanction notes %q", x.Notes)
		}
		final = must(s.Matches(ctx, "ko", "s1r2"))[0]
		if final.Home != "team-4" || final.Away != "team-2" || final.Status != arbiter.MatchScheduled || final.Result != nil || final.Decision != "replay" {
			t.Fatalf("the final after R14: %s-%s (%s, %s) %+v", final.Home, final.Away, final.Status, final.Decision, final.Result)
		}
		// The replay, team-4 v team-2: every game of r14Sheet reversed, so
		// home 80-160, 96-144, 135-105: 1 set to 2, 311-409, team-2 wins.
		flip := strings.NewReplacer("1 1 1 1 0 0", "0 0 0 0 1 1", "1 1 1 1 1 1 0 0 0 0", "0 0 0 0 0 0 1 1 1 1",
			"0 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1", "1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0")
		final = must(s.OverrideResult(ctx, td, "ko", final.ID, ResultInput{Sheet: []byte(flip.Replace(r14Sheet(4, 2)))}, "the replay, entered from Lichess", 0))
		if winnerOf(&final) != "team-2" || final.Result.Away.Points != arbiter.P(409) {
			t.Fatalf("replay: %+v", final.Result)
		}
		c.t = utc(2025, 1, 20, 0, 0)
		must(s.CloseRound(ctx, td, "ko"))
		var got []string
		for _, p := range must(s.Ranking(ctx, "ko")) {
			got = append(got, fmt.Sprintf("%d %s", p.Rank, p.Entrant))
		}
		if strings.Join(got, ", ") != "1 team-2, 2 team-4, 3 team-1, 4 team-3" {
			t.Fatalf("ranking %v", got)
		}
	})
}
