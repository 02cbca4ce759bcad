package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// GameSettings are the settings shared by challenges and bulk pairings.
// A nil Clock with Days == 0 is an unlimited game.
type GameSettings struct {
	Rated   bool
	Clock   *Clock // real-time clock; nil for correspondence
	Days    int    // days per turn, correspondence only
	Variant string // variant key; "" means standard
	Rules   []string
	Message string // bulk pairing: message sent to the players
}

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
	if s.Message != "" {
		v.Set("message", s.Message)
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
// (needs the challenge:write scope).
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
	Name      string    // shown on the challenge page
	Users     [2]string // optional: only these two may join
	ExpiresAt time.Time // default 24 h after creation
}

// OpenChallenge creates an open-ended challenge.
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

// Pairing is one game of a bulk pairing: the players' OAuth tokens (with
// the challenge:bulk-accepted scope), White first.
type Pairing struct{ WhiteToken, BlackToken string }

// BulkPairingRequest creates many games at once (needs challenge:bulk).
type BulkPairingRequest struct {
	GameSettings
	Pairings      []Pairing
	PairAt        time.Time // when the games are created; zero = now
	StartClocksAt time.Time // when the clocks start; zero = when both move
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
	v := r.values()
	v.Set("players", strings.Join(pairs, ","))
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
