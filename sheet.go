package arbiter

import (
	"encoding/json"
	"strings"
)

// Sheet is a match sheet: the two entrants and what happened. All results
// are written from the home side's point of view ("1" = home won the game).
// Docs: docs/match-sheet.md.
type Sheet struct {
	Home string `json:"home"`
	Away string `json:"away"`
	// Match picks a knockout's "final" or "third_place" match format; empty
	// for every other match.
	Match string `json:"match,omitempty"`
	// Forfeit is a match-level forfeit: "double" (0-0), "full_draw" (half
	// the points each), "home" or "away" (all the points to that side).
	// Nothing else may then be given.
	Forfeit string `json:"forfeit,omitempty"`
	// Parts for an individual match, Boards for team_boards, Sets for team_sets.
	Parts  []PartSheet  `json:"parts,omitempty"`
	Boards []BoardSheet `json:"boards,omitempty"`
	Sets   []PartSheet  `json:"sets,omitempty"`
	// Tie holds the knockout tie data, only when the match is tied.
	Tie *TieSheet `json:"tie,omitempty"`
}

// PartSheet is one part (or set) as played, named by its time control; the
// sheet order is the playing order.
type PartSheet struct {
	TC string `json:"tc"`
	// Players of a set (team_sets); informative.
	HomePlayer string `json:"home_player,omitempty"`
	AwayPlayer string `json:"away_player,omitempty"`
	// Results are the games in order: "1 0 = 1" or ["1", "0", "="].
	Results Results `json:"results,omitempty"`
	// Forfeit of the whole part/set: double, full_draw, home, away.
	Forfeit string `json:"forfeit,omitempty"`
}

// BoardSheet is one board pair of a team_boards match.
type BoardSheet struct {
	Board      int         `json:"board"`
	HomePlayer string      `json:"home_player,omitempty"`
	AwayPlayer string      `json:"away_player,omitempty"`
	Parts      []PartSheet `json:"parts,omitempty"`
	// Forfeit of every part of the board.
	Forfeit string `json:"forfeit,omitempty"`
}

// TieSheet is the knockout tie data.
type TieSheet struct {
	// CaptainsBoard is the board on which the two captains met (A20); 0
	// when they played on different boards.
	CaptainsBoard int `json:"captains_board,omitempty"`
	// Games are the tiebreak games (A20: captains' 3+0; W11).
	Games      Results          `json:"games,omitempty"`
	Armageddon *ArmageddonSheet `json:"armageddon,omitempty"`
}

// ArmageddonSheet records the bids (seconds offered for White's clock),
// who got White (lowest bid, or the coin flip / rock-paper-scissors on
// equal bids) and the result from home's point of view.
type ArmageddonSheet struct {
	HomeBid int    `json:"home_bid"`
	AwayBid int    `json:"away_bid"`
	White   Side   `json:"white,omitempty"` // required on equal bids
	Result  string `json:"result"`          // 1, 0 or = (a draw is a win for Black)
}

// Results is a list of game results. In JSON it is either one string with
// the results separated by spaces or commas, or a list of strings.
type Results []string

// UnmarshalJSON accepts "1 0 = 1" and ["1", "0", "=", "1"].
func (r *Results) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*r = strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' || c == '\t' || c == '\n' })
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return FieldError("", "sheet.results", "want a string such as \"1 0 = 1\" or a list of strings")
	}
	*r = l
	return nil
}
