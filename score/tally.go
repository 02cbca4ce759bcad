package score

import "arbiter/format"

// Tally scores a match sheet that may still be incomplete, as a result
// form is filled in: the running totals of every part, set and board and
// of the match, and whether (and at which game) the win threshold was
// reached. Every rule of Score is checked except that all games be on
// the sheet, so an error is one the finished sheet would be refused for
// too (a game after the match was decided under W4, a result that is not
// one, too many games). The result itself is left empty: a tie's
// procedure and the standings need the whole sheet (Score).
func Tally(f *format.Format, stage string, sh *Sheet, opt Options) (*MatchScore, error) {
	return scoreSheet(f, stage, sh, opt, true)
}
