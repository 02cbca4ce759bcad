package web

import (
	"testing"
	"time"

	"arbiter"
)

func TestPlainMessage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want string
	}{
		// The code's rule names stay off the pages...
		{arbiter.FieldError("slug", "sqlstore.slug", "slug %q may hold only a-z, 0-9 and inner '-'", "A B"), `slug: slug "A B" may hold only a-z, 0-9 and inner '-'`},
		{arbiter.FieldError("times[0]", "web.time", "not a time"), "times[0]: not a time"},
		// ...the rulebooks' clauses and FIDE articles stay on them.
		{arbiter.RuleError("A12", "a lineup names 3 players"), "a lineup names 3 players (rule A12)"},
		{arbiter.RuleError("W9", "tied"), "tied (rule W9)"},
		{arbiter.RuleError("C.07 16.5", "cut"), "cut (rule C.07 16.5)"},
		{arbiter.RuleError("R7", "lineup late (R7)"), "lineup late (R7)"},
		{arbiter.Errorf(arbiter.EINTERNAL, "db down"), "internal error"},
	} {
		if got := plainMessage(c.err); got != c.want {
			t.Errorf("plainMessage(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n         int
		one, many string
		want      string
	}{
		{0, "round", "", "0 rounds"}, {1, "round", "", "1 round"}, {2, "entrant", "", "2 entrants"},
		{1, "match", "matches", "1 match"}, {3, "match", "matches", "3 matches"},
	} {
		var got string
		if c.many == "" {
			got = count(c.n, c.one)
		} else {
			got = count(c.n, c.one, c.many)
		}
		if got != c.want {
			t.Errorf("count(%d, %q) = %q, want %q", c.n, c.one, got, c.want)
		}
	}
	if got, want := countOr(nil, "round", "rounds set by the TDs"), "rounds set by the TDs"; got != want {
		t.Errorf("countOr(nil) = %q, want %q", got, want)
	}
}

// A4: round 1 of the antichess cup ends (exclusively) on Tuesday 14
// January 2025 00:00 UTC; the rulebook names its deadline Monday 23:59.
func TestDeadlineText(t *testing.T) {
	t.Parallel()
	end := time.Date(2025, 1, 14, 0, 0, 0, 0, time.UTC)
	if got, want := deadlineText(deadlineOf(end)), "Monday 2025-01-13 23:59 UTC"; got != want {
		t.Errorf("deadline = %q, want %q", got, want)
	}
	if got := deadlineText(deadlineOf(time.Time{})); got != "" {
		t.Errorf("no deadline = %q", got)
	}
	st := deadlineStamp(deadlineOf(end))
	if st.ISO != "2025-01-13T23:59:00Z" || st.Text != "Monday 2025-01-13 23:59 UTC" {
		t.Errorf("stamp = %+v", st)
	}
}

func TestTiebreakNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, name, title string }{
		{"buchholz/c1", "Buchholz cut 1", "FIDE C.07 8.1, 14 (BH-C1)"},
		{"BH:GP", "Buchholz (game points)", "FIDE C.07 8.1 (BH:GP)"},
		{"sonneborn_berger", "Sonneborn-Berger", "FIDE C.07 9.1 (SB)"},
		{"median_buchholz", "Median Buchholz", "A21, W7; FIDE C.07 14.3 (BH-M1)"},
		{"td_value:previous_final", "Previous final", "entered by the TDs, W9"},
		{"points_difference", "Points difference", "antichess cup A21"},
		{"set_wins", "Sets won", "RKCC R12"},
		{"aro/c1", "Opponents' average rating cut 1", "FIDE C.07 10.1, 14 (ARO-C1)"},
		{"not a tiebreak", "not a tiebreak", ""},
	} {
		l := tiebreakName(c.id)
		if l.Name != c.name || l.Title != c.title {
			t.Errorf("tiebreakName(%q) = %q, %q; want %q, %q", c.id, l.Name, l.Title, c.name, c.title)
		}
	}
}
