package app

import (
	"context"

	"arbiter"
	"arbiter/pairing/teamswiss"
	"arbiter/sqlstore"
)

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
	ids := entrantIDs(entrants)
	withdrawn := make([]bool, len(entrants))
	index := map[string]int{}
	for i, e := range entrants {
		index[e.ID] = i
		withdrawn[i] = e.Status != arbiter.EntrantApproved
	}
	matches, err := roundMatches(ctx, q, st, rounds)
	if err != nil {
		return nil, err
	}
	ev := teamswiss.FromMatches(ids, withdrawn, matches, teamswiss.Points{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, Bye: mp.Win},
		teamswiss.SecondaryDifference(st.f.Stages[si].Tiebreaks), stage.Rounds, teamColour(st.ev))
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
