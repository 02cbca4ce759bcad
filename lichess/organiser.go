package lichess

import (
	"context"
	"errors"
	"slices"
	"time"
)

// Organiser is the organiser's token as Arbiter checked it at start
// (POST /api/token/test): whose it is and the scopes it grants, which say
// what Arbiter may do on Lichess for the event (Features).
type Organiser struct {
	UserID    string
	Scopes    []string
	Expires   time.Time // zero: never
	CheckedAt time.Time
	// Unchecked says why the scopes are unknown (Lichess could not be
	// reached at start); they are then empty and every scoped feature off.
	Unchecked string
}

// CheckOrganiser tests the organiser's token. A token Lichess refuses is
// ErrTokenInvalid (the server should not start with it); when Lichess
// cannot be reached, or answers garbage, the result is an Organiser with
// Unchecked set and no error, so Arbiter still starts.
func CheckOrganiser(ctx context.Context, c *Client, token string, now time.Time) (*Organiser, error) {
	info, err := c.CheckToken(ctx, token)
	switch {
	case err == nil:
		return &Organiser{UserID: info.UserID, Scopes: info.Scopes, Expires: info.Expires, CheckedAt: now}, nil
	case errors.Is(err, ErrTokenInvalid), errors.Is(err, ErrUnauthorized):
		return nil, ErrTokenInvalid
	case Retryable(err):
		return &Organiser{CheckedAt: now, Unchecked: "Lichess could not check the token at start: " + err.Error()}, nil
	}
	return nil, err
}

// Has reports whether the token grants scope.
func (o *Organiser) Has(scope string) bool { return o != nil && slices.Contains(o.Scopes, scope) }

// Features says which of Arbiter's Lichess features the token enables,
// with the TD console's message for each one it disables. A nil
// Organiser (no token) enables only what needs no scope.
func (o *Organiser) Features() []FeatureStatus {
	if o == nil {
		return FeaturesFor(nil)
	}
	return FeaturesFor(o.Scopes)
}
