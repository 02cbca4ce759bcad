package dutch

import (
	"arbiter"
	"arbiter/pairing"
)

// Strength is the strength of a colour preference (C.04.3 1.7).
type Strength int8

// Strengths, weakest first.
const (
	NoPreference Strength = iota
	Mild                  // colour difference 0: alternate from the last played game
	Strong                // colour difference +1 or -1
	Absolute              // colour difference beyond +-1, or the same colour in the last two played games
)

// String is the C.04.3 word: "", "mild", "strong" or "absolute".
func (s Strength) String() string {
	switch s {
	case Mild:
		return "mild"
	case Strong:
		return "strong"
	case Absolute:
		return "absolute"
	}
	return ""
}

// Float is the float a player received in one round (C.04.3 1.4).
type Float int8

// Floats.
const (
	NoFloat Float = iota
	Downfloat
	Upfloat
)

// String is "down", "up" or "".
func (f Float) String() string {
	switch f {
	case Downfloat:
		return "down"
	case Upfloat:
		return "up"
	}
	return ""
}

// Profile is what the pairing criteria know of a player before the round
// to pair, derived from the game history exactly as the engine derives it:
// what a TD checks when reviewing a pairing.
type Profile struct {
	// Score is the pairing score (with the acceleration of the round).
	Score arbiter.Points
	// Colours holds one entry per round: the colour of a played game, or
	// NoColour for a round without one (bye, forfeit, absence).
	Colours []pairing.Colour
	// Difference is CD = games with White minus games with Black (played
	// games only, C.04.2 3.4).
	Difference int
	// Preference is the colour the player should get (NoColour: none) and
	// Strength how strongly (C.04.3 1.7).
	Preference pairing.Colour
	Strength   Strength
	// Floats are the floats of the last round and of the round before it
	// (NoFloat where there is none or no such round; C.04.3 1.4: a PAB or
	// an unplayed round scoring more than a loss is a downfloat).
	Floats [2]Float
	// ByeEligible: no PAB yet and never a win's points without playing
	// (C.04.1 4, criterion C2).
	ByeEligible bool
	// Unplayed counts the rounds without a game played over the board (C9).
	Unplayed int
	// Topscorer: more than half the maximum score when the last round is
	// paired (C.04.3 1.8); false in any other round.
	Topscorer bool
	// Rank is the 0-based place by pairing number (ID) among all players.
	Rank int
}

// Profiles returns the profile of every player of t (indexed like
// t.Players), absent players included.
func Profiles(t *pairing.Tournament) []Profile {
	r := newReviewer(t)
	out := make([]Profile, len(t.Players))
	for i := range out {
		out[i] = r.profile(i)
	}
	return out
}

// reviewer is the engine's view of t without a pairing run: the derived
// players, the topscorer threshold and the round's forbidden pairs.
type reviewer struct {
	e    *engine
	last bool // the round to pair is the last
}

func newReviewer(t *pairing.Tournament) *reviewer {
	e := &engine{state: newState(t)}
	maxWD := max(t.Points.Win, t.Points.Draw)
	// As in run: the reference's threshold in tenths.
	e.thresh = arbiter.Points((int64(e.played)*int64(maxWD/10))>>1) * 10
	return &reviewer{e: e, last: e.played >= t.TotalRounds-1}
}

func (r *reviewer) topscorer(p *player) bool { return r.last && r.e.topScorer(p) }

func (r *reviewer) profile(i int) Profile {
	e := r.e
	p := e.byIdx[i]
	pr := Profile{Score: e.accScore(p, 0), Preference: p.pref, ByeEligible: e.eligibleForBye(p), Topscorer: r.topscorer(p), Rank: p.rank}
	for _, g := range p.games {
		c := pairing.NoColour
		if g.Played {
			c = g.Colour
			if c == pairing.White {
				pr.Difference++
			} else {
				pr.Difference--
			}
		} else {
			pr.Unplayed++
		}
		pr.Colours = append(pr.Colours, c)
	}
	pr.Strength = strength(p)
	for back := 1; back <= 2 && back <= e.played; back++ {
		switch e.float(p, back) {
		case floatDown:
			pr.Floats[back-1] = Downfloat
		case floatUp:
			pr.Floats[back-1] = Upfloat
		}
	}
	return pr
}

func strength(p *player) Strength {
	switch {
	case p.pref == pairing.NoColour:
		return NoPreference
	case p.absolutePref():
		return Absolute
	case p.strong:
		return Strong
	}
	return Mild
}

// Colours returns the colours of a and b (indexes into t.Players) paired
// with each other by the engine's allocation rules (C.04.3 5.2.1-5.2.5):
// both preferences, the stronger one, alternation from the last round they
// differed, the higher ranked player's preference, the initial colour by
// rank parity. It returns (white, black).
func Colours(t *pairing.Tournament, a, b int) (white, black int) {
	r := newReviewer(t)
	p, o := r.e.byIdx[a], r.e.byIdx[b]
	if p.id > o.id { // the engine asks for the lower pairing number's colour
		p, o = o, p
	}
	if r.e.colourFor(p, o) == pairing.White {
		return p.idx, o.idx
	}
	return o.idx, p.idx
}
