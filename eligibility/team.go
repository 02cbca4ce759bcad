package eligibility

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
)

// Antichess community titles that A11 counts. ASGM ranks above AGM (its
// board-4 cap is lower); a player eligible for AGM who has not claimed it
// counts as AGM, so callers pass "AGM" for them.
const (
	TitleASGM = "ASGM"
	TitleAGM  = "AGM"
)

// Board4Cap returns A11's rating cap for board 4 from the antichess titles
// of the team's players (other strings, e.g. "" or "FM", are ignored):
// two AGM-or-higher 2000; one ASGM and no AGM 2100; one AGM and no ASGM
// 2150; none 2200. More than two AGM-or-higher breaks A11 itself.
func Board4Cap(titles []string) (int, error) {
	asgm, agm := 0, 0
	for _, t := range titles {
		switch strings.ToUpper(strings.TrimSpace(t)) {
		case TitleASGM:
			asgm++
		case TitleAGM:
			agm++
		}
	}
	switch {
	case asgm+agm > 2:
		return 0, arbiter.RuleError("A11", "a team may have at most two AGM or higher, this one has %d", asgm+agm)
	case asgm+agm == 2:
		return 2000, nil
	case asgm == 1:
		return 2100, nil
	case agm == 1:
		return 2150, nil
	}
	return 2200, nil
}

// capSince is when A11's board-4 rating restriction starts counting.
var capSince = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// MaxCapRD is the deviation above which a crossing does not count (A11).
const MaxCapRD = 80

// RatingPoint is the antichess rating at the end of a day. RD is 0 when
// unknown (Lichess's rating history has no deviation).
type RatingPoint struct {
	Date   time.Time
	Rating int
	RD     int
}

// CapCrossing judges A11's "above the threshold" for a board-4 player from
// daily ratings since 2025-01-01 (earlier points are ignored): above if the
// rating was over the cap on three or more different days, or stayed over
// it for more than one day (from the first day over until the next day
// below, or now, is two days or more). Points with RD > MaxCapRD do not
// count. When the verdict rests on points whose RD is unknown the result
// is Unknown: the RD exception is for the TD.
func CapCrossing(points []RatingPoint, cap int, now time.Time) Check {
	return CapCrossingUntil(points, cap, now, time.Time{})
}

// CapCrossingUntil is CapCrossing counting only what happened before
// until (zero: no limit): A11 makes a team replace its board-4 player only
// for a crossing "before 25th April 2025" (A11ReplaceBy); a run over the
// cap still going on at until ends there.
func CapCrossingUntil(points []RatingPoint, cap int, now, until time.Time) Check {
	c := Check{Rule: "A11.cap", Clause: "A11", Text: fmt.Sprintf("board 4 not above %d since %s", cap, capSince.Format(day))}
	if !until.IsZero() {
		c.Text += " (crossings before " + until.Format(day) + ")"
		if now.After(until) {
			now = until
		}
		points = slices.DeleteFunc(slices.Clone(points), func(p RatingPoint) bool { return !p.Date.Before(until) })
	}
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b RatingPoint) int { return a.Date.Compare(b.Date) })
	days := map[string]bool{}
	unknownRD := false
	held := ""
	for i, p := range ps {
		if p.Date.Before(capSince) || p.Rating <= cap || p.RD > MaxCapRD {
			continue
		}
		days[p.Date.Format(day)] = true
		unknownRD = unknownRD || p.RD == 0
		// Start of a run over the cap: how long until the rating is back down?
		if i > 0 && ps[i-1].Rating > cap && !ps[i-1].Date.Before(capSince) && ps[i-1].RD <= MaxCapRD {
			continue
		}
		until := now
		for _, q := range ps[i+1:] {
			if q.Rating <= cap || q.RD > MaxCapRD {
				until = q.Date
				break
			}
		}
		if until.Sub(p.Date) >= 48*time.Hour && held == "" {
			held = fmt.Sprintf("over %d from %s until %s", cap, p.Date.Format(day), until.Format(day))
		}
	}
	switch {
	case len(days) < 3 && held == "":
		c.Status = Pass
		c.Detail = fmt.Sprintf("over %d on %s since %s, never for more than a day", cap, arbiter.Count(len(days), "day"), capSince.Format(day))
		return c
	case len(days) >= 3:
		c.Detail = fmt.Sprintf("over %d on %d different days since %s", cap, len(days), capSince.Format(day))
	default:
		c.Detail = held
	}
	c.Status = Fail
	if unknownRD {
		c.Status = Unknown
		c.Detail += "; the rating history has no RD, so the TD must check the RD > 80 exception"
	}
	return c
}

// ReplacementCheck is A15's rating condition for replacing a disqualified
// player: the replacement must be at least 100 points below the player replaced.
func ReplacementCheck(replacedRating, replacementRating int) Check {
	c := Check{Rule: "A15.rating", Clause: "A15", Text: "replacement at least 100 rating points lower than the player replaced"}
	gap := replacedRating - replacementRating
	c.Status = Pass
	if gap < 100 {
		c.Status = Fail
	}
	c.Detail = fmt.Sprintf("%d replaces %d: %d points lower", replacementRating, replacedRating, gap)
	return c
}
