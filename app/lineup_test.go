package app

import (
	"fmt"
	"strings"
	"testing"

	"arbiter"
)

func rkccSheet(home1, away1 string) string {
	return fmt.Sprintf(`{"sets": [
		{"tc": "3+2", "home_player": %q, "away_player": %q, "results": "1 1 1 1 1 1"},
		{"tc": "1.5+1", "results": "%s"},
		{"tc": "0.75+0", "results": "%s"}]}`, home1, away1, strings.Repeat("1 ", 10), strings.Repeat("1 ", 16))
}

// TestRKCCLineups: R7 lineups for the RKCC preset (rounds Monday 00:00 to
// Sunday 23:59 UTC, R4).
func TestRKCCLineups(t *testing.T) {
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0)}))
		for i := 1; i <= 8; i++ {
			capt := fmt.Sprintf("cap%d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{
				Name: fmt.Sprintf("Team %d", i), Captain: capt, Rating: 2000 - i,
				Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}, Substitute: fmt.Sprintf("c%d", i)}))
			must(s.Approve(ctx, td, "rk", e.ID, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "rk"))
		if ev.Stages[0].Rounds != 5 { // R1: up to 8 teams, 5 rounds
			t.Fatalf("rounds %d", ev.Stages[0].Rounds)
		}
		cap1 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		c.t = utc(2025, 1, 5, 12, 0)
		_, err := s.SubmitLineup(ctx, arbiter.Actor{Name: "cap2", Role: arbiter.RoleCaptain}, "rk", "team-1", 1, []string{"cap1", "a1", "b1"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"cap1", "a1", "x9"})
		if arbiter.ErrorCode(err) == "" {
			t.Fatal("a lineup with a non-member was accepted")
		}
		must(s.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"a1", "b1", "c1"})) // replaced before the start
		must(s.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"cap1", "a1", "b1"}))
		// R7.1: no late correction in round 1.
		c.t = utc(2025, 1, 6, 10, 0)
		_, err = s.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"c1", "a1", "b1"})
		wantErr(t, err, arbiter.ERULE, "R7")
		// R7: without a lineup for round 2 the team plays round 1's.
		l, from := must2(s.Lineup(ctx, "rk", "team-1", 2))
		if from != 1 || l.Sets[0] != "cap1" {
			t.Fatalf("round 2 lineup %v from round %d", l, from)
		}

		ms := pairOK(s.PairRound(ctx, td, "rk"))
		if ms[0].Home != "team-1" || ms[0].Away != "team-5" {
			t.Fatalf("board 1 %s-%s", ms[0].Home, ms[0].Away)
		}
		must(s.PublishRound(ctx, td, "rk"))
		_, err = s.ReportResult(ctx, cap1, "rk", ms[0].ID, ResultInput{Sheet: []byte(rkccSheet("c1", "cap5"))})
		wantErr(t, err, arbiter.EINVALID, "R7")
		m := must(s.ReportResult(ctx, cap1, "rk", ms[0].ID, ResultInput{Sheet: []byte(rkccSheet("cap1", "cap5"))}))
		// R10/R11: 3 sets of 240 set points, all won by home.
		if m.Result.Home.Points != arbiter.P(720) || m.Result.Home.SetsWon != 3 || m.Result.Home.MatchPoints != arbiter.P(1) {
			t.Fatalf("scored %+v", m.Result)
		}
	})
}
