// Package resultsfile reads the JSON results file of one stage that
// "arbiter standings" ranks (docs/results-file.md) into the plain inputs of
// package standings. It is an adapter: the standings engine reads no file.
package resultsfile

import (
	"encoding/json"
	"fmt"
	"io"

	"arbiter"
	"arbiter/format/strictjson"
	"arbiter/standings"
)

// File is the JSON results file of one stage read by the
// "arbiter standings" command (docs/results-file.md).
type File struct {
	// Stage names the format's stage the results belong to (optional:
	// the command line's --stage wins).
	Stage string `json:"stage,omitempty"`
	// Edition of FIDE C.07 for unplayed rounds: "2024" or "2026" (default).
	Edition string `json:"edition,omitempty"`
	// TotalRounds is the planned number of rounds (C.07 16.4.2); 0 = the
	// stage's round count for the number of entrants, or the rounds given.
	TotalRounds int       `json:"total_rounds,omitempty"`
	Entrants    []Entrant `json:"entrants"`
	// Rounds[r] lists the results of round r+1.
	Rounds [][]Result `json:"rounds"`
}

// Entrant is an entrant of the results file.
type Entrant struct {
	ID     string                    `json:"id"`
	Name   string                    `json:"name,omitempty"`
	Rating int                       `json:"rating,omitempty"`
	Seed   int                       `json:"seed,omitempty"`
	Values map[string]arbiter.Points `json:"values,omitempty"`
	// Pool names the entrant's pool in a pool stage; each pool is ranked
	// separately.
	Pool string `json:"pool,omitempty"`
}

// Result is one result: a summary (the fields below) or a match sheet
// (Sheet, scored by package score in the command). Per-side lists are
// [a, b]; a bye has one side.
type Result struct {
	A        string             `json:"a"`
	B        string             `json:"b,omitempty"`
	Decision standings.Decision `json:"decision,omitempty"`
	// MatchPoints of a and b; derived when absent (see docs/results-file.md).
	MatchPoints []arbiter.Points `json:"match_points,omitempty"`
	// Secondary score of a and b: set points, points scored or game points.
	Secondary []arbiter.Points `json:"secondary,omitempty"`
	SetsWon   []int            `json:"sets_won,omitempty"`
	GamesWon  []int            `json:"games_won,omitempty"`
	// White is "a" or "b": the side with White (board 1 White for teams).
	White string `json:"white,omitempty"`
	// Sheet is a match sheet for package score instead of a summary.
	Sheet json.RawMessage `json:"sheet,omitempty"`
}

// Read decodes a results file strictly: unknown fields and wrong
// types are errors naming the JSON path (rule results.*).
func Read(r io.Reader) (*File, error) {
	var rf File
	if err := strictjson.Decode(r, &rf, "results"); err != nil {
		return nil, err
	}
	return &rf, nil
}

// Defaults are the format's values used for what a summary leaves out.
type Defaults struct {
	Scoring standings.Scoring
	// DoubleForfeitDraw: a double forfeit scores a draw for both (the
	// format's double_forfeit "draw"); otherwise a loss for both.
	DoubleForfeitDraw bool
	// DecideBySets: a played match without match points is won by the side
	// with more sets (RKCC R11); otherwise by the higher secondary score.
	DecideBySets bool
	// SingleGame: each match is one game (individual FIDE-style events):
	// the secondary score defaults to the match points and a won game
	// counts as one game won.
	SingleGame bool
}

// Pool is the input of one separately ranked group ("" = the whole stage).
type Pool struct {
	Name  string
	Input standings.Input
}

// SheetFunc scores the match sheet of a result; field is its JSON path.
type SheetFunc func(field string, sheet json.RawMessage) (standings.Result, error)

// Inputs converts the file into one standings.Input per pool (one when no
// entrant names a pool), filling omitted values from d. Errors name the
// JSON path and the rule.
func (rf *File) Inputs(d Defaults, sheet SheetFunc) ([]Pool, error) {
	sc := d.Scoring.OrDefault()
	var pools []Pool
	poolOf := map[string]int{} // entrant id -> index in pools
	idx := map[string]int{}    // pool name -> index in pools
	for i, e := range rf.Entrants {
		k, ok := idx[e.Pool]
		if !ok {
			k = len(pools)
			idx[e.Pool] = k
			pools = append(pools, Pool{Name: e.Pool, Input: standings.Input{Scoring: d.Scoring, Rounds: make([][]standings.Result, len(rf.Rounds))}})
		}
		if _, dup := poolOf[e.ID]; dup || e.ID == "" {
			return nil, arbiter.FieldError(fmt.Sprintf("entrants[%d].id", i), "results.entrant", "entrant id %q is empty or used twice", e.ID)
		}
		poolOf[e.ID] = k
		pools[k].Input.Entrants = append(pools[k].Input.Entrants, standings.Entrant{ID: e.ID, Name: e.Name, Rating: e.Rating, Seed: e.Seed, Values: e.Values})
	}
	if len(pools) == 0 {
		return nil, arbiter.FieldError("entrants", "results.entrant", "no entrants")
	}
	for r, rs := range rf.Rounds {
		for k, fr := range rs {
			f := fmt.Sprintf("rounds[%d][%d]", r, k)
			var res standings.Result
			var err error
			if len(fr.Sheet) > 0 {
				if sheet == nil {
					return nil, arbiter.FieldError(f+".sheet", "results.sheet", "match sheets are not supported here; give a summary")
				}
				res, err = sheet(f+".sheet", fr.Sheet)
			} else {
				res, err = summary(f, fr, sc, d)
			}
			if err != nil {
				return nil, err
			}
			pa, ok := poolOf[res.A.ID]
			if !ok {
				return nil, arbiter.FieldError(f+".a", "results.entrant", "unknown entrant %q", res.A.ID)
			}
			if res.B.ID != "" {
				pb, ok := poolOf[res.B.ID]
				if !ok {
					return nil, arbiter.FieldError(f+".b", "results.entrant", "unknown entrant %q", res.B.ID)
				}
				if pb != pa {
					return nil, arbiter.FieldError(f+".b", "results.pool", "%q and %q are in different pools", res.A.ID, res.B.ID)
				}
			}
			pools[pa].Input.Rounds[r] = append(pools[pa].Input.Rounds[r], res)
		}
	}
	return pools, nil
}

// summary turns a summary result into a standings.Result.
func summary(f string, fr Result, sc standings.Scoring, d Defaults) (standings.Result, error) {
	res := standings.Result{A: standings.Side{ID: fr.A}, B: standings.Side{ID: fr.B}, Decision: fr.Decision}
	if fr.A == "" {
		return res, arbiter.FieldError(f+".a", "results.entrant", "side a is required")
	}
	single := fr.B == ""
	switch fr.Decision {
	case standings.PairingBye, standings.FullBye, standings.HalfBye, standings.ZeroBye:
		if !single {
			return res, arbiter.FieldError(f+".b", "results.bye", "decision %q has one side: leave b out", fr.Decision)
		}
	case "", standings.Played, standings.ForfeitWin, standings.ForfeitLoss, standings.DoubleForfeit, standings.FullDraw:
		if single && fr.Decision != standings.ForfeitWin && fr.Decision != standings.ForfeitLoss {
			return res, arbiter.FieldError(f+".b", "results.pairing", "decision %q needs side b", decisionName(fr.Decision))
		}
	default:
		return res, arbiter.FieldError(f+".decision", "results.decision", "unknown decision %q (want played, forfeit_win, forfeit_loss, double_forfeit, full_draw, pairing_bye, full_bye, half_bye, zero_bye)", fr.Decision)
	}
	sides := 2
	if single {
		sides = 1
	}
	pair := func(name string, n int) error {
		if n != 0 && n != sides {
			return arbiter.FieldError(f+"."+name, "results."+name, "want %d value(s) [a%s], got %d", sides, map[bool]string{true: "", false: ", b"}[single], n)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"match_points", len(fr.MatchPoints)}, {"secondary", len(fr.Secondary)}, {"sets_won", len(fr.SetsWon)}, {"games_won", len(fr.GamesWon)}} {
		if err := pair(c.name, c.n); err != nil {
			return res, err
		}
	}
	switch fr.White {
	case "":
	case "a":
		res.A.Colour, res.B.Colour = standings.White, standings.Black
	case "b":
		res.A.Colour, res.B.Colour = standings.Black, standings.White
	default:
		return res, arbiter.FieldError(f+".white", "results.white", "white must be \"a\" or \"b\", got %q", fr.White)
	}
	if single {
		res.B.Colour = standings.NoColour
	}
	if len(fr.SetsWon) > 0 {
		res.A.SetsWon = fr.SetsWon[0]
		if !single {
			res.B.SetsWon = fr.SetsWon[1]
		}
	}
	if len(fr.Secondary) > 0 {
		res.A.Secondary = fr.Secondary[0]
		if !single {
			res.B.Secondary = fr.Secondary[1]
		}
	}
	mpA, mpB := sc.Loss, sc.Loss
	switch {
	case len(fr.MatchPoints) > 0:
		mpA = fr.MatchPoints[0]
		if !single {
			mpB = fr.MatchPoints[1]
		}
	case fr.Decision == "" || fr.Decision == standings.Played:
		var ca, cb int64
		switch {
		case d.DecideBySets && len(fr.SetsWon) > 0:
			ca, cb = int64(fr.SetsWon[0]), int64(fr.SetsWon[1])
		case len(fr.Secondary) > 0:
			ca, cb = int64(fr.Secondary[0]), int64(fr.Secondary[1])
		default:
			return res, arbiter.FieldError(f+".match_points", "results.match_points", "a played result needs match_points or the secondary score (or sets_won) to derive them")
		}
		switch {
		case ca > cb:
			mpA, mpB = sc.Win, sc.Loss
		case ca < cb:
			mpA, mpB = sc.Loss, sc.Win
		default:
			mpA, mpB = sc.Draw, sc.Draw
		}
	case fr.Decision == standings.ForfeitWin:
		mpA = sc.Win
	case fr.Decision == standings.ForfeitLoss:
		mpB = sc.Win
	case fr.Decision == standings.DoubleForfeit && d.DoubleForfeitDraw, fr.Decision == standings.FullDraw, fr.Decision == standings.HalfBye:
		mpA, mpB = sc.Draw, sc.Draw
	case fr.Decision == standings.PairingBye, fr.Decision == standings.FullBye:
		mpA = sc.Win
	}
	res.A.MatchPoints = mpA
	if !single {
		res.B.MatchPoints = mpB
	}
	if d.SingleGame && len(fr.Secondary) == 0 {
		res.A.Secondary, res.B.Secondary = res.A.MatchPoints, res.B.MatchPoints
	}
	played := fr.Decision == "" || fr.Decision == standings.Played
	switch {
	case len(fr.GamesWon) > 0:
		res.A.GamesWon = fr.GamesWon[0]
		if !single {
			res.B.GamesWon = fr.GamesWon[1]
		}
	case d.SingleGame && played:
		if res.A.MatchPoints == sc.Win {
			res.A.GamesWon = 1
		}
		if res.B.MatchPoints == sc.Win {
			res.B.GamesWon = 1
		}
	}
	if single {
		res.B = standings.Side{}
	}
	return res, nil
}

func decisionName(d standings.Decision) standings.Decision {
	if d == "" {
		return standings.Played
	}
	return d
}
