package app

import (
	"testing"

	"arbiter"
)

// TestReopenA8: a member's Lichess ban proven not for cheating reopens the
// team's completed matches (A8): the result is withdrawn, the match is
// scheduled again and a TD enters the replay; without the proof the
// completed match is adjudicated to the opponents.
func TestReopenA8(t *testing.T) {
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		ms := pairOK(s.PairRound(ctx, td, "atc")) // board 1: team-01 v team-06, board 2: team-07 v team-02
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 9, 0, 0)
		must(s.OverrideResult(ctx, td, "atc", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)}, "from Lichess", 0)) // home win 348-228
		must(s.OverrideResult(ctx, td, "atc", ms[1].ID, ResultInput{Sheet: []byte(teamSheet)}, "from Lichess", 0))

		x, changed := must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-01", Player: "b01", Kind: "lichess_ban", NotForCheating: true,
			Reason: "Lichess ban for a chat offence, not cheating"}))
		if x.Rule != "A8" || len(changed) != 1 || changed[0].ID != ms[0].ID {
			t.Fatalf("sanction %+v, changed %+v", x, changed)
		}
		m := must(s.Matches(ctx, "atc", "s1r1"))[0]
		if m.Status != arbiter.MatchScheduled || m.Result != nil || m.Decision != "reopened" {
			t.Fatalf("reopened match %+v", m)
		}
		// The replay, entered by a TD: team-06 wins it this time.
		m = must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Summary: "forfeit:away"}, "replay: team-01 did not field a replacement", 0))
		if m.Status != arbiter.MatchFinal || m.Result.Result != "away_win" {
			t.Fatalf("replay %+v", m.Result)
		}

		// Team 07's member is banned for cheating: adjudicated to team-02.
		_, changed = must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-07", Player: "b07", Kind: "lichess_ban", Reason: "cheating ban"}))
		if len(changed) != 1 || changed[0].Result.Result != "away_win" || changed[0].Decision != "sanction" {
			t.Fatalf("adjudicated %+v", changed)
		}
	})
}
