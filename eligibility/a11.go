package eligibility

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A11ReplaceBy is the date of A11's replacement rule: "the team will have
// to replace the board 4 player if the player crosses the threshold
// before 25th April 2025" (a crossing later does not count).
var A11ReplaceBy = time.Date(2025, 4, 25, 0, 0, 0, 0, time.UTC)

// minCap is A11's strictest board-4 cap (two AGM or higher).
const minCap = 2000

// TeamInput is what A11's team check needs: the team's players, the
// TDs' record of their antichess titles (A11's AGM and ASGM are community
// titles Lichess does not show), and the players who may play the last
// board with their rating histories.
type TeamInput struct {
	Players []string
	// Titles by player: "AGM" (an unclaimed but earned AGM counts as one,
	// A11), "ASGM" or "" for none; a player missing is not recorded.
	Titles map[string]string
	Board4 []Board4Player
	Now    time.Time
}

// Board4Player is a player who may play board 4, with the daily ratings
// Lichess gives (Known false: Lichess could not be asked).
type Board4Player struct {
	Name    string
	History []RatingPoint
	Known   bool
}

// TeamA11 judges a team against A11's team rules: at most two AGM or
// higher, and the board-4 rating cap that the titles set (Board4Cap),
// judged by CapCrossingUntil(A11ReplaceBy) on each board-4 player's
// history. What the data cannot settle is Unknown, for the TDs: titles
// not recorded (the cap then is only known to lie between 2000 and the
// cap of the titles recorded), a history Lichess could not give, and
// Lichess's histories, which carry no RD (A11's RD > 80 exception).
func TeamA11(in TeamInput) []Check {
	agm := Check{Rule: "A11.agm", Clause: "A11", Text: "at most two AGM or higher in a team (an unclaimed AGM counts)"}
	var recorded, missing []string
	high := 0
	for _, p := range in.Players {
		t, ok := in.Titles[p]
		if !ok {
			missing = append(missing, p)
			continue
		}
		recorded = append(recorded, t)
		if u := strings.ToUpper(t); u == TitleAGM || u == TitleASGM {
			high++
		}
	}
	lenient, err := Board4Cap(recorded)
	switch {
	case err != nil:
		agm.Status, agm.Detail = Fail, fmt.Sprintf("%d AGM or higher", high)
		lenient = minCap
	case len(missing) > 0:
		agm.Status, agm.Detail = Unknown, fmt.Sprintf("%d AGM or higher recorded; the TDs record the titles of %s", high, strings.Join(missing, ", "))
	default:
		agm.Status, agm.Detail = Pass, fmt.Sprintf("%d AGM or higher", high)
	}
	out := []Check{agm}
	for _, b := range in.Board4 {
		if !b.Known {
			out = append(out, Check{Rule: "A11.cap", Clause: "A11", Text: "board 4 under the cap", Status: Unknown,
				Detail: b.Name + ": Lichess could not give the rating history; the TDs check it"})
			continue
		}
		// Under the strictest cap it passes every cap; over the most
		// lenient one the titles cannot save it.
		c := CapCrossingUntil(b.History, minCap, in.Now, A11ReplaceBy)
		if c.Status != Pass {
			c = CapCrossingUntil(b.History, lenient, in.Now, A11ReplaceBy)
			if c.Status == Pass && len(missing) > 0 {
				c.Status = Unknown
				c.Detail = fmt.Sprintf("over %d, under %d: the cap depends on the titles the TDs record", minCap, lenient)
			}
		}
		c.Detail = b.Name + ": " + c.Detail
		out = append(out, c)
	}
	return out
}

// Worst is the overall status of checks: fail if one fails, else unknown
// if one is, else pass.
func Worst(cs []Check) Status {
	st := Pass
	for _, c := range cs {
		switch {
		case c.Status == Fail:
			return Fail
		case c.Status == Unknown:
			st = Unknown
		}
	}
	return st
}

// ByRating orders players by rating, best first (names break ties), for
// "board 4" before the TDs rank the boards (A12).
func ByRating(ratings map[string]int) []string {
	out := make([]string, 0, len(ratings))
	for p := range ratings {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b string) int {
		if ratings[a] != ratings[b] {
			return ratings[b] - ratings[a]
		}
		return strings.Compare(a, b)
	})
	return out
}
