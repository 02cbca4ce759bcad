package lichess

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
)

// Result is a game's result from one player's view, as TDs write it.
type Result string

const (
	Win  Result = "1"
	Loss Result = "0"
	Draw Result = "="
)

// Points is the game score of the result: 1, 0 or ½.
func (r Result) Points() arbiter.Points {
	switch r {
	case Win:
		return arbiter.Point
	case Draw:
		return arbiter.Point / 2
	}
	return 0
}

// Score is a part's game score, from the reporting player's view.
type Score struct {
	Player, Opponent arbiter.Points
}

func (s Score) String() string { return s.Player.String() + "-" + s.Opponent.String() }

// PartSpec says which games make up one part (set) of a match and how
// they were reported. It holds no I/O: the caller fetches the games
// between the two players (GamesOfUser with Vs) and passes them in.
type PartSpec struct {
	Player, Opponent string      // Lichess user names or ids; results are from Player's view
	TimeControl      TimeControl // the part's clock
	Variant          string      // VariantAntichess or VariantStandard
	From, To         time.Time   // games created in [From, To) belong to the round
	Expected         int         // number of games in the part
	// OtherParts are the clocks of the match's other parts: games in them
	// belong elsewhere and are not "wrong time control".
	OtherParts []TimeControl
	// AllowCasual counts unrated games; by default only rated games count
	// (W2: all games rated) and casual ones are reported as discrepancies.
	AllowCasual bool
	// EndsWhenDecided stops the part once a player has more than half of
	// the Expected games' points (W4: a 10-game match ends at > 5), so
	// fewer games are not "missing" and later ones are extra.
	EndsWhenDecided bool
	// Reported, if set, is the score the players reported (Player's view).
	Reported *Score
}

// PartGame is one game between the two players, seen from Player's side.
type PartGame struct {
	ID          string
	CreatedAt   time.Time
	Color       string // Player's colour: "white" or "black"
	Result      Result // "" when the game has no result (aborted, unfinished)
	Status      string
	Rated       bool
	TimeControl TimeControl // zero for a game without a clock
}

// IgnoredGame is a game that was looked at and left out, with why.
type IgnoredGame struct {
	PartGame
	Reason string
}

// Discrepancy kinds.
const (
	DiscMissing    = "missing_games"      // fewer games than expected
	DiscExtra      = "extra_games"        // more games in the part's clock than expected
	DiscWrongTC    = "wrong_time_control" // a finished game in no part's clock (RKCC R6)
	DiscCasual     = "casual_game"        // an unrated game in the part's clock
	DiscUnfinished = "unfinished_game"    // a game still being played
	DiscUnknown    = "unknown_result"     // Lichess could not tell how the game ended
	DiscScore      = "score_mismatch"     // the reported score differs from Lichess
)

// Discrepancy is something a TD should look at. GameID is empty for
// part-level findings (missing games, score).
type Discrepancy struct {
	Kind    string
	GameID  string
	Message string
}

// Verification is what Lichess shows for one part.
type Verification struct {
	Games            []PartGame // the part's games, oldest first, at most Expected
	Score            Score      // over Games
	Extra            []PartGame // games in the part's clock after the part was complete
	WrongTimeControl []PartGame // finished games between the two in the window in no part's clock
	Ignored          []IgnoredGame
	Discrepancies    []Discrepancy
}

// Consistent reports a part without discrepancies: the games are all
// there and the reported score (if any) agrees.
func (v *Verification) Consistent() bool { return len(v.Discrepancies) == 0 }

func (s *PartSpec) validate() error {
	switch {
	case strings.TrimSpace(s.Player) == "":
		return arbiter.FieldError("player", "", "is required")
	case strings.TrimSpace(s.Opponent) == "":
		return arbiter.FieldError("opponent", "", "is required")
	case strings.EqualFold(s.Player, s.Opponent):
		return arbiter.FieldError("opponent", "", "must differ from the player")
	case s.TimeControl.Base < 0 || s.TimeControl.Increment < 0 || s.TimeControl == (TimeControl{}):
		return arbiter.FieldError("time_control", "", "must have a base time or an increment")
	case s.Variant == "":
		return arbiter.FieldError("variant", "", "is required")
	case s.Expected < 1:
		return arbiter.FieldError("expected", "", "must be at least 1 game")
	case s.From.IsZero() || s.To.IsZero() || !s.From.Before(s.To):
		return arbiter.FieldError("window", "", "needs a start before its end")
	}
	return nil
}

// noResult lists statuses without a game result.
var noResult = map[string]string{
	StatusAborted: "aborted",
	StatusNoStart: "never started (no first move)",
	StatusCreated: "still being played",
	StatusStarted: "still being played",
}

// VerifyPart matches the games between spec.Player and spec.Opponent to one
// part of a match and compares them with the expected count and reported
// score. games may come in any order and may include games with others.
func VerifyPart(games []Game, spec PartSpec) (*Verification, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b Game) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	v := &Verification{}
	player, opp := strings.ToLower(spec.Player), strings.ToLower(spec.Opponent)
	var candidates []PartGame
	for i := range sorted {
		g := &sorted[i]
		pg, ok := fromPlayer(g, player, opp)
		if !ok {
			v.ignore(pg, "not a game between "+spec.Player+" and "+spec.Opponent)
			continue
		}
		if g.CreatedAt.Before(spec.From) || !g.CreatedAt.Before(spec.To) {
			v.ignore(pg, "outside the round window")
			continue
		}
		if g.Variant != spec.Variant {
			v.ignore(pg, "variant "+g.Variant+", the part is "+spec.Variant)
			continue
		}
		tc, hasClock := g.TimeControl()
		inPart := hasClock && tc == spec.TimeControl
		if why, none := noResult[g.Status]; none {
			v.ignore(pg, why)
			if g.Status == StatusCreated || g.Status == StatusStarted {
				v.flag(DiscUnfinished, g.ID, "game %s is still being played", g.ID)
			}
			continue
		}
		if g.Status == StatusUnknownFinish {
			v.ignore(pg, "Lichess does not know how it ended")
			v.flag(DiscUnknown, g.ID, "game %s ended without a known result: TD must decide", g.ID)
			continue
		}
		if !g.Rated && !spec.AllowCasual {
			v.ignore(pg, "casual (unrated) game")
			if inPart {
				v.flag(DiscCasual, g.ID, "game %s in %s was casual; only rated games count", g.ID, spec.TimeControl)
			}
			continue
		}
		switch {
		case inPart:
			candidates = append(candidates, pg)
		case hasClock && slices.Contains(spec.OtherParts, tc):
			v.ignore(pg, "belongs to the "+tc.String()+" part")
		default:
			v.WrongTimeControl = append(v.WrongTimeControl, pg)
			what := "without a clock"
			if hasClock {
				what = "in " + tc.String()
			}
			v.flag(DiscWrongTC, g.ID, "game %s was played %s, not %s", g.ID, what, spec.TimeControl)
		}
	}
	half := arbiter.Points(spec.Expected) * arbiter.Point / 2
	for i, pg := range candidates {
		done := len(v.Games) == spec.Expected ||
			spec.EndsWhenDecided && (v.Score.Player > half || v.Score.Opponent > half)
		if done {
			v.Extra = candidates[i:]
			v.flag(DiscExtra, "", "%s in %s after the part was complete: %s", arbiter.Count(len(v.Extra), "game"), spec.TimeControl, ids(v.Extra))
			break
		}
		v.Games = append(v.Games, pg)
		v.Score.Player += pg.Result.Points()
		v.Score.Opponent += arbiter.Point - pg.Result.Points()
	}
	decided := spec.EndsWhenDecided && (v.Score.Player > half || v.Score.Opponent > half)
	if len(v.Games) < spec.Expected && !decided {
		v.flag(DiscMissing, "", "Lichess shows %d of the %d games in %s", len(v.Games), spec.Expected, spec.TimeControl)
	}
	if spec.Reported != nil && *spec.Reported != v.Score {
		v.flag(DiscScore, "", "reported %s, Lichess shows %s", spec.Reported, v.Score)
	}
	return v, nil
}

// fromPlayer describes g from player's side; ok is false unless g is
// between player and opp (ids compared case-insensitively).
func fromPlayer(g *Game, player, opp string) (PartGame, bool) {
	tc, _ := g.TimeControl()
	pg := PartGame{ID: g.ID, CreatedAt: g.CreatedAt, Status: g.Status, Rated: g.Rated, TimeControl: tc}
	w, b := strings.ToLower(g.White.UserID), strings.ToLower(g.Black.UserID)
	switch {
	case w == player && b == opp:
		pg.Color = "white"
	case b == player && w == opp:
		pg.Color = "black"
	default:
		return pg, false
	}
	if _, none := noResult[g.Status]; none || g.Status == StatusUnknownFinish {
		return pg, true
	}
	switch g.Winner {
	case "":
		pg.Result = Draw
	case pg.Color:
		pg.Result = Win
	default:
		pg.Result = Loss
	}
	return pg, true
}

func (v *Verification) ignore(pg PartGame, reason string) {
	v.Ignored = append(v.Ignored, IgnoredGame{PartGame: pg, Reason: reason})
}

func (v *Verification) flag(kind, gameID, format string, args ...any) {
	v.Discrepancies = append(v.Discrepancies, Discrepancy{Kind: kind, GameID: gameID, Message: fmt.Sprintf(format, args...)})
}

func ids(gs []PartGame) string {
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = g.ID
	}
	return strings.Join(s, ", ")
}
