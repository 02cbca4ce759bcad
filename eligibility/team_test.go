package eligibility

import (
	"errors"
	"testing"
	"time"

	"arbiter"
)

// Caps from A11: 2 AGM+ 2000; 1 ASGM no AGM 2100; 1 AGM no ASGM 2150; none 2200.
func TestBoard4Cap(t *testing.T) {
	for _, tc := range []struct {
		titles []string
		want   int
	}{
		{nil, 2200},
		{[]string{"", "FM", "BOT"}, 2200},
		{[]string{"AGM"}, 2150},
		{[]string{"agm", "IM"}, 2150},
		{[]string{"ASGM"}, 2100},
		{[]string{"AGM", "ASGM"}, 2000},
		{[]string{"AGM", "AGM"}, 2000},
		{[]string{"ASGM", "ASGM", ""}, 2000},
	} {
		got, err := Board4Cap(tc.titles)
		if err != nil || got != tc.want {
			t.Errorf("%q: %d, %v; want %d", tc.titles, got, err, tc.want)
		}
	}
	_, err := Board4Cap([]string{"AGM", "ASGM", "AGM"})
	var e *arbiter.Error
	if err == nil || arbiter.ErrorCode(err) != arbiter.ERULE || !errors.As(err, &e) || e.Rule != "A11" {
		t.Errorf("three AGM+: %v", err)
	}
}

func pts(rd int, days ...any) []RatingPoint {
	var out []RatingPoint
	for i := 0; i < len(days); i += 2 {
		out = append(out, RatingPoint{Date: days[i].(time.Time), Rating: days[i+1].(int), RD: rd})
	}
	return out
}

func TestCapCrossing(t *testing.T) {
	now := date(2025, 6, 1)
	for _, tc := range []struct {
		name   string
		points []RatingPoint
		want   Status
	}{
		{"never over", pts(50, date(2025, 2, 1), 2100, date(2025, 3, 1), 2050), Pass},
		{"over once, back the next day", pts(50, date(2025, 2, 1), 2120, date(2025, 2, 2), 2090), Pass},
		{"over on two days, each back the next day", pts(50,
			date(2025, 2, 1), 2120, date(2025, 2, 2), 2090, date(2025, 3, 1), 2110, date(2025, 3, 2), 2080), Pass},
		{"over on three different days", pts(50,
			date(2025, 2, 1), 2120, date(2025, 2, 2), 2090, date(2025, 3, 1), 2110, date(2025, 3, 2), 2080,
			date(2025, 4, 1), 2101, date(2025, 4, 2), 2000), Fail},
		{"held over two days", pts(50, date(2025, 2, 1), 2120, date(2025, 2, 3), 2090), Fail},
		{"held over on consecutive days", pts(50, date(2025, 2, 1), 2120, date(2025, 2, 2), 2130, date(2025, 2, 3), 2000), Fail},
		{"still over at the end of the history", pts(50, date(2025, 5, 1), 2000, date(2025, 5, 29), 2150), Fail},
		{"over only in 2024", pts(50, date(2024, 11, 1), 2300, date(2024, 12, 31), 2150, date(2025, 1, 1), 2050), Pass},
		{"over with RD above 80 does not count", pts(90,
			date(2025, 2, 1), 2120, date(2025, 2, 10), 2130, date(2025, 3, 1), 2110, date(2025, 4, 1), 2105), Pass},
		{"RD unknown: the TD decides", pts(0, date(2025, 2, 1), 2120, date(2025, 2, 5), 2090), Unknown},
	} {
		c := CapCrossing(tc.points, 2100, now)
		if c.Status != tc.want || c.Clause != "A11" {
			t.Errorf("%s: %s (%s), want %s", tc.name, c.Status, c.Detail, tc.want)
		}
	}
}

func TestReplacementCheck(t *testing.T) {
	for _, tc := range []struct {
		replaced, replacement int
		want                  Status
	}{
		{2000, 1900, Pass}, // exactly 100 lower
		{2000, 1750, Pass},
		{2000, 1901, Fail},
		{2000, 2000, Fail},
		{2000, 2050, Fail},
	} {
		c := ReplacementCheck(tc.replaced, tc.replacement)
		if c.Status != tc.want || c.Clause != "A15" {
			t.Errorf("%d -> %d: %s (%s)", tc.replaced, tc.replacement, c.Status, c.Detail)
		}
	}
}
