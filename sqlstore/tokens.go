package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"arbiter"
)

// APITokenKind is the audit kind of API tokens (in their event's log).
const APITokenKind = "api_token"

// APITokenPrefix starts every API token, so that a bearer token names its
// kind (a session token has none) and leaked ones are easy to search for.
const APITokenPrefix = "arbt_"

// APIToken is a bot's credential for one event. The token itself is
// shown once when created; only its hash is stored.
type APIToken struct {
	ID        string    `json:"id"`
	EventID   string    `json:"event_id"`
	Name      string    `json:"name"`
	Scopes    []string  `json:"scopes"`
	Entrant   string    `json:"entrant,omitempty"` // the entrant the token acts for
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	RevokedBy string    `json:"revoked_by,omitempty"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
	// LastUsedAt is when the token was last accepted (to the minute; not
	// audited, so it is not in the audit entries either).
	LastUsedAt time.Time `json:"-"`
}

// Revoked tells whether the token was revoked.
func (t APIToken) Revoked() bool { return !t.RevokedAt.IsZero() }

// audited is the token as its audit entries record it.
func (t APIToken) audited() ([]byte, error) {
	t.LastUsedAt = time.Time{}
	return marshal("api_token", t)
}

// CreateAPIToken stores a new token for t.EventID (ID, CreatedAt and the
// secret are made here) and returns the token to hand to the bot, once.
// The creation is audited in the event's log without the secret.
func CreateAPIToken(ctx context.Context, tx *Tx, ch Change, t APIToken) (string, APIToken, error) {
	if err := ch.check(); err != nil {
		return "", t, err
	}
	if t.EventID == "" || strings.TrimSpace(t.Name) == "" || len(t.Scopes) == 0 {
		return "", t, arbiter.FieldError("token", "sqlstore.api_token", "a token needs an event, a name and scopes")
	}
	var b [32]byte
	rand.Read(b[:])
	secret := APITokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	t.ID, t.CreatedAt, t.CreatedBy = "t"+NewID()[:12], tx.now, ch.Actor.Name
	t.RevokedAt, t.RevokedBy, t.LastUsedAt = time.Time{}, "", time.Time{}
	_, err := tx.exec(ctx, `INSERT INTO api_tokens (id, token_hash, event_id, name, scopes, entrant, created_by, created_at, revoked_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, '')`, t.ID, hashToken(secret), t.EventID, t.Name, strings.Join(t.Scopes, ","), t.Entrant,
		t.CreatedBy, tx.dialect.timeArg(t.CreatedAt))
	if isForeignKeyViolation(err) {
		return "", t, arbiter.Errorf(arbiter.ENOTFOUND, "event %s not found", t.EventID)
	}
	if err != nil {
		return "", t, internalErr("create API token", err)
	}
	after, err := t.audited()
	if err != nil {
		return "", t, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: t.EventID, kind: APITokenKind, id: t.ID, version: 1,
		action: ch.action(APITokenKind, "create"), after: after})
	return secret, t, err
}

const tokenColumns = `id, event_id, name, scopes, entrant, created_by, created_at, revoked_by, revoked_at, last_used_at`

func scanToken(row interface{ Scan(...any) error }) (APIToken, error) {
	var t APIToken
	var scopes string
	err := row.Scan(&t.ID, &t.EventID, &t.Name, &scopes, &t.Entrant, &t.CreatedBy, timeScan{&t.CreatedAt}, &t.RevokedBy,
		nullTime{&t.RevokedAt}, nullTime{&t.LastUsedAt})
	if scopes != "" {
		t.Scopes = strings.Split(scopes, ",")
	}
	return t, err
}

// APITokenBySecret returns the token whose secret this is. An unknown or
// revoked token is EUNAUTHORIZED.
func APITokenBySecret(ctx context.Context, q Queryer, secret string) (APIToken, error) {
	t, err := scanToken(q.queryRow(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE token_hash = ?`, hashToken(secret)))
	if errors.Is(err, sql.ErrNoRows) || err == nil && t.Revoked() {
		return APIToken{}, arbiter.Errorf(arbiter.EUNAUTHORIZED, "unknown or revoked API token")
	}
	if err != nil {
		return APIToken{}, internalErr("read API token", err)
	}
	return t, nil
}

// APITokens lists an event's tokens, revoked ones included, oldest first.
func APITokens(ctx context.Context, q Queryer, eventID string) ([]APIToken, error) {
	rows, err := q.query(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE event_id = ? ORDER BY created_at, id`, eventID)
	if err != nil {
		return nil, internalErr("list API tokens", err)
	}
	defer rows.Close()
	var out []APIToken
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, internalErr("list API tokens", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, internalErr("list API tokens", err)
	}
	return out, nil
}

// RevokeAPIToken revokes token id of the event (audited). Revoking it
// again is ECONFLICT; an unknown token ENOTFOUND.
func RevokeAPIToken(ctx context.Context, tx *Tx, ch Change, eventID, id string) (APIToken, error) {
	if err := ch.check(); err != nil {
		return APIToken{}, err
	}
	t, err := scanToken(tx.queryRow(ctx, `SELECT `+tokenColumns+` FROM api_tokens WHERE event_id = ? AND id = ?`, eventID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return APIToken{}, arbiter.Errorf(arbiter.ENOTFOUND, "API token %s not found", id)
	}
	if err != nil {
		return APIToken{}, internalErr("read API token", err)
	}
	if t.Revoked() {
		return t, arbiter.Errorf(arbiter.ECONFLICT, "API token %s was already revoked", id)
	}
	before, err := t.audited()
	if err != nil {
		return t, err
	}
	t.RevokedAt, t.RevokedBy = tx.now, ch.Actor.Name
	res, err := tx.exec(ctx, `UPDATE api_tokens SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL`,
		tx.dialect.timeArg(t.RevokedAt), t.RevokedBy, id)
	if err := checkOneRow(res, err, APITokenKind, id, 1); err != nil {
		return t, err
	}
	after, err := t.audited()
	if err != nil {
		return t, err
	}
	err = writeAudit(ctx, tx, ch, auditRow{eventID: eventID, kind: APITokenKind, id: id, version: 2,
		action: ch.action(APITokenKind, "revoke"), before: before, after: after})
	return t, err
}

// TouchAPIToken records that token id was used at now, unless it was
// already within the minute before (bots poll; one write a minute is
// enough for "last used"). Not audited: using a token changes nothing.
func TouchAPIToken(ctx context.Context, tx *Tx, id string, now time.Time) error {
	_, err := tx.exec(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`,
		tx.dialect.timeArg(now), id, tx.dialect.timeArg(now.Add(-time.Minute)))
	if err != nil {
		return internalErr("record API token use", err)
	}
	return nil
}

// nullTime scans a nullable timestamp: NULL is the zero time.
type nullTime struct{ t *time.Time }

func (n nullTime) Scan(src any) error {
	if src == nil {
		*n.t = time.Time{}
		return nil
	}
	return timeScan(n).Scan(src)
}
