package dutch

import (
	"arbiter"
	"arbiter/pairing"
)

// player is a participant of the round to pair with the quantities the
// criteria need, derived once from its history.
type player struct {
	idx   int // index in Tournament.Players
	id    int // pairing number
	rank  int // 0-based rank among the tournament's players (by pairing number)
	score arbiter.Points
	games []pairing.Game
	acc   []arbiter.Points

	imbalance  int // |#white - #black| over played games
	pref       pairing.Colour
	repeated   pairing.Colour // colour of the last two played games when equal
	strong     bool
	playedGame int
}

func (p *player) absoluteImbalance() bool { return p.imbalance > 1 }

func (p *player) absolutePref() bool {
	return p.absoluteImbalance() || p.repeated != pairing.NoColour
}

// computeColours derives the colour difference and preference from the
// played games (C.04.3 1.7; byes and forfeits do not count).
func (p *player) computeColours() {
	whites, blacks, run := 0, 0, 0
	last := pairing.NoColour
	for _, g := range p.games {
		if !g.Played {
			continue
		}
		p.playedGame++
		if g.Colour == pairing.White {
			whites++
		} else {
			blacks++
		}
		if run == 0 || g.Colour != last {
			run = 1
		} else {
			run++
		}
		last = g.Colour
	}
	lower := pairing.White
	p.imbalance = blacks - whites
	if whites > blacks {
		lower = pairing.Black
		p.imbalance = whites - blacks
	}
	switch {
	case p.imbalance > 1:
		p.pref = lower
	case run > 1:
		p.pref = last.Invert()
	case p.imbalance > 0:
		p.pref = lower
	case run > 0:
		p.pref = last.Invert()
	}
	if run > 1 {
		p.repeated = last
	}
	p.strong = !p.absolutePref() && p.imbalance > 0
}

// state is the tournament seen by the engine.
type state struct {
	t      *pairing.Tournament
	played int
	byIdx  []*player // indexed by Tournament.Players index (nil if absent)
}

// accScore is the score with acceleration, roundsBack rounds ago.
func (s *state) accScore(p *player, roundsBack int) arbiter.Points {
	score := p.score
	r := s.played
	for ; roundsBack > 0; roundsBack-- {
		r--
		score -= s.t.Points.For(p.games[r])
	}
	if r < len(p.acc) {
		score += p.acc[r]
	}
	return score
}

func (s *state) eligibleForBye(p *player) bool {
	for _, g := range p.games {
		if !g.Played && (s.t.Points.For(g) >= s.t.Points.Win || g.IsPAB()) {
			return false
		}
	}
	return true
}

type floatDir int8

const (
	floatDown floatDir = iota
	floatUp
	floatNone
)

// float is the float p received roundsBack rounds ago (1.4 of C.04.3 2026:
// an unplayed round scoring more than a loss is a downfloat).
func (s *state) float(p *player, roundsBack int) floatDir {
	g := p.games[s.played-roundsBack]
	if !g.Played {
		if s.t.Points.For(g) > s.t.Points.Loss {
			return floatDown
		}
		return floatNone
	}
	mine := s.accScore(p, roundsBack)
	theirs := s.accScore(s.byIdx[g.Opponent], roundsBack)
	switch {
	case mine > theirs:
		return floatDown
	case mine < theirs:
		return floatUp
	}
	return floatNone
}
