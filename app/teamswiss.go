package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing/teamswiss"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// secondaryDifference reports whether the stage's secondary score (the one
// that orders teams inside a scoregroup) is a points difference (A21) rather
// than the points scored (R12 set points): the first of the stage's tiebreaks
// that names a secondary-score total decides.
func secondaryDifference(f *format.Format, si int) bool {
	for _, tb := range f.Stages[si].Tiebreaks {
		switch tb {
		case standings.PointsDifference:
			return true
		case standings.SetPoints, standings.PointsScored, standings.OverallGameScore:
			return false
		}
	}
	return false
}

// teamSwissPairs pairs a team Swiss round with package pairing/teamswiss:
// match points, then the format's secondary score order the teams inside a
// scoregroup, and a team's colour is its board-1 / game-1 colour (Home).
// Entrants are seeded in the given order. The bye, if any, comes last.
func teamSwissPairs(ctx context.Context, q sqlstore.Queryer, st *state, stage arbiter.Stage, rounds []arbiter.Round, entrants []arbiter.Entrant) ([][2]string, error) {
	ev, err := teamSwissEvent(ctx, q, st, stage, rounds, entrants)
	if err != nil {
		return nil, err
	}
	p, err := teamswiss.Pair(ev)
	if err != nil {
		return nil, err
	}
	out := make([][2]string, 0, len(p.Boards)+1)
	for _, b := range p.Boards {
		out = append(out, [2]string{b.Home, b.Away})
	}
	if p.Bye != "" {
		out = append(out, [2]string{p.Bye, ""})
	}
	return out, nil
}

// teamSwissEvent is the team Swiss stage before the round after rounds, as
// package teamswiss sees it: Teams[i] is entrants[i] (seed i+1), with its
// history and the TDs' forbidden pairings.
func teamSwissEvent(ctx context.Context, q sqlstore.Queryer, st *state, stage arbiter.Stage, rounds []arbiter.Round, entrants []arbiter.Entrant) (*teamswiss.Event, error) {
	si := st.ev.Stage
	mp := stageMatch(st.f, si).MatchPoints
	diff := secondaryDifference(st.f, si)
	ev := &teamswiss.Event{TotalRounds: stage.Rounds, InitialColour: teamColour(st.ev),
		Points: teamswiss.Points{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, Bye: mp.Win}}
	index := map[string]int{}
	for i, e := range entrants {
		index[e.ID] = i
		tm := teamswiss.Team{ID: e.ID, Seed: i + 1, Withdrawn: e.Status != arbiter.EntrantApproved,
			Rounds: make([]teamswiss.Round, len(rounds))}
		for r := range tm.Rounds {
			tm.Rounds[r] = teamswiss.Round{Result: teamswiss.Absent, MatchPoints: mp.Loss}
		}
		ev.Teams = append(ev.Teams, tm)
	}
	for ri, r := range rounds {
		for _, id := range r.Matches {
			m, err := get[arbiter.Match](ctx, q, st, kindMatch, id)
			if err != nil {
				return nil, err
			}
			h, okh := index[m.Home]
			if !okh {
				continue
			}
			if m.IsBye() {
				ev.Teams[h].Rounds[ri] = teamswiss.Round{Result: teamswiss.Bye, MatchPoints: ev.Points.Bye}
				continue
			}
			aw, oka := index[m.Away]
			if !oka {
				continue
			}
			hr, ar := teamRounds(m, mp, diff)
			ev.Teams[h].Rounds[ri], ev.Teams[aw].Rounds[ri] = hr, ar
		}
	}
	groups, err := forbiddenGroups(ctx, q, st, si, index)
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		var fg teamswiss.ForbiddenGroup
		for _, i := range g {
			fg.Teams = append(fg.Teams, ev.Teams[i].ID)
		}
		ev.Forbidden = append(ev.Forbidden, fg)
	}
	return ev, nil
}

// teamRounds maps a match of an earlier round onto both teams' histories:
// a played match (won, lost or drawn) is Played; any other decision with a
// winner is a Forfeit; equal match points without play (a double forfeit,
// A5's 0-0 draw, W14's full draw) a DoubleForfeit. A match the engine cannot
// classify (no final result, equal wins) counts as a double forfeit lost by
// both: no colour, no float, no bar on a rematch.
func teamRounds(m arbiter.Match, mp format.MatchPoints, diff bool) (home, away teamswiss.Round) {
	home = teamswiss.Round{Opponent: m.Away, White: true}
	away = teamswiss.Round{Opponent: m.Home}
	o := m.Result
	lost := func() (teamswiss.Round, teamswiss.Round) {
		home.Result, away.Result = teamswiss.DoubleForfeit, teamswiss.DoubleForfeit
		home.MatchPoints, away.MatchPoints = mp.Loss, mp.Loss
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
	decisive := (hp == mp.Win && ap == mp.Loss) || (hp == mp.Loss && ap == mp.Win)
	drawn := hp == mp.Draw && ap == mp.Draw
	switch {
	case (o.Decision == "played" || o.Decision == "") && (decisive || drawn):
		home.Result, away.Result = teamswiss.Played, teamswiss.Played
	case decisive:
		home.Result, away.Result = teamswiss.Forfeit, teamswiss.Forfeit
	case hp == ap && (hp == mp.Draw || hp == mp.Loss):
		home.Result, away.Result = teamswiss.DoubleForfeit, teamswiss.DoubleForfeit
	default:
		return lost()
	}
	return home, away
}
