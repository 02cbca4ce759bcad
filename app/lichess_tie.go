package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/score"
)

// A knockout tie on Lichess (issue 14 §2): once a knockout match's own
// games are over and the match is tied, the tie job (GamesJob with Tie)
// runs the format's tie procedure game after game, as the regular games
// are run:
//
//   - captains_advantage (A20): the captains' board, where they met, gives
//     its winner the advantage point, from the games Arbiter created;
//   - games (A20's 4 × 3+0 between the captains, W11's 4 or 2 tiebreak
//     games): each created as an open challenge in the step's clock, the
//     home player (the home captain) White in tiebreak game 1, then
//     alternating (a rematch swaps colours, as in the match), until a side
//     leads by more than the games left;
//   - armageddon (A3, W12): once both sealed bids are revealed on
//     Arbiter, the lowest bid plays White (the auction's outcome, equal
//     bids by its verifiable flip); see armageddonClock for the clock.
//
// The job then asks for the import, which puts the tie games and the
// armageddon on the sheet's tie fields (tieSheet). A match with a ruling
// (a board forfeited) or bids collected outside Arbiter leaves the tie to
// the TD, as before.

// Tie kinds of a created game (CreatedGame.Tie).
const (
	TieGame       = "games"
	TieArmageddon = "armageddon"
)

var (
	errWaitingMatch = fmt.Errorf("the match's games being played")
	errWaitingTie   = fmt.Errorf("tiebreak games being played")
	errWaitingBids  = fmt.Errorf("waiting for both armageddon bids to be revealed")
)

// tieKey names a tie game's challenge for good: the k-th challenge of
// that kind in the match (an aborted game is made again as the next k).
func tieKey(slug, match, kind string, k int) string {
	return fmt.Sprintf("challenge:%s:%s:%s:%d", slug, match, kind, k)
}

// runTie does one look at a knockout match's tie.
func (s *Service) runTie(ctx context.Context, a GamesJob, jobID int64) (wait, err error) {
	st, err := load(ctx, s.DB, a.EventSlug)
	if err != nil || !st.f.CreatesGames() {
		return nil, err
	}
	m, rd, err := matchInRound(ctx, s.DB, st, a.Match)
	if err != nil {
		return nil, err
	}
	if m.IsBye() || m.Status != arbiter.MatchScheduled || rd.Status != arbiter.RoundPublished {
		return nil, nil // a result is in, or the round is over
	}
	if s.lichess == nil {
		return nil, arbiter.Errorf(arbiter.EUNAVAILABLE, "this process has no Lichess client: games cannot be created (give --lichess-url and the organiser's token)")
	}
	done := func() (error, error) { return nil, s.askImport(ctx, st, m.ID, "") }
	if !s.now().Before(rd.End) {
		return done()
	}
	plans, mf, err := s.plans(ctx, st, &m)
	if err != nil {
		return nil, err
	}
	if len(mf.Tie) == 0 || len(m.Rulings) > 0 || len(plans) == 0 {
		return done() // no tie procedure, or a ruled board: the TD's
	}
	mg, err := s.refreshGames(ctx, st, m.ID, func(CreatedGame) bool { return true })
	if err != nil {
		return nil, err
	}
	// The match's own games: all over (or the match decided), else wait.
	decided := matchDecided(mf, plans, mg.Games)
	for _, p := range plans {
		played, last := 0, CreatedGame{Status: lichess.StatusVariantEnd}
		for _, g := range mg.Games {
			if g.Tie == "" && g.Pair == p.pair {
				last = g
				if !noResultStatus(g.Status) && gameOver(g.Status) {
					played++
				}
			}
		}
		if !gameOver(last.Status) || !decided && played < len(p.slots) {
			return errWaitingMatch, nil
		}
	}
	home, away := matchPoints(plans, mg.Games)
	if home != away {
		return done()
	}
	// Tied: the steps in order.
	white, black := plans[0].home, plans[0].away
	if mf.Kind != format.MatchIndividual {
		white, black = m.HomeCaptain, m.AwayCaptain
	}
	var adv arbiter.Side
	for _, step := range mf.Tie {
		switch step.Kind {
		case format.TieCaptainsAdvantage:
			adv = captainsAdvantage(&m, plans, mg.Games)
		case format.TieGames:
			if white == "" || black == "" || step.TC == nil {
				return done() // the captains are not known: the TD's
			}
			games := tieGamesOf(mg.Games, TieGame)
			if n := len(games); n > 0 && !gameOver(games[n-1].Status) {
				return errWaitingTie, nil
			}
			var h, a arbiter.Points
			switch adv {
			case arbiter.Home:
				h = arbiter.Point
			case arbiter.Away:
				a = arbiter.Point
			}
			played := 0
			for _, g := range games {
				switch r := homeResult(g); r {
				case "1":
					h += arbiter.Point
				case "0":
					a += arbiter.Point
				case "=":
					h, a = h+arbiter.Point/2, a+arbiter.Point/2
				}
				if homeResult(g) != "" {
					played++
				}
			}
			left := arbiter.Points(step.Games-played) * arbiter.Point
			if h-a > left || a-h > left {
				return done() // decided by the tiebreak games
			}
			if played < step.Games {
				n := played + 1
				g := CreatedGame{Tie: TieGame, TC: step.TC.String(), Number: n, HomeWhite: n%2 == 1,
					Name: tieName(st, &m, fmt.Sprintf("tiebreak game %d", n)), White: white, Black: black}
				if !g.HomeWhite {
					g.White, g.Black = black, white
				}
				if err := s.createChallenge(ctx, st, &m, rd, tieKey(st.ev.Slug, m.ID, TieGame, len(games)+1), g, *step.TC, jobID); err != nil {
					return nil, err
				}
				return errWaitingTie, nil
			}
		case format.TieArmageddon:
			if white == "" || black == "" {
				return done()
			}
			games := tieGamesOf(mg.Games, TieArmageddon)
			if n := len(games); n > 0 {
				switch last := games[n-1]; {
				case !gameOver(last.Status):
					return errWaitingTie, nil
				case homeResult(last) != "":
					return done() // the armageddon decides (a draw: Black, A3)
				}
			}
			auc, err := optional(docArmageddon.get(ctx, s.DB, st, m.ID))
			if err != nil {
				return nil, err
			}
			if auc == nil || auc.Outcome == nil {
				return errWaitingBids, nil
			}
			o := *auc.Outcome
			g := CreatedGame{Tie: TieArmageddon, Number: 1, HomeWhite: o.White == armageddon.SideA,
				Name: tieName(st, &m, "armageddon"), White: white, Black: black}
			if !g.HomeWhite {
				g.White, g.Black = black, white
			}
			tc := armageddonClock(o)
			g.TC = tc.String()
			if err := s.createChallenge(ctx, st, &m, rd, tieKey(st.ev.Slug, m.ID, TieArmageddon, len(games)+1), g, tc, jobID); err != nil {
				return nil, err
			}
			return errWaitingTie, nil
		}
	}
	return done()
}

// armageddonClock is the clock the armageddon is created with. A Lichess
// challenge gives both players one clock, and its initial time is one of
// 0, 15, 30, 45, 60 or 90 seconds or whole minutes; a player can add 15 s
// to the opponent's clock but never take time from their own. So the
// game is created with White's bid (A3, W12: the lowest bid is White's
// time), rounded down to Lichess's steps so White never has more than it
// bid, and no increment; White then gives Black the rest of Black's 3
// minutes with Lichess's "+15 seconds" (the name of the game says how
// much; noGiveTime is not set).
func armageddonClock(o armageddon.Outcome) format.TimeControl {
	bid := int(o.WhiteTime / time.Second)
	limit := 15
	for _, v := range []int{15, 30, 45, 60, 90, 120, 180} {
		if v <= bid {
			limit = v
		}
	}
	if bid > 180 {
		limit = bid / 60 * 60
	}
	return format.TimeControl{BaseSeconds: limit, IncrementSeconds: int(o.Increment / time.Second)}
}

// tieName is a tie game's challenge name: "ACWC 2023 · knockout round 1
// · tiebreak game 1", "… · armageddon".
func tieName(st *state, m *arbiter.Match, what string) string {
	rnd := fmt.Sprintf("round %d", m.Round)
	if len(st.ev.Stages) > 1 && m.Stage < len(st.ev.Stages) {
		rnd = st.ev.Stages[m.Stage].Name + " " + rnd
	}
	return strings.Join([]string{st.ev.Name, rnd, what}, " · ")
}

// tieGamesOf are the match's tie games of one kind, in creation order.
func tieGamesOf(games []CreatedGame, kind string) []CreatedGame {
	var out []CreatedGame
	for _, g := range games {
		if g.Tie == kind {
			out = append(out, g)
		}
	}
	return out
}

// homeResult is a game's result from the home side's view (1, 0, =), ""
// without one.
func homeResult(g CreatedGame) string {
	switch r := g.Result(); {
	case r == "":
		return ""
	case r == "½-½":
		return "="
	case (r == "1-0") == g.HomeWhite:
		return "1"
	}
	return "0"
}

// matchPoints are the points of the match's own games so far.
func matchPoints(plans []gamePlan, games []CreatedGame) (home, away arbiter.Points) {
	for _, g := range games {
		if g.Tie != "" {
			continue
		}
		win, draw := gamePoints(partOf(plans, g))
		switch homeResult(g) {
		case "1":
			home += win
		case "0":
			away += win
		case "=":
			home, away = home+draw, away+draw
		}
	}
	return home, away
}

// captainsAdvantage is the side whose captain won the board on which the
// two captains met (A20), "" when they did not meet or drew it.
func captainsAdvantage(m *arbiter.Match, plans []gamePlan, games []CreatedGame) arbiter.Side {
	sh := &score.Sheet{}
	for _, p := range plans {
		sh.Boards = append(sh.Boards, score.BoardSheet{Board: p.board, HomePlayer: p.home, AwayPlayer: p.away})
	}
	board, ok, _ := captainsMet(m, sh)
	if !ok || board == 0 {
		return ""
	}
	var mine []gamePlan
	for _, p := range plans {
		if p.board == board {
			mine = append(mine, p)
		}
	}
	var mineGames []CreatedGame
	for _, g := range games {
		if g.Tie == "" && len(mine) == 1 && g.Pair == mine[0].pair {
			mineGames = append(mineGames, g)
		}
	}
	h, a := matchPoints(mine, mineGames)
	switch {
	case h > a:
		return arbiter.Home
	case a > h:
		return arbiter.Away
	}
	return ""
}

// DiscTieUnfinished is an import's finding for a tied knockout match
// whose tie is not complete on the sheet.
const DiscTieUnfinished = "tie_unfinished"

// errField is the field an error names, "" when none.
func errField(err error) string {
	var e *arbiter.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// tieSheet puts the tie games Arbiter created (tie, as listed; byID what
// Lichess says of them) on the imported sheet's tie fields: the tiebreak
// games' results in playing order from home's view, and the armageddon
// with the sealed bids (A3, W12). Each is listed among the import's
// games; one not over yet is a finding.
func (s *Service) tieSheet(ctx context.Context, st *state, m *arbiter.Match, im *lichess.Import, tie []CreatedGame, byID map[string]lichess.Game) error {
	if len(tie) == 0 {
		return nil
	}
	t := &score.TieSheet{}
	for _, g := range tie {
		lg, ok := byID[g.ID]
		if ok && lg.ID != "" {
			g.Status, g.Winner = lg.Status, lg.Winner
		}
		sg := lichess.SheetGame{ID: g.ID, CreatedAt: g.CreatedAt, TC: g.TC, Number: g.Number, Status: g.Status, Tie: true,
			Result: homeResult(g), HomeColor: "black"}
		if g.HomeWhite {
			sg.HomeColor = "white"
		}
		switch {
		case noResultStatus(g.Status):
			// made again: the next one counts
		case sg.Result == "":
			im.Findings = append(im.Findings, lichess.SheetFinding{Kind: lichess.DiscUnfinished, Game: g.ID, TC: g.TC,
				Message: fmt.Sprintf("%s (game %s) is still being played", g.Name, g.ID)})
		case g.Tie == TieGame:
			sg.Counted = true
			t.Games = append(t.Games, sg.Result)
		case g.Tie == TieArmageddon:
			auc, err := optional(docArmageddon.get(ctx, s.DB, st, m.ID))
			if err != nil {
				return err
			}
			if auc == nil || auc.Outcome == nil {
				break // bids collected outside Arbiter: the TD enters them
			}
			sg.Counted = true
			t.Armageddon = &score.ArmageddonSheet{HomeBid: int(auc.Auction.Revealed[0].Bid / time.Second),
				AwayBid: int(auc.Auction.Revealed[1].Bid / time.Second), White: arbiter.SideAt(int(auc.Outcome.White)), Result: sg.Result}
		}
		im.Games = append(im.Games, sg)
	}
	if len(t.Games) > 0 || t.Armageddon != nil {
		im.Sheet.Tie = t
	}
	return nil
}
