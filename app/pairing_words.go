package app

import (
	"fmt"
	"strings"

	"arbiter/pairing"
	"arbiter/pairing/dutch"
)

// PairingWarning is a pairing criterion (FIDE C.04.3, the Dutch system) a
// pairing breaks, in plain words for the TD.
type PairingWarning struct {
	// Criterion is the C.04.3 Art. 2 number, e.g. "C1", "C12".
	Criterion string `json:"criterion"`
	// Absolute marks C1-C3 (and colour rules that only topscorers may
	// break): an edit breaking one needs the TD's explicit confirmation.
	Absolute bool   `json:"absolute,omitempty"`
	Kind     string `json:"kind"` // pairing/dutch's Kind constants
	// Entrants concerned, the one the warning is about first.
	Entrants []string `json:"entrants"`
	Text     string   `json:"text"`
}

// warnings turns the engine's breaches into words.
func (p *pairedRound) warnings(bs []dutch.Breach) []PairingWarning {
	out := make([]PairingWarning, 0, len(bs))
	for _, b := range bs {
		w := PairingWarning{Criterion: b.Criterion, Absolute: b.Absolute, Kind: b.Kind}
		for _, i := range b.Players {
			w.Entrants = append(w.Entrants, p.idAt(i))
		}
		w.Text = p.breachText(b, w.Entrants)
		out = append(out, w)
	}
	return out
}

func (p *pairedRound) breachText(b dutch.Breach, ids []string) string {
	n := func(i int) string { return p.name(ids[i]) }
	var s string
	switch b.Kind {
	case dutch.KindRematch:
		s = fmt.Sprintf("%s and %s have already played each other: no rematch", n(0), n(1))
	case dutch.KindForbidden:
		s = fmt.Sprintf("%s and %s must not meet (a forbidden pairing)", n(0), n(1))
	case dutch.KindSecondBye:
		s = fmt.Sprintf("%s already had a bye or a win without playing: no second bye", n(0))
	case dutch.KindSameAbsolute:
		s = fmt.Sprintf("%s and %s must both have %s (absolute colour preferences), so they may not meet", n(0), n(1), p.colourWord(b.Colour.Invert()))
	case dutch.KindColourDifference:
		s = fmt.Sprintf("%s gets %s against an absolute preference: a colour difference beyond 2", n(0), p.colourWord(b.Colour))
	case dutch.KindColourRepeat:
		s = fmt.Sprintf("%s gets %s a third time in a row", n(0), p.colourWord(b.Colour))
	case dutch.KindColourPreference, dutch.KindStrongPreference:
		s = fmt.Sprintf("%s gets %s against a %s preference for %s", n(0), p.colourWord(b.Colour), b.Strength, p.colourWord(b.Colour.Invert()))
	case dutch.KindScoreDifference:
		s = fmt.Sprintf("%s (%s) meets %s (%s): %s floats down, %s floats up", n(0), p.t.Players[b.Players[0]].Score, n(1),
			p.t.Players[b.Players[1]].Score, n(0), n(1))
	case dutch.KindDownfloatAgain:
		s = fmt.Sprintf("%s floats down again, as %s", n(0), roundsAgo(b.Round))
	case dutch.KindUpfloatAgain:
		s = fmt.Sprintf("%s floats up again, as %s", n(0), roundsAgo(b.Round))
	case dutch.KindByeScore:
		s = fmt.Sprintf("%s gets the bye though %s may take it with a lower score", n(0), p.nameList(ids[1:]))
	case dutch.KindByeUnplayed:
		s = fmt.Sprintf("%s gets the bye though %s may take it with as many points and fewer unplayed games", n(0), p.nameList(ids[1:]))
	default:
		s = b.Kind
	}
	return s + " (" + b.Criterion + ")"
}

func roundsAgo(n int) string {
	if n == 1 {
		return "last round"
	}
	return "two rounds ago"
}

// colourWord is a colour in words; for teams, board 1's colour.
func (p *pairedRound) colourWord(c pairing.Colour) string {
	w := "white"
	if c == pairing.Black {
		w = "black"
	}
	if p.team() {
		return w + " on board 1"
	}
	return w
}

func (p *pairedRound) nameList(ids []string) string {
	var ns []string
	for _, id := range ids {
		ns = append(ns, p.name(id))
	}
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// warningsText joins warnings for a message or the audit log.
func warningsText(ws []PairingWarning) string {
	var ts []string
	for _, w := range ws {
		ts = append(ts, w.Text)
	}
	return strings.Join(ts, "; ")
}

// firstAbsolute is the first absolute warning, if any.
func firstAbsolute(ws []PairingWarning) (PairingWarning, bool) {
	for _, w := range ws {
		if w.Absolute {
			return w, true
		}
	}
	return PairingWarning{}, false
}
