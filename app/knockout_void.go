package app

import (
	"context"
	"fmt"

	"arbiter"
	"arbiter/sqlstore"
)

// voidNext handles a knockout match n of the round after m that was
// already played (or reported) when a sanction changed m's winner: the old
// winner (in a third-place match, the old loser's place) was not entitled
// to play it, so its result is void and it is played again by the right
// entrants, a TD entering the replay's result (the rulebooks say nothing
// of a bracket undone afterwards: interpretation, preset notes). A match
// of a later round that n's result fed is left to the TDs, named in the
// note, until the replay has a winner. swap maps each entrant of m to the
// one who takes their place.
func (s *Service) voidNext(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m, n arbiter.Match, swap map[string]string, why string) (string, error) {
	ch := change(a, "stage.knockout_replay", why, true)
	wasHome, wasAway := n.Home, n.Away
	if n.Report != "" {
		rep, err := docReport.get(ctx, tx, st, n.Report)
		if err != nil {
			return "", err
		}
		if rep.Status != arbiter.ReportSuperseded {
			rep.Status = arbiter.ReportSuperseded
			if _, err := docReport.update(ctx, tx, ch, st, rep.ID, rep.Version, rep); err != nil {
				return "", err
			}
		}
	}
	if h := swap[n.Home]; h != "" {
		n.Home, n.HomeBoards = h, nil
	}
	if w := swap[n.Away]; w != "" {
		n.Away, n.AwayBoards = w, nil
	}
	for _, side := range []struct {
		id    string
		board *[]string
	}{{n.Home, &n.HomeBoards}, {n.Away, &n.AwayBoards}} {
		if *side.board == nil {
			bl, err := pairedBoards(ctx, tx, st, side.id)
			if err != nil {
				return "", err
			}
			*side.board = bl
		}
	}
	old := winnerOf(&n)
	// Rulings are about the games played, which no longer count.
	n.Rulings = nil
	n.Status, n.Result, n.Report, n.Decision = arbiter.MatchScheduled, nil, "", "replay"
	n.Note = fmt.Sprintf("to be played again: %s now won %s, so %s v %s (played as %s v %s) is void", winnerOf(&m), m.ID, n.Home, n.Away, wasHome, wasAway)
	var err error
	if n.Version, err = docMatch.update(ctx, tx, ch, st, n.ID, n.Version, n); err != nil {
		return "", err
	}
	note := fmt.Sprintf("match %s (%s v %s) was played by an entrant no longer in it: it is void, to be played again as %s v %s, a TD entering its result", n.ID, wasHome, wasAway, n.Home, n.Away)
	if old == "" {
		return note, nil
	}
	later, err := docRound.get(ctx, tx, st, roundID(n.Stage, n.Round+1))
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return note, nil
	}
	if err != nil {
		return "", err
	}
	for _, id := range later.Matches {
		l, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return "", err
		}
		if l.Home == wasHome || l.Away == wasHome || l.Home == wasAway || l.Away == wasAway {
			note += fmt.Sprintf("; match %s (%s v %s) depends on that replay: the TDs decide it once %s has a winner", l.ID, l.Home, l.Away, n.ID)
		}
	}
	return note, nil
}
