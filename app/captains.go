package app

import (
	"fmt"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

// A20: "If both team captains are on the same board (have faced each
// other in the match), then the winner of that match gets the advantage
// point; on different boards, no team captain gets it." Arbiter knows
// each team's captain for the round and who played each board, so the
// meeting is derived from them, never taken from a report's word.

// captainsMet returns the board on which the two captains of m met (0 when
// they played on different boards, or one did not play) and ok when the
// data can say: the captains are known and every board's players are (on
// the sheet, else the board lists as paired). why says what the data show.
func captainsMet(m *arbiter.Match, sh *score.Sheet) (board int, ok bool, why string) {
	if m.HomeCaptain == "" || m.AwayCaptain == "" {
		return 0, false, ""
	}
	homeOn, awayOn := 0, 0
	for i, b := range sh.Boards {
		hp, ap := normUser(b.HomePlayer), normUser(b.AwayPlayer)
		if hp == "" && b.Board >= 1 && b.Board <= len(m.HomeBoards) {
			hp = m.HomeBoards[b.Board-1]
		}
		if ap == "" && b.Board >= 1 && b.Board <= len(m.AwayBoards) {
			ap = m.AwayBoards[b.Board-1]
		}
		if hp == "" || ap == "" {
			return 0, false, fmt.Sprintf("board %d's players are not known", sh.Boards[i].Board)
		}
		if hp == m.HomeCaptain {
			homeOn = b.Board
		}
		if ap == m.AwayCaptain {
			awayOn = b.Board
		}
	}
	where := func(c string, on int) string {
		if on == 0 {
			return c + " did not play"
		}
		return fmt.Sprintf("%s played board %d", c, on)
	}
	why = fmt.Sprintf("the captains: %s, %s", where(m.HomeCaptain, homeOn), where(m.AwayCaptain, awayOn))
	if homeOn != 0 && homeOn == awayOn {
		return homeOn, true, why
	}
	return 0, true, why
}

// checkCaptainsBoard sets a tied knockout sheet's captains' board from the
// data (A20) and refuses a sheet that claims otherwise. Formats without a
// captains' advantage step, sheets without tie data and matches whose
// captains or board players are not known are left as they are.
func checkCaptainsBoard(f *format.Format, m *arbiter.Match, sh *score.Sheet) error {
	mf := f.Stages[m.Stage].MatchFor(m.Format)
	if sh.Tie == nil || len(sh.Boards) == 0 || !slices.ContainsFunc(mf.Tie, func(t format.TieStep) bool { return t.Kind == format.TieCaptainsAdvantage }) {
		return nil
	}
	board, ok, why := captainsMet(m, sh)
	if !ok {
		return nil
	}
	claim := sh.Tie.CaptainsBoard
	switch {
	case claim == board:
	case claim == 0:
		sh.Tie.CaptainsBoard = board // the report need not say it
	case board == 0:
		return arbiter.FieldError("tie.captains_board", "A20", "the sheet says the captains met on board %d, but they did not meet (%s): no advantage point", claim, why)
	default:
		return arbiter.FieldError("tie.captains_board", "A20", "the sheet says the captains met on board %d, but they met on board %d (%s)", claim, board, why)
	}
	return nil
}
