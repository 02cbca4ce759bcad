package odds

import (
	"fmt"
	"strings"

	"arbiter"
)

// ParseFixed reads a result given by hand, MATCH=RESULT: MATCH is a
// paired match's ID (s1r5b3) or two entrants HOME:AWAY (applied if they
// meet); RESULT is home, away or draw (also 1-0, 0-1, =, 1/2), or the
// winner's entrant ID.
func ParseFixed(s string) (Fixed, error) {
	m, r, ok := strings.Cut(strings.TrimSpace(s), "=")
	m, r = strings.TrimSpace(m), strings.TrimSpace(r)
	if !ok || m == "" || r == "" {
		return Fixed{}, arbiter.FieldError("fix", "odds.fixed", "want MATCH=RESULT (s1r5b3=home, alice:bob=draw, s1r5b3=alice), got %q", s)
	}
	var f Fixed
	if h, a, pair := strings.Cut(m, ":"); pair {
		f.Home, f.Away = strings.ToLower(strings.TrimSpace(h)), strings.ToLower(strings.TrimSpace(a))
		if f.Home == "" || f.Away == "" {
			return Fixed{}, arbiter.FieldError("fix", "odds.fixed", "want HOME:AWAY, got %q", m)
		}
	} else {
		f.Match = m
	}
	switch strings.ToLower(r) {
	case "home", "1-0", "1":
		f.Result = HomeWins
	case "away", "0-1", "0":
		f.Result = AwayWins
	case "draw", "=", "1/2", "½", "½-½", "1/2-1/2":
		f.Result = Drawn
	default:
		f.Result = strings.ToLower(r) // a winner's ID, checked against the match
	}
	return f, nil
}

// Percent shows a chance: exactly 100% or 0% only when the exact check
// decided it, otherwise never rounded to either.
func Percent(c Chance) string {
	switch {
	case c.Exact == Clinched:
		return "100%"
	case c.Exact == Eliminated:
		return "0%"
	case c.P < 0.001:
		return "<0.1%"
	case c.P > 0.999:
		return ">99.9%"
	}
	return fmt.Sprintf("%.1f%%", 100*c.P)
}

// Verdict is Percent with what the exact check decided said in words:
// "100% (certain)", "0% (out)".
func Verdict(c Chance) string {
	switch c.Exact {
	case Clinched:
		return Percent(c) + " (certain)"
	case Eliminated:
		return Percent(c) + " (out)"
	}
	return Percent(c)
}
