package app

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"arbiter"
	"arbiter/sanction"
	"arbiter/score"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// A sanction against a team member changes that player's results only
// (R14: "all of their previous results will be changed to a full points
// forfeit in their opponent's favour"; A8: "their completed matches are
// adjudicated in favour of their opponents", "their opponent wins the
// match"; A2: "all their played matches are forfeited"): the sets (RKCC,
// R15: 240-0 a set) or boards (antichess) the player played, never the
// team's other sets or boards. The match is then scored again, and the
// standings follow; in a knockout the next round follows too while its
// match is still to be played. A team put out altogether (A15) loses its
// matches still to be played as a whole.

// where is a player's part of a team match: the boards (team_boards) or
// the sets (team_sets, by time control) they played, or hold in a match
// still to be played.
type where struct {
	boards []int
	sets   []string
}

func (w where) empty() bool { return len(w.boards) == 0 && len(w.sets) == 0 }

// standingSheet is the sheet the match's standing result was scored from
// (nil when it has none, or the result is a match-level forfeit: nobody
// played).
func standingSheet(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match) (*score.Sheet, error) {
	if m.Report == "" || m.Result == nil || m.Result.Decision != string(standings.Played) {
		return nil, nil
	}
	rep, err := docReport.get(ctx, q, st, m.Report)
	if err != nil {
		return nil, err
	}
	if rep.Sheet == nil || rep.Sheet.Forfeit != "" {
		return nil, nil
	}
	return rep.Sheet, nil
}

// playerPart finds where player p of side played in m:
// from the sheet's named players, else the board lists as paired (boards)
// or the team's lineup for the round (sets, R7). A board or set the
// player forfeited, or that was decided without play, is not theirs to
// lose again. Without a sheet (a match still to be played) it is the
// board the player holds in the board list.
func playerPart(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, sh *score.Sheet, side arbiter.Side, p string) (where, error) {
	var w where
	list := m.HomeBoards
	if side == arbiter.Away {
		list = m.AwayBoards
	}
	if sh == nil {
		if i := slices.Index(list, p); i >= 0 {
			w.boards = append(w.boards, i+1)
		}
		return w, nil
	}
	for _, b := range sh.Boards {
		name := b.HomePlayer
		if side == arbiter.Away {
			name = b.AwayPlayer
		}
		if name == "" && b.Board >= 1 && b.Board <= len(list) {
			name = list[b.Board-1]
		}
		if normUser(name) == p && b.Forfeit == "" {
			w.boards = append(w.boards, b.Board)
		}
	}
	if len(sh.Sets) == 0 {
		return w, nil
	}
	var lineupSets []string
	if l, err := docLineup.get(ctx, q, st, m.Entrant(side)); err == nil {
		if w, ok := st.window(m.Stage, m.Round); ok {
			if eff, _, err := l.Book.Effective(w.Seq); err == nil {
				lineupSets = eff.Sets
			}
		}
	} else if arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return w, err
	}
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	for _, set := range sh.Sets {
		name := set.HomePlayer
		if side == arbiter.Away {
			name = set.AwayPlayer
		}
		if name == "" {
			for i, part := range mf.Parts {
				if sameTC(part.TC.String(), set.TC) && i < len(lineupSets) {
					name = lineupSets[i]
				}
			}
		}
		if normUser(name) == p && set.Forfeit == "" {
			w.sets = append(w.sets, set.TC)
		}
	}
	return w, nil
}

// playerRulings are the rulings that give the player's boards or sets to
// the opponent (forfeit home or away: the beneficiary's side), or reopen
// them.
func playerRulings(w where, forfeit, player, clause, reason string) []arbiter.Ruling {
	var out []arbiter.Ruling
	for _, b := range w.boards {
		out = append(out, arbiter.Ruling{Board: b, Forfeit: forfeit, Player: player, Clause: clause, Reason: reason})
	}
	for _, tc := range w.sets {
		out = append(out, arbiter.Ruling{Set: tc, Forfeit: forfeit, Player: player, Clause: clause, Reason: reason})
	}
	return out
}

// addRulings adds rulings to m, replacing any earlier ruling of the same
// board or set.
func addRulings(m *arbiter.Match, rs []arbiter.Ruling) {
	for _, r := range rs {
		m.Rulings = slices.DeleteFunc(m.Rulings, func(o arbiter.Ruling) bool {
			return r.Board > 0 && o.Board == r.Board || r.Set != "" && sameTC(o.Set, r.Set)
		})
		m.Rulings = append(m.Rulings, r)
	}
}

// rescore scores the match's standing sheet again with its rulings, as a
// TD decision with the reason (tie data the new score no longer needs is
// dropped: the match is no longer tied).
func (s *Service) rescore(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, sh *score.Sheet, why string) (arbiter.Match, error) {
	for range 2 {
		sc, err := st.scoreSheet(&m, sh, "", nil)
		var e *arbiter.Error
		if err != nil && sh.Tie != nil && errors.As(err, &e) && e.Rule == "score.tie" {
			sh.Tie = nil
			continue
		}
		if err != nil {
			return m, err
		}
		return s.setResult(ctx, tx, st, a, m, sc, "sanction", why, 0)
	}
	return m, arbiter.Errorf(arbiter.EINTERNAL, "match %s does not score after the sanction", m.ID)
}

// sanctionMember applies one sanction change to match m of a team whose
// member player was sanctioned: only the player's boards or sets change.
// teamOut: the team is out altogether (A15), so a match still to be
// played goes to the opponent as a whole. It returns the match, whether
// it changed, and a note for the TDs when the player's part cannot be
// known.
func (s *Service) sanctionMember(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, chg sanction.Change, entrant, player string, teamOut bool, why string) (arbiter.Match, bool, string, error) {
	// The player's side, and the forfeit that gives their part's points
	// to the opponent ("away": every point to the away side).
	side, forfeit := arbiter.Home, score.ForfeitAway
	if m.Away == entrant {
		side, forfeit = arbiter.Away, score.ForfeitHome
	}
	switch chg.Effect {
	case sanction.AwardOpponent:
		if teamOut {
			sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + forfeit})
			if err != nil {
				return m, false, "", err
			}
			m, err = s.setResult(ctx, tx, st, a, m, sc, "sanction", why, 0)
			return m, err == nil, "", err
		}
		w, err := playerPart(ctx, tx, st, &m, nil, side, player)
		if err != nil {
			return m, false, "", err
		}
		if w.empty() {
			return m, false, fmt.Sprintf("%s's board in match %s is not known (the boards were not ranked): the TDs decide it", player, m.ID), nil
		}
		addRulings(&m, playerRulings(w, forfeit, player, chg.Clause, why))
		ch := change(a, "result.sanction", why, true)
		m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
		return m, err == nil, "", err
	case sanction.AdjudicateOpponent, sanction.FullForfeit, sanction.Reopen:
		sh, err := standingSheet(ctx, tx, st, &m)
		if err != nil || sh == nil {
			return m, false, "", err // not played: nothing of the player's to change
		}
		w, err := playerPart(ctx, tx, st, &m, sh, side, player)
		if err != nil || w.empty() {
			return m, false, "", err // the player sat out this match
		}
		if chg.Effect == sanction.Reopen {
			// A8: the player's games are played again (by the team's
			// replacement, A15); the other boards stand. The TD enters the
			// replayed boards with an override.
			addRulings(&m, playerRulings(w, rulingReopened, player, chg.Clause, why))
			ch := change(a, "result.reopen", why, true)
			rep, err := docReport.get(ctx, tx, st, m.Report)
			if err != nil {
				return m, false, "", err
			}
			rep.Status = arbiter.ReportSuperseded
			if _, err := docReport.update(ctx, tx, ch, st, rep.ID, rep.Version, rep); err != nil {
				return m, false, "", err
			}
			// m.Report keeps the superseded report: the boards that stand
			// are taken from it when the replay is entered (reopenedSheet).
			m.Status, m.Result, m.Decision = arbiter.MatchScheduled, nil, "reopened"
			m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m)
			return m, err == nil, "", err
		}
		addRulings(&m, playerRulings(w, forfeit, player, chg.Clause, why))
		before := winnerOf(&m)
		if m, err = s.rescore(ctx, tx, st, a, m, sh, why); err != nil {
			return m, false, "", err
		}
		note, err := s.knockoutFollows(ctx, tx, st, a, m, before, why)
		return m, true, note, err
	}
	return m, false, "", nil
}

// winnerOf is the entrant who won m ("" without a winner).
func winnerOf(m *arbiter.Match) string {
	switch {
	case m.Result == nil:
		return ""
	case m.Result.Result == score.HomeWin:
		return m.Home
	case m.Result.Result == score.AwayWin:
		return m.Away
	}
	return ""
}

// knockoutFollows carries a knockout match's new winner into the next
// round: in the next round's match still to be played, the old winner is
// replaced by the new one (and, in a third-place match, the old loser by
// the new one). A next match already decided cannot be undone: the note
// says so for the TDs.
func (s *Service) knockoutFollows(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, before, why string) (string, error) {
	after := winnerOf(&m)
	if m.Bracket == "" || before == "" || after == "" || before == after {
		return "", nil
	}
	rd, err := docRound.get(ctx, tx, st, roundID(m.Stage, m.Round+1))
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return "", nil // not paired yet: the pairing reads the new winner
	}
	if err != nil {
		return "", err
	}
	swap := map[string]string{before: after, after: before}
	for _, id := range rd.Matches {
		n, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return "", err
		}
		h, w := swap[n.Home], swap[n.Away]
		if h == "" && w == "" {
			continue
		}
		if n.Status != arbiter.MatchScheduled {
			return fmt.Sprintf("match %s is now won by %s, but the next round's match %s is already %s: the TDs decide", m.ID, after, n.ID, n.Status), nil
		}
		if h != "" {
			n.Home = h
		}
		if w != "" {
			n.Away = w
		}
		if n.Version, err = docMatch.update(ctx, tx, change(a, "stage.knockout_follow", why, true), st, n.ID, n.Version, n); err != nil {
			return "", err
		}
	}
	return "", nil
}

// reopenedSheet completes the replay of a match reopened board by board
// (A8): the TD's sheet gives the reopened boards; every other board is
// the one that stood before, whatever the sheet says of it. The reopened
// rulings are spent. A match-level result (a summary) is the TD's
// decision about the whole match and is left as it is.
func reopenedSheet(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, sh *arbiter.Sheet) (*arbiter.Sheet, error) {
	reopened := slices.ContainsFunc(m.Rulings, func(r arbiter.Ruling) bool { return r.Forfeit == rulingReopened })
	if m.Decision != "reopened" || !reopened || sh.Forfeit != "" || m.Report == "" {
		return sh, nil
	}
	rep, err := docReport.get(ctx, q, st, m.Report)
	if err != nil {
		return sh, err
	}
	if rep.Sheet != nil {
		for _, b := range rep.Sheet.Boards {
			if r, ok := boardRuling(m, b.Board); ok && r.Forfeit == rulingReopened {
				continue
			}
			i := slices.IndexFunc(sh.Boards, func(x score.BoardSheet) bool { return x.Board == b.Board })
			if i < 0 {
				sh.Boards = append(sh.Boards, b)
			} else {
				sh.Boards[i] = b
			}
		}
	}
	slices.SortStableFunc(sh.Boards, func(a, b score.BoardSheet) int { return a.Board - b.Board })
	m.Rulings = slices.DeleteFunc(m.Rulings, func(r arbiter.Ruling) bool { return r.Forfeit == rulingReopened })
	return sh, nil
}
