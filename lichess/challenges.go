package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// GameSettings are the settings shared by challenges and bulk pairings.
// A nil Clock with Days == 0 is an unlimited game.
type GameSettings struct {
	Rated   bool
	Clock   *Clock   // real-time clock; nil for correspondence
	Days    int      // days per turn, correspondence only
	Variant string   // variant key; "" means standard
	Rules   []string // RuleNoRematch, ...: sent joined by commas
}

// Extra game rules (the rules parameter of challenges and bulk pairings).
// noAbort is for Lichess admins only on open challenges.
const (
	RuleNoAbort     = "noAbort"
	RuleNoRematch   = "noRematch"
	RuleNoGiveTime  = "noGiveTime"
	RuleNoClaimWin  = "noClaimWin"
	RuleNoEarlyDraw = "noEarlyDraw"
)

func (s GameSettings) values() url.Values {
	v := url.Values{"rated": {strconv.FormatBool(s.Rated)}}
	if s.Clock != nil {
		v.Set("clock.limit", strconv.Itoa(s.Clock.Initial))
		v.Set("clock.increment", strconv.Itoa(s.Clock.Increment))
	} else if s.Days > 0 {
		v.Set("days", strconv.Itoa(s.Days))
	}
	if s.Variant != "" {
		v.Set("variant", s.Variant)
	}
	if len(s.Rules) > 0 {
		v.Set("rules", strings.Join(s.Rules, ","))
	}
	return v
}

// ChallengeUser is a challenger or challenged player.
type ChallengeUser struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Rating      int    `json:"rating"`
	Provisional bool   `json:"provisional"`
}

// Challenge is a challenge as Lichess returns it. For an open challenge
// Challenger and DestUser are nil and URLWhite/URLBlack are the join links.
type Challenge struct {
	ID          string
	URL         string
	Status      string // created, offline, canceled, declined, accepted
	Challenger  *ChallengeUser
	DestUser    *ChallengeUser
	Variant     string // variant key
	Rated       bool
	Speed       string
	Clock       *Clock // nil unless timeControl.type is "clock"
	Days        int
	Color       string // the colour requested: white, black, random
	FinalColor  string
	Direction   string // in, out (relative to the token's owner)
	URLWhite    string
	URLBlack    string
	TimeControl string // "clock", "correspondence" or "unlimited"
}

func (ch *Challenge) UnmarshalJSON(b []byte) error {
	var w struct {
		ID         string         `json:"id"`
		URL        string         `json:"url"`
		Status     string         `json:"status"`
		Challenger *ChallengeUser `json:"challenger"`
		DestUser   *ChallengeUser `json:"destUser"`
		Variant    struct {
			Key string `json:"key"`
		} `json:"variant"`
		Rated       bool   `json:"rated"`
		Speed       string `json:"speed"`
		TimeControl struct {
			Type      string `json:"type"`
			Limit     int    `json:"limit"`
			Increment int    `json:"increment"`
			Days      int    `json:"daysPerTurn"`
		} `json:"timeControl"`
		Color      string `json:"color"`
		FinalColor string `json:"finalColor"`
		Direction  string `json:"direction"`
		URLWhite   string `json:"urlWhite"`
		URLBlack   string `json:"urlBlack"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*ch = Challenge{ID: w.ID, URL: w.URL, Status: w.Status, Challenger: w.Challenger, DestUser: w.DestUser,
		Variant: w.Variant.Key, Rated: w.Rated, Speed: w.Speed, Days: w.TimeControl.Days, Color: w.Color,
		FinalColor: w.FinalColor, Direction: w.Direction, URLWhite: w.URLWhite, URLBlack: w.URLBlack,
		TimeControl: w.TimeControl.Type}
	if w.TimeControl.Type == "clock" {
		ch.Clock = &Clock{Initial: w.TimeControl.Limit, Increment: w.TimeControl.Increment}
	}
	return nil
}

// ChallengeRequest is a direct challenge from the token's owner.
type ChallengeRequest struct {
	GameSettings
	Color string // white, black or random ("" = random)
}

// CreateChallenge challenges username on behalf of the token's owner
// (needs ScopeChallengeWrite). The challenge lapses after 20 s unless
// accepted; Arbiter's games are open challenges (OpenChallenge).
func (c *Client) CreateChallenge(ctx context.Context, username string, r ChallengeRequest) (*Challenge, error) {
	v := r.values()
	if r.Color != "" {
		v.Set("color", r.Color)
	}
	body, ct := form(v)
	var ch Challenge
	req := request{method: "POST", path: "/api/challenge/" + pathEscape(username), body: body, contentType: ct}
	if err := c.getJSON(ctx, req, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// OpenChallengeRequest is a challenge any two players (or the two named
// in Users) can join by following its URLs.
type OpenChallengeRequest struct {
	GameSettings
	Name      string    // shown on the challenge page, e.g. "ACWC 2023 · round 3 · game 4"
	Users     [2]string // optional: only these two may join, White first
	ExpiresAt time.Time // default 24 h after creation, at most 2 weeks
}

// OpenChallenge creates an open-ended challenge: the game Arbiter makes
// for two players (Users, White first). It needs no scope; made with the
// organiser's token it can be cancelled (CancelChallenge). The game, once
// both joined, has the challenge's id.
func (c *Client) OpenChallenge(ctx context.Context, r OpenChallengeRequest) (*Challenge, error) {
	v := r.values()
	if r.Name != "" {
		v.Set("name", r.Name)
	}
	if r.Users[0] != "" || r.Users[1] != "" {
		if r.Users[0] == "" || r.Users[1] == "" {
			return nil, fmt.Errorf("lichess: open challenge: users: want both names or neither")
		}
		v.Set("users", r.Users[0]+","+r.Users[1])
	}
	if !r.ExpiresAt.IsZero() {
		v.Set("expiresAt", strconv.FormatInt(r.ExpiresAt.UnixMilli(), 10))
	}
	body, ct := form(v)
	var ch Challenge
	if err := c.getJSON(ctx, request{method: "POST", path: "/api/challenge/open", body: body, contentType: ct}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// ShowChallenge fetches a challenge by id, also after it was accepted or declined.
func (c *Client) ShowChallenge(ctx context.Context, id string) (*Challenge, error) {
	var ch Challenge
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/challenge/" + pathEscape(id) + "/show"}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// CancelChallenge cancels a challenge the token's owner created (an open
// challenge made with the organiser's token, when a game must be made
// again). Needs ScopeChallengeWrite.
func (c *Client) CancelChallenge(ctx context.Context, id string) error {
	return c.postOK(ctx, request{method: "POST", path: "/api/challenge/" + pathEscape(id) + "/cancel"})
}

// StartClocks starts the clocks of a game at once, given the OAuth tokens
// of both players (ScopeChallengeWrite); nothing happens if they run.
func (c *Client) StartClocks(ctx context.Context, gameID, token1, token2 string) error {
	q := url.Values{"token1": {token1}}
	if token2 != "" {
		q.Set("token2", token2)
	}
	return c.postOK(ctx, request{method: "POST", path: "/api/challenge/" + pathEscape(gameID) + "/start-clocks", query: q})
}

// postOK sends req and expects Lichess's {"ok": true}.
func (c *Client) postOK(ctx context.Context, req request) error {
	var ok struct {
		OK *bool `json:"ok"`
	}
	if err := c.getJSON(ctx, req, &ok); err != nil {
		return err
	}
	if ok.OK == nil || !*ok.OK {
		return &BadResponseError{Method: req.method, Path: req.path, Err: fmt.Errorf(`want {"ok": true}`)}
	}
	return nil
}

// Pairing is one game of a bulk pairing: the players' OAuth tokens (each
// with ScopeChallengeWrite, granted at sign-in), White first.
type Pairing struct{ WhiteToken, BlackToken string }

// BulkPairingRequest creates many games at once with the organiser's
// token (ScopeChallengeBulk).
type BulkPairingRequest struct {
	GameSettings
	Pairings      []Pairing
	PairAt        time.Time // when the games are created; zero = now (at most 7 days ahead)
	StartClocksAt time.Time // when the clocks start; zero = when both move
	// Message is sent to each player when the game is created; it must
	// hold the {game} placeholder ({opponent} too is replaced). Empty:
	// Lichess's default "Your game with {opponent} is ready: {game}."
	Message string
}

// MaxBulkGames is Lichess's limit of games per bulk pairing.
const MaxBulkGames = 500

// BulkGame is a game created by a bulk pairing (user ids).
type BulkGame struct {
	ID    string `json:"id"`
	White string `json:"white"`
	Black string `json:"black"`
}

// BulkPairing is a scheduled bulk pairing (also GET /api/bulk-pairing/{id}).
type BulkPairing struct {
	ID            string
	Games         []BulkGame
	Variant       string
	Clock         *Clock
	Rated         bool
	PairAt        time.Time
	PairedAt      time.Time // zero until the games exist
	StartClocksAt time.Time
	ScheduledAt   time.Time
}

func (p *BulkPairing) UnmarshalJSON(b []byte) error {
	var w struct {
		ID      string     `json:"id"`
		Games   []BulkGame `json:"games"`
		Variant string     `json:"variant"`
		Clock   *struct {
			Limit     int `json:"limit"`
			Increment int `json:"increment"`
		} `json:"clock"`
		Rated         bool   `json:"rated"`
		PairAt        millis `json:"pairAt"`
		PairedAt      millis `json:"pairedAt"`
		StartClocksAt millis `json:"startClocksAt"`
		ScheduledAt   millis `json:"scheduledAt"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = BulkPairing{ID: w.ID, Games: w.Games, Variant: w.Variant, Rated: w.Rated, PairAt: w.PairAt.time(),
		PairedAt: w.PairedAt.time(), StartClocksAt: w.StartClocksAt.time(), ScheduledAt: w.ScheduledAt.time()}
	if w.Clock != nil {
		p.Clock = &Clock{Initial: w.Clock.Limit, Increment: w.Clock.Increment}
	}
	return nil
}

// CreateBulkPairing schedules games between players who gave Arbiter their tokens.
func (c *Client) CreateBulkPairing(ctx context.Context, r BulkPairingRequest) (*BulkPairing, error) {
	if len(r.Pairings) == 0 || len(r.Pairings) > MaxBulkGames {
		return nil, fmt.Errorf("lichess: bulk pairing: want 1..%d games, got %d", MaxBulkGames, len(r.Pairings))
	}
	pairs := make([]string, len(r.Pairings))
	for i, p := range r.Pairings {
		if p.WhiteToken == "" || p.BlackToken == "" {
			return nil, fmt.Errorf("lichess: bulk pairing: pairings[%d]: both tokens are required", i)
		}
		pairs[i] = p.WhiteToken + ":" + p.BlackToken
	}
	if r.Message != "" && !strings.Contains(r.Message, "{game}") {
		return nil, fmt.Errorf("lichess: bulk pairing: message: must contain the {game} placeholder")
	}
	v := r.values()
	v.Set("players", strings.Join(pairs, ","))
	if r.Message != "" {
		v.Set("message", r.Message)
	}
	if !r.PairAt.IsZero() {
		v.Set("pairAt", strconv.FormatInt(r.PairAt.UnixMilli(), 10))
	}
	if !r.StartClocksAt.IsZero() {
		v.Set("startClocksAt", strconv.FormatInt(r.StartClocksAt.UnixMilli(), 10))
	}
	body, ct := form(v)
	var bp BulkPairing
	if err := c.getJSON(ctx, request{method: "POST", path: "/api/bulk-pairing", body: body, contentType: ct}, &bp); err != nil {
		return nil, err
	}
	return &bp, nil
}

// BulkPairing fetches a bulk pairing by id (ScopeChallengeBulk).
func (c *Client) BulkPairing(ctx context.Context, id string) (*BulkPairing, error) {
	var bp BulkPairing
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/bulk-pairing/" + pathEscape(id)}, &bp); err != nil {
		return nil, err
	}
	return &bp, nil
}

// BulkPairings lists the bulk pairings the token's owner created.
func (c *Client) BulkPairings(ctx context.Context) ([]BulkPairing, error) {
	var out []BulkPairing
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/bulk-pairing"}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// CancelBulkPairing cancels a bulk pairing whose games are not yet
// created (afterwards Lichess does nothing).
func (c *Client) CancelBulkPairing(ctx context.Context, id string) error {
	return c.postOK(ctx, request{method: "DELETE", path: "/api/bulk-pairing/" + pathEscape(id)})
}

// StartBulkClocks starts the clocks of every game of a bulk pairing now.
func (c *Client) StartBulkClocks(ctx context.Context, id string) error {
	return c.postOK(ctx, request{method: "POST", path: "/api/bulk-pairing/" + pathEscape(id) + "/start-clocks"})
}

// BulkPairingGames streams the games of a bulk pairing (NDJSON).
func (c *Client) BulkPairingGames(ctx context.Context, id string) iter.Seq2[Game, error] {
	return stream[Game](ctx, c, request{method: "GET", path: "/api/bulk-pairing/" + pathEscape(id) + "/games",
		query: url.Values{"moves": {"false"}}, accept: "application/x-ndjson"})
}
