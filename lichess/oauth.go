package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// TokenInfo describes a valid OAuth token (POST /api/token/test).
type TokenInfo struct {
	UserID  string
	Scopes  []string
	Expires time.Time // zero: never expires
}

func (t *TokenInfo) UnmarshalJSON(b []byte) error {
	var w struct {
		UserID  string `json:"userId"`
		Scopes  string `json:"scopes"`
		Expires millis `json:"expires"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*t = TokenInfo{UserID: w.UserID, Expires: w.Expires.time()}
	if w.Scopes != "" {
		t.Scopes = strings.Split(w.Scopes, ",")
	}
	return nil
}

// HasScope reports whether the token grants scope.
func (t *TokenInfo) HasScope(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// MaxTestTokens is Lichess's limit of tokens per test request.
const MaxTestTokens = 1000

// TestTokens checks up to MaxTestTokens tokens at once: the map holds every
// token asked, with nil for an invalid or expired one.
func (c *Client) TestTokens(ctx context.Context, tokens []string) (map[string]*TokenInfo, error) {
	if len(tokens) == 0 || len(tokens) > MaxTestTokens {
		return nil, fmt.Errorf("lichess: token test: want 1..%d tokens, got %d", MaxTestTokens, len(tokens))
	}
	out := map[string]*TokenInfo{}
	req := request{method: "POST", path: "/api/token/test", contentType: "text/plain",
		body: []byte(strings.Join(tokens, ","))}
	if err := c.getJSON(ctx, req, &out); err != nil {
		return nil, err
	}
	return out, nil
}
