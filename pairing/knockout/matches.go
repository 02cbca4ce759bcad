package knockout

import (
	"arbiter"
)

// RoundMatches rebuilds a knockout stage's bracket from the winners of its
// earlier rounds and returns the matches of round number as the app
// stores them. ids are the stage's entrants in seed order; played holds
// the stage's matches so far (each bracket match with its result: a match
// without a winner, a tie left to the TDs, stops the pairing); movedUp
// maps a finalist who left before the final to the semifinal opponent who
// takes their place (W17), whose third-place match then goes to the other
// semifinal loser as a bye. Matches carry the bracket's match ID and the
// match format: "final", "third_place" or "".
func RoundMatches(ids []string, thirdPlace bool, played [][]arbiter.Match, number int, movedUp map[string]string) ([]arbiter.Match, error) {
	b, err := New(len(ids), Options{ThirdPlace: thirdPlace})
	if err != nil {
		return nil, err
	}
	seed := make(map[string]int, len(ids))
	for i, id := range ids {
		seed[id] = i + 1
	}
	for _, rd := range played {
		for k := range rd {
			m := &rd[k]
			if m.IsBye() || m.Bracket == "" {
				continue
			}
			var w string
			switch {
			case m.Result != nil && m.Result.Result == "home_win":
				w = m.Home
			case m.Result != nil && m.Result.Result == "away_win":
				w = m.Away
			default:
				return nil, arbiter.RuleError("app.knockout", "knockout match %s has no winner: a TD sets the result with the tie procedure (a match sheet with \"tie\")", m.ID)
			}
			if err := b.SetWinner(m.Bracket, seed[w]); err != nil {
				return nil, err
			}
		}
	}
	if number < 1 || number > len(b.Rounds) {
		return nil, arbiter.RuleError("app.round", "the bracket has %d rounds", len(b.Rounds))
	}
	var out []arbiter.Match
	last := number == len(b.Rounds)
	for _, km := range b.Rounds[number-1].Matches {
		if km.Walkover {
			continue // a bye: the seed already stands in the next round
		}
		if km.HomeSeed == 0 || km.AwaySeed == 0 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "bracket match %s is not ready", km.ID)
		}
		m := arbiter.Match{Home: ids[km.HomeSeed-1], Away: ids[km.AwaySeed-1], Bracket: km.ID}
		switch {
		case km.ThirdPlace:
			m.Format = "third_place"
			// W17: a semifinal loser who moved up to the final leaves the
			// third-place match to the other, who is third (a bye).
			for _, l := range movedUp {
				switch l {
				case m.Home:
					m.Home, m.Away = m.Away, ""
				case m.Away:
					m.Away = ""
				}
			}
		case last:
			m.Format = "final"
		}
		if l, ok := movedUp[m.Home]; ok && m.Format != "third_place" {
			m.Home = l
		}
		if l, ok := movedUp[m.Away]; ok && m.Format != "third_place" {
			m.Away = l
		}
		out = append(out, m)
	}
	return out, nil
}
