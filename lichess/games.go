package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Game statuses (Lichess's GameStatusName) that Arbiter distinguishes.
const (
	StatusCreated       = "created"
	StatusStarted       = "started"
	StatusAborted       = "aborted"
	StatusNoStart       = "noStart"
	StatusUnknownFinish = "unknownFinish"
	StatusDraw          = "draw"
	StatusStalemate     = "stalemate"
	StatusVariantEnd    = "variantEnd"
)

// Variant keys Arbiter uses.
const (
	VariantStandard  = "standard"
	VariantAntichess = "antichess"
)

// Clock is a game's real-time clock in seconds.
type Clock struct {
	Initial   int `json:"initial"`   // base time, seconds
	Increment int `json:"increment"` // seconds added per move
}

// GamePlayer is one side of a game. UserID is empty for anonymous players
// and for Stockfish (then AILevel > 0).
type GamePlayer struct {
	UserID      string
	Name        string
	Title       string
	Rating      int
	RatingDiff  int
	Provisional bool
	AILevel     int
}

func (p *GamePlayer) UnmarshalJSON(b []byte) error {
	var w struct {
		User struct {
			ID    string `json:"id"`
			Name  string `json:"name"`
			Title string `json:"title"`
		} `json:"user"`
		UserID      string `json:"userId"` // the games-by-users stream shape
		Rating      int    `json:"rating"`
		RatingDiff  int    `json:"ratingDiff"`
		Provisional bool   `json:"provisional"`
		AILevel     int    `json:"aiLevel"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = GamePlayer{UserID: w.User.ID, Name: w.User.Name, Title: w.User.Title, Rating: w.Rating,
		RatingDiff: w.RatingDiff, Provisional: w.Provisional, AILevel: w.AILevel}
	if p.UserID == "" {
		p.UserID = w.UserID
	}
	return nil
}

// Game is a game as the export endpoints return it (JSON / NDJSON).
type Game struct {
	ID         string
	Rated      bool
	Variant    string // variant key: "standard", "antichess", ...
	Speed      string
	Perf       string
	Status     string // GameStatusName: "mate", "resign", "draw", "aborted", ...
	Source     string
	White      GamePlayer
	Black      GamePlayer
	Winner     string // "white", "black", or "" (draw or no result)
	Clock      *Clock // nil for correspondence and unlimited games
	Days       int    // days per turn of a correspondence game
	Moves      string // SAN moves separated by spaces (when requested)
	CreatedAt  time.Time
	LastMoveAt time.Time
}

func (g *Game) UnmarshalJSON(b []byte) error {
	var w struct {
		ID         string          `json:"id"`
		Rated      bool            `json:"rated"`
		Variant    string          `json:"variant"`
		Speed      string          `json:"speed"`
		Perf       string          `json:"perf"`
		Status     json.RawMessage `json:"status"`
		StatusName string          `json:"statusName"`
		Source     string          `json:"source"`
		Players    struct {
			White GamePlayer `json:"white"`
			Black GamePlayer `json:"black"`
		} `json:"players"`
		Winner      string `json:"winner"`
		Clock       *Clock `json:"clock"`
		DaysPerTurn int    `json:"daysPerTurn"`
		Moves       string `json:"moves"`
		CreatedAt   millis `json:"createdAt"`
		LastMoveAt  millis `json:"lastMoveAt"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	// The export gives the status name; the games-by-users stream gives a
	// number plus statusName.
	status := w.StatusName
	if status == "" && len(w.Status) > 0 {
		if err := json.Unmarshal(w.Status, &status); err != nil {
			return fmt.Errorf("game %s: status %s: want a status name", w.ID, w.Status)
		}
	}
	*g = Game{ID: w.ID, Rated: w.Rated, Variant: w.Variant, Speed: w.Speed, Perf: w.Perf, Status: status,
		Source: w.Source, White: w.Players.White, Black: w.Players.Black, Winner: w.Winner, Clock: w.Clock,
		Days: w.DaysPerTurn, Moves: w.Moves, CreatedAt: w.CreatedAt.time(), LastMoveAt: w.LastMoveAt.time()}
	return nil
}

// GamesQuery filters GET /api/games/user/{username}. Zero fields are not sent.
type GamesQuery struct {
	Since, Until time.Time // games created at or after Since, at or before Until
	Max          int       // at most this many games (newest first)
	Vs           string    // only games against this user
	Rated        *bool     // only rated (true) or casual (false) games
	PerfType     string    // e.g. PerfAntichess; several joined with ","
	Moves        bool      // include the moves (Arbiter does not need them by default)
	// Ongoing includes games still being played (Lichess leaves them out
	// by default), so an import can flag them rather than miss them.
	Ongoing bool
}

func (q GamesQuery) values() url.Values {
	v := url.Values{}
	if !q.Since.IsZero() {
		v.Set("since", strconv.FormatInt(q.Since.UnixMilli(), 10))
	}
	if !q.Until.IsZero() {
		v.Set("until", strconv.FormatInt(q.Until.UnixMilli(), 10))
	}
	if q.Max > 0 {
		v.Set("max", strconv.Itoa(q.Max))
	}
	if q.Vs != "" {
		v.Set("vs", q.Vs)
	}
	if q.Rated != nil {
		v.Set("rated", strconv.FormatBool(*q.Rated))
	}
	if q.PerfType != "" {
		v.Set("perfType", q.PerfType)
	}
	v.Set("moves", strconv.FormatBool(q.Moves))
	if q.Ongoing {
		v.Set("ongoing", "true")
	}
	return v
}

// GamesBetween collects the games player and opponent played against
// each other created in [since, until] (Lichess's bounds are inclusive),
// in perf if not empty, rated and casual, finished and ongoing: what an
// import of games the players created themselves needs. Newest first.
func (c *Client) GamesBetween(ctx context.Context, player, opponent string, since, until time.Time, perf string) ([]Game, error) {
	var out []Game
	for g, err := range c.GamesOfUser(ctx, player, GamesQuery{Vs: opponent, Since: since, Until: until, PerfType: perf, Ongoing: true}) {
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// GamesByID collects the games with these ids (any number: asked
// MaxExportIDs at a time). Games Lichess does not know are absent.
func (c *Client) GamesByID(ctx context.Context, ids []string) ([]Game, error) {
	var out []Game
	for chunk := range slices.Chunk(ids, MaxExportIDs) {
		for g, err := range c.ExportGames(ctx, chunk) {
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// GamesOfUser streams a user's games, newest first, decoding one NDJSON
// line at a time. Stop iterating to close the connection early.
func (c *Client) GamesOfUser(ctx context.Context, username string, q GamesQuery) iter.Seq2[Game, error] {
	return stream[Game](ctx, c, request{method: "GET", path: "/api/games/user/" + pathEscape(username),
		query: q.values(), accept: "application/x-ndjson"})
}

// ExportGame fetches one game by id.
func (c *Client) ExportGame(ctx context.Context, id string) (*Game, error) {
	var g Game
	req := request{method: "GET", path: "/game/export/" + pathEscape(id), accept: "application/json",
		query: url.Values{"moves": {"false"}}}
	if err := c.getJSON(ctx, req, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// MaxExportIDs is Lichess's limit of game ids per export-by-ids request.
const MaxExportIDs = 300

// ExportGames streams up to MaxExportIDs games by id (POST
// /api/games/export/_ids). Unknown ids are silently absent from the answer.
func (c *Client) ExportGames(ctx context.Context, ids []string) iter.Seq2[Game, error] {
	if len(ids) == 0 || len(ids) > MaxExportIDs {
		return func(yield func(Game, error) bool) {
			yield(Game{}, fmt.Errorf("lichess: export games: want 1..%d ids, got %d", MaxExportIDs, len(ids)))
		}
	}
	return stream[Game](ctx, c, request{method: "POST", path: "/api/games/export/_ids",
		query: url.Values{"moves": {"false"}}, accept: "application/x-ndjson",
		contentType: "text/plain", body: []byte(strings.Join(ids, ","))})
}

// CountGames counts a user's games matching q by streaming the export
// without keeping the games (used to fill eligibility game counts: rated
// antichess games in a window). Lichess streams some tens of games per
// second, so a count over thousands of games takes a while.
func (c *Client) CountGames(ctx context.Context, username string, q GamesQuery) (int, error) {
	n := 0
	for _, err := range c.GamesOfUser(ctx, username, q) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
