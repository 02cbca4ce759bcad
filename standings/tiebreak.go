package standings

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter"
)

// Canonical tiebreak ids. See docs/tiebreaks.md for each definition.
const (
	MatchPoints      = "match_points"       // primary score (RKCC R12 1st key)
	SetPoints        = "set_points"         // Σ secondary score (RKCC R12)
	MatchWins        = "match_wins"         // matches won, played or not (RKCC R12)
	SetWins          = "set_wins"           // sets won (RKCC R12)
	HeadToHead       = "head_to_head"       // mutual match points among the tied (RKCC R12)
	PointsDifference = "points_difference"  // points scored − conceded (antichess A21)
	PointsScored     = "points_scored"      // Σ secondary score (antichess A21)
	MedianBuchholz   = "median_buchholz"    // Buchholz minus highest and lowest (A21, W7)
	Cumulative       = "cumulative"         // sum of running scores (ACWC W7)
	WinsVsTied       = "wins_vs_tied"       // match wins against the tied opponents (ACWC W7)
	MutualMatchScore = "mutual_match_score" // match points among the tied (ACWC W9)
	MutualGameScore  = "mutual_game_score"  // game points among the tied (ACWC W9)
	OverallGameScore = "overall_game_score" // Σ game points (ACWC W9)
	TDValue          = "td_value"           // TD-entered value, td_value:<key> (ACWC W9)

	Buchholz        = "buchholz"         // BH, C.07 8.1
	SonnebornBerger = "sonneborn_berger" // SB, C.07 9.1
	DirectEncounter = "direct_encounter" // DE, C.07 6
	// ExtendedDirectEncounter is EDE, C.07 13.3.1 (teams).
	ExtendedDirectEncounter = "extended_direct_encounter"
	Wins                    = "wins"            // WIN, C.07 7.1
	Won                     = "won"             // WON, C.07 7.2
	GamesBlack              = "games_black"     // BPG, C.07 7.3
	GamesWonBlack           = "games_won_black" // BWG, C.07 7.4
	Progressive             = "progressive"     // PS, C.07 7.5
	ElectedToPlay           = "rep"             // REP, C.07 7.6
	Koya                    = "koya"            // KS, C.07 9.2
	AOB                     = "aob"             // AOB, C.07 8.2
	ForeBuchholz            = "fore_buchholz"   // FB, C.07 8.3
	ARO                     = "aro"             // ARO, C.07 10.1
	TPR                     = "tpr"             // TPR, C.07 10.2
	SSSC                    = "sssc"            // SSSC, C.07 13.4 (teams)
	APRO                    = "apro"            // APRO, C.07 10.4
	Standard                = "std"             // STD, C.07 7.7 (2026)
)

// Score bases for the ":mp" / ":gp" parameter of score-based tiebreaks
// (C.07 Art. 13 preamble: team tie-breaks use either score).
const (
	BasisPrimary   = "mp" // match points (the default)
	BasisSecondary = "gp" // secondary score: game/set points
	// Mixed bases of sonneborn_berger only (C.07 13.2): the opponent's
	// match points times the game points scored (EMGSB), and the
	// opponent's game points times the match points scored (EGMSB).
	BasisMixedMG = "mg"
	BasisMixedGM = "gm"
)

// Tiebreak is one parsed tiebreak of a stage's ordered list.
type Tiebreak struct {
	ID string // canonical id, e.g. "buchholz"
	// Param is the text after ':': the key of td_value, or the score
	// basis ("mp", "gp") of score-based tiebreaks ("" = primary).
	Param string
	// CutLow and CutHigh are the numbers of least and most significant
	// values cut (C.07 Art. 14): /c1 = 1,0; /c2 = 2,0; /m1 = 1,1; /m2 = 2,2.
	CutLow, CutHigh int
}

// specs says which modifiers and params each id accepts.
type spec struct {
	cuts  bool // accepts /cN and /mN
	low   bool // accepts only /cN (cuts of the least significant values)
	param int  // 0 none, 1 optional score basis, 2 required key, 3 basis incl. mixed (SB)
}

var specs = map[string]spec{
	MatchPoints: {}, SetPoints: {}, MatchWins: {}, SetWins: {}, HeadToHead: {},
	PointsDifference: {}, PointsScored: {}, MedianBuchholz: {param: 1},
	Cumulative: {cuts: true, low: true, param: 1}, WinsVsTied: {}, MutualMatchScore: {},
	MutualGameScore: {}, OverallGameScore: {}, TDValue: {param: 2},
	Buchholz: {cuts: true, param: 1}, SonnebornBerger: {cuts: true, param: 3},
	DirectEncounter: {param: 1}, ExtendedDirectEncounter: {}, Wins: {param: 1}, Won: {}, GamesBlack: {},
	GamesWonBlack: {}, Progressive: {cuts: true, low: true, param: 1}, ElectedToPlay: {},
	Koya: {}, AOB: {}, ForeBuchholz: {cuts: true, param: 1}, ARO: {cuts: true, low: true}, TPR: {}, SSSC: {}, APRO: {}, Standard: {},
}

// aliases maps FIDE TRF labels (C.07 Art. 5 acronyms, TRF26 202 records)
// and common spellings to canonical ids.
var aliases = map[string]string{
	"bh": Buchholz, "sb": SonnebornBerger, "de": DirectEncounter, "win": Wins,
	"won": Won, "bpg": GamesBlack, "bwg": GamesWonBlack, "ps": Progressive,
	"ede": ExtendedDirectEncounter, "rep": ElectedToPlay, "ge": ElectedToPlay, "ks": Koya, "aob": AOB,
	"fb": ForeBuchholz, "aro": ARO, "tpr": TPR, "mp": MatchPoints,
	"gp": OverallGameScore, "mpvgp": OverallGameScore, "pts": MatchPoints,
	"median-buchholz": MedianBuchholz, "mbh": MedianBuchholz,
	// C.07 13.2 extended Sonneborn-Berger: opponent score x points scored.
	"emmsb": SonnebornBerger, "eggsb": SonnebornBerger + ":" + BasisSecondary,
	"emgsb": SonnebornBerger + ":" + BasisMixedMG, "egmsb": SonnebornBerger + ":" + BasisMixedGM,
}

// ParseTiebreak reads a tiebreak id: lowercase canonical ids
// ("buchholz/c1", "td_value:previous_final", "buchholz:gp/m1") or FIDE labels
// ("BH/C1", "BH-C1", "BH:GP", "SB", "DE", "WIN", "ARO/C1", "PS/C1").
// Case is ignored. Errors name the string and the rule broken.
func ParseTiebreak(s string) (Tiebreak, error) {
	fail := func(format string, args ...any) (Tiebreak, error) {
		return Tiebreak{}, arbiter.FieldError("tiebreak", "tiebreak-id", "tiebreak %q: %s", s, fmt.Sprintf(format, args...))
	}
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return fail("empty tiebreak id")
	}
	parts := strings.Split(t, "/")
	head := parts[0]
	// The Handbook writes BH-C1 for BH/C1.
	if i := strings.LastIndex(head, "-"); i > 0 && len(parts) == 1 {
		if _, _, ok := parseCut(head[i+1:]); ok {
			parts = append([]string{head[:i]}, head[i+1:])
			head = parts[0]
		}
	}
	name, param, hasParam := strings.Cut(head, ":")
	if a, ok := aliases[name]; ok {
		if n, p, ok := strings.Cut(a, ":"); ok { // the alias fixes the basis
			if hasParam {
				return fail("%s takes no ':' parameter", strings.ToUpper(name))
			}
			a, param, hasParam = n, p, true
		}
		name = a
	}
	k, ok := specs[name]
	if !ok {
		return fail("unknown tiebreak id %q (see docs/tiebreaks.md for the list)", name)
	}
	tb := Tiebreak{ID: name}
	switch {
	case k.param == 2 && (!hasParam || param == ""):
		return fail("%s needs a key after ':' (e.g. %s:previous_final)", name, name)
	case k.param == 2:
		for _, r := range param {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				return fail("key %q may use only letters, digits, '_', '-', '.'", param)
			}
		}
		tb.Param = param
	case hasParam && k.param == 0:
		return fail("%s takes no ':' parameter", name)
	case hasParam:
		switch param {
		case BasisPrimary:
			// default: keep canonical form without it
		case BasisSecondary:
			tb.Param = BasisSecondary
		case BasisMixedMG, BasisMixedGM:
			if k.param != 3 {
				return fail("score basis %q must be mp or gp", param)
			}
			tb.Param = param
		default:
			if k.param == 3 {
				return fail("score basis %q must be mp, gp, mg or gm", param)
			}
			return fail("score basis %q must be mp or gp", param)
		}
	}
	for _, m := range parts[1:] {
		lo, hi, ok := parseCut(m)
		if !ok {
			return fail("unknown modifier /%s (want /c1, /c2, /m1, /m2)", m)
		}
		if !k.cuts {
			return fail("%s takes no cut modifier", name)
		}
		if k.low && hi > 0 {
			return fail("%s takes only /cN cuts (C.07 Art. 14.1)", name)
		}
		if tb.CutLow != 0 || tb.CutHigh != 0 {
			return fail("at most one cut modifier")
		}
		tb.CutLow, tb.CutHigh = lo, hi
	}
	return tb, nil
}

// parseCut reads "c1", "c2", "m1", "m2" (and cN/mN up to 9).
func parseCut(m string) (lo, hi int, ok bool) {
	if len(m) < 2 || (m[0] != 'c' && m[0] != 'm') {
		return 0, 0, false
	}
	n, err := strconv.Atoi(m[1:])
	if err != nil || n < 1 || n > 9 {
		return 0, 0, false
	}
	if m[0] == 'c' {
		return n, 0, true
	}
	return n, n, true
}

// ParseTiebreaks parses a list, naming the index of a bad entry.
func ParseTiebreaks(ids []string) ([]Tiebreak, error) {
	out := make([]Tiebreak, 0, len(ids))
	for i, s := range ids {
		tb, err := ParseTiebreak(s)
		if err != nil {
			if e, ok := err.(*arbiter.Error); ok {
				e.Field = fmt.Sprintf("tiebreaks[%d]", i)
			}
			return nil, err
		}
		out = append(out, tb)
	}
	return out, nil
}

// String returns the canonical form: id[:param][/cN|/mN].
func (t Tiebreak) String() string {
	s := t.ID
	if t.Param != "" {
		s += ":" + t.Param
	}
	switch {
	case t.CutHigh > 0:
		s += "/m" + strconv.Itoa(t.CutHigh)
	case t.CutLow > 0:
		s += "/c" + strconv.Itoa(t.CutLow)
	}
	return s
}

// MarshalText writes the canonical form.
func (t Tiebreak) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText parses with ParseTiebreak.
func (t *Tiebreak) UnmarshalText(b []byte) error {
	v, err := ParseTiebreak(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
