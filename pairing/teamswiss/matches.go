package teamswiss

import (
	"arbiter"
	"arbiter/standings"
)

// SecondaryDifference reports whether a stage's secondary score (the one
// that orders teams inside a scoregroup) is a points difference (A21)
// rather than the points scored (R12 set points): the first of the
// stage's tiebreaks that names a secondary-score total decides.
func SecondaryDifference(tiebreaks []string) bool {
	for _, tb := range tiebreaks {
		switch tb {
		case standings.PointsDifference:
			return true
		case standings.SetPoints, standings.PointsScored, standings.OverallGameScore:
			return false
		}
	}
	return false
}

// FromMatches is the event before the next round of a team Swiss stage as
// the app stores it: ids are the teams in seed order, withdrawn marks those
// not to pair (removed), rounds holds the stage's matches round by round (a
// team missing from a round was absent), diff says the secondary score is
// a points difference (SecondaryDifference). Forbidden groups are left to
// the caller.
func FromMatches(ids []string, withdrawn []bool, rounds [][]arbiter.Match, p Points, diff bool, total int, initial string) *Event {
	ev := &Event{TotalRounds: total, InitialColour: initial, Points: p}
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
		tm := Team{ID: id, Seed: i + 1, Withdrawn: withdrawn[i], Rounds: make([]Round, len(rounds))}
		for r := range tm.Rounds {
			tm.Rounds[r] = Round{Result: Absent, MatchPoints: p.Loss}
		}
		ev.Teams = append(ev.Teams, tm)
	}
	for ri, r := range rounds {
		for k := range r {
			m := &r[k]
			h, okh := index[m.Home]
			if !okh {
				continue
			}
			if m.IsBye() {
				ev.Teams[h].Rounds[ri] = Round{Result: Bye, MatchPoints: p.Bye}
				continue
			}
			aw, oka := index[m.Away]
			if !oka {
				continue
			}
			ev.Teams[h].Rounds[ri], ev.Teams[aw].Rounds[ri] = MatchRounds(m, p, diff)
		}
	}
	return ev
}

// MatchRounds maps a match of an earlier round onto both teams' histories:
// a played match (won, lost or drawn) is Played; any other decision with a
// winner is a Forfeit; equal match points without play (a double forfeit,
// A5's 0-0 draw, W14's full draw) a DoubleForfeit. A match the engine cannot
// classify (no final result, equal wins) counts as a double forfeit lost by
// both: no colour, no float, no bar on a rematch.
func MatchRounds(m *arbiter.Match, p Points, diff bool) (home, away Round) {
	home = Round{Opponent: m.Away, White: true}
	away = Round{Opponent: m.Home}
	o := m.Result
	lost := func() (Round, Round) {
		home.Result, away.Result = DoubleForfeit, DoubleForfeit
		home.MatchPoints, away.MatchPoints = p.Loss, p.Loss
		home.Secondary, away.Secondary = 0, 0
		return home, away
	}
	if o == nil {
		return lost()
	}
	hp, ap := o.Home.MatchPoints, o.Away.MatchPoints
	home.MatchPoints, away.MatchPoints = hp, ap
	home.Secondary, away.Secondary = o.Home.Points, o.Away.Points
	if diff {
		home.Secondary, away.Secondary = o.Home.Points-o.Away.Points, o.Away.Points-o.Home.Points
	}
	decisive := (hp == p.Win && ap == p.Loss) || (hp == p.Loss && ap == p.Win)
	drawn := hp == p.Draw && ap == p.Draw
	switch {
	case (o.Decision == "played" || o.Decision == "") && (decisive || drawn):
		home.Result, away.Result = Played, Played
	case decisive:
		home.Result, away.Result = Forfeit, Forfeit
	case hp == ap && (hp == p.Draw || hp == p.Loss):
		home.Result, away.Result = DoubleForfeit, DoubleForfeit
	default:
		return lost()
	}
	return home, away
}
