package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"arbiter"
)

// LichessGrant is a player's Lichess token kept for bulk pairing (the
// lichess_grants table): the token is sent only to Lichess, never written
// to a document, the audit log or a log line.
type LichessGrant struct {
	LichessID string
	Token     string
	Scopes    []string
}

// PutLichessGrant keeps g, replacing the player's last grant.
func PutLichessGrant(ctx context.Context, tx *Tx, g LichessGrant) error {
	id := strings.ToLower(strings.TrimSpace(g.LichessID))
	if id == "" || g.Token == "" {
		return arbiter.FieldError("token", "sqlstore.lichess_grant", "a grant needs a Lichess id and a token")
	}
	_, err := tx.exec(ctx, `INSERT INTO lichess_grants (lichess_id, token, scopes, granted_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (lichess_id) DO UPDATE SET token = excluded.token, scopes = excluded.scopes, granted_at = excluded.granted_at`,
		id, g.Token, strings.Join(g.Scopes, ","), tx.dialect.timeArg(tx.now))
	if err != nil {
		return internalErr("keep a Lichess grant", err)
	}
	return nil
}

// GetLichessGrant returns the player's grant; found is false without one.
func GetLichessGrant(ctx context.Context, q Queryer, lichessID string) (g LichessGrant, found bool, err error) {
	var scopes string
	err = q.queryRow(ctx, `SELECT lichess_id, token, scopes FROM lichess_grants WHERE lichess_id = ?`,
		strings.ToLower(strings.TrimSpace(lichessID))).Scan(&g.LichessID, &g.Token, &scopes)
	if errors.Is(err, sql.ErrNoRows) {
		return LichessGrant{}, false, nil
	}
	if err != nil {
		return LichessGrant{}, false, internalErr("read a Lichess grant", err)
	}
	if scopes != "" {
		g.Scopes = strings.Split(scopes, ",")
	}
	return g, true, nil
}

// DeleteLichessGrant forgets the player's grant (nothing happens without one).
func DeleteLichessGrant(ctx context.Context, tx *Tx, lichessID string) error {
	_, err := tx.exec(ctx, `DELETE FROM lichess_grants WHERE lichess_id = ?`, strings.ToLower(strings.TrimSpace(lichessID)))
	if err != nil {
		return internalErr("forget a Lichess grant", err)
	}
	return nil
}
