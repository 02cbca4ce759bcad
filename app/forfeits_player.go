package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/sanction"
	"arbiter/score"
	"arbiter/sqlstore"
)

// A7 counts a player's forfeits ("If a player forfeits twice, they are
// disqualified"), not a team's: in a team event each forfeit belongs to the
// player of the board it happened on. A forfeited board, part or game
// counts once for that board's player (named on the sheet, else the
// team's board list for the match); a match forfeited as a whole counts
// once for every player of the forfeiting side's board list (nobody of the
// team played). Where the board list is not known the forfeit is the
// board's ("board 2 of team-01"), which the note says, for the TDs to
// attribute (interpretation, preset note).

// playerForfeit is one forfeit of a team's player.
type playerForfeit struct {
	team, player string // player: the user name, or "board N" when not known
}

func (p playerForfeit) String() string {
	if strings.HasPrefix(p.player, "board ") {
		return fmt.Sprintf("%s of %s (the board list does not say who)", p.player, p.team)
	}
	return fmt.Sprintf("%s of %s", p.player, p.team)
}

// playerForfeits lists each team player's forfeits in the event's final
// matches, in the order first met.
func playerForfeits(ctx context.Context, q sqlstore.Queryer, st *state) ([]playerForfeit, map[playerForfeit][]sanction.Forfeit, error) {
	ms, err := docMatch.list(ctx, q, st)
	if err != nil {
		return nil, nil, err
	}
	slices.SortStableFunc(ms, func(a, b arbiter.Match) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Board - b.Board
	})
	var order []playerForfeit
	out := map[playerForfeit][]sanction.Forfeit{}
	add := func(m *arbiter.Match, side string, board int, named string) {
		team, list := m.Home, m.HomeBoards
		if side == "away" {
			team, list = m.Away, m.AwayBoards
		}
		p := playerForfeit{team: team, player: normUser(named)}
		if p.player == "" && board >= 1 && board <= len(list) {
			p.player = normUser(list[board-1])
		}
		if p.player == "" {
			p.player = fmt.Sprintf("board %d", board)
		}
		if _, ok := out[p]; !ok {
			order = append(order, p)
		}
		out[p] = append(out[p], sanction.Forfeit{MatchID: m.ID})
	}
	boards := teamSize(st.f, st.ev.Entrants)
	for i := range ms {
		m := &ms[i]
		if m.Status != arbiter.MatchFinal || m.Result == nil || m.IsBye() || m.Decision == "sanction" || m.Decision == "opponent_removed" || m.Decision == "disregarded" {
			continue
		}
		whole := func(side string) {
			n := len(m.HomeBoards)
			if side == "away" {
				n = len(m.AwayBoards)
			}
			if n == 0 {
				n = boards
			}
			for b := 1; b <= n; b++ {
				add(m, side, b, "")
			}
		}
		switch m.Result.Forfeit {
		case score.ForfeitDouble:
			whole("home")
			whole("away")
			continue
		case score.ForfeitHome:
			whole("away")
			continue
		case score.ForfeitAway:
			whole("home")
			continue
		case score.ForfeitFullDraw:
			continue
		}
		sh, err := standingSheet(ctx, q, st, m)
		if err != nil || sh == nil {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		for _, b := range sh.Boards {
			h, a := sheetForfeits(&score.Sheet{Boards: []score.BoardSheet{b}})
			for range h {
				add(m, "home", b.Board, b.HomePlayer)
			}
			for range a {
				add(m, "away", b.Board, b.AwayPlayer)
			}
		}
	}
	return order, out, nil
}

// playerForfeitNotes are the round notes for A7 in a team event: each
// player whose forfeits disqualify them, for the TDs to apply with a
// sanction against that member.
func playerForfeitNotes(ctx context.Context, q sqlstore.Queryer, st *state, removed func(team, player string) bool) ([]string, error) {
	order, byPlayer, err := playerForfeits(ctx, q, st)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, p := range order {
		if removed(p.team, p.player) {
			continue
		}
		if dq, clause := sanction.ForfeitDisqualifies(sanction.Antichess, byPlayer[p]); dq {
			var ids []string
			for _, f := range byPlayer[p] {
				ids = append(ids, f.MatchID)
			}
			notes = append(notes, fmt.Sprintf("%s forfeited %s: %s disqualifies the player; apply it with a sanction", p, strings.Join(ids, ", "), clause))
		}
	}
	return notes, nil
}

// playerForfeitNotesFor is playerForfeitNotes leaving out the teams and
// players a sanction already removed.
func playerForfeitNotesFor(ctx context.Context, q sqlstore.Queryer, st *state) ([]string, error) {
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	sx, err := docSanction.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range es {
		if e.Status != arbiter.EntrantApproved {
			out[e.ID] = true
		}
	}
	for _, x := range sx {
		if x.Player != "" {
			out[x.Entrant+"/"+normUser(x.Player)] = true
		}
	}
	return playerForfeitNotes(ctx, q, st, func(team, player string) bool { return out[team] || out[team+"/"+player] })
}
