package score

import (
	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

// Outcome is the scored match in summary, as a report and a match store
// it (arbiter.Outcome): the result, what the standings need for each
// side, and the part, set or board totals to show.
func (ms *MatchScore) Outcome() arbiter.Outcome { return ms.outcome }

// ByeOutcome is the result of a pairing-allocated bye: a win's match
// points and nothing else.
func ByeOutcome(mp format.MatchPoints) arbiter.Outcome {
	return arbiter.Outcome{Result: HomeWin, Decision: string(standings.PairingBye), Home: arbiter.SideScore{MatchPoints: mp.Win}}
}
