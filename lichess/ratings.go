package lichess

import (
	"context"
	"fmt"
	"strings"
)

// MaxUsersIDs is Lichess's limit of ids per POST /api/users.
const MaxUsersIDs = 300

// Users fetches up to MaxUsersIDs public profiles in one request (POST
// /api/users): how ratings are refreshed before round 1 is paired.
// Unknown and closed accounts are absent from the answer.
func (c *Client) Users(ctx context.Context, ids []string) ([]User, error) {
	if len(ids) == 0 || len(ids) > MaxUsersIDs {
		return nil, fmt.Errorf("lichess: users: want 1..%d ids, got %d", MaxUsersIDs, len(ids))
	}
	var out []User
	req := request{method: "POST", path: "/api/users", contentType: "text/plain", body: []byte(strings.Join(ids, ","))}
	if err := c.getJSON(ctx, req, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Rating is a player's rating in one perf as registration keeps it.
type Rating struct {
	Perf
	// Listed is false when Lichess lists no such perf for the user (never
	// played it rated): the rating is then Lichess's default, unknown here.
	Listed bool
}

// Rating fetches username's rating in perf (PerfAntichess, PerfBlitz...)
// from the public profile.
func (c *Client) Rating(ctx context.Context, username, perf string) (Rating, error) {
	u, err := c.User(ctx, username)
	if err != nil {
		return Rating{}, err
	}
	p, ok := u.Perf(perf)
	return Rating{Perf: p, Listed: ok}, nil
}

// perfNames are the display names of the rating history for the perf keys.
var perfNames = map[string]string{
	"ultraBullet": "UltraBullet", PerfBullet: "Bullet", PerfBlitz: "Blitz", PerfRapid: "Rapid",
	PerfClassical: "Classical", "correspondence": "Correspondence", "chess960": "Chess960",
	"kingOfTheHill": "King of the Hill", "threeCheck": "Three-Check", PerfAntichess: "Antichess",
	"atomic": "Atomic", "horde": "Horde", "racingKings": "Racing Kings", "crazyhouse": "Crazyhouse",
	"puzzle": "Puzzles",
}

// PerfName is the rating history's name of a perf key ("antichess" ->
// "Antichess"); "" for an unknown key.
func PerfName(perf string) string { return perfNames[perf] }

// HistoryOf picks one perf's points (by key) out of a user's rating
// histories; nil when that perf has none.
func HistoryOf(hs []RatingHistory, perf string) []RatingPoint {
	name := PerfName(perf)
	for _, h := range hs {
		if h.Name == name {
			return h.Points
		}
	}
	return nil
}

// PerfHistory fetches username's daily ratings in one perf (A11's board-4
// cap looks at the antichess history).
func (c *Client) PerfHistory(ctx context.Context, username, perf string) ([]RatingPoint, error) {
	if PerfName(perf) == "" {
		return nil, fmt.Errorf("lichess: rating history: unknown perf %q", perf)
	}
	hs, err := c.RatingHistory(ctx, username)
	if err != nil {
		return nil, err
	}
	return HistoryOf(hs, perf), nil
}
