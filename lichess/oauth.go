package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	*t = TokenInfo{UserID: w.UserID, Expires: w.Expires.time(), Scopes: parseScopes(w.Scopes)}
	return nil
}

// HasScope reports whether the token grants scope.
func (t *TokenInfo) HasScope(scope string) bool { return slices.Contains(t.Scopes, scope) }

// Features says which of Arbiter's Lichess features the token enables
// (nil TokenInfo: no token, only what needs no scope).
func (t *TokenInfo) Features() []FeatureStatus {
	if t == nil {
		return FeaturesFor(nil)
	}
	return FeaturesFor(t.Scopes)
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

// ErrTokenInvalid is returned by CheckToken for a token Lichess does not
// know (revoked, expired or mistyped).
var ErrTokenInvalid = errors.New("lichess: the token is not valid (revoked, expired or mistyped)")

// CheckToken tests one token (the organiser's, at start-up): who owns it
// and its scopes. An unknown token is ErrTokenInvalid.
func (c *Client) CheckToken(ctx context.Context, token string) (*TokenInfo, error) {
	if strings.TrimSpace(token) == "" || strings.Contains(token, ",") {
		return nil, fmt.Errorf("lichess: token test: want one token without commas")
	}
	m, err := c.TestTokens(ctx, []string{token})
	if err != nil {
		return nil, err
	}
	info, ok := m[token]
	if !ok {
		return nil, &BadResponseError{Method: "POST", Path: "/api/token/test", Err: fmt.Errorf("the answer does not mention the token")}
	}
	if info == nil {
		return nil, ErrTokenInvalid
	}
	return info, nil
}
