package web

import (
	"strconv"
	"strings"

	"arbiter/standings"
)

// A tiebreak as a column heading: a name a reader knows, and where it is
// defined (the rulebook clause or the FIDE C.07 article and acronym) for
// an <abbr title>. The ids themselves (buchholz/c1, td_value:previous_final)
// are the formats' and stay off the pages.

type tiebreakLabel struct {
	Name  string // "Buchholz cut 1"
	Title string // "FIDE C.07 8.1, 14.1 (BH-C1)"
	ID    string // the canonical id, for tests and the API
}

// tiebreakWords names each canonical id and says where it is defined;
// fide is the C.07 acronym ("" for the rulebooks' own tiebreaks).
var tiebreakWords = map[string]struct{ name, where, fide string }{
	standings.MatchPoints:      {"Match points", "RKCC R12", ""},
	standings.SetPoints:        {"Set points", "RKCC R12", ""},
	standings.MatchWins:        {"Matches won", "RKCC R12", ""},
	standings.SetWins:          {"Sets won", "RKCC R12", ""},
	standings.HeadToHead:       {"Head to head", "RKCC R12", ""},
	standings.PointsDifference: {"Points difference", "antichess cup A21", ""},
	standings.PointsScored:     {"Points scored", "antichess cup A21", ""},
	standings.MedianBuchholz:   {"Median Buchholz", "A21, W7; FIDE C.07 14.3", "BH-M1"},
	standings.Cumulative:       {"Cumulative score", "ACWC W7", ""},
	standings.WinsVsTied:       {"Wins against the tied", "ACWC W7", ""},
	standings.MutualMatchScore: {"Match score among the tied", "ACWC W9", ""},
	standings.MutualGameScore:  {"Game score among the tied", "ACWC W9", ""},
	standings.OverallGameScore: {"Game points", "ACWC W9", ""},
	standings.TDValue:          {"", "entered by the TDs, W9", ""},

	standings.Buchholz:                {"Buchholz", "FIDE C.07 8.1", "BH"},
	standings.SonnebornBerger:         {"Sonneborn-Berger", "FIDE C.07 9.1", "SB"},
	standings.DirectEncounter:         {"Direct encounter", "FIDE C.07 6", "DE"},
	standings.ExtendedDirectEncounter: {"Extended direct encounter", "FIDE C.07 13.3.1", "EDE"},
	standings.Wins:                    {"Wins", "FIDE C.07 7.1", "WIN"},
	standings.Won:                     {"Games won", "FIDE C.07 7.2", "WON"},
	standings.GamesBlack:              {"Games with Black", "FIDE C.07 7.3", "BPG"},
	standings.GamesWonBlack:           {"Wins with Black", "FIDE C.07 7.4", "BWG"},
	standings.Progressive:             {"Progressive score", "FIDE C.07 7.5", "PS"},
	standings.ElectedToPlay:           {"Rounds elected to play", "FIDE C.07 7.6", "REP"},
	standings.Koya:                    {"Koya", "FIDE C.07 9.2", "KS"},
	standings.AOB:                     {"Opponents' average Buchholz", "FIDE C.07 8.2", "AOB"},
	standings.ForeBuchholz:            {"Fore Buchholz", "FIDE C.07 8.3", "FB"},
	standings.ARO:                     {"Opponents' average rating", "FIDE C.07 10.1", "ARO"},
	standings.TPR:                     {"Performance rating", "FIDE C.07 10.2", "TPR"},
	standings.SSSC:                    {"Secondary score with Buchholz", "FIDE C.07 13.4", "SSSC"},
	standings.APRO:                    {"Opponents' average performance", "FIDE C.07 10.4", "APRO"},
	standings.Standard:                {"Standard points", "FIDE C.07 7.7", "STD"},
}

// tiebreakName labels a tiebreak (a parsed one, or its id as a format
// writes it); an id it cannot read keeps its own text.
func tiebreakName(v any) tiebreakLabel {
	var tb standings.Tiebreak
	switch x := v.(type) {
	case standings.Tiebreak:
		tb = x
	case string:
		p, err := standings.ParseTiebreak(x)
		if err != nil {
			return tiebreakLabel{Name: x, ID: x}
		}
		tb = p
	default:
		return tiebreakLabel{}
	}
	l := tiebreakLabel{ID: tb.String()}
	w, ok := tiebreakWords[tb.ID]
	if !ok {
		l.Name, l.Title = tb.String(), tb.String()
		return l
	}
	name, where, fide := w.name, w.where, w.fide
	if tb.ID == standings.TDValue {
		name = strings.ToUpper(tb.Param[:1]) + words(tb.Param[1:])
		if tb.Param == "" {
			name = "TD value"
		}
	}
	// The score basis of team tiebreaks (C.07 13): match or game points.
	switch tb.Param {
	case standings.BasisSecondary:
		name += " (game points)"
		fide += ":GP"
	case standings.BasisMixedMG, standings.BasisMixedGM:
		name += " (" + map[string]string{standings.BasisMixedMG: "opponents' match points × game points", standings.BasisMixedGM: "opponents' game points × match points"}[tb.Param] + ")"
		fide = map[string]string{standings.BasisMixedMG: "EMGSB", standings.BasisMixedGM: "EGMSB"}[tb.Param]
	}
	// Cuts (C.07 14): the least significant values, or the least and the most.
	if tb.ID != standings.MedianBuchholz {
		switch {
		case tb.CutHigh > 0:
			n := strconv.Itoa(tb.CutHigh)
			name, fide, where = "Median "+lowerFirst(name)+" "+n, fide+"-M"+n, where+", 14"
		case tb.CutLow > 0:
			n := strconv.Itoa(tb.CutLow)
			name, fide, where = name+" cut "+n, fide+"-C"+n, where+", 14"
		}
	}
	l.Name, l.Title = name, where
	if fide != "" {
		l.Title += " (" + fide + ")"
	}
	return l
}

// lowerFirst lowers a name's first letter unless it is a person's name.
func lowerFirst(s string) string {
	if strings.HasPrefix(s, "Buchholz") || strings.HasPrefix(s, "Sonneborn") || strings.HasPrefix(s, "Fore") || s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
