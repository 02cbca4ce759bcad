package app

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
	"sync"
	"sync/atomic"

	"arbiter"
	"arbiter/sqlstore"
)

// PasswordIterations is the PBKDF2-HMAC-SHA256 work factor of new
// password hashes; 600 000 follows OWASP's 2023 advice. The count is
// stored in each hash, so it can be raised later; tests lower it to keep
// the suite fast (set it before the first sign-in).
var PasswordIterations = 600_000

// hashPassword returns "pbkdf2-sha256$ITER$SALT$KEY" (base64url parts).
func hashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	rand.Read(salt)
	key, err := pbkdf2.Key(sha256.New, password, salt, PasswordIterations, 32)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding.EncodeToString
	return "pbkdf2-sha256$" + strconv.Itoa(PasswordIterations) + "$" + enc(salt) + "$" + enc(key), nil
}

// passwordHashes counts the hashes checkPassword computes, so that a test
// can tell that an unknown account costs a hash as a known one does.
var passwordHashes atomic.Int64

// PasswordHashes is how many password hashes sign-ins have computed so far
// in this process (for tests of the sign-in's timing).
func PasswordHashes() int64 { return passwordHashes.Load() }

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

// dummyHash is hashed against when the account does not exist, so that
// an unknown name costs what a wrong password costs. Made once, with the
// iteration count in force then (tests lower it first); WarmPasswords
// makes it ahead of the first sign-in.
var dummyHash = sync.OnceValue(func() string {
	h, _ := hashPassword("no account has this password, it is only hashed for time")
	return h
})

// WarmPasswords makes the hash an unknown account is checked against now,
// so that the first unknown account costs one hash like the others.
func WarmPasswords() { dummyHash() }

// MinPassword is the shortest password a local account accepts.
const MinPassword = 10

// newLocalPassword checks the chosen password or, when it is empty, makes
// a random one, and returns it with its hash.
func newLocalPassword(password string) (string, string, error) {
	if password == "" {
		b := make([]byte, 12)
		rand.Read(b)
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	if len(password) < MinPassword {
		return "", "", arbiter.FieldError("password", "local.account", "the local TD password needs at least %d characters", MinPassword)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return "", "", fmt.Errorf("app: hash password: %w", err)
	}
	return password, hash, nil
}

// EnsureLocalTD creates the local TD account (LocalTD) when the store has
// no local account yet, with the given password or, when it is empty, a
// random one. It returns the password only when it created the account,
// so the caller can show it once; it is never stored or logged.
func (s *Service) EnsureLocalTD(ctx context.Context, password string) (created string, err error) {
	n, err := sqlstore.CountLocalAccounts(ctx, s.DB)
	if err != nil || n > 0 {
		return "", err
	}
	password, hash, err := newLocalPassword(password)
	if err != nil {
		return "", err
	}
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, Action: "user.create_local"}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
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
func (s *Service) ResetLocalTD(ctx context.Context, password string) (string, error) {
	password, hash, err := newLocalPassword(password)
	if err != nil {
		return "", err
	}
	if err := s.SetLocalPassword(ctx, LocalTD, hash); err != nil {
		return "", err
	}
	return password, nil
}
