package web

import (
	"arbiter"
	"arbiter/app"
)

// Who plays a team match, as the viewer may see it: package app decides
// (app.MatchLineups, with R7's disclosure); the page shows it.
type matchLineups = app.MatchLineups

// scoreRow is one part, set or board of the result with its players.
type scoreRow struct {
	Label                  string
	Home, Away             arbiter.Points
	HomePlayer, AwayPlayer string
}

// scoreRows are the result's parts (or sets, or boards) with the players
// the viewer may see.
func scoreRows(parts []arbiter.PartResult, ml *matchLineups) []scoreRow {
	var out []scoreRow
	for _, p := range parts {
		h, a := ml.PlayerOf(p.TC)
		out = append(out, scoreRow{Label: p.TC, Home: p.Home, Away: p.Away, HomePlayer: h, AwayPlayer: a})
	}
	return out
}
