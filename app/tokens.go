package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// API tokens let a TD's bot (a Discord or Slack bot, a script) use the
// JSON API for one event without a user's session: read it, or act for
// one entrant (its captain, or the player) to report results and post
// time offers. Package web decides which routes each scope reaches; the
// use cases check the acting user as for anyone else, so a token never
// does more than the entrant's captain or player could.

// Token scopes.
const (
	ScopeRead   = "read"   // the API's reads (every token has it)
	ScopeReport = "report" // report a result, confirm or dispute the opponent's
	ScopeOffers = "offers" // time offers: propose, accept, none suitable
)

// Scopes lists every scope in order.
var Scopes = []string{ScopeRead, ScopeReport, ScopeOffers}

// APIToken is a token as the TDs see it (never its secret).
type APIToken struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Scopes    []string  `json:"scopes"`
	Entrant   string    `json:"entrant,omitempty"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	RevokedBy string    `json:"revoked_by,omitempty"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
	// LastUsedAt is when the token was last accepted, to the minute; zero
	// if never.
	LastUsedAt time.Time `json:"last_used_at,omitzero"`
}

func tokenOf(t sqlstore.APIToken) APIToken {
	return APIToken{ID: t.ID, Name: t.Name, Scopes: t.Scopes, Entrant: t.Entrant, CreatedBy: t.CreatedBy, CreatedAt: t.CreatedAt,
		RevokedBy: t.RevokedBy, RevokedAt: t.RevokedAt, LastUsedAt: t.LastUsedAt}
}

// NewAPIToken is what CreateAPIToken needs: a name for the list, the
// scopes, and for report and offers the entrant the token acts for.
type NewAPIToken struct {
	Name    string
	Scopes  []string
	Entrant string
}

// tokenClause is the rule cited for token requests.
const tokenClause = "app.api_token"

// CreateAPIToken makes a token for the event and returns its secret,
// shown this once. TD only; audited.
func (s *Service) CreateAPIToken(ctx context.Context, a arbiter.Actor, slug string, req NewAPIToken) (string, APIToken, error) {
	name := strings.TrimSpace(req.Name)
	if name == "" || len([]rune(name)) > 60 {
		return "", APIToken{}, arbiter.FieldError("name", tokenClause, "give the token a name of 1 to 60 characters (say which bot uses it)")
	}
	scopes := []string{ScopeRead}
	for i, sc := range req.Scopes {
		sc = strings.ToLower(strings.TrimSpace(sc))
		if !slices.Contains(Scopes, sc) {
			return "", APIToken{}, arbiter.FieldError(fmt.Sprintf("scopes[%d]", i), tokenClause, "unknown scope %q (scopes: %s)", sc, strings.Join(Scopes, ", "))
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	slices.SortFunc(scopes, func(x, y string) int { return slices.Index(Scopes, x) - slices.Index(Scopes, y) })
	var secret string
	var tok sqlstore.APIToken
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "create API tokens"); err != nil {
			return err
		}
		entrant := normUser(req.Entrant)
		acts := slices.Contains(scopes, ScopeReport) || slices.Contains(scopes, ScopeOffers)
		switch {
		case entrant == "" && acts:
			return arbiter.FieldError("entrant", tokenClause, "a token that reports results or posts offers acts for one entrant: name it")
		case entrant != "":
			e, err := docEntrant.get(ctx, tx, st, entrant)
			if arbiter.ErrorCode(err) == arbiter.ENOTFOUND || err == nil && e.Status != arbiter.EntrantApproved {
				return arbiter.FieldError("entrant", tokenClause, "%q is not an approved entrant of %s", entrant, slug)
			}
			if err != nil {
				return err
			}
		}
		secret, tok, err = sqlstore.CreateAPIToken(ctx, tx, change(a, "api_token.create", "", false),
			sqlstore.APIToken{EventID: st.row.ID, Name: name, Scopes: scopes, Entrant: entrant})
		return err
	})
	return secret, tokenOf(tok), err
}

// RevokeAPIToken revokes one of the event's tokens at once. TD only;
// audited.
func (s *Service) RevokeAPIToken(ctx context.Context, a arbiter.Actor, slug, id string) (APIToken, error) {
	var tok sqlstore.APIToken
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "revoke API tokens"); err != nil {
			return err
		}
		tok, err = sqlstore.RevokeAPIToken(ctx, tx, change(a, "api_token.revoke", "", false), st.row.ID, id)
		return err
	})
	return tokenOf(tok), err
}

// APITokens lists the event's tokens, revoked ones included, with their
// last use. TD only.
func (s *Service) APITokens(ctx context.Context, a arbiter.Actor, slug string) ([]APIToken, error) {
	var out []APIToken
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "see the API tokens"); err != nil {
			return err
		}
		ts, err := sqlstore.APITokens(ctx, tx, st.row.ID)
		for _, t := range ts {
			out = append(out, tokenOf(t))
		}
		return err
	})
	return out, err
}

// TokenAccess is what a token allows at the moment it is used.
type TokenAccess struct {
	Token APIToken
	Event string // the event's slug
	// As is the user the token acts as: the entrant's captain (now, after
	// any captain change) or the player; "" for a token acting for nobody.
	As string
}

// Allows tells whether the token has scope.
func (t TokenAccess) Allows(scope string) bool { return slices.Contains(t.Token.Scopes, scope) }

// UseAPIToken checks a token presented with a request and records its
// use (at most once a minute). An unknown or revoked token is
// EUNAUTHORIZED.
func (s *Service) UseAPIToken(ctx context.Context, secret string) (TokenAccess, error) {
	var acc TokenAccess
	if !strings.HasPrefix(secret, sqlstore.APITokenPrefix) {
		return acc, arbiter.Errorf(arbiter.EUNAUTHORIZED, "unknown or revoked API token")
	}
	var last time.Time
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		t, err := sqlstore.APITokenBySecret(ctx, tx, secret)
		if err != nil {
			return err
		}
		last = t.LastUsedAt
		row, err := sqlstore.GetEvent(ctx, tx, t.EventID)
		if err != nil {
			return err
		}
		acc = TokenAccess{Token: tokenOf(t), Event: row.Slug}
		if t.Entrant != "" {
			e, _, err := docEntrant.read(ctx, tx, t.EventID, t.Entrant)
			if err != nil {
				return err
			}
			acc.As = e.Player
			if e.Kind == arbiter.EntrantTeam {
				acc.As = e.Captain
			}
		}
		return nil
	})
	if err != nil || s.now().Sub(last) < time.Minute {
		return acc, err // a bot polling often writes once a minute, not on every request
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error { return sqlstore.TouchAPIToken(ctx, tx, acc.Token.ID, s.now()) })
	return acc, err
}
