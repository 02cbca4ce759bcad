package eligibility_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter/eligibility"
	"arbiter/internal/testshared"
	"arbiter/lichess"
)

// The rules judged over real Lichess answers (the API fixtures), read
// through package lichess: these tests are outside package eligibility,
// which does not import lichess.

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func loadUser(t *testing.T, file string) *lichess.User {
	t.Helper()
	b, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", file))
	if err != nil {
		t.Fatal(err)
	}
	var u lichess.User
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	return &u
}

// The synthetic users were all created 2024-11-27 (createdAt 1732665600000).
// Registration on 2026-01-01, profile fetched at that moment.
func TestA2SyntheticUsers(t *testing.T) {
	reg := date(2026, 1, 1)
	manual := map[string]eligibility.Status{"A2.cheat": eligibility.Unknown, "A2.ban": eligibility.Unknown, "A2.accounts": eligibility.Unknown}
	for _, tc := range []struct {
		file    string
		overall eligibility.Status
		want    map[string]eligibility.Status
	}{
		{"synthetic/user_bot.json", eligibility.Fail, map[string]eligibility.Status{
			"A2.age": eligibility.Pass, "A2.games": eligibility.Fail /* 900 */, "A2.recent": eligibility.Unknown /* at most 900 */, "A2.bot": eligibility.Fail,
			"A2.tos": eligibility.Pass, "A2.closed": eligibility.Pass, "A2.provisional": eligibility.Pass}},
		{"synthetic/user_closed.json", eligibility.Fail, map[string]eligibility.Status{
			"A2.closed": eligibility.Fail, "A2.age": eligibility.Unknown, "A2.games": eligibility.Unknown, "A2.bot": eligibility.Unknown, "A2.tos": eligibility.Unknown, "A2.provisional": eligibility.Unknown}},
		{"synthetic/user_tos.json", eligibility.Fail, map[string]eligibility.Status{
			"A2.tos": eligibility.Fail, "A2.games": eligibility.Fail /* 120 */, "A2.recent": eligibility.Unknown, "A2.bot": eligibility.Pass, "A2.provisional": eligibility.Pass}},
		{"synthetic/user_no_antichess.json", eligibility.Fail, map[string]eligibility.Status{
			"A2.games": eligibility.Fail, "A2.recent": eligibility.Fail /* no game at all */, "A2.provisional": eligibility.Fail, "A2.bot": eligibility.Pass, "A2.tos": eligibility.Pass, "A2.age": eligibility.Pass}},
		{"synthetic/user_antichess_provisional.json", eligibility.Fail, map[string]eligibility.Status{
			"A2.games": eligibility.Fail /* 7 */, "A2.recent": eligibility.Fail, "A2.provisional": eligibility.Fail, "A2.bot": eligibility.Pass}},
	} {
		s := lichess.EligibilitySnapshot(loadUser(t, tc.file), reg)
		r := eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), s, reg)
		for k, v := range manual {
			tc.want[k] = v
		}
		eligibility.CheckReport(t, tc.file, r, tc.overall, tc.want)
		for _, c := range r.Checks {
			if c.Clause != "A2" {
				t.Errorf("%s: %s names clause %q", tc.file, c.Rule, c.Clause)
			}
			if c.Status == eligibility.Unknown && c.Detail == "" {
				t.Errorf("%s: %s unknown without a reason", tc.file, c.Rule)
			}
		}
	}
}

func TestA2DetailsName(t *testing.T) {
	reg := date(2026, 1, 1)
	r := eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), lichess.EligibilitySnapshot(loadUser(t, "synthetic/user_bot.json"), reg), reg)
	for _, c := range r.Checks {
		switch c.Rule {
		case "A2.games":
			if c.Detail != "900 rated antichess games so far (needs 1000)" {
				t.Errorf("games detail %q", c.Detail)
			}
		case "A2.cheat":
			if !strings.Contains(c.Detail, "TD must confirm") {
				t.Errorf("cheat detail %q", c.Detail)
			}
		case "A2.age":
			if c.Detail != "created 2024-11-27, 6 months before 2026-01-01" {
				t.Errorf("age detail %q", c.Detail)
			}
		}
	}
}

// TestA2Eligible: a strong, established player with a recent-games count
// passes every automatic check; the manual ones keep the report unknown.
func TestA2Eligible(t *testing.T) {
	reg := date(2026, 1, 1)
	s := lichess.EligibilitySnapshot(loadUser(t, "synthetic/user_tos.json"), reg)
	s.TosViolation = false
	s.Antichess.Games = 1500
	s.Counts = []eligibility.GameCount{{From: date(2025, 10, 1), To: reg, Games: 150}}
	r := eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), s, reg)
	eligibility.CheckReport(t, "eligible", r, eligibility.Unknown, map[string]eligibility.Status{
		"A2.age": eligibility.Pass, "A2.games": eligibility.Pass, "A2.recent": eligibility.Pass, "A2.tos": eligibility.Pass, "A2.bot": eligibility.Pass,
		"A2.closed": eligibility.Pass, "A2.provisional": eligibility.Pass, "A2.cheat": eligibility.Unknown})

	// 80 games in exactly the last three months: fails the 100 minimum.
	s.Counts = []eligibility.GameCount{{From: date(2025, 10, 1), To: reg, Games: 80}}
	eligibility.CheckReport(t, "80 recent", eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), s, reg), eligibility.Fail, map[string]eligibility.Status{"A2.recent": eligibility.Fail})

	// A count over a shorter span (the last month) reaching 100 still proves it.
	s.Counts = []eligibility.GameCount{{From: date(2025, 12, 1), To: reg, Games: 100}}
	eligibility.CheckReport(t, "last month", eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), s, reg), eligibility.Unknown, map[string]eligibility.Status{"A2.recent": eligibility.Pass})

	// A count over a longer span (six months) of 90 proves the shortfall.
	s.Counts = []eligibility.GameCount{{From: date(2025, 7, 1), To: reg, Games: 90}}
	eligibility.CheckReport(t, "six months", eligibility.Evaluate(eligibility.AntichessTeamCup(time.Time{}), s, reg), eligibility.Fail, map[string]eligibility.Status{"A2.recent": eligibility.Fail})
}

// TestA2AccountAgeBoundary: created 2024-11-27, six months old on 2025-05-27.
func TestA2AccountAgeBoundary(t *testing.T) {
	s := lichess.EligibilitySnapshot(loadUser(t, "synthetic/user_bot.json"), date(2025, 5, 26))
	for _, tc := range []struct {
		now  time.Time
		want eligibility.Status
	}{
		{date(2025, 5, 26), eligibility.Fail},
		{date(2025, 5, 27).Add(-time.Second), eligibility.Fail},
		{date(2025, 5, 27), eligibility.Pass},
	} {
		r := eligibility.Evaluate(eligibility.Ruleset{Rules: eligibility.AntichessTeamCup(time.Time{}).Rules[:1]}, s, tc.now)
		if r.Checks[0].Status != tc.want {
			t.Errorf("%v: %s (%s)", tc.now, r.Checks[0].Status, r.Checks[0].Detail)
		}
	}
}

// TestA2ProvisionalBeforePairings: a provisional rating before the initial
// pairings may still become established, so it is unknown until then.
func TestA2ProvisionalBeforePairings(t *testing.T) {
	reg := date(2026, 1, 1)
	pairings := date(2026, 1, 20)
	s := lichess.EligibilitySnapshot(loadUser(t, "synthetic/user_antichess_provisional.json"), reg)
	eligibility.CheckReport(t, "before pairings", eligibility.Evaluate(eligibility.AntichessTeamCup(pairings), s, reg), eligibility.Fail, map[string]eligibility.Status{"A2.provisional": eligibility.Unknown})
	eligibility.CheckReport(t, "at pairings", eligibility.Evaluate(eligibility.AntichessTeamCup(pairings), s, pairings), eligibility.Fail, map[string]eligibility.Status{"A2.provisional": eligibility.Fail})
	none := lichess.EligibilitySnapshot(loadUser(t, "synthetic/user_no_antichess.json"), reg)
	eligibility.CheckReport(t, "no rating, before pairings", eligibility.Evaluate(eligibility.AntichessTeamCup(pairings), none, reg), eligibility.Fail, map[string]eligibility.Status{"A2.provisional": eligibility.Unknown})
}

func TestW1SyntheticUsers(t *testing.T) {
	now := date(2026, 1, 1)
	for _, tc := range []struct {
		file string
		want map[string]eligibility.Status
	}{
		// Created 2024-11-27: too late for ACWC 2023 whatever else holds.
		{"synthetic/user_bot.json", map[string]eligibility.Status{"W1.created": eligibility.Fail, "W1.bot": eligibility.Fail, "W1.games": eligibility.Fail}},
		{"synthetic/user_tos.json", map[string]eligibility.Status{"W1.created": eligibility.Fail, "W1.marks": eligibility.Fail, "W1.bot": eligibility.Pass}},
		{"synthetic/user_closed.json", map[string]eligibility.Status{"W1.closed": eligibility.Fail, "W1.created": eligibility.Unknown}},
	} {
		r := eligibility.Evaluate(eligibility.ACWC2023(), lichess.EligibilitySnapshot(loadUser(t, tc.file), now), now)
		eligibility.CheckReport(t, tc.file, r, eligibility.Fail, tc.want)
	}
}

// TestCapCrossingFromLichessHistory uses the fixture's antichess history
// (read by hand: 1407 on 2026-04-20, 1323 on 04-29, 1305 on 05-08, 1257 on
// 05-17, ...). Against a 1300 cap it was over from 04-20 to 05-17 on three
// days; against 1400 once, back by 04-29 — but held for nine days.
func TestCapCrossingFromLichessHistory(t *testing.T) {
	b, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "GET_api_user_username_rating-history.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(b) }))
	defer srv.Close()
	c, err := lichess.New(lichess.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := c.RatingHistory(context.Background(), "mary")
	if err != nil {
		t.Fatal(err)
	}
	var anti []eligibility.RatingPoint
	for _, h := range hs {
		if h.Name == "Antichess" {
			anti = lichess.EligibilityHistory(h)
		}
	}
	if len(anti) != 9 {
		t.Fatalf("antichess points %d", len(anti))
	}
	now := date(2026, 7, 2)
	if c := eligibility.CapCrossing(anti, 1300, now); c.Status != eligibility.Unknown || c.Detail != "over 1300 on 3 different days since 2025-01-01; the rating history has no RD, so the TD must check the RD > 80 exception" {
		t.Errorf("1300: %s %q", c.Status, c.Detail)
	}
	if c := eligibility.CapCrossing(anti, 1400, now); c.Status != eligibility.Unknown || !strings.HasPrefix(c.Detail, "over 1400 from 2026-04-20 until 2026-04-29;") {
		t.Errorf("1400: %s %q", c.Status, c.Detail)
	}
	if c := eligibility.CapCrossing(anti, 1500, now); c.Status != eligibility.Pass {
		t.Errorf("1500: %s %q", c.Status, c.Detail)
	}
}
