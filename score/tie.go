package score

import (
	"fmt"

	"arbiter"
	"arbiter/format"
)

// TieScore is how a knockout tie was resolved (A20, W10, W11).
type TieScore struct {
	// CaptainsBoard is where the captains met; AdvantagePoint the side
	// whose captain won that board (A20), counted as 1-0 in the games.
	CaptainsBoard  int              `json:"captains_board,omitempty"`
	AdvantagePoint arbiter.Side     `json:"advantage_point,omitempty"`
	Games          *TieGames        `json:"games,omitempty"`
	Armageddon     *ArmageddonScore `json:"armageddon,omitempty"`
	// Winner is home or away; "" when the format has no step left.
	Winner    arbiter.Side `json:"winner,omitempty"`
	DecidedBy string       `json:"decided_by,omitempty"`
}

// TieGames is the tiebreak mini-match; Home and Away include the
// advantage point.
type TieGames struct {
	Played int            `json:"played"`
	Of     int            `json:"of"`
	TC     string         `json:"tc"`
	Home   arbiter.Points `json:"home"`
	Away   arbiter.Points `json:"away"`
}

// ArmageddonScore is the armageddon game: the lowest bid plays White,
// equal bids go to the format's coin flip or rock-paper-scissors, and a
// draw is a win for Black.
type ArmageddonScore struct {
	HomeBid int          `json:"home_bid"`
	AwayBid int          `json:"away_bid"`
	White   arbiter.Side `json:"white"`
	Result  string       `json:"result"`
	Winner  arbiter.Side `json:"winner"`
}

// resolveTie runs the format's tie procedure on the sheet's tie data.
func resolveTie(f *format.Format, m *format.Match, sh *Sheet, ms *MatchScore) (*TieScore, arbiter.Side, error) {
	t := sh.Tie
	if t == nil {
		t = &TieSheet{}
	}
	ts := &TieScore{}
	var adv arbiter.Side
	used := map[string]bool{}
	var winner arbiter.Side
	for _, step := range m.Tie {
		if winner != "" {
			break
		}
		switch step.Kind {
		case format.TieCaptainsAdvantage:
			used["captains_board"] = true
			if t.CaptainsBoard == 0 {
				continue // captains on different boards: no advantage point (A20)
			}
			var board *BoardScore
			for i := range ms.Boards {
				if ms.Boards[i].Board == t.CaptainsBoard {
					board = &ms.Boards[i]
				}
			}
			if board == nil {
				return nil, "", arbiter.FieldError("tie.captains_board", "score.tie", "no board %d in this match", t.CaptainsBoard)
			}
			ts.CaptainsBoard = t.CaptainsBoard
			switch {
			case board.Home > board.Away:
				adv = arbiter.Home
			case board.Away > board.Home:
				adv = arbiter.Away
			}
			ts.AdvantagePoint = adv
		case format.TieGames:
			used["games"] = true
			if len(t.Games) == 0 {
				return nil, "", arbiter.FieldError("tie.games", "score.tie", "the match is tied (%s-%s): %d tiebreak games of %s are needed", ms.HomePoints, ms.AwayPoints, step.Games, step.TC)
			}
			if len(t.Games) > step.Games {
				return nil, "", arbiter.FieldError(fmt.Sprintf("tie.games[%d]", step.Games), "score.tie", "%d tiebreak games, the sheet gives %d", step.Games, len(t.Games))
			}
			tg := &TieGames{Of: step.Games, TC: step.TC.String(), Played: len(t.Games)}
			if adv == arbiter.Home {
				tg.Home = arbiter.Point
			} else if adv == arbiter.Away {
				tg.Away = arbiter.Point
			}
			for k, tok := range t.Games {
				g, ok := parseGame(tok)
				if !ok {
					return nil, "", arbiter.FieldError(fmt.Sprintf("tie.games[%d]", k), "score.result", "unknown result %q", tok)
				}
				tg.Home += arbiter.Points(g.home) * arbiter.Point / 2
				tg.Away += arbiter.Points(g.away) * arbiter.Point / 2
			}
			ts.Games = tg
			lead := tg.Home - tg.Away
			remaining := arbiter.Points(step.Games-len(t.Games)) * arbiter.Point
			switch {
			case lead > remaining || -lead > remaining:
				winner = side(lead > 0)
				ts.DecidedBy = "tiebreak_games"
			case remaining > 0:
				return nil, "", arbiter.FieldError("tie.games", "score.tie", "%d of %d tiebreak games and the tie is not decided (%s-%s)", len(t.Games), step.Games, tg.Home, tg.Away)
			}
		case format.TieArmageddon:
			used["armageddon"] = true
			a := t.Armageddon
			if a == nil {
				return nil, "", arbiter.FieldError("tie.armageddon", "score.tie", "the tie goes to an armageddon game: bids, white and result are needed")
			}
			if a.HomeBid <= 0 {
				return nil, "", arbiter.FieldError("tie.armageddon.home_bid", "score.armageddon", "a bid is the seconds offered for White's clock, > 0")
			}
			if a.AwayBid <= 0 {
				return nil, "", arbiter.FieldError("tie.armageddon.away_bid", "score.armageddon", "a bid is the seconds offered for White's clock, > 0")
			}
			var white arbiter.Side
			switch {
			case a.HomeBid < a.AwayBid:
				white = arbiter.Home
			case a.AwayBid < a.HomeBid:
				white = arbiter.Away
			}
			switch {
			case a.White != "" && !a.White.Valid():
				return nil, "", arbiter.FieldError("tie.armageddon.white", "score.armageddon", "want home or away, got %q", a.White)
			case white == "" && a.White == "":
				return nil, "", arbiter.FieldError("tie.armageddon.white", "score.armageddon", "equal bids: give who got White by %s", f.Armageddon.EqualBids)
			case white != "" && a.White != "" && a.White != white:
				return nil, "", arbiter.FieldError("tie.armageddon.white", "score.armageddon", "the lowest bid plays White: %s bid %d s against %d s", white, min(a.HomeBid, a.AwayBid), max(a.HomeBid, a.AwayBid))
			case white == "":
				white = a.White
			}
			g, ok := parseGame(a.Result)
			if !ok || !g.played {
				return nil, "", arbiter.FieldError("tie.armageddon.result", "score.armageddon", "want 1 (home won), 0 (away won) or = (draw), got %q", a.Result)
			}
			switch {
			case g.home == 2:
				winner = arbiter.Home
			case g.away == 2:
				winner = arbiter.Away
			case f.Armageddon.BlackDrawOdds:
				winner = white.Other() // a draw is a win for Black
			default:
				return nil, "", arbiter.FieldError("tie.armageddon.result", "score.armageddon", "a draw does not decide: the format gives Black no draw odds")
			}
			ts.Armageddon = &ArmageddonScore{HomeBid: a.HomeBid, AwayBid: a.AwayBid, White: white, Result: a.Result, Winner: winner}
			ts.DecidedBy = "armageddon"
		}
	}
	switch {
	case t.CaptainsBoard != 0 && !used["captains_board"]:
		return nil, "", arbiter.FieldError("tie.captains_board", "score.tie", "not used: the tie procedure has no captains' advantage point here")
	case len(t.Games) > 0 && !used["games"]:
		return nil, "", arbiter.FieldError("tie.games", "score.tie", "not used: the tie procedure has no tiebreak games here, or they were not reached")
	case t.Armageddon != nil && !used["armageddon"]:
		return nil, "", arbiter.FieldError("tie.armageddon", "score.tie", "not needed: the tie was decided by %s", ts.DecidedBy)
	}
	ts.Winner = winner
	if winner != "" {
		ms.DecidedBy = ts.DecidedBy
	}
	return ts, winner, nil
}
