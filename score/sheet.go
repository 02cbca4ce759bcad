// Package score scores one match from a match sheet: parts and sets with
// their time-control points or factors, board and team totals, sets won,
// forfeits at game, part/set, board and match level, the early end of a
// match, knockout tie procedures (captains' advantage point, tiebreak
// games, armageddon), and what the match gives the standings. It is pure:
// the sheet comes from an io.Reader and nothing is stored.
package score

import (
	"io"
	"strings"

	"arbiter"
	"arbiter/format/strictjson"
)

// The match sheet is domain vocabulary (package arbiter): a report
// stores the sheet it was scored from.
type (
	Sheet           = arbiter.Sheet
	PartSheet       = arbiter.PartSheet
	BoardSheet      = arbiter.BoardSheet
	TieSheet        = arbiter.TieSheet
	ArmageddonSheet = arbiter.ArmageddonSheet
	Results         = arbiter.Results
)

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
