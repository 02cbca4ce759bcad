package app

import (
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

// rulingReopened marks a board whose games are played again (A8: a ban
// proven not for cheating reopens the banned player's matches).
const rulingReopened = "reopened"

// sameTC compares two spellings of a time control ("1,5+1", "1.5+1").
func sameTC(a, b string) bool {
	ta, err1 := format.ParseTimeControl(a)
	tb, err2 := format.ParseTimeControl(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return ta == tb
}

// applyRulings makes the boards or sets the match's rulings fix say what
// the rulings say, whatever the sheet has there: a sanctioned player's
// board or set forfeited (R14, A8), a board decided by its negotiation
// (A5). A match-level forfeit is a decision about the whole match (a
// TD's, a team removed) and is left as it is.
func applyRulings(m *arbiter.Match, sh *score.Sheet) {
	if sh.Forfeit != "" {
		return
	}
	for _, r := range m.Rulings {
		if r.Forfeit == rulingReopened {
			continue
		}
		switch {
		case r.Board > 0 && (len(sh.Boards) > 0 || len(sh.Sets) == 0 && len(sh.Parts) == 0):
			i := slices.IndexFunc(sh.Boards, func(b score.BoardSheet) bool { return b.Board == r.Board })
			if i < 0 {
				sh.Boards = append(sh.Boards, score.BoardSheet{Board: r.Board})
				i = len(sh.Boards) - 1
			}
			sh.Boards[i].Parts, sh.Boards[i].Forfeit = nil, r.Forfeit
		case r.Set != "":
			for i := range sh.Sets {
				if sameTC(sh.Sets[i].TC, r.Set) {
					sh.Sets[i].Results, sh.Sets[i].Forfeit = nil, r.Forfeit
				}
			}
		}
	}
	slices.SortStableFunc(sh.Boards, func(a, b score.BoardSheet) int { return a.Board - b.Board })
}

// ruledBoards reports whether every one of the match's n boards has a
// ruling that decides it (not a reopened one).
func ruledBoards(m *arbiter.Match, n int) bool {
	if n == 0 {
		return false
	}
	for b := 1; b <= n; b++ {
		if !slices.ContainsFunc(m.Rulings, func(r arbiter.Ruling) bool { return r.Board == b && r.Forfeit != rulingReopened }) {
			return false
		}
	}
	return true
}

// boardRuling returns the ruling of board b, if any.
func boardRuling(m *arbiter.Match, b int) (arbiter.Ruling, bool) {
	i := slices.IndexFunc(m.Rulings, func(r arbiter.Ruling) bool { return r.Board == b })
	if i < 0 {
		return arbiter.Ruling{}, false
	}
	return m.Rulings[i], true
}

// rulingsSheet is the match sheet of a team match every board of which is
// decided by a ruling.
func rulingsSheet(m *arbiter.Match) *arbiter.Sheet {
	sh := &arbiter.Sheet{Home: m.Home, Away: m.Away, Match: m.Format}
	applyRulings(m, sh)
	return sh
}
