package eligibility

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter/internal/testshared"
	"arbiter/lichess"
)

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

// statuses renders a report as "rule=status" for the rules named in want.
func statuses(r Report) map[string]Status {
	m := map[string]Status{}
	for _, c := range r.Checks {
		m[c.Rule] = c.Status
	}
	return m
}

func checkReport(t *testing.T, name string, r Report, overall Status, want map[string]Status) {
	t.Helper()
	got := statuses(r)
	for rule, st := range want {
		if got[rule] != st {
			var detail string
			for _, c := range r.Checks {
				if c.Rule == rule {
					detail = c.Detail
				}
			}
			t.Errorf("%s: %s = %s (%s), want %s", name, rule, got[rule], detail, st)
		}
	}
	if r.Status != overall {
		t.Errorf("%s: overall %s, want %s", name, r.Status, overall)
	}
}

// The synthetic users were all created 2024-11-27 (createdAt 1732665600000).
// Registration on 2026-01-01, profile fetched at that moment.
func TestA2SyntheticUsers(t *testing.T) {
	reg := date(2026, 1, 1)
	manual := map[string]Status{"A2.cheat": Unknown, "A2.ban": Unknown, "A2.accounts": Unknown}
	for _, tc := range []struct {
		file    string
		overall Status
		want    map[string]Status
	}{
		{"synthetic/user_bot.json", Fail, map[string]Status{
			"A2.age": Pass, "A2.games": Fail /* 900 */, "A2.recent": Unknown /* at most 900 */, "A2.bot": Fail,
			"A2.tos": Pass, "A2.closed": Pass, "A2.provisional": Pass}},
		{"synthetic/user_closed.json", Fail, map[string]Status{
			"A2.closed": Fail, "A2.age": Unknown, "A2.games": Unknown, "A2.bot": Unknown, "A2.tos": Unknown, "A2.provisional": Unknown}},
		{"synthetic/user_tos.json", Fail, map[string]Status{
			"A2.tos": Fail, "A2.games": Fail /* 120 */, "A2.recent": Unknown, "A2.bot": Pass, "A2.provisional": Pass}},
		{"synthetic/user_no_antichess.json", Fail, map[string]Status{
			"A2.games": Fail, "A2.recent": Fail /* no game at all */, "A2.provisional": Fail, "A2.bot": Pass, "A2.tos": Pass, "A2.age": Pass}},
		{"synthetic/user_antichess_provisional.json", Fail, map[string]Status{
			"A2.games": Fail /* 7 */, "A2.recent": Fail, "A2.provisional": Fail, "A2.bot": Pass}},
	} {
		s := FromUser(loadUser(t, tc.file), reg)
		r := Evaluate(AntichessTeamCup(time.Time{}), s, reg)
		for k, v := range manual {
			tc.want[k] = v
		}
		checkReport(t, tc.file, r, tc.overall, tc.want)
		for _, c := range r.Checks {
			if c.Clause != "A2" {
				t.Errorf("%s: %s names clause %q", tc.file, c.Rule, c.Clause)
			}
			if c.Status == Unknown && c.Detail == "" {
				t.Errorf("%s: %s unknown without a reason", tc.file, c.Rule)
			}
		}
	}
}

func TestA2DetailsName(t *testing.T) {
	reg := date(2026, 1, 1)
	r := Evaluate(AntichessTeamCup(time.Time{}), FromUser(loadUser(t, "synthetic/user_bot.json"), reg), reg)
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
	s := FromUser(loadUser(t, "synthetic/user_tos.json"), reg)
	s.TosViolation = false
	s.Antichess.Games = 1500
	s.Counts = []GameCount{{From: date(2025, 10, 1), To: reg, Games: 150}}
	r := Evaluate(AntichessTeamCup(time.Time{}), s, reg)
	checkReport(t, "eligible", r, Unknown, map[string]Status{
		"A2.age": Pass, "A2.games": Pass, "A2.recent": Pass, "A2.tos": Pass, "A2.bot": Pass,
		"A2.closed": Pass, "A2.provisional": Pass, "A2.cheat": Unknown})

	// 80 games in exactly the last three months: fails the 100 minimum.
	s.Counts = []GameCount{{From: date(2025, 10, 1), To: reg, Games: 80}}
	checkReport(t, "80 recent", Evaluate(AntichessTeamCup(time.Time{}), s, reg), Fail, map[string]Status{"A2.recent": Fail})

	// A count over a shorter span (the last month) reaching 100 still proves it.
	s.Counts = []GameCount{{From: date(2025, 12, 1), To: reg, Games: 100}}
	checkReport(t, "last month", Evaluate(AntichessTeamCup(time.Time{}), s, reg), Unknown, map[string]Status{"A2.recent": Pass})

	// A count over a longer span (six months) of 90 proves the shortfall.
	s.Counts = []GameCount{{From: date(2025, 7, 1), To: reg, Games: 90}}
	checkReport(t, "six months", Evaluate(AntichessTeamCup(time.Time{}), s, reg), Fail, map[string]Status{"A2.recent": Fail})
}

// TestA2AccountAgeBoundary: created 2024-11-27, six months old on 2025-05-27.
func TestA2AccountAgeBoundary(t *testing.T) {
	s := FromUser(loadUser(t, "synthetic/user_bot.json"), date(2025, 5, 26))
	for _, tc := range []struct {
		now  time.Time
		want Status
	}{
		{date(2025, 5, 26), Fail},
		{date(2025, 5, 27).Add(-time.Second), Fail},
		{date(2025, 5, 27), Pass},
	} {
		r := Evaluate(Ruleset{Rules: AntichessTeamCup(time.Time{}).Rules[:1]}, s, tc.now)
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
	s := FromUser(loadUser(t, "synthetic/user_antichess_provisional.json"), reg)
	checkReport(t, "before pairings", Evaluate(AntichessTeamCup(pairings), s, reg), Fail, map[string]Status{"A2.provisional": Unknown})
	checkReport(t, "at pairings", Evaluate(AntichessTeamCup(pairings), s, pairings), Fail, map[string]Status{"A2.provisional": Fail})
	none := FromUser(loadUser(t, "synthetic/user_no_antichess.json"), reg)
	checkReport(t, "no rating, before pairings", Evaluate(AntichessTeamCup(pairings), none, reg), Fail, map[string]Status{"A2.provisional": Unknown})
}

func TestW1(t *testing.T) {
	old := Snapshot{Username: "veteran", CreatedAt: date(2021, 5, 1), Antichess: &Perf{Games: 3000, Rating: 2300, RD: 50}}
	deadline := date(2023, 3, 12)
	for _, tc := range []struct {
		name    string
		edit    func(*Snapshot)
		now     time.Time
		overall Status
		want    map[string]Status
	}{
		{"fetched before the deadline with 3000 games", func(s *Snapshot) { s.FetchedAt = date(2023, 3, 1) }, date(2023, 3, 1), Unknown,
			map[string]Status{"W1.created": Pass, "W1.games": Pass, "W1.marks": Pass, "W1.bot": Pass, "W1.closed": Pass,
				"W1.cheat": Unknown, "W1.past-marks": Unknown, "W1.accounts": Unknown}},
		{"created on 2023-01-01 exactly", func(s *Snapshot) { s.FetchedAt = date(2023, 3, 1); s.CreatedAt = date(2023, 1, 1) }, date(2023, 3, 1), Fail,
			map[string]Status{"W1.created": Fail}},
		{"700 games before the deadline, may still play more", func(s *Snapshot) { s.FetchedAt = date(2023, 3, 1); s.Antichess.Games = 700 },
			date(2023, 3, 1), Unknown, map[string]Status{"W1.games": Unknown}},
		{"fetched later, 1200 now, 300 since the deadline", func(s *Snapshot) {
			s.FetchedAt = date(2026, 1, 1)
			s.Antichess.Games = 1200
			s.Counts = []GameCount{{From: deadline, To: date(2026, 1, 1), Games: 300}}
		}, date(2026, 1, 1), Fail, map[string]Status{"W1.games": Fail}},
		{"fetched later, 1200 now, 150 since the deadline", func(s *Snapshot) {
			s.FetchedAt = date(2026, 1, 1)
			s.Antichess.Games = 1200
			s.Counts = []GameCount{{From: deadline, To: date(2026, 1, 1), Games: 150}}
		}, date(2026, 1, 1), Unknown, map[string]Status{"W1.games": Pass}},
		{"fetched later, 1200 now, no count", func(s *Snapshot) { s.FetchedAt = date(2026, 1, 1); s.Antichess.Games = 1200 },
			date(2026, 1, 1), Unknown, map[string]Status{"W1.games": Unknown}},
		{"fetched later, 800 now", func(s *Snapshot) { s.FetchedAt = date(2026, 1, 1); s.Antichess.Games = 800 },
			date(2026, 1, 1), Fail, map[string]Status{"W1.games": Fail}},
		{"direct count before the deadline", func(s *Snapshot) {
			s.FetchedAt = date(2026, 1, 1)
			s.Counts = []GameCount{{To: deadline, Games: 1001}}
		}, date(2026, 1, 1), Unknown, map[string]Status{"W1.games": Pass}},
		{"marked", func(s *Snapshot) { s.FetchedAt = date(2023, 3, 1); s.TosViolation = true }, date(2023, 3, 1), Fail,
			map[string]Status{"W1.marks": Fail}},
		{"bot", func(s *Snapshot) { s.FetchedAt = date(2023, 3, 1); s.Bot = true; s.Title = "BOT" }, date(2023, 3, 1), Fail,
			map[string]Status{"W1.bot": Fail}},
	} {
		s := old
		p := *old.Antichess
		s.Antichess = &p
		tc.edit(&s)
		r := Evaluate(ACWC2023(), s, tc.now)
		checkReport(t, tc.name, r, tc.overall, tc.want)
		for _, c := range r.Checks {
			if c.Clause != "W1" {
				t.Errorf("%s: %s names clause %q", tc.name, c.Rule, c.Clause)
			}
		}
	}
}

func TestW1SyntheticUsers(t *testing.T) {
	now := date(2026, 1, 1)
	for _, tc := range []struct {
		file string
		want map[string]Status
	}{
		// Created 2024-11-27: too late for ACWC 2023 whatever else holds.
		{"synthetic/user_bot.json", map[string]Status{"W1.created": Fail, "W1.bot": Fail, "W1.games": Fail}},
		{"synthetic/user_tos.json", map[string]Status{"W1.created": Fail, "W1.marks": Fail, "W1.bot": Pass}},
		{"synthetic/user_closed.json", map[string]Status{"W1.closed": Fail, "W1.created": Unknown}},
	} {
		r := Evaluate(ACWC2023(), FromUser(loadUser(t, tc.file), now), now)
		checkReport(t, tc.file, r, Fail, tc.want)
	}
}

func TestGameBounds(t *testing.T) {
	f := date(2026, 1, 1)
	d := date(2023, 3, 12)
	total := GameCount{To: f, Games: 1200}
	for _, tc := range []struct {
		name         string
		counts       []GameCount
		a, b         time.Time
		lo, hi       int
		hasLo, hasHi bool
	}{
		{"total covers all-time to f", []GameCount{total}, time.Time{}, f, 1200, 1200, true, true},
		{"total is an upper bound of a recent window", []GameCount{total}, date(2025, 10, 1), f, 0, 1200, false, true},
		{"total is a lower bound of a later window", []GameCount{total}, time.Time{}, date(2026, 2, 1), 1200, 0, true, false},
		{"since-deadline count ending at fetch: exact", []GameCount{total, {From: d, To: f, Games: 300}}, time.Time{}, d, 900, 900, true, true},
		// the total alone bounds games before d from above
		{"since-deadline count ending later: lower", []GameCount{total, {From: d, To: f.AddDate(0, 0, 1), Games: 310}}, time.Time{}, d, 890, 1200, true, true},
		{"since-deadline count ending earlier: upper", []GameCount{total, {From: d, To: f.AddDate(0, 0, -1), Games: 290}}, time.Time{}, d, 0, 910, false, true},
		{"nothing", nil, time.Time{}, d, 0, 0, false, false},
		// a count cut short is a lower bound of its window only
		{"cut count inside: lower", []GameCount{{From: date(2025, 10, 1), To: f, Games: 100, AtLeast: true}}, date(2025, 10, 1), f, 100, 0, true, false},
		{"cut count covering: no upper", []GameCount{{To: f, Games: 1000, AtLeast: true}}, time.Time{}, d, 0, 0, false, false},
		{"cut since-deadline count: upper only", []GameCount{total, {From: d, To: f, Games: 201, AtLeast: true}}, time.Time{}, d, 0, 999, false, true},
		{"cut total: ignored", []GameCount{{To: f, Games: 1200, AtLeast: true}, {From: d, To: f, Games: 300}}, time.Time{}, d, 0, 0, false, false},
	} {
		lo, hi, hasLo, hasHi := gameBounds(tc.counts, tc.a, tc.b)
		if hasLo != tc.hasLo || hasHi != tc.hasHi || (hasLo && lo != tc.lo) || (hasHi && hi != tc.hi) {
			t.Errorf("%s: lo %d/%v hi %d/%v", tc.name, lo, hasLo, hi, hasHi)
		}
	}
}
