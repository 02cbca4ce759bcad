package odds

import (
	"math/rand/v2"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

// A simulated match is a match sheet drawn game by game and scored by
// package score, so that parts, factors, the early end (W4), sets (R11)
// and the knockout tie procedure (A20, W10, W11) count exactly as for a
// reported result. The sheet is first written compactly (one byte per
// game, sheet.go) and a worker keeps the scored outcome of each distinct
// count of wins, draws and losses per part (see scored).

// sheet bytes: a game from home's side, then separators.
const (
	bWin   = '1'
	bDraw  = '='
	bLoss  = '0'
	bPart  = '|' // next part (set) of the unit
	bUnit  = '/' // next board
	bTie   = 'T' // tie data follows: captains' board, games, armageddon
	bArma  = 'A' // armageddon: white (h/a) and result
	bCapt  = 'C' // captains' board follows (a digit, or bNoAdv)
	bNoAdv = '-' // the captains met on no board
)

// matchKind is what playing one kind of match needs, per stage and
// match format ("", "final", "third_place").
type matchKind struct {
	stage     int
	name      string // the stage's name, for package score
	which     string // "", "final", "third_place"
	mf        *format.Match
	knockout  bool
	units     int // boards (team_boards) or 1
	threshold arbiter.Points
	setsUnit  bool          // team_sets: the threshold counts sets
	tcs       []format.Part // parts in order
	tcNames   []string      // their time controls as a sheet names them
	rates     []float64     // draw rate per part
	tie       []format.TieStep
	tieRates  []float64 // draw rate per tie step (games)
}

// kindOf is the prepared kind of a stage's match format.
func (p *plan) kindOf(si int, which string) *matchKind { return p.kinds[kindKey{si, which}] }

// buildKinds prepares every stage's match formats before the workers
// start (they only read them).
func (p *plan) buildKinds() {
	p.kinds = map[kindKey]*matchKind{}
	for si := range p.f.Stages {
		for _, which := range []string{"", "final", "third_place"} {
			st := &p.f.Stages[si]
			mf := st.MatchFor(which)
			k := &matchKind{stage: si, name: st.Name, which: which, mf: mf, knockout: st.Kind == format.Knockout, units: 1, tcs: mf.Parts, tie: mf.Tie}
			if mf.Kind == format.TeamBoards {
				k.units = p.teamSize
			}
			var unit string
			k.threshold, unit = mf.WinThreshold(p.teamSize)
			k.setsUnit = unit == format.UnitSets
			for _, part := range mf.Parts {
				k.tcNames = append(k.tcNames, part.TC.String())
				k.rates = append(k.rates, p.rates[part.TC.String()].Rate)
			}
			for _, t := range mf.Tie {
				r := 0.0
				if t.TC != nil {
					r = p.rates[t.TC.String()].Rate
				}
				k.tieRates = append(k.tieRates, r)
			}
			p.kinds[kindKey{si, which}] = k
		}
	}
}

type kindKey struct {
	stage int
	which string
}

// scorer plays matches for one worker: its cache of scored sheets is not
// shared, so no locking is needed and the answer does not depend on which
// worker played which run.
type scorer struct {
	p     *plan
	cache map[string]*arbiter.Outcome
	buf   []byte
	key   []byte
}

// maxCache bounds a worker's cache of scored sheets.
const maxCache = 1 << 17

func newScorer(p *plan) *scorer {
	return &scorer{p: p, cache: map[string]*arbiter.Outcome{}}
}

// play simulates match m of stage si and returns its outcome. want is a
// result fixed by hand (HomeWins, AwayWins, Drawn) or "": the sheet is
// then drawn until it gives that result (a few hundred tries, then a
// sheet where one side wins, or draws, every game).
func (s *scorer) play(si int, m *arbiter.Match, want string, rng *rand.Rand) (*arbiter.Outcome, error) {
	k := s.p.kindOf(si, m.Format)
	rh, ra := s.p.rating(m.Home), s.p.rating(m.Away)
	for try := 0; ; try++ {
		var force byte
		if want != "" && try >= 200 {
			force = map[string]byte{HomeWins: bWin, AwayWins: bLoss, Drawn: bDraw}[want]
		}
		s.draw(k, m, rh, ra, force, rng)
		o, err := s.scored(k, m)
		if err != nil {
			return nil, err
		}
		if o.Result == score.TieUnresolved && k.knockout {
			// No tie procedure left: the TDs decide (R11 leaves it to
			// them); the simulation tosses a coin.
			c := *o
			c.Result, c.DecidedBy = score.HomeWin, "td"
			if rng.IntN(2) == 1 {
				c.Result = score.AwayWin
			}
			o = &c
		}
		if want == "" || resultOf(o, k.mf.MatchPoints) == want {
			return o, nil
		}
		if force != 0 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "no sheet gives the fixed result %s of %s v %s", want, m.Home, m.Away)
		}
	}
}

// resultOf is the outcome from home's side: HomeWins, AwayWins or Drawn.
func resultOf(o *arbiter.Outcome, mp format.MatchPoints) string {
	switch {
	case o.Result == score.HomeWin:
		return HomeWins
	case o.Result == score.AwayWin:
		return AwayWins
	case o.Home.MatchPoints > o.Away.MatchPoints:
		return HomeWins
	case o.Home.MatchPoints < o.Away.MatchPoints:
		return AwayWins
	}
	return Drawn
}

// draw writes a sheet into s.buf: every unit's parts game by game (until
// the match is decided when the format ends it there), then, for a tied
// knockout match, the tie procedure's data. force, when set, is every
// game's result.
func (s *scorer) draw(k *matchKind, m *arbiter.Match, rh, ra int, force byte, rng *rand.Rand) {
	b := s.buf[:0]
	b = append(b, byte('0'+k.stage), byte(len(k.which)))
	var home, away arbiter.Points
	var setsH, setsA int
	majority := len(k.tcs)/2 + 1
	decided := false
	unitPts := make([][2]arbiter.Points, 0, 4)
	var setPts [][2]arbiter.Points
	for u := 0; u < k.units && !decided; u++ {
		if u > 0 {
			b = append(b, bUnit)
		}
		var uh, ua arbiter.Points
		for pi, part := range k.tcs {
			if decided {
				break
			}
			if pi > 0 {
				b = append(b, bPart)
			}
			g := oddsOf(rh, ra, k.rates[pi])
			win, drw := part.PerGame()
			thr := part.SetThreshold()
			var ph, pa arbiter.Points
			clinched := false
			for range part.Games {
				t := force
				if t == 0 {
					t = g.sample(rng.Float64())[0]
				}
				b = append(b, t)
				var dh, da arbiter.Points
				switch t {
				case bWin:
					dh = win
				case bDraw:
					dh, da = drw, drw
				default:
					da = win
				}
				ph, pa, home, away = ph+dh, pa+da, home+dh, away+da
				if k.mf.PlayAllGames {
					continue
				}
				if k.setsUnit {
					if !clinched && (ph >= thr || pa >= thr) {
						clinched = true
						if ph >= thr {
							setsH++
						} else {
							setsA++
						}
					}
					decided = setsH >= majority || setsA >= majority
				} else {
					decided = home >= k.threshold || away >= k.threshold
				}
				if decided {
					break
				}
			}
			uh, ua = uh+ph, ua+pa
			setPts = append(setPts, [2]arbiter.Points{ph, pa})
		}
		unitPts = append(unitPts, [2]arbiter.Points{uh, ua})
	}
	if k.knockout && len(k.tie) > 0 && tied(k, home, away, setPts) {
		b = s.drawTie(b, k, m, rh, ra, unitPts, force, rng)
	}
	s.buf = b
}

// tied reports whether the regular games leave the match level: equal
// points, or for team_sets equal sets won and equal set points (R11).
func tied(k *matchKind, home, away arbiter.Points, sets [][2]arbiter.Points) bool {
	if k.mf.Kind == format.TeamSets {
		h, a := 0, 0
		for _, s := range sets {
			switch {
			case s[0] > s[1]:
				h++
			case s[1] > s[0]:
				a++
			}
		}
		if h != a {
			return false
		}
	}
	return home == away
}

// drawTie appends the tie procedure's data: the captains' board (A20:
// where the two captains' board lists put them on the same board), the
// tiebreak games until decided, and an armageddon game whose winner
// follows the Elo expectation (the bids are assumed to even out the
// colours; White is drawn at random).
func (s *scorer) drawTie(b []byte, k *matchKind, m *arbiter.Match, rh, ra int, units [][2]arbiter.Points, force byte, rng *rand.Rand) []byte {
	b = append(b, bTie)
	var lead arbiter.Points // home minus away, advantage point included
	for ti, step := range k.tie {
		switch step.Kind {
		case format.TieCaptainsAdvantage:
			board := s.p.captainsBoard(m, k.units)
			if board == 0 {
				b = append(b, bCapt, bNoAdv)
				continue
			}
			b = append(b, bCapt, byte('0'+board))
			switch u := units[board-1]; {
			case u[0] > u[1]:
				lead += arbiter.Point
			case u[1] > u[0]:
				lead -= arbiter.Point
			}
		case format.TieGames:
			g := oddsOf(rh, ra, k.tieRates[ti])
			for n := range step.Games {
				remaining := arbiter.Points(step.Games-n) * arbiter.Point
				if lead > remaining || -lead > remaining {
					break
				}
				t := force
				if t == 0 {
					t = g.sample(rng.Float64())[0]
				}
				b = append(b, t)
				switch t {
				case bWin:
					lead += arbiter.Point
				case bLoss:
					lead -= arbiter.Point
				}
			}
			if lead != 0 {
				return b
			}
		case format.TieArmageddon:
			homeWins := rng.Float64() < expectation(rh, ra)
			switch force {
			case bWin:
				homeWins = true
			case bLoss:
				homeWins = false
			}
			white := byte('h')
			if rng.IntN(2) == 1 {
				white = 'a'
			}
			res := byte(bLoss)
			if homeWins {
				res = bWin
			}
			return append(b, bArma, white, res)
		}
	}
	return b
}

// captainsBoard is the board on which the two teams' captains play (both
// captains at the same place of their board lists), 0 when they do not
// meet or the boards are unknown.
func (p *plan) captainsBoard(m *arbiter.Match, boards int) int {
	h, a := p.entrant(m.Home), p.entrant(m.Away)
	if h == nil || a == nil {
		return 0
	}
	hb, ab := m.HomeBoards, m.AwayBoards
	if len(hb) == 0 {
		hb = h.Boards
	}
	if len(ab) == 0 {
		ab = a.Boards
	}
	for i := 0; i < boards && i < len(hb) && i < len(ab); i++ {
		if hb[i] == h.Captain && ab[i] == a.Captain && h.Captain != "" && a.Captain != "" {
			return i + 1
		}
	}
	return 0
}

// scored scores the sheet in s.buf, from the cache when a sheet with the
// same games was scored before. The outcome a match stores (points,
// match points, games won, part totals, how it was decided) does not
// depend on the order of the games inside a part, so the cache is keyed
// by each part's wins, draws and losses (and the tie data as drawn); the
// sheet scored is the one drawn, which keeps the early end valid.
func (s *scorer) scored(k *matchKind, m *arbiter.Match) (*arbiter.Outcome, error) {
	s.key = countKey(s.key[:0], s.buf)
	if o, ok := s.cache[string(s.key)]; ok {
		return o, nil
	}
	sh := sheetOf(k, s.buf)
	sh.Home, sh.Away, sh.Match = m.Home, m.Away, k.which
	ms, err := score.Score(s.p.f, k.name, sh, score.Options{Entrants: s.p.ev.Entrants})
	if err != nil {
		return nil, err
	}
	o := ms.Outcome()
	if len(s.cache) < maxCache {
		s.cache[string(s.key)] = &o
	}
	return &o, nil
}
