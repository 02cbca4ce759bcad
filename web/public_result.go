package web

import (
	"strings"

	"arbiter"
)

// sideResult is a match's result seen from one of its sides.
type sideResult struct {
	// Sym is the crosstable symbol: 1, 0, ½ for a match played over the
	// board; +, −, = for one decided without play (forfeits, byes, full
	// draws); "" while there is no final result.
	Sym string `json:"result,omitempty"`
	// Word is won, lost, drew, or the match's state without a result.
	Word string `json:"outcome"`
	// Score is the side's secondary score first ("348–228"); "" without
	// a result or for a bye.
	Score string `json:"score,omitempty"`
	// Note says how a result came about when not simply played
	// ("double forfeit", "after armageddon"), or "disregarded".
	Note string `json:"note,omitempty"`
}

// resultFor is m's result from the side of entrant id (its home side when
// id is neither side).
func resultFor(m arbiter.Match, id string) sideResult {
	home := m.Away != id
	if m.Decision == "disregarded" {
		return sideResult{Word: "disregarded", Note: "disregarded (withdrawal)"}
	}
	if m.Status != arbiter.MatchFinal || m.Result == nil {
		return sideResult{Word: words(m.Status)}
	}
	o := m.Result
	own, opp := o.Home, o.Away
	if !home {
		own, opp = opp, own
	}
	var r sideResult
	switch {
	case o.Result == "draw":
		r.Word = "drew"
	case o.Result == "double_loss":
		r.Word = "lost"
	case o.Result == "tie_unresolved":
		r.Word = "tied (unresolved)"
	case (o.Result == "home_win") == home:
		r.Word = "won"
	default:
		r.Word = "lost"
	}
	played := o.Decision == "" || o.Decision == "played"
	sym := map[string][2]string{"won": {"1", "+"}, "lost": {"0", "−"}, "drew": {"½", "="}}[r.Word]
	if played {
		r.Sym = sym[0]
	} else {
		r.Sym = sym[1]
	}
	if !m.IsBye() {
		r.Score = pointsText(own.Points, opp.Points)
	}
	switch {
	case o.Decision == "forfeit_win" || o.Decision == "forfeit_loss":
		// The decision is worded from the home side: say it neutrally,
		// Word tells who won.
		r.Note = "by forfeit"
	case !played:
		r.Note = words(o.Decision)
	case o.DecidedBy == "tiebreak_games" || o.DecidedBy == "armageddon":
		r.Note = "after " + words(o.DecidedBy)
	}
	return r
}

// matchLine is the result of a match as the round page shows it, from
// the home side: "348–228, Team 01 won".
func matchLine(m arbiter.Match, homeName, awayName string) string {
	r := resultFor(m, m.Home)
	if r.Sym == "" {
		return ""
	}
	var b strings.Builder
	if r.Score != "" {
		b.WriteString(r.Score)
		b.WriteString(", ")
	}
	switch r.Word {
	case "won":
		b.WriteString(homeName + " won")
	case "lost":
		if m.Result.Result == "double_loss" {
			b.WriteString("both lost")
		} else {
			b.WriteString(awayName + " won")
		}
	case "drew":
		b.WriteString("drawn")
	default:
		b.WriteString(r.Word)
	}
	if r.Note != "" {
		b.WriteString(" (" + r.Note + ")")
	}
	return b.String()
}

func words(s string) string { return strings.ReplaceAll(s, "_", " ") }
