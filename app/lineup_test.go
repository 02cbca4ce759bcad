package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
	t.Parallel()
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
		l, from := must2(s.Lineup(ctx, arbiter.NamedUser("cap1"), "rk", "team-1", 2))
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

// TestRKCCWildCard: R9 — the Swiss winner may swap two players of its
// lineup once per knockout round, within 24 h of the pairings.
func TestRKCCWildCard(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0)}))
		seed := map[string]int{}
		for i := 1; i <= 8; i++ {
			capt := fmt.Sprintf("cap%d", i)
			e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, "rk", arbiter.Entrant{
				Name: fmt.Sprintf("Team %d", i), Captain: capt, Rating: 2000 - i,
				Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}, Substitute: fmt.Sprintf("c%d", i)}))
			must(s.Approve(ctx, td, "rk", e.ID, 0))
			seed[e.ID] = i
		}
		ev := must(s.CloseRegistration(ctx, td, "rk"))
		c.t = utc(2025, 1, 5, 0, 0)
		cap1 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		must(s.SubmitLineup(ctx, cap1, "rk", "team-1", 1, []string{"cap1", "a1", "b1"}))
		// Five Swiss rounds; the better seed wins every match by forfeit.
		for r := 0; r < 5; r++ {
			ms := pairOK(s.PairRound(ctx, td, "rk"))
			must(s.PublishRound(ctx, td, "rk"))
			c.t = ev.Calendar[r].Start.Add(time.Hour)
			for _, m := range ms {
				f := "forfeit:home"
				if seed[m.Away] < seed[m.Home] {
					f = "forfeit:away"
				}
				must(s.OverrideResult(ctx, td, "rk", m.ID, ResultInput{Summary: f}, "opponent did not play", 0))
			}
			c.t = ev.Calendar[r].End
			must(s.CloseRound(ctx, td, "rk"))
		}
		tab := must(s.Standings(ctx, "rk", 0))
		if tab.Rows[0].ID != "team-1" || tab.Rows[0].Score != arbiter.P(5) {
			t.Fatalf("Swiss winner %+v", tab.Rows[0])
		}
		_, err := s.AdvanceStage(ctx, td, "rk", AdvanceOptions{})
		if arbiter.ErrorCode(err) == arbiter.ERULE { // a tie at the cut: the TDs order it
			var order []string
			for _, r := range tab.Rows[:4] {
				order = append(order, r.ID)
			}
			_, err = s.AdvanceStage(ctx, td, "rk", AdvanceOptions{TieOrder: order, Reason: "drawing of lots"})
		}
		must(0, err)
		pairOK(s.PairRound(ctx, td, "rk"))
		ko := ev.Calendar[5]
		c.t = ko.Start.Add(time.Hour)
		must(s.PublishRound(ctx, td, "rk"))
		c.t = ko.Start.Add(3 * time.Hour)
		cap2 := arbiter.Actor{Name: "cap2", Role: arbiter.RoleCaptain}
		_, err = s.WildCard(ctx, cap2, "rk", "team-2", 6, "a2", "c2")
		wantErr(t, err, arbiter.ERULE, "R9") // not the Swiss winner
		must(s.WildCard(ctx, cap1, "rk", "team-1", 6, "a1", "c1"))
		l, _ := must2(s.Lineup(ctx, arbiter.NamedUser("cap1"), "rk", "team-1", 6))
		if l.Sets[0] != "cap1" || l.Sets[1] != "c1" || l.Sets[2] != "b1" {
			t.Fatalf("lineup after the wild card %v", l.Sets)
		}
		_, err = s.WildCard(ctx, cap1, "rk", "team-1", 6, "b1", "a1")
		wantErr(t, err, arbiter.ERULE, "R9") // once per knockout round
	})
}
