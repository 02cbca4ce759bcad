// Package standings ranks the entrants of a stage: the primary score (match
// points) then each tiebreak in order, applied to the subgroups still tied
// (FIDE C.07 Art. 4.2, 2026). It is pure: no I/O, no clock, no globals.
//
// The input model covers team and individual events alike. An individual
// FIDE event is the special case "each match is one game": match points are
// the game points (1, ½, 0) and the secondary score equals them.
package standings

import "arbiter"

// Input is everything Compute needs: the entrants and the results of every
// round played so far, in round order.
type Input struct {
	Entrants []Entrant `json:"entrants"`
	// Rounds[i] holds the pairings and results of round i+1. An entrant
	// absent from a round (not paired, no bye recorded) is treated as
	// Absent (a zero-point bye) for that round.
	Rounds [][]Result `json:"rounds"`
	// Format gives the scoring of match points used to value unplayed
	// rounds and to count wins; the zero value is FIDE individual scoring
	// (win 1, draw ½, loss 0).
	Scoring Scoring `json:"scoring,omitzero"`
}

// Scoring states what a win, a draw and a loss are worth in match points.
// Used for the dummy-opponent and virtual-opponent rules (C.07 Art. 16) and to
// recognise wins and draws when Outcome is derived from points.
type Scoring struct {
	Win  arbiter.Points `json:"win"`
	Draw arbiter.Points `json:"draw"`
	Loss arbiter.Points `json:"loss"`
	// SecondaryWin is the most secondary score one match can give (4 for
	// four boards, 720 set points in RKCC); 0 = Win. Used by direct
	// encounter on the secondary score for missing games (C.07 6.3).
	SecondaryWin arbiter.Points `json:"secondary_win,omitempty"`
	// SecondaryDraw is the secondary score of a drawn match (2 for four
	// boards); 0 = Draw. Used by C.07 16.3.2 and 16.4.2 on the secondary score.
	SecondaryDraw arbiter.Points `json:"secondary_draw,omitempty"`
}

// FIDEScoring is 1 / ½ / 0 for individual events.
var FIDEScoring = Scoring{Win: arbiter.Point, Draw: arbiter.Point / 2, Loss: 0}

// OrDefault is the scoring with FIDE 1 / ½ / 0 when none is given and
// each secondary value defaulting to its match-points value.
func (s Scoring) OrDefault() Scoring {
	if s.Win == 0 && s.Draw == 0 && s.Loss == 0 {
		s.Win, s.Draw, s.Loss = FIDEScoring.Win, FIDEScoring.Draw, FIDEScoring.Loss
	}
	if s.SecondaryWin == 0 {
		s.SecondaryWin = s.Win
	}
	if s.SecondaryDraw == 0 {
		s.SecondaryDraw = s.Draw
	}
	return s
}

// Entrant is a player or a team of the stage.
type Entrant struct {
	// ID is unique within the input; results refer to entrants by it.
	ID string `json:"id"`
	// Name is shown in tables; it never affects the order.
	Name string `json:"name,omitempty"`
	// Rating is the (average) rating used by ARO/TPR; 0 means unrated.
	Rating int `json:"rating,omitempty"`
	// Seed is the pairing number (TPN / starting rank, 1 = top). It is the
	// documented final fallback of the order; 0 means unseeded (after all
	// seeded entrants, then by ID).
	Seed int `json:"seed,omitempty"`
	// Values are TD-entered tiebreak values by key (td_value:<key>), e.g.
	// "previous_final" or "qualification". Higher is better.
	Values map[string]arbiter.Points `json:"values,omitempty"`
}

// Decision says how a result came about.
type Decision string

// Decisions. Played is the zero value's meaning when Decision is "".
const (
	Played        Decision = "played"         // the match/game was played over the board
	ForfeitWin    Decision = "forfeit_win"    // side A won by forfeit (B did not play / was forfeited)
	ForfeitLoss   Decision = "forfeit_loss"   // side A lost by forfeit (B won by forfeit)
	DoubleForfeit Decision = "double_forfeit" // neither side played; both score the loss
	FullDraw      Decision = "full_draw"      // neither side played; scored as a draw by rule
	PairingBye    Decision = "pairing_bye"    // PAB: side A alone, points as per the format
	HalfBye       Decision = "half_bye"       // requested half-point bye: side A alone
	ZeroBye       Decision = "zero_bye"       // zero-point bye / absent: side A alone
	FullBye       Decision = "full_bye"       // requested full-point bye (not the PAB)
)

// Colour is who had White (individual) or White on board 1 (teams).
type Colour string

// Colours.
const (
	NoColour Colour = ""
	White    Colour = "w"
	Black    Colour = "b"
)

// Side is one side of a result.
type Side struct {
	ID string `json:"id"`
	// MatchPoints is the primary score earned in this match/game.
	MatchPoints arbiter.Points `json:"match_points"`
	// Secondary is the secondary score: set points (RKCC), points scored
	// (antichess), game points (ACWC, FIDE team events); equals
	// MatchPoints for individual FIDE games.
	Secondary arbiter.Points `json:"secondary"`
	// SetsWon is the number of sets/parts this side won (RKCC set wins).
	SetsWon int `json:"sets_won,omitempty"`
	// GamesWon is the number of games won over the board (WON / games won).
	GamesWon int `json:"games_won,omitempty"`
	// Colour is White if this side had White (board 1); NoColour if unknown.
	Colour Colour `json:"colour,omitempty"`
}

// Result is one pairing of a round and its outcome. B.ID is "" for a bye
// (PairingBye, HalfBye, ZeroBye, FullBye) or for a forfeit win whose
// opponent is not recorded.
type Result struct {
	A        Side     `json:"a"`
	B        Side     `json:"b"`
	Decision Decision `json:"decision,omitempty"`
}

// IsBye reports whether the result has a single side.
func (r Result) IsBye() bool { return r.B.ID == "" }

// Played reports whether the game/match was played over the board.
func (r Result) Played() bool {
	return (r.Decision == "" || r.Decision == Played) && r.B.ID != ""
}
