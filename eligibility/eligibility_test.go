package eligibility

import (
	"testing"
	"time"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

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
