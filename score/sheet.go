// Package score scores one match from a match sheet: parts and sets with
// their time-control points or factors, board and team totals, sets won,
// forfeits at game, part/set, board and match level, the early end of a
// match, knockout tie procedures (captains' advantage point, tiebreak
// games, armageddon), and what the match gives the standings. It is pure:
// the sheet comes from an io.Reader and nothing is stored.
package score

import (
	"encoding/json"
	"io"
	"strings"

	"arbiter"
	"arbiter/format/strictjson"
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
	White   string `json:"white,omitempty"` // home | away; required on equal bids
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
		return arbiter.FieldError("", "sheet.results", "want a string such as \"1 0 = 1\" or a list of strings")
	}
	*r = l
	return nil
}

// LoadSheet reads a match sheet strictly: unknown fields are errors that
// name their JSON path.
func LoadSheet(r io.Reader) (*Sheet, error) {
	var s Sheet
	if err := strictjson.Decode(r, &s, "sheet"); err != nil {
		return nil, err
	}
	return &s, nil
}

// game is one parsed result token.
type game struct {
	home, away int  // game score in halves: 2 win, 1 draw, 0 loss
	played     bool // over the board, not a forfeit
}

// parseGame reads one result token (home's point of view).
func parseGame(tok string) (game, bool) {
	switch strings.ToLower(strings.TrimSpace(tok)) {
	case "1", "1-0":
		return game{2, 0, true}, true
	case "0", "0-1":
		return game{0, 2, true}, true
	case "=", "½", "0.5", "½-½", "1/2", "1/2-1/2", "0.5-0.5", "d":
		return game{1, 1, true}, true
	case "+", "+-", "1f":
		return game{2, 0, false}, true
	case "-", "-+", "0f":
		return game{0, 2, false}, true
	case "--", "0-0":
		return game{0, 0, false}, true
	case "=f", "½f":
		return game{1, 1, false}, true
	}
	return game{}, false
}

// Forfeit kinds at part/set, board and match level (R15, A5, W14).
const (
	ForfeitDouble   = "double"    // 0-0
	ForfeitFullDraw = "full_draw" // half the available points each
	ForfeitHome     = "home"      // all the available points to home
	ForfeitAway     = "away"      // all the available points to away
)

// forfeitGame is the per-game effect of a forfeit kind.
func forfeitGame(kind string) (game, bool) {
	switch kind {
	case ForfeitDouble:
		return game{0, 0, false}, true
	case ForfeitFullDraw:
		return game{1, 1, false}, true
	case ForfeitHome:
		return game{2, 0, false}, true
	case ForfeitAway:
		return game{0, 2, false}, true
	}
	return game{}, false
}

// GameCount is how many games of one time control a sheet records as
// played over the board, and how many of them were drawn.
type GameCount struct {
	Games, Draws int
}

// CountGames counts the games played over the board on a sheet by time
// control: every part, set and board, not forfeits and not the tiebreak
// games (whose time control the format holds). Unknown tokens are skipped.
func CountGames(sh *Sheet) map[string]GameCount {
	out := map[string]GameCount{}
	add := func(ps []PartSheet) {
		for _, p := range ps {
			for _, tok := range p.Results {
				g, ok := parseGame(tok)
				if !ok || !g.played {
					continue
				}
				c := out[p.TC]
				c.Games++
				if g.home == 1 {
					c.Draws++
				}
				out[p.TC] = c
			}
		}
	}
	add(sh.Parts)
	add(sh.Sets)
	for _, b := range sh.Boards {
		add(b.Parts)
	}
	return out
}
