// Package teamswiss pairs a team Swiss stage with the FIDE Dutch engine
// (package pairing/dutch), as the product asks: teams are paired by match
// points, then by the format's secondary score (R12 set points, A21 points
// difference), and a team's "colour" is the colour its board-1 player had.
//
// This is deliberately not FIDE C.04.6 (the Swiss Team Pairing System): the
// Dutch criteria, float rules and colour rules are applied to teams as they
// are to players. The mapping onto pairing.Tournament:
//
//   - score = match points; scoregroups are by match points only;
//   - the secondary score orders teams inside a scoregroup: before each round
//     the pairing numbers the engine sees are re-ranked by match points
//     (descending), secondary score (descending), original seed (ascending);
//   - colour = White on board 1 / game 1, counted for played matches only;
//   - forfeited and double-forfeited matches are unplayed (no colour, no
//     float from the opponent, no bar on a rematch unless
//     Event.ForfeitBlocksRematch);
//   - the pairing-allocated bye (PAB) is worth Points.Bye.
//
// See docs/team-swiss.md for the details and a worked example.
package teamswiss

import "arbiter"

// Initial colours.
const (
	White = "white"
	Black = "black"
)

// Result says how a team's match in one round was decided.
type Result string

// Results.
const (
	// Played: the match took place (at least one game over the board; boards
	// lost by forfeit inside a played match do not change that).
	Played Result = "played"
	// Forfeit: one team forfeited the whole match; the other won it without
	// playing.
	Forfeit Result = "forfeit"
	// DoubleForfeit: neither team played (R5: 0-0); both score the format's
	// double-forfeit match points (a loss, or a draw where A5 applies).
	DoubleForfeit Result = "double_forfeit"
	// Bye: the pairing-allocated bye (PAB).
	Bye Result = "bye"
	// Absent: the team was not paired in the round (not yet entered,
	// withdrawn, excused).
	Absent Result = "absent"
)

// Round is one round of a team's history.
type Round struct {
	// Opponent is the opposing team's ID (Played, Forfeit, DoubleForfeit);
	// empty for Bye and Absent.
	Opponent string `json:"opponent,omitempty"`
	// White is true when the team had White on board 1 / game 1. It is
	// read for played matches only.
	White  bool   `json:"white,omitempty"`
	Result Result `json:"result"`
	// MatchPoints won in the round: Points.Win, Draw or Loss (Bye for the
	// PAB).
	MatchPoints arbiter.Points `json:"match_points"`
	// Secondary is the round's contribution to the format's secondary score
	// (set points for R12, points difference for A21; may be negative).
	Secondary arbiter.Points `json:"secondary"`
}

// Team is one entrant of the stage.
type Team struct {
	ID string `json:"id"`
	// Seed is the starting rank (1 = strongest). Either every team has a
	// seed (a permutation of 1..n) or none has one, and then the seeds
	// follow Rating descending, ties in the order the teams are given.
	Seed int `json:"seed,omitempty"`
	// Rating is the team's rating average; read only when no seeds are given.
	Rating float64 `json:"rating,omitempty"`
	// Rounds holds rounds 1..played, one entry per round already paired.
	Rounds []Round `json:"rounds"`
	// Withdrawn teams are not paired in the round to pair.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// Points are the match points of the format (format.Match.MatchPoints) and
// the value of the PAB, which neither rulebook states: the Dutch engine's
// default is a win, FIDE C.04.6 1.4's default a draw.
type Points struct {
	Win  arbiter.Points `json:"win"`
	Draw arbiter.Points `json:"draw"`
	Loss arbiter.Points `json:"loss"`
	Bye  arbiter.Points `json:"bye"`
}

// DefaultPoints returns R13's 1 / 0.5 / 0 with a PAB worth a win.
func DefaultPoints() Points { return Points{Win: 100, Draw: 50, Loss: 0, Bye: 100} }

// ForbiddenGroup is a set of teams that may not meet each other (e.g. two
// teams of the same club) in rounds FirstRound..LastRound (1-based,
// inclusive; 0 = no bound).
type ForbiddenGroup struct {
	Teams      []string `json:"teams"`
	FirstRound int      `json:"first_round,omitempty"`
	LastRound  int      `json:"last_round,omitempty"`
}

// Event is the stage before pairing round len(Teams[i].Rounds)+1.
type Event struct {
	Teams       []Team `json:"teams"`
	Points      Points `json:"points"`
	TotalRounds int    `json:"total_rounds"`
	// InitialColour is the board-1 colour of the top seed in round 1, drawn
	// by lot: "white" or "black".
	InitialColour string           `json:"initial_colour"`
	Forbidden     []ForbiddenGroup `json:"forbidden,omitempty"`
	// ForfeitBlocksRematch bars two teams whose match was forfeited (single
	// or double) from being paired again. FIDE's "played" (C.04.1 basic
	// rule 2, the engine's C1) excludes forfeits, so the default is false.
	ForfeitBlocksRematch bool `json:"forfeit_blocks_rematch,omitempty"`
}

// Board is one match of the round. Home has White on board 1 / game 1.
type Board struct {
	Home string `json:"home"`
	Away string `json:"away"`
}

// Pairing is a paired round: boards in publication order and the team
// receiving the PAB ("" when none).
type Pairing struct {
	Round  int     `json:"round"`
	Boards []Board `json:"boards"`
	Bye    string  `json:"bye,omitempty"`
}

// Ranked is a team's place in the pairing order of the round to pair.
type Ranked struct {
	ID          string         `json:"id"`
	MatchPoints arbiter.Points `json:"match_points"`
	Secondary   arbiter.Points `json:"secondary"`
	Seed        int            `json:"seed"`
	// TPN is the team's re-ranked pairing number for this round: its
	// 1-based position in the order (present teams first).
	TPN int `json:"tpn"`
	// Withdrawn teams are ranked after every present team.
	Withdrawn bool `json:"withdrawn,omitempty"`
}
