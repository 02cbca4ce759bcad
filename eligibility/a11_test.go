package eligibility

import "testing"

// TestTeamA11: A11's team rules from the TDs' record of titles and the
// board-4 player's daily ratings (RD 50, under A11's 80, unless said).
func TestTeamA11(t *testing.T) {
	now := date(2025, 6, 1)
	players := []string{"p1", "p2", "p3", "p4"}
	over2100 := pts(50, date(2025, 2, 1), 2120, date(2025, 2, 2), 2090, date(2025, 3, 1), 2110, date(2025, 3, 2), 2080,
		date(2025, 4, 1), 2101, date(2025, 4, 2), 2000) // over 2100 on three days: above a 2100 cap, under 2150
	heldAfter := pts(50, date(2025, 5, 1), 1990, date(2025, 5, 10), 2250, date(2025, 5, 20), 2260) // over 2200 only after 25 April
	for _, tc := range []struct {
		name    string
		titles  map[string]string
		history []RatingPoint
		known   bool
		agm     Status
		cap     Status
	}{
		// Three AGM or higher break A11 itself; the cap is then 2000 and
		// board 4 was over it.
		{"three AGM", map[string]string{"p1": "AGM", "p2": "ASGM", "p3": "AGM", "p4": ""}, over2100, true, Fail, Fail},
		// One AGM and no ASGM: the cap is 2150; over 2100 three times is
		// under it.
		{"one AGM: cap 2150", map[string]string{"p1": "AGM", "p2": "", "p3": "", "p4": ""}, over2100, true, Pass, Pass},
		// One ASGM and no AGM: the cap is 2100, crossed on three days.
		{"one ASGM: cap 2100", map[string]string{"p1": "ASGM", "p2": "", "p3": "", "p4": ""}, over2100, true, Pass, Fail},
		// Titles not all recorded: over 2000 but the cap lies between
		// 2000 and 2200: the TDs' call.
		{"titles missing", map[string]string{"p1": ""}, over2100, true, Unknown, Unknown},
		// Over 2200 only after 25 April 2025: no replacement (A11).
		{"crossed after the date", map[string]string{"p1": "", "p2": "", "p3": "", "p4": ""}, heldAfter, true, Pass, Pass},
		// Lichess gave no history.
		{"no history", map[string]string{"p1": "", "p2": "", "p3": "", "p4": ""}, nil, false, Pass, Unknown},
		// Lichess's history has no RD: a crossing is for the TDs.
		{"RD unknown", map[string]string{"p1": "ASGM", "p2": "", "p3": "", "p4": ""}, pts(0, date(2025, 2, 1), 2150, date(2025, 2, 5), 2090), true, Pass, Unknown},
	} {
		cs := TeamA11(TeamInput{Players: players, Titles: tc.titles, Board4: []Board4Player{{Name: "p4", History: tc.history, Known: tc.known}}, Now: now})
		if len(cs) != 2 || cs[0].Rule != "A11.agm" || cs[0].Status != tc.agm || cs[1].Rule != "A11.cap" || cs[1].Status != tc.cap || cs[1].Clause != "A11" {
			t.Errorf("%s: %+v", tc.name, cs)
		}
	}
	if w := Worst([]Check{{Status: Pass}, {Status: Unknown}}); w != Unknown {
		t.Errorf("worst %s", w)
	}
	if got := ByRating(map[string]int{"a": 1800, "b": 2000, "c": 1800}); got[0] != "b" || got[1] != "a" || got[2] != "c" {
		t.Errorf("by rating %v", got)
	}
}
