package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/lichess"
	"arbiter/lineup"
)

// historyAccounts is fakeAccounts with antichess rating histories.
type historyAccounts struct {
	*fakeAccounts
	histories map[string][]lichess.RatingPoint
}

func (h *historyAccounts) RatingHistory(_ context.Context, name string) ([]lichess.RatingHistory, error) {
	if h.err != nil {
		return nil, h.err
	}
	return []lichess.RatingHistory{{Name: "Bullet"}, {Name: "Antichess", Points: h.histories[strings.ToLower(name)]}}, nil
}

func checkOf(c TeamCheck, rule string) []eligibility.Check {
	var out []eligibility.Check
	for _, ch := range c.Checks {
		if ch.Rule == rule {
			out = append(out, ch)
		}
	}
	return out
}

// TestTeamRulesA11: A11's team rules run at registration, at the board
// lists and at a replacement, on Lichess's ratings and histories.
//
// Team 01 is cap01, a01, b01, c01 and the substitute s01, rated on Lichess
// 2100, 2050, 2000, 1950 and 1900: four boards (A9), so c01 plays board 4
// and s01 may stand in (A14); both are checked. c01 never went over 2000;
// s01 was over 2150 on 2025-02-01, 02-02 and 02-03 (three days, A11.1),
// before 25 April. The titles are not on Lichess: unknown until the TDs
// record them, and with them the cap (2000 to 2200).
//   - Registered (2025-04-28): the check is stored, unknown: c01 passes
//     every cap, s01's 2170 is over 2000 and under 2200.
//   - The TDs record cap01 AGM, a01 ASGM and b01 AGM: three AGM or higher,
//     A11 fails, and the TDs' board ranking is refused naming A11.
//   - b01 corrected to none: two (cap01 AGM, a01 ASGM): the cap is 2000,
//     which s01 crossed on three days; Lichess's history has no RD (A11's
//     RD > 80 exception), so that is the TDs' call: the ranking passes.
//   - A replacement recorded as AGM for c01 would make three: refused.
//   - Lichess down: the checks it would feed are unknown, nothing fails.
func TestTeamRulesA11(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		day := func(y int, m time.Month, d int) time.Time { return utc(y, m, d, 0, 0) }
		src := &historyAccounts{fakeAccounts: &fakeAccounts{users: map[string]*lichess.User{}}, histories: map[string][]lichess.RatingPoint{
			"c01": {{Date: day(2025, 1, 10), Rating: 1990}, {Date: day(2025, 3, 1), Rating: 1950}},
			"s01": {{Date: day(2025, 1, 10), Rating: 1990}, {Date: day(2025, 2, 1), Rating: 2160}, {Date: day(2025, 2, 2), Rating: 2170},
				{Date: day(2025, 2, 3), Rating: 2155}, {Date: day(2025, 2, 4), Rating: 1900}},
		}}
		for name, r := range map[string]int{"cap01": 2100, "a01": 2050, "b01": 2000, "c01": 1950, "s01": 1900, "x01": 1800} {
			src.users[name] = account(name, "", utc(2020, 1, 1, 0, 0), 2000, r, 50, false)
		}
		s.SetAccountSource(src)
		c.t = utc(2025, 4, 28, 12, 0)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 5, 6, 0, 0)}))
		e := must(s.Register(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", arbiter.Entrant{Name: "Team 01", Captain: "cap01",
			Members: []string{"cap01", "a01", "b01", "c01"}, Substitute: "s01"}))
		got := must(s.TeamChecks(ctx, "atc"))[e.ID]
		caps := checkOf(got, "A11.cap")
		if got.Status != eligibility.Unknown || checkOf(got, "A11.agm")[0].Status != eligibility.Unknown || len(caps) != 2 ||
			caps[0].Status != eligibility.Pass || !strings.HasPrefix(caps[0].Detail, "c01: ") ||
			caps[1].Status != eligibility.Unknown || caps[1].Detail != "s01: over 2000, under 2200: the cap depends on the titles the TDs record" {
			t.Fatalf("check at registration: %+v", got)
		}
		must(s.Approve(ctx, td, "atc", e.ID, 0))
		s.SetAccountSource(nil) // the other teams: no Lichess
		registerTeamsFrom(t, s, "atc", 2, 10)
		s.SetAccountSource(src)
		must(s.CloseRegistration(ctx, td, "atc"))

		_, err := s.CheckTeamRules(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", e.ID, TeamRulesRequest{})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{Titles: map[string]string{"cap01": "GM"}})
		wantErr(t, err, arbiter.EINVALID, "A11")
		got = must(s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{Titles: map[string]string{"cap01": "AGM", "a01": "ASGM", "b01": "AGM", "c01": "none", "s01": ""}}))
		if got.Status != eligibility.Fail || checkOf(got, "A11.agm")[0].Detail != "3 AGM or higher" {
			t.Fatalf("three AGM+: %+v", got)
		}
		members := []lineup.Member{{Name: "cap01", Rating: 2100}, {Name: "a01", Rating: 2050}, {Name: "b01", Rating: 2000}, {Name: "c01", Rating: 1950}, {Name: "s01", Rating: 1900}}
		_, err = s.RankBoards(ctx, td, "atc", e.ID, members, lineup.Comparable{{"c01", "s01"}})
		wantErr(t, err, arbiter.ERULE, "A11")
		got = must(s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{Titles: map[string]string{"b01": "none"}}))
		if a, c := checkOf(got, "A11.agm")[0], checkOf(got, "A11.cap")[1]; a.Status != eligibility.Pass || a.Detail != "2 AGM or higher" ||
			c.Status != eligibility.Unknown || !strings.HasPrefix(c.Detail, "s01: over 2000 on 3 different days since 2025-01-01; the rating history has no RD") {
			t.Fatalf("two AGM+ (cap 2000): %+v", got)
		}
		must(s.RankBoards(ctx, td, "atc", e.ID, members, lineup.Comparable{{"c01", "s01"}}))

		// A replacement for a disqualified c01, recorded as an AGM.
		must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: e.ID, Player: "c01", Kind: "disqualification", Reason: "abuse"}))
		must(s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{Titles: map[string]string{"x01": "AGM"}}))
		_, err = s.NameReplacement(ctx, td, "atc", ReplacementRequest{Entrant: e.ID, Replaced: "c01", Player: "x01", Rating: 1800, ReplacedRating: 1950,
			Eligible: true, Willing: true, Reason: "c01 disqualified"})
		wantErr(t, err, arbiter.ERULE, "A11")
		must(s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{Titles: map[string]string{"x01": "none"}}))
		must(s.NameReplacement(ctx, td, "atc", ReplacementRequest{Entrant: e.ID, Replaced: "c01", Player: "x01", Rating: 1800, ReplacedRating: 1950,
			Eligible: true, Willing: true, Reason: "c01 disqualified"}))

		// Lichess down: unknown, never a refusal.
		src.err = errors.New("lichess: 503")
		got = must(s.CheckTeamRules(ctx, td, "atc", e.ID, TeamRulesRequest{}))
		for _, ch := range checkOf(got, "A11.cap") {
			if ch.Status != eligibility.Unknown || !strings.Contains(ch.Detail, "Lichess could not give the rating history") {
				t.Fatalf("Lichess down: %+v", got)
			}
		}
	})
}

// registerTeamsFrom registers and approves teams from..to like registerTeams.
func registerTeamsFrom(t *testing.T, s *Service, slug string, from, to int) {
	t.Helper()
	for i := from; i <= to; i++ {
		capt := fmt.Sprintf("cap%02d", i)
		e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, slug, arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: capt,
			Members: []string{capt, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}, Rating: 2300 - i}))
		must(s.Approve(ctx, td, slug, e.ID, 0))
	}
}
