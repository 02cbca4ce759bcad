package trf

import "arbiter"

// Played reports an over-the-board game: an opponent and a result 1, =, 0
// or the unrated W, D, L (a game that was started but is not rated still
// counts as played for pairing: the players met and had colours).
func (r Round) Played() bool {
	if r.Opponent == 0 {
		return false
	}
	switch r.Result {
	case '1', '=', '0', 'W', 'D', 'L':
		return true
	}
	return false
}

// IsForfeit reports a forfeit win or loss ('+' or '-'), with or without an
// opponent.
func (r Round) IsForfeit() bool { return r.Result == '+' || r.Result == '-' }

// IsPending reports a game paired but without a result yet.
func (r Round) IsPending() bool { return r.Opponent != 0 && r.Result == ' ' }

// IsBye reports a round without an opponent: a pairing-allocated bye (U),
// a full- (F), half- (H) or zero-point bye (Z), an absence (blank), or a
// forfeit recorded without an opponent.
func (r Round) IsBye() bool { return r.Opponent == 0 }

// ByeKind returns the bye code of a round without opponent: 'U', 'F', 'H',
// 'Z' (blank results are absences, read as 'Z'), '+' or '-' for a forfeit
// recorded without opponent; 0 when the round has an opponent.
func (r Round) ByeKind() byte {
	if r.Opponent != 0 {
		return 0
	}
	if r.Result == ' ' {
		return 'Z'
	}
	return r.Result
}

// IsPAB reports a pairing-allocated bye.
func (r Round) IsPAB() bool { return r.Opponent == 0 && r.Result == 'U' }

// Points is the score of the round under ps. A pending game scores 0.
func (r Round) Points(ps PointSystem) arbiter.Points {
	switch r.Result {
	case '1', 'W':
		return ps.Win
	case '=', 'D':
		return ps.Draw
	case '0', 'L':
		return ps.Loss
	case '+':
		return ps.ForfeitWin
	case '-':
		return ps.ForfeitLoss
	case 'U':
		return ps.PAB
	case 'F':
		return ps.FullBye
	case 'H':
		return ps.HalfBye
	case 'Z':
		return ps.ZeroBye
	case ' ':
		if r.Opponent == 0 {
			return ps.ZeroBye
		}
	}
	return 0
}

// Score sums the player's results in all rounds under ps.
func (p *Player) Score(ps PointSystem) arbiter.Points { return p.ScoreAfter(ps, len(p.Rounds)) }

// ScoreAfter sums the player's results in rounds 1..n under ps (pre-assigned
// byes of the round being paired are not part of the score yet).
func (p *Player) ScoreAfter(ps PointSystem, n int) arbiter.Points {
	var s arbiter.Points
	for i := 0; i < n && i < len(p.Rounds); i++ {
		s += p.Rounds[i].Points(ps)
	}
	return s
}

// Round returns the player's round r (1-based); a round beyond the end of
// the line is blank.
func (p *Player) Round(r int) Round {
	if r < 1 || r > len(p.Rounds) {
		return Round{Colour: '-', Result: ' '}
	}
	return p.Rounds[r-1]
}

// Player returns the player with start number id, or nil.
func (f *File) Player(id int) *Player {
	for i := range f.Players {
		if f.Players[i].ID == id {
			return &f.Players[i]
		}
	}
	return nil
}
