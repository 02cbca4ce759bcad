package web

import (
	"arbiter/format"
)

// navLink is one entry of an event's page navigation.
type navLink struct {
	Href, Label string
	Current     bool
}

// nav lists the event's public pages; current is the Label of the page
// shown. Pages that cannot apply to the format (a bracket without a
// knockout stage) are left out; the others say themselves when they
// have nothing yet.
func (v *eventView) nav(current string) []navLink {
	base := "/events/" + v.Ev.Slug
	links := []navLink{{base, "Event", false}, {base + "/entrants", "Entrants", false}}
	if rd := v.currentRound(); rd != "" {
		links = append(links, navLink{base + "/rounds/" + rd, "Pairings", false})
	}
	links = append(links, navLink{base + "/standings", "Standings", false})
	var table, pools, bracket bool
	for _, sg := range v.stageKinds() {
		switch sg.Kind {
		case format.Swiss, format.RoundRobin:
			table = true
		case format.Pool:
			table, pools = true, true
		case format.Knockout:
			bracket = true
		}
	}
	if table {
		links = append(links, navLink{base + "/crosstable", "Crosstable", false})
	}
	if pools {
		links = append(links, navLink{base + "/pools", "Pools", false})
	}
	if bracket {
		links = append(links, navLink{base + "/bracket", "Bracket", false})
	}
	for i := range links {
		links[i].Current = links[i].Label == current
	}
	return links
}

// currentRound is the ID of the latest round with public pairings, or
// the first round of the calendar before any ("" during registration).
func (v *eventView) currentRound() string {
	if n := len(v.Rounds); n > 0 {
		return v.Rounds[n-1].ID
	}
	if len(v.Ev.Calendar) > 0 {
		w := v.Ev.Calendar[0]
		return roundID(w.Stage, w.Number)
	}
	return ""
}

// stageTabs links the stages a page applies to (shown when more than one).
type stageTabs struct {
	Stages  []stageRef
	Current stageRef
}
