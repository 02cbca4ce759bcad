package lichess

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"
)

// TeamUser is a user as teams list them (leader, leaders).
type TeamUser struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Title string `json:"title"`
}

// Team is a Lichess team (GET /api/team/{teamId}).
type Team struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Open      bool       `json:"open"`
	Leader    TeamUser   `json:"leader"`
	Leaders   []TeamUser `json:"leaders"`
	NbMembers int        `json:"nbMembers"`
}

// Team fetches a team.
func (c *Client) Team(ctx context.Context, id string) (*Team, error) {
	var t Team
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/team/" + pathEscape(id)}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// TeamMember is one line of GET /api/team/{teamId}/users.
type TeamMember struct {
	ID       string
	Name     string
	Title    string
	JoinedAt time.Time
}

func (m *TeamMember) UnmarshalJSON(b []byte) error {
	var w struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Title    string `json:"title"`
		JoinedAt millis `json:"joinedTeamAt"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = TeamMember{ID: w.ID, Name: w.Name, Title: w.Title, JoinedAt: w.JoinedAt.time()}
	return nil
}

// TeamMembers streams a team's members, most recently joined first
// (Lichess streams at most 5,000).
func (c *Client) TeamMembers(ctx context.Context, id string) iter.Seq2[TeamMember, error] {
	return stream[TeamMember](ctx, c, request{method: "GET", path: "/api/team/" + pathEscape(id) + "/users",
		accept: "application/x-ndjson"})
}

// TeamsOf lists the teams username belongs to (GET /api/team/of/{username});
// teams hiding their members show only to a member's token.
func (c *Client) TeamsOf(ctx context.Context, username string) ([]Team, error) {
	var out []Team
	if err := c.getJSON(ctx, request{method: "GET", path: "/api/team/of/" + pathEscape(username)}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// IsTeamMember reports whether username belongs to the team teamID (one
// request, however big the team).
func (c *Client) IsTeamMember(ctx context.Context, teamID, username string) (bool, error) {
	teams, err := c.TeamsOf(ctx, username)
	if err != nil {
		return false, err
	}
	for _, t := range teams {
		if strings.EqualFold(t.ID, teamID) {
			return true, nil
		}
	}
	return false, nil
}
