package web

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"arbiter"
	"arbiter/app"
	"arbiter/sqlstore"
)

// LocalTD is the local account created on first start, so that a TD can
// work with no Lichess (offline, or before the OAuth app is set up). It is
// the CLI's default identity too (app.LocalTD): one local TD for both.
const LocalTD = app.LocalTD

// pbkdf2Iterations follows OWASP's 2023 advice for PBKDF2-HMAC-SHA256.
// The count is stored in each hash, so it can be raised later; tests
// lower it to keep the suite fast.
var pbkdf2Iterations = 600_000

// hashPassword returns "pbkdf2-sha256$ITER$SALT$KEY" (base64url parts).
func hashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	rand.Read(salt)
	key, err := pbkdf2.Key(sha256.New, password, salt, pbkdf2Iterations, 32)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding.EncodeToString
	return "pbkdf2-sha256$" + strconv.Itoa(pbkdf2Iterations) + "$" + enc(salt) + "$" + enc(key), nil
}

// passwordHashes counts the hashes checkPassword computes, so that a test
// can tell that an unknown account costs a hash as a known one does.
var passwordHashes atomic.Int64

// checkPassword tells whether password matches a hash of hashPassword, in
// constant time for a given hash.
func checkPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 {
		return false
	}
	salt, err1 := base64.RawURLEncoding.DecodeString(parts[2])
	want, err2 := base64.RawURLEncoding.DecodeString(parts[3])
	if err1 != nil || err2 != nil {
		return false
	}
	passwordHashes.Add(1)
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

// minPassword is the shortest password a local account accepts.
const minPassword = 10

// EnsureLocalTD creates the local TD account (LocalTD) when the store has
// no local account yet, with the given password or, when it is empty, a
// random one. It returns the password only when it created the account,
// so the caller can show it once; it is never stored or logged.
func EnsureLocalTD(ctx context.Context, db *sqlstore.DB, password string) (created string, err error) {
	n, err := sqlstore.CountLocalAccounts(ctx, db)
	if err != nil || n > 0 {
		return "", err
	}
	if password == "" {
		b := make([]byte, 12)
		rand.Read(b)
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	if len(password) < minPassword {
		return "", arbiter.FieldError("password", "local.account", "the local TD password needs at least %d characters", minPassword)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return "", fmt.Errorf("web: hash password: %w", err)
	}
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, Action: "user.create_local"}
	err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.CreateLocalAccount(ctx, tx, ch, LocalTD, hash)
		return err
	})
	if arbiter.ErrorCode(err) == arbiter.ECONFLICT {
		return "", nil // another process created it first
	}
	if err != nil {
		return "", err
	}
	return password, nil
}

// ResetLocalTD sets a new password for the local TD account (LocalTD),
// creating the account if the server never started, and signs it out
// everywhere. With an empty password a random one is made. It returns the
// password so that the caller can show it once; it is never stored or
// logged.
func ResetLocalTD(ctx context.Context, svc *app.Service, password string) (string, error) {
	if password == "" {
		b := make([]byte, 12)
		rand.Read(b)
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	if len(password) < minPassword {
		return "", arbiter.FieldError("password", "local.account", "the local TD password needs at least %d characters", minPassword)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return "", fmt.Errorf("web: hash password: %w", err)
	}
	if err := svc.SetLocalPassword(ctx, LocalTD, hash); err != nil {
		return "", err
	}
	return password, nil
}
