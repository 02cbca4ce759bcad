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
