package lichess

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MaxMessageLength bounds a private message: Lichess's inbox refuses
// longer texts; Arbiter's templates stay well below it.
const MaxMessageLength = 8000

// SendMessage sends a private message to username through the Lichess
// inbox, from the token's owner (ScopeMsgWrite). The endpoint has no /api
// prefix: POST /inbox/{username}.
func (c *Client) SendMessage(ctx context.Context, username, text string) error {
	if strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > MaxMessageLength {
		return fmt.Errorf("lichess: message to %s: want 1..%d characters", username, MaxMessageLength)
	}
	body, ct := form(url.Values{"text": {text}})
	return c.postOK(ctx, request{method: "POST", path: "/inbox/" + pathEscape(username), body: body, contentType: ct})
}

// SendTeamMessage sends text to every member of the Lichess team teamID
// as a team update, from the token's owner, who must lead the team with
// the "Updates" permission (ScopeTeamLead). The endpoint has no /api
// prefix: POST /team/{teamId}/pm-all, the text in the form field
// "message".
func (c *Client) SendTeamMessage(ctx context.Context, teamID, text string) error {
	if strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > MaxMessageLength {
		return fmt.Errorf("lichess: message to team %s: want 1..%d characters", teamID, MaxMessageLength)
	}
	body, ct := form(url.Values{"message": {text}})
	return c.postOK(ctx, request{method: "POST", path: "/team/" + pathEscape(teamID) + "/pm-all", body: body, contentType: ct})
}
