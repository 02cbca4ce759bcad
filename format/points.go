package format

import (
	"arbiter"
	"arbiter/standings"
)

// PerGame returns the points for a won and a drawn game of the part:
// Win/Draw, or Factor x 1 and Factor x 0.5 (R10).
func (p Part) PerGame() (win, draw arbiter.Points) {
	if p.Factor != nil {
		return *p.Factor, *p.Factor / 2
	}
	if p.Win == nil || p.Draw == nil {
		return 0, 0
	}
	return *p.Win, *p.Draw
}

// MaxPoints is the part's points for one board (or set): games x win
// (A18: 48; R10: 240).
func (p Part) MaxPoints() arbiter.Points {
	win, _ := p.PerGame()
	return arbiter.Points(p.Games) * win
}

// boardsFor is how many times the parts count towards the match total:
// once per board pair for team_boards, once otherwise.
func (m *Match) boardsFor(teamSize int) int {
	if m.Kind == TeamBoards {
		return teamSize
	}
	return 1
}

// MaxPoints is the whole match's points, both sides together, for a team
// of teamSize players (ignored unless team_boards): A18 576 for four
// boards, 432 for three; R10 720; W4 10.
func (m *Match) MaxPoints(teamSize int) arbiter.Points {
	var sum arbiter.Points
	for _, p := range m.Parts {
		sum += p.MaxPoints()
	}
	return sum * arbiter.Points(m.boardsFor(teamSize))
}

// Unit of WinThreshold.
const (
	UnitPoints = "points"
	UnitSets   = "sets"
)

// WinThreshold is the score that decides the match: the smallest score
// reachable in the format's steps that is more than half of MaxPoints
// (A18: 289 of 576; W4: 5.5 of 10). For team_sets the match is decided by
// sets won (R11), so the threshold is a majority of the sets (2 of 3) and
// unit is "sets"; set points only break a tie in sets.
func (m *Match) WinThreshold(teamSize int) (threshold arbiter.Points, unit string) {
	if m.Kind == TeamSets {
		return arbiter.Points(len(m.Parts)/2+1) * arbiter.Point, UnitSets
	}
	g := m.Granularity()
	if g == 0 {
		return 0, UnitPoints
	}
	max := m.MaxPoints(teamSize)
	// smallest k*g with 2*k*g > max
	k := max/(2*g) + 1
	return k * g, UnitPoints
}

// SetThreshold is the score that wins one set (part) outright: more than
// half of its points.
func (p Part) SetThreshold() arbiter.Points {
	win, draw := p.PerGame()
	g := gcdPoints(win, draw)
	if g == 0 {
		return 0
	}
	return (p.MaxPoints()/(2*g) + 1) * g
}

// Granularity is the greatest common divisor of every per-game score of
// the match: all totals are multiples of it.
func (m *Match) Granularity() arbiter.Points {
	var g arbiter.Points
	for _, p := range m.Parts {
		win, draw := p.PerGame()
		g = gcdPoints(g, gcdPoints(win, draw))
	}
	return g
}

func gcdPoints(a, b arbiter.Points) arbiter.Points {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// TeamSizes lists every team size the format allows (one for individual
// events).
func (f *Format) TeamSizes() []int {
	if f.Team == nil {
		return []int{1}
	}
	return f.Team.Size.values()
}

// TeamSize is the number of players per team for n entrants (nil for an
// individual event or when the TDs decide).
func (f *Format) TeamSize(n int) *int {
	if f.Team == nil {
		return nil
	}
	v, _, ok := f.Team.Size.Resolve(n)
	if !ok {
		return nil
	}
	return &v
}

// StageByName returns the named stage, or nil.
func (f *Format) StageByName(name string) *Stage {
	for i := range f.Stages {
		if f.Stages[i].Name == name {
			return &f.Stages[i]
		}
	}
	return nil
}

// MatchFor returns the match format of a knockout's final or
// third-place match ("final", "third_place"), falling back to the stage's
// Match; "" gives the stage's Match.
func (s *Stage) MatchFor(which string) *Match {
	switch {
	case which == "final" && s.Final != nil:
		return s.Final
	case which == "third_place" && s.ThirdPlaceMatch != nil:
		return s.ThirdPlaceMatch
	}
	return &s.Match
}

// Scoring is what the standings need of the match format: the match
// points, and the most and the drawn secondary score of one match for a
// team of teamSize players (C.07 Art. 16 values unplayed rounds with them).
func (m *Match) Scoring(teamSize int) standings.Scoring {
	max := m.MaxPoints(teamSize)
	mp := m.MatchPoints
	return standings.Scoring{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, SecondaryWin: max, SecondaryDraw: max / 2}
}
