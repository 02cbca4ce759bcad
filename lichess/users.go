package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"arbiter"
)

// millis is a Lichess timestamp: milliseconds since the Unix epoch; 0 or
// null means absent and becomes the zero time.
type millis int64

func (m millis) time() time.Time {
	if m == 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(m)).UTC()
}

// Perf keys used by Arbiter (Lichess's perf type names).
const (
	PerfAntichess = "antichess"
	PerfBullet    = "bullet"
	PerfBlitz     = "blitz"
	PerfRapid     = "rapid"
	PerfClassical = "classical"
)

// TitleBot is the title Lichess gives bot accounts.
const TitleBot = "BOT"

// Perf is a user's rating in one perf type.
type Perf struct {
	Games       int  `json:"games"` // rated games played in this perf
	Rating      int  `json:"rating"`
	RD          int  `json:"rd"` // Glicko-2 rating deviation
	Provisional bool `json:"prov"`
}

// User is the public profile of a Lichess account (GET /api/user/{username},
// also GET /api/account for the token's owner). A closed account comes back
// as id, username and Disabled only.
type User struct {
	ID           string          `json:"id"`
	Username     string          `json:"username"`
	Title        string          `json:"title"` // GM, IM, ..., BOT
	Disabled     bool            `json:"disabled"`
	TosViolation bool            `json:"tosViolation"`
	Patron       bool            `json:"patron"`
	Verified     bool            `json:"verified"`
	Perfs        map[string]Perf `json:"perfs"` // keyed by perf type; Lichess omits variants never played rated
	CreatedAt    time.Time       `json:"-"`
	SeenAt       time.Time       `json:"-"`
}

// UnmarshalJSON decodes the millisecond timestamps into CreatedAt and SeenAt.
func (u *User) UnmarshalJSON(b []byte) error {
	type plain User
	w := struct {
		*plain
		CreatedAt millis `json:"createdAt"`
		SeenAt    millis `json:"seenAt"`
	}{plain: (*plain)(u)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	u.CreatedAt, u.SeenAt = w.CreatedAt.time(), w.SeenAt.time()
	return nil
}

// Perf returns the user's perf of the given type and whether Lichess listed it.
func (u *User) Perf(key string) (Perf, bool) {
	p, ok := u.Perfs[key]
	return p, ok
}

// IsBot reports a BOT account.
func (u *User) IsBot() bool { return u.Title == TitleBot }

// User fetches a user's public profile. An unknown user is an
// *arbiter.Error with code ENOTFOUND.
func (c *Client) User(ctx context.Context, username string) (*User, error) {
	var u User
	err := c.getJSON(ctx, request{method: "GET", path: "/api/user/" + pathEscape(username)}, &u)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// Account fetches the profile of the token's owner (needs a token).
func (c *Client) Account(ctx context.Context) (*User, error) {
	var u User
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/account"}, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// UserStatus is one entry of GET /api/users/status. Online and Playing
// are false when Lichess omits them.
type UserStatus struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Title   string `json:"title"`
	Online  bool   `json:"online"`
	Playing bool   `json:"playing"`
}

// MaxStatusIDs is Lichess's limit of user ids per status request.
const MaxStatusIDs = 100

// UsersStatus fetches the real-time status of up to MaxStatusIDs users.
func (c *Client) UsersStatus(ctx context.Context, ids []string) ([]UserStatus, error) {
	if len(ids) == 0 || len(ids) > MaxStatusIDs {
		return nil, fmt.Errorf("lichess: users status: want 1..%d ids, got %d", MaxStatusIDs, len(ids))
	}
	var out []UserStatus
	q := url.Values{"ids": {strings.Join(ids, ",")}}
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/users/status", query: q}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RatingPoint is a user's rating at the end of one day.
type RatingPoint struct {
	Date   time.Time // midnight UTC of the day
	Rating int
}

// UnmarshalJSON reads Lichess's [year, month, day, rating] entry, whose
// month counts from 0 (January).
func (p *RatingPoint) UnmarshalJSON(b []byte) error {
	var a []int
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if len(a) != 4 || a[1] < 0 || a[1] > 11 || a[2] < 1 || a[2] > 31 {
		return fmt.Errorf("rating point %s: want [year, month 0-11, day, rating]", b)
	}
	p.Date = time.Date(a[0], time.Month(a[1]+1), a[2], 0, 0, 0, 0, time.UTC)
	p.Rating = a[3]
	return nil
}

// RatingHistory is one perf's daily ratings; Name is Lichess's display name
// ("Antichess", "Bullet", ...).
type RatingHistory struct {
	Name   string        `json:"name"`
	Points []RatingPoint `json:"points"`
}

// RatingHistory fetches all of a user's rating histories.
func (c *Client) RatingHistory(ctx context.Context, username string) ([]RatingHistory, error) {
	var out []RatingHistory
	err := c.getJSON(ctx, request{method: "GET", path: "/api/user/" + pathEscape(username) + "/rating-history"}, &out)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PerfMark is a rating extreme with when and in which game it was reached.
type PerfMark struct {
	Rating int       `json:"int"`
	At     time.Time `json:"at"`
	GameID string    `json:"gameId"`
}

// PerfStats is the subset of GET /api/user/{username}/perf/{perf} Arbiter
// uses: the current Glicko rating and the game counts of that perf.
type PerfStats struct {
	Rating      float64
	Deviation   float64
	Provisional bool
	Games       int // perf.nb: rated games in this perf
	Rank        int // 0 when unranked
	Percentile  float64
	Highest     *PerfMark
	Lowest      *PerfMark
	Count       PerfCount
}

// PerfCount counts a user's games in one perf.
type PerfCount struct {
	All        int `json:"all"`
	Rated      int `json:"rated"`
	Win        int `json:"win"`
	Loss       int `json:"loss"`
	Draw       int `json:"draw"`
	Tour       int `json:"tour"`
	Disconnect int `json:"disconnects"`
}

// PerfStats fetches a user's statistics in one perf type (e.g. PerfAntichess).
func (c *Client) PerfStats(ctx context.Context, username, perf string) (*PerfStats, error) {
	var w struct {
		Perf struct {
			Glicko struct {
				Rating      float64 `json:"rating"`
				Deviation   float64 `json:"deviation"`
				Provisional bool    `json:"provisional"`
			} `json:"glicko"`
			Nb int `json:"nb"`
		} `json:"perf"`
		Rank       int     `json:"rank"`
		Percentile float64 `json:"percentile"`
		Stat       struct {
			Highest *PerfMark `json:"highest"`
			Lowest  *PerfMark `json:"lowest"`
			Count   PerfCount `json:"count"`
		} `json:"stat"`
	}
	path := "/api/user/" + pathEscape(username) + "/perf/" + pathEscape(perf)
	if err := c.getJSON(ctx, request{method: "GET", path: path}, &w); err != nil {
		return nil, err
	}
	return &PerfStats{
		Rating: w.Perf.Glicko.Rating, Deviation: w.Perf.Glicko.Deviation, Provisional: w.Perf.Glicko.Provisional,
		Games: w.Perf.Nb, Rank: w.Rank, Percentile: w.Percentile,
		Highest: w.Stat.Highest, Lowest: w.Stat.Lowest, Count: w.Stat.Count,
	}, nil
}

// Crosstable is the all-time score between two users (GET
// /api/crosstable/{user1}/{user2}); Scores is keyed by user id.
type Crosstable struct {
	Scores map[string]arbiter.Points `json:"users"`
	Games  int                       `json:"nbGames"`
}

// Crosstable fetches the all-time score between two users.
func (c *Client) Crosstable(ctx context.Context, user1, user2 string) (*Crosstable, error) {
	var ct Crosstable
	path := "/api/crosstable/" + pathEscape(user1) + "/" + pathEscape(user2)
	if err := c.getJSON(ctx, request{method: "GET", path: path}, &ct); err != nil {
		return nil, err
	}
	return &ct, nil
}
