package dutch

import (
	"fmt"
	"slices"

	"arbiter"
	"arbiter/pairing"
)

// Breach is one pairing criterion of C.04.3 (2026) that a pairing breaks,
// for a TD who edits an engine's pairing by hand: the engine itself never
// breaks an absolute criterion, and breaks a quality criterion only where
// every pairing does.
type Breach struct {
	// Criterion is the C.04.3 Art. 2 number: "C1" ... "C17".
	Criterion string `json:"criterion"`
	// Absolute marks C1-C3, which a valid pairing never breaks.
	Absolute bool `json:"absolute,omitempty"`
	// Kind says what exactly (one of the Kind constants).
	Kind string `json:"kind"`
	// Players are indexes into Tournament.Players, the one concerned first
	// (for colours, the player who does not get their preference; for a
	// score difference, the higher player, who floats down; for the bye,
	// its holder, then the players C5 or C9 would prefer).
	Players []int `json:"players"`
	// Colour is the colour given against the preference (colour kinds).
	Colour pairing.Colour `json:"colour,omitempty"`
	// Strength is the preference's strength (colour kinds).
	Strength Strength `json:"strength,omitempty"`
	// Round is 1 when the float repeats last round's, 2 when it repeats
	// the one of the round before (float kinds).
	Round int `json:"round,omitempty"`
	// Difference is the pair's score difference (KindScoreDifference).
	Difference arbiter.Points `json:"difference,omitempty"`
}

// The kinds of breach.
const (
	KindRematch          = "rematch"                  // C1: the two played each other before
	KindForbidden        = "forbidden"                // C1: a forbidden pair (the TDs' declaration)
	KindSecondBye        = "second_bye"               // C2: a PAB to a player who had one, or a win without playing
	KindSameAbsolute     = "same_absolute_colour"     // C3: two non-topscorers with the same absolute preference
	KindColourDifference = "colour_difference"        // C10: a topscorer's colour difference beyond +-2
	KindColourRepeat     = "colour_repeat"            // C11: a topscorer's same colour three times in a row
	KindColourPreference = "colour_preference"        // C12: a mild preference not met
	KindStrongPreference = "strong_colour_preference" // C13: a strong preference not met
	KindScoreDifference  = "score_difference"         // C6: a pair of different scores (the higher floats down)
	KindDownfloatAgain   = "downfloat_again"          // C14, C16: floats down again
	KindUpfloatAgain     = "upfloat_again"            // C15, C17: floats up again
	KindByeScore         = "bye_score"                // C5: a player with a lower score could take the PAB
	KindByeUnplayed      = "bye_unplayed"             // C9: a player of the same score with fewer unplayed games could take it
)

// Check lists the criteria that the given pairs break (White is read as
// the colour given; Black < 0 is the PAB). Only the pairs given are
// checked, so a caller can check just the pairs an edit made.
func Check(t *pairing.Tournament, pairs []pairing.Pair) []Breach {
	var out []Breach
	for _, bs := range CheckEach(t, pairs) {
		out = append(out, bs...)
	}
	return out
}

// CheckEach is Check pair by pair: out[i] are the breaches of pairs[i].
func CheckEach(t *pairing.Tournament, pairs []pairing.Pair) [][]Breach {
	r := newReviewer(t)
	out := make([][]Breach, len(pairs))
	for i, p := range pairs {
		if p.Black < 0 {
			out[i] = r.checkBye(p.White)
		} else {
			out[i] = r.checkPair(p.White, p.Black)
		}
	}
	return out
}

// Worse lists the breaches of after that before does not have, keeping
// only those of a criterion after breaks more than before: every absolute
// breach, and the quality criteria the change from before to after
// worsens (more players concerned; for score differences, a larger sum).
// before and after are the pairs an edit removed and the ones it made.
func Worse(t *pairing.Tournament, before, after []pairing.Pair) []Breach {
	b, a := Check(t, before), Check(t, after)
	had := map[string]bool{}
	for _, x := range b {
		had[x.key()] = true
	}
	var out []Breach
	for _, x := range a {
		if had[x.key()] {
			continue
		}
		if x.Absolute || measure(a, x.Criterion) > measure(b, x.Criterion) {
			out = append(out, x)
		}
	}
	return out
}

// measure is how badly bs break criterion c: the sum of the score
// differences for C6, else the number of breaches.
func measure(bs []Breach, c string) arbiter.Points {
	var n arbiter.Points
	for _, x := range bs {
		if x.Criterion != c {
			continue
		}
		if x.Kind == KindScoreDifference {
			n += x.Difference
		} else {
			n++
		}
	}
	return n
}

// key identifies a breach across two pairings: a pair's breaches by the
// pair, a player's (a colour refused, a float repeated, the bye) by the
// player, whoever the opponent.
func (b Breach) key() string {
	ps := slices.Clone(b.Players)
	switch b.Kind {
	case KindRematch, KindForbidden, KindSameAbsolute:
		slices.Sort(ps) // symmetric
	case KindScoreDifference:
	default:
		ps = ps[:1]
	}
	return fmt.Sprint(b.Kind, ps, b.Colour, b.Round)
}

// forbidden reports whether a and b may not meet in the round to pair by
// one of t's forbidden groups.
func (r *reviewer) forbidden(a, b int) bool {
	round := r.e.played + 1
	for _, fg := range r.e.t.Forbidden {
		if round < fg.FirstRound || (fg.LastRound > 0 && round > fg.LastRound) {
			continue
		}
		if slices.Contains(fg.Players, a) && slices.Contains(fg.Players, b) {
			return true
		}
	}
	return false
}

func (r *reviewer) checkPair(w, k int) []Breach {
	e := r.e
	pw, pk := e.byIdx[w], e.byIdx[k]
	var out []Breach
	// C1: basic rule 2 (no rematch of a game played over the board), and
	// the pairs the TDs forbade.
	if slices.ContainsFunc(pw.games, func(g pairing.Game) bool { return g.Played && g.Opponent == k }) {
		out = append(out, Breach{Criterion: "C1", Absolute: true, Kind: KindRematch, Players: []int{w, k}})
	}
	if r.forbidden(w, k) {
		out = append(out, Breach{Criterion: "C1", Absolute: true, Kind: KindForbidden, Players: []int{w, k}})
	}
	// C3: non-topscorers with the same absolute preference do not meet
	// (topscorers may, when the last round is paired).
	c3 := pw.absolutePref() && pk.absolutePref() && pw.pref == pk.pref && !r.topscorer(pw) && !r.topscorer(pk)
	if c3 {
		loser := k // the one not getting the preference
		if pw.pref != pairing.White {
			loser = w
		}
		out = append(out, Breach{Criterion: "C3", Absolute: true, Kind: KindSameAbsolute, Players: []int{loser, w + k - loser},
			Colour: e.byIdx[loser].pref.Invert(), Strength: Absolute})
	}
	for _, side := range [2]struct {
		p, o *player
		got  pairing.Colour
	}{{pw, pk, pairing.White}, {pk, pw, pairing.Black}} {
		p := side.p
		if p.pref == pairing.NoColour || p.pref == side.got {
			continue
		}
		b := Breach{Players: []int{p.idx, side.o.idx}, Colour: side.got, Strength: strength(p)}
		switch b.Strength {
		case Absolute:
			if c3 {
				continue // reported as C3
			}
			// Only topscorers and their opponents may lose an absolute
			// preference (C10 when the colour difference goes beyond 2,
			// C11 for a third colour in a row, both quality criteria);
			// anyone else breaks C.04.1 rules 6 and 7, absolute in the
			// Dutch system.
			b.Absolute = !r.topscorer(p) && !r.topscorer(side.o)
			if p.imbalance > 1 {
				b.Criterion, b.Kind = "C10", KindColourDifference
				out = append(out, b)
			}
			if p.repeated == side.got {
				b.Criterion, b.Kind = "C11", KindColourRepeat
				out = append(out, b)
			}
		case Strong:
			b.Criterion, b.Kind = "C13", KindStrongPreference
			out = append(out, b)
		default:
			b.Criterion, b.Kind = "C12", KindColourPreference
			out = append(out, b)
		}
	}
	// C6: a pair of different scores; the higher floats down, the lower
	// up, and C14-C17 ask that neither float repeats one of the last two
	// rounds.
	hi, lo := pw, pk
	if e.accScore(hi, 0) < e.accScore(lo, 0) {
		hi, lo = lo, hi
	}
	if d := e.accScore(hi, 0) - e.accScore(lo, 0); d > 0 {
		out = append(out, Breach{Criterion: "C6", Kind: KindScoreDifference, Players: []int{hi.idx, lo.idx}, Difference: d})
		for back := 1; back <= 2 && back <= e.played; back++ {
			if e.float(hi, back) == floatDown {
				out = append(out, Breach{Criterion: fmt.Sprintf("C%d", 12+2*back), Kind: KindDownfloatAgain, Players: []int{hi.idx, lo.idx}, Round: back})
			}
			if e.float(lo, back) == floatUp {
				out = append(out, Breach{Criterion: fmt.Sprintf("C%d", 13+2*back), Kind: KindUpfloatAgain, Players: []int{lo.idx, hi.idx}, Round: back})
			}
		}
	}
	return out
}

func (r *reviewer) checkBye(w int) []Breach {
	why := r.whyBye(w)
	var out []Breach
	if !why.Eligible {
		out = append(out, Breach{Criterion: "C2", Absolute: true, Kind: KindSecondBye, Players: []int{w}})
	}
	if len(why.LowerScore) > 0 {
		out = append(out, Breach{Criterion: "C5", Kind: KindByeScore, Players: append([]int{w}, why.LowerScore...)})
	}
	if len(why.FewerUnplayed) > 0 {
		out = append(out, Breach{Criterion: "C9", Kind: KindByeUnplayed, Players: append([]int{w}, why.FewerUnplayed...)})
	}
	return out
}

// ByeReason says why a player holds the PAB, in the terms of C.04.3: who
// else could have taken it and what the criteria say about them.
type ByeReason struct {
	// Eligible: no PAB before and no win without playing (C2).
	Eligible bool `json:"eligible"`
	// LowerScore are the players to pair with a lower score who may take
	// the PAB (C5 gives it to the lowest score).
	LowerScore []int `json:"lower_score,omitempty"`
	// FewerUnplayed are the players of the same score who may take it and
	// have fewer unplayed games (C9).
	FewerUnplayed []int `json:"fewer_unplayed,omitempty"`
	// Candidates are the other players of the same score and as many
	// unplayed games who may take it: C5 and C9 do not choose between
	// them; the bracket's pairing does (the lowest ranked is left over
	// unless that pairs the others worse).
	Candidates []int `json:"candidates,omitempty"`
	// RankedBelow are the Candidates ranked below the holder.
	RankedBelow []int `json:"ranked_below,omitempty"`
}

// WhyBye explains the PAB of player w (an index into t.Players) against the
// other players to pair (not absent).
func WhyBye(t *pairing.Tournament, w int) ByeReason { return newReviewer(t).whyBye(w) }

func (r *reviewer) whyBye(w int) ByeReason {
	e := r.e
	p := e.byIdx[w]
	why := ByeReason{Eligible: e.eligibleForBye(p)}
	unplayed := func(q *player) int { return e.played - q.playedGame }
	for i, q := range e.byIdx {
		if i == w || e.t.Players[i].Absent || !e.eligibleForBye(q) {
			continue
		}
		switch sq, sp := e.accScore(q, 0), e.accScore(p, 0); {
		case sq < sp:
			why.LowerScore = append(why.LowerScore, i)
		case sq > sp:
		case unplayed(q) < unplayed(p):
			why.FewerUnplayed = append(why.FewerUnplayed, i)
		case unplayed(q) == unplayed(p):
			why.Candidates = append(why.Candidates, i)
			if q.rank > p.rank {
				why.RankedBelow = append(why.RankedBelow, i)
			}
		}
	}
	return why
}
