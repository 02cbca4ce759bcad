// Package pairing holds the input model shared by the Swiss pairing engines:
// a tournament as the engines see it (players, their game histories, the
// point system, accelerations and forbidden pairs), independent of the file
// format it was read from.
package pairing

import "arbiter"

// Colour is the colour a player had (or gets) in a game.
type Colour int8

// Colours. NoColour marks an unplayed round (bye, forfeit, absence).
const (
	NoColour Colour = iota
	White
	Black
)

// Invert returns the opposite colour; NoColour stays NoColour.
func (c Colour) Invert() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

// String is "w", "b" or "-".
func (c Colour) String() string {
	switch c {
	case White:
		return "w"
	case Black:
		return "b"
	}
	return "-"
}

// Outcome is the result of one round for one player, as a loss/draw/win class;
// the points it is worth depend on the point system and on how the round went
// (see PointSystem.For).
type Outcome int8

// Outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

// Game is one round in a player's history.
type Game struct {
	// Opponent is the opponent's index in Tournament.Players, or -1 when the
	// player had no opponent (bye, absence).
	Opponent int
	// Colour is the colour played or assigned (NoColour for byes).
	Colour  Colour
	Outcome Outcome
	// Played is true only for games actually played over the board: only
	// those count for colours and floats, and a played opponent may not be
	// met again.
	Played bool
	// Paired is true when the player took part in the pairing of the round:
	// a game (played or forfeited) or the pairing-allocated bye (PAB). False
	// for requested byes and absences.
	Paired bool
}

// IsPAB reports whether the round was a pairing-allocated bye.
func (g Game) IsPAB() bool { return g.Paired && g.Opponent < 0 }

// Player is one entrant.
type Player struct {
	// ID is the pairing number (starting rank) printed in the output.
	ID int
	// Score is the total before the round to pair, without acceleration.
	Score arbiter.Points
	// Games holds rounds 1..PlayedRounds.
	Games []Game
	// Accelerations[r] is added to the score when pairing round r+1
	// (0-based r), for accelerated systems (Baku, TRF 250 / XXA).
	Accelerations []arbiter.Points
	// Absent players are not paired in the round to pair (requested bye,
	// known absence, withdrawn).
	Absent bool
}

// PointSystem gives the points of each kind of round.
type PointSystem struct {
	Win, Draw, Loss arbiter.Points
	ZeroBye         arbiter.Points // absence (ZPB), unpaired round
	ForfeitLoss     arbiter.Points
	PairingBye      arbiter.Points // PAB
}

// StandardPoints is 1 / ½ / 0 with a PAB worth a win.
func StandardPoints() PointSystem { return PointSystem{Win: 100, Draw: 50, PairingBye: 100} }

// For returns the points a game is worth.
func (ps PointSystem) For(g Game) arbiter.Points {
	switch g.Outcome {
	case Win:
		if g.IsPAB() {
			return ps.PairingBye
		}
		return ps.Win
	case Draw:
		return ps.Draw
	}
	if !g.Paired {
		return ps.ZeroBye
	}
	if g.Played {
		return ps.Loss
	}
	return ps.ForfeitLoss
}

// ForbiddenGroup is a set of players (indexes into Tournament.Players) who may
// not meet each other in rounds FirstRound..LastRound (1-based, inclusive;
// LastRound 0 = no end).
type ForbiddenGroup struct {
	Players               []int
	FirstRound, LastRound int
}

// Tournament is the state before pairing round PlayedRounds+1.
type Tournament struct {
	Players      []Player
	PlayedRounds int
	TotalRounds  int
	// InitialColour is the colour of the first-ranked player in round 1
	// (drawn by lot); NoColour when unknown.
	InitialColour Colour
	Points        PointSystem
	Forbidden     []ForbiddenGroup
}

// Pair is one board of a round. Black is -1 for the pairing-allocated bye.
// Players are indexes into Tournament.Players.
type Pair struct {
	White, Black int
}
