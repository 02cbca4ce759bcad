package score

import (
	"fmt"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// Outcome is the scored match in summary, as a match stores it
// (arbiter.Outcome): the result, what the standings need for each side,
// and the part, set or board totals to show.
func (ms *MatchScore) Outcome() arbiter.Outcome {
	r := ms.Standings
	o := arbiter.Outcome{Result: ms.Result, Forfeit: ms.Forfeit, DecidedBy: ms.DecidedBy, Decision: string(r.Decision),
		Home: arbiter.SideScore{MatchPoints: r.A.MatchPoints, Points: r.A.Secondary, SetsWon: r.A.SetsWon, GamesWon: r.A.GamesWon},
		Away: arbiter.SideScore{MatchPoints: r.B.MatchPoints, Points: r.B.Secondary, SetsWon: r.B.SetsWon, GamesWon: r.B.GamesWon}}
	if o.Decision == "" {
		o.Decision = string(standings.Played)
	}
	for _, p := range ms.Parts {
		o.Parts = append(o.Parts, arbiter.PartResult{TC: p.TC, Home: p.Home, Away: p.Away})
	}
	for _, p := range ms.Sets {
		o.Sets = append(o.Sets, arbiter.PartResult{TC: p.TC, Home: p.Home, Away: p.Away})
	}
	for _, b := range ms.Boards {
		o.Parts = append(o.Parts, arbiter.PartResult{TC: fmt.Sprintf("board %d", b.Board), Home: b.Home, Away: b.Away})
	}
	return o
}

// ByeOutcome is the result of a pairing-allocated bye: a win's match
// points and nothing else.
func ByeOutcome(mp format.MatchPoints) arbiter.Outcome {
	return arbiter.Outcome{Result: HomeWin, Decision: string(standings.PairingBye), Home: arbiter.SideScore{MatchPoints: mp.Win}}
}
