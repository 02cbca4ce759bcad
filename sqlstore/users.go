package sqlstore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"arbiter"
)

// UserKind is the audit kind of changes to users (logged with EventID "").
const UserKind = "user"

// User is a person who signed in with Lichess.
type User struct {
	ID              string    `json:"id"`
	LichessID       string    `json:"lichess_id"`       // lower-case username: the key
	LichessUsername string    `json:"lichess_username"` // as Lichess spells it
	DisplayName     string    `json:"display_name"`
	Version         int64     `json:"-"`
	CreatedAt       time.Time `json:"-"`
	UpdatedAt       time.Time `json:"-"`
}

// checkUsername applies Lichess's rule for usernames (arbiter.CheckLichessUsername).
func checkUsername(name string) error {
	return arbiter.CheckLichessUsername("lichess_username", name)
}

// UpsertUser returns the user with this Lichess username, creating it on
// first sign-in, and updates the spelling and display name when they
// changed (each change audited). displayName defaults to the username.
func UpsertUser(ctx context.Context, tx *Tx, ch Change, lichessUsername, displayName string) (User, error) {
	if err := ch.check(); err != nil {
		return User{}, err
	}
	if err := checkUsername(lichessUsername); err != nil {
		return User{}, err
	}
	displayName = strings.TrimSpace(displayName)
	if displayName == "" {
		displayName = lichessUsername
	}
	if len(displayName) > 100 {
		return User{}, arbiter.FieldError("display_name", "sqlstore.user", "a display name has at most 100 bytes")
	}
	lid := strings.ToLower(lichessUsername)
	cur, err := userBy(ctx, tx, "lichess_id", lid)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		u := User{ID: NewID(), LichessID: lid, LichessUsername: lichessUsername, DisplayName: displayName,
			Version: 1, CreatedAt: tx.now, UpdatedAt: tx.now}
		after, err := marshal("user", u)
		if err != nil {
			return User{}, err
		}
		now := tx.dialect.timeArg(tx.now)
		// Two first sign-ins of one user at once: the second inserts
		// nothing (on PostgreSQL its transaction is retried as a
		// serialization failure and then finds the user).
		res, err := tx.exec(ctx, `INSERT INTO users (id, lichess_id, lichess_username, display_name, version, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, ?, ?) ON CONFLICT (lichess_id) DO NOTHING`, u.ID, u.LichessID, u.LichessUsername, u.DisplayName, now, now)
		if err != nil {
			return User{}, internalErr("create user", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return User{}, arbiter.Errorf(arbiter.ECONFLICT, "user %s was created by another sign-in at the same moment; try again", lichessUsername)
		}
		return u, writeAudit(ctx, tx, ch, auditRow{kind: UserKind, id: u.ID, version: 1, action: ch.action(UserKind, "create"), after: after})
	}
	if err != nil {
		return User{}, err
	}
	if cur.LichessUsername == lichessUsername && cur.DisplayName == displayName {
		return cur, nil
	}
	u := cur
	u.LichessUsername, u.DisplayName, u.Version, u.UpdatedAt = lichessUsername, displayName, cur.Version+1, tx.now
	before, err := marshal("user", cur)
	if err != nil {
		return User{}, err
	}
	after, err := marshal("user", u)
	if err != nil {
		return User{}, err
	}
	res, err := tx.exec(ctx, `UPDATE users SET lichess_username = ?, display_name = ?, version = version + 1, updated_at = ?
		WHERE id = ? AND version = ?`, u.LichessUsername, u.DisplayName, tx.dialect.timeArg(tx.now), u.ID, cur.Version)
	if err := checkOneRow(res, err, UserKind, u.LichessUsername, cur.Version); err != nil {
		return User{}, err
	}
	return u, writeAudit(ctx, tx, ch, auditRow{kind: UserKind, id: u.ID, version: u.Version, action: ch.action(UserKind, "update"), before: before, after: after})
}

// GetUser returns the user with the given id (ENOTFOUND if none).
func GetUser(ctx context.Context, q Queryer, id string) (User, error) {
	return userBy(ctx, q, "id", id)
}

// GetUserByLichess returns the user with the given Lichess username, in
// any letter case (ENOTFOUND if none).
func GetUserByLichess(ctx context.Context, q Queryer, username string) (User, error) {
	return userBy(ctx, q, "lichess_id", strings.ToLower(username))
}

func userBy(ctx context.Context, q Queryer, col, v string) (User, error) {
	var u User
	err := q.queryRow(ctx, `SELECT id, lichess_id, lichess_username, display_name, version, created_at, updated_at
		FROM users WHERE `+col+` = ?`, v).Scan(&u.ID, &u.LichessID, &u.LichessUsername, &u.DisplayName, &u.Version,
		timeScan{&u.CreatedAt}, timeScan{&u.UpdatedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, arbiter.Errorf(arbiter.ENOTFOUND, "user %s not found", v)
	}
	if err != nil {
		return User{}, internalErr("read user", err)
	}
	return u, nil
}

// Session is a signed-in browser. Only the token's hash is stored, so a
// copy of the database does not let anyone sign in.
type Session struct {
	UserID    string
	CreatedAt time.Time
	ExpiresAt time.Time
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// NewSession starts a session for the user that ends at expires, and
// returns its token (to put in a cookie; it is not stored and cannot be
// recovered). Sessions are not audited: signing in changes no
// competition state, and the log must not hold credentials.
func NewSession(ctx context.Context, tx *Tx, userID string, expires time.Time) (string, error) {
	if !expires.After(tx.now) {
		return "", arbiter.FieldError("expires", "sqlstore.session", "a session must expire in the future")
	}
	var b [32]byte
	rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	_, err := tx.exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		hashToken(token), userID, tx.dialect.timeArg(tx.now), tx.dialect.timeArg(expires))
	if isForeignKeyViolation(err) {
		return "", arbiter.Errorf(arbiter.ENOTFOUND, "user %s not found", userID)
	}
	if err != nil {
		return "", internalErr("create session", err)
	}
	return token, nil
}

// SessionUser returns the user a session token belongs to and the session.
// An unknown or expired token (at time now) is EUNAUTHORIZED.
func SessionUser(ctx context.Context, q Queryer, token string, now time.Time) (User, Session, error) {
	var s Session
	err := q.queryRow(ctx, `SELECT user_id, created_at, expires_at FROM sessions WHERE token_hash = ?`, hashToken(token)).
		Scan(&s.UserID, timeScan{&s.CreatedAt}, timeScan{&s.ExpiresAt})
	if errors.Is(err, sql.ErrNoRows) || err == nil && !now.Before(s.ExpiresAt) {
		return User{}, Session{}, arbiter.Errorf(arbiter.EUNAUTHORIZED, "not signed in (unknown or expired session); sign in again")
	}
	if err != nil {
		return User{}, Session{}, internalErr("read session", err)
	}
	u, err := GetUser(ctx, q, s.UserID)
	return u, s, err
}

// DeleteSession ends a session (signing out). An unknown token is not an error.
func DeleteSession(ctx context.Context, tx *Tx, token string) error {
	if _, err := tx.exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token)); err != nil {
		return internalErr("delete session", err)
	}
	return nil
}

// DeleteExpiredSessions removes the sessions expired at the transaction's
// time and returns how many.
func DeleteExpiredSessions(ctx context.Context, tx *Tx) (int64, error) {
	res, err := tx.exec(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, tx.dialect.timeArg(tx.now))
	if err != nil {
		return 0, internalErr("delete expired sessions", err)
	}
	return res.RowsAffected()
}
