package trf

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/standings"
)

// StandingsInput converts the 001 records of an individual TRF file into a
// standings.Input:
// each game is one match (match points = secondary = game points from the
// file's point system), entrant ids are the start numbers, seeds the start
// numbers. A pairing listed by only one of the two players, or listed
// inconsistently, is an error naming the line's player and round.
//
// Mapping of the result codes: 1 0 = W D L played; + / - forfeit win /
// loss ('-' on both sides: double forfeit); U pairing-allocated bye; F
// full-point bye; H half-point bye; Z, '-' or blank without opponent and
// missing trailing rounds: zero-point bye (absent); blank with an opponent
// (paired, not played yet): the round is left out for both.
func StandingsInput(f *File) (standings.Input, error) {
	ps := f.PointSystem
	if ps == (PointSystem{}) {
		ps = DefaultPointSystem()
	}
	in := standings.Input{Scoring: standings.Scoring{Win: ps.Win, Draw: ps.Draw, Loss: ps.Loss}}
	byID := make(map[int]*Player, len(f.Players))
	nr := 0
	for k := range f.Players {
		p := &f.Players[k]
		if _, dup := byID[p.ID]; dup {
			return standings.Input{}, arbiter.FieldError(fmt.Sprintf("player %d", p.ID), "trf.001", "duplicate start number %d", p.ID)
		}
		byID[p.ID] = p
		nr = max(nr, len(p.Rounds))
		in.Entrants = append(in.Entrants, standings.Entrant{ID: strconv.Itoa(p.ID), Name: p.Name, Rating: p.Rating, Seed: p.ID})
	}
	in.Rounds = make([][]standings.Result, nr)
	for r := 0; r < nr; r++ {
		for k := range f.Players {
			p := &f.Players[k]
			if r >= len(p.Rounds) {
				continue // trimmed trailing blank round: absent
			}
			x := p.Rounds[r]
			field := fmt.Sprintf("player %d round %d", p.ID, r+1)
			side := standings.Side{ID: strconv.Itoa(p.ID), Colour: trfColour(x.Colour)}
			if x.Opponent == 0 {
				res := standings.Result{A: side}
				switch x.Result {
				case 'U':
					res.Decision, res.A.MatchPoints = standings.PairingBye, ps.PAB
				case 'F':
					res.Decision, res.A.MatchPoints = standings.FullBye, ps.FullBye
				case 'H':
					res.Decision, res.A.MatchPoints = standings.HalfBye, ps.HalfBye
				case 'Z', ' ', '-':
					res.Decision, res.A.MatchPoints = standings.ZeroBye, ps.ZeroBye
				case '+':
					res.Decision, res.A.MatchPoints = standings.ForfeitWin, ps.ForfeitWin
				default:
					return standings.Input{}, arbiter.FieldError(field, "trf.001", "result %q needs an opponent", x.Result)
				}
				res.A.Secondary = res.A.MatchPoints
				in.Rounds[r] = append(in.Rounds[r], res)
				continue
			}
			q, ok := byID[x.Opponent]
			if !ok {
				return standings.Input{}, arbiter.FieldError(field, "trf.001", "unknown opponent %d", x.Opponent)
			}
			if r >= len(q.Rounds) || q.Rounds[r].Opponent != p.ID {
				return standings.Input{}, arbiter.FieldError(field, "trf.001", "opponent %d does not list %d in round %d", q.ID, p.ID, r+1)
			}
			if q.ID < p.ID {
				continue // the pair was handled from the lower start number
			}
			y := q.Rounds[r]
			if x.Result == ' ' || y.Result == ' ' {
				continue // paired, not played yet
			}
			other := standings.Side{ID: strconv.Itoa(q.ID), Colour: trfColour(y.Colour)}
			res := standings.Result{A: side, B: other}
			var err error
			if res.A.MatchPoints, res.A.GamesWon, err = trfPoints(ps, x.Result); err != nil {
				return standings.Input{}, arbiter.FieldError(field, "trf.001", "%v", err)
			}
			if res.B.MatchPoints, res.B.GamesWon, err = trfPoints(ps, y.Result); err != nil {
				return standings.Input{}, arbiter.FieldError(fmt.Sprintf("player %d round %d", q.ID, r+1), "trf.001", "%v", err)
			}
			res.A.Secondary, res.B.Secondary = res.A.MatchPoints, res.B.MatchPoints
			fa, fb := x.Result == '+' || x.Result == '-', y.Result == '+' || y.Result == '-'
			switch {
			case !fa && !fb && outcome(x.Result)+outcome(y.Result) == 2:
				res.Decision = standings.Played
			case x.Result == '+' && y.Result == '-':
				res.Decision = standings.ForfeitWin
			case x.Result == '-' && y.Result == '+':
				res.Decision = standings.ForfeitLoss
			case x.Result == '-' && y.Result == '-':
				res.Decision = standings.DoubleForfeit
			default:
				return standings.Input{}, arbiter.FieldError(field, "trf.001", "results %q and %q of players %d and %d do not match", x.Result, y.Result, p.ID, q.ID)
			}
			in.Rounds[r] = append(in.Rounds[r], res)
		}
	}
	return in, nil
}

// outcome is 2 for a won game, 1 drawn, 0 lost: the two sides of a game
// must add up to 2.
func outcome(c byte) int {
	switch c {
	case '1', 'W':
		return 2
	case '=', 'D':
		return 1
	case '0', 'L':
		return 0
	}
	return -9
}

func trfColour(c byte) standings.Colour {
	switch c {
	case 'w', 'W':
		return standings.White
	case 'b', 'B':
		return standings.Black
	}
	return standings.NoColour
}

// trfPoints returns the points and games won of a result code with an opponent.
func trfPoints(ps PointSystem, c byte) (arbiter.Points, int, error) {
	switch c {
	case '1', 'W':
		return ps.Win, 1, nil
	case '=', 'D':
		return ps.Draw, 0, nil
	case '0', 'L':
		return ps.Loss, 0, nil
	case '+':
		return ps.ForfeitWin, 0, nil
	case '-':
		return ps.ForfeitLoss, 0, nil
	}
	return 0, 0, fmt.Errorf("result %q is not a game result", c)
}

// StandingsOptions derives standings.Compute options from a TRF header: TotalRounds from
// XXR/142, RoundRobin from a 192 round-robin / Schiller / Scheveningen
// code, and the C.07 edition from the start date (042): from 2026/03/01
// "2026", before it "2024" (TieBreakServer selects it the same way); an
// unreadable date gives the default.
func StandingsOptions(f *File) standings.Options {
	o := standings.Options{TotalRounds: f.TotalRounds}
	code := strings.ToUpper(f.TournamentCode)
	o.RoundRobin = strings.Contains(code, "ROUNDROBIN") || strings.Contains(code, "SCHILLER") || strings.Contains(code, "SCHEVENINGEN")
	d := strings.NewReplacer("-", "/", ".", "/").Replace(strings.TrimSpace(f.StartDate))
	if len(d) >= 10 && d[4] == '/' && d[7] == '/' {
		if d[:10] >= "2026/03/01" {
			o.Edition = standings.Edition2026
		} else {
			o.Edition = standings.Edition2024
		}
	}
	return o
}
