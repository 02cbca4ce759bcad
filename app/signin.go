package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// Sign-in and sessions. Every way in (Lichess, a local account's password,
// demo sign-in) ends in a Session: a random token whose hash only is
// stored, valid for SessionTTL. The web app keeps the token in a cookie
// (or a script sends it as a bearer token) and asks SessionUser who is
// asking on each request.

// SessionTTL is how long a session lasts.
const SessionTTL = 30 * 24 * time.Hour

// MaxAccountName bounds the account name of a password sign-in; local
// account names ("td@local") are short. Longer names are refused before
// anything is hashed, counted or stored.
const MaxAccountName = 64

// maxPassword bounds a password (PBKDF2 hashes any length, but a
// megabyte password is no password).
const maxPassword = 1024

// Session is a signed-in user's session.
type Session struct {
	Token   string
	Expires time.Time
	User    arbiter.User
}

func userOf(u sqlstore.User) arbiter.User {
	return arbiter.User{ID: u.ID, LichessID: u.LichessID, LichessUsername: u.LichessUsername, DisplayName: u.DisplayName,
		Local: strings.HasSuffix(u.LichessID, sqlstore.LocalSuffix)}
}

// IsLocalAccount tells whether name is a local account's (it ends in
// "@local"), which signs in with its password only.
func IsLocalAccount(name string) bool {
	return strings.HasSuffix(strings.ToLower(strings.TrimSpace(name)), sqlstore.LocalSuffix)
}

// IsAPIToken tells whether a bearer credential is an API token (UseAPIToken)
// rather than a session token.
func IsAPIToken(secret string) bool { return strings.HasPrefix(secret, sqlstore.APITokenPrefix) }

// startSession records the user (audited as ch) and opens a session, in one
// transaction.
func (s *Service) startSession(ctx context.Context, ch sqlstore.Change, username string) (Session, error) {
	var out Session
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		u, err := sqlstore.UpsertUser(ctx, tx, ch, username, "")
		if err != nil {
			return err
		}
		out.User, out.Expires = userOf(u), tx.Now().Add(SessionTTL)
		out.Token, err = sqlstore.NewSession(ctx, tx, u.ID, out.Expires)
		return err
	})
	return out, err
}

// SignInLichess opens a session for the Lichess user whose sign-in Lichess
// confirmed (the web app did the OAuth exchange and asked Lichess who it
// is), recording the user on first sign-in.
func (s *Service) SignInLichess(ctx context.Context, username string) (Session, error) {
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: username, Role: arbiter.RolePlayer}, Action: "user.sign_in"}
	return s.startSession(ctx, ch, username)
}

// SignInDemo opens a session for any Lichess-style username with no
// password. Only servers running demo events offer it (serve --demo): the
// caller decides whether it is on. Local accounts are refused: they sign
// in with their password.
func (s *Service) SignInDemo(ctx context.Context, username string) (Session, error) {
	if IsLocalAccount(username) {
		return Session{}, &arbiter.Error{Code: arbiter.EINVALID, Field: "username", Message: "local accounts sign in with their password"}
	}
	ch := sqlstore.Change{Actor: sqlstore.Actor{Name: "demo", Role: arbiter.RoleSystem}, Action: "user.demo_sign_in"}
	return s.startSession(ctx, ch, strings.TrimSpace(username))
}

// SignInLocal opens a session for a local account if the password is
// right, for the client at addr. Failures say only "wrong account name or
// password" and are throttled by growing delays per client address and
// per account (SignInWait), counted in the database so that every process
// applies them. A wrong password and an unknown account take the same
// time (a password hash each), so the answer's speed does not tell which
// accounts exist.
func (s *Service) SignInLocal(ctx context.Context, name, password, addr string) (Session, error) {
	switch {
	case name == "" || password == "":
		return Session{}, arbiter.FieldError("username", "local.account", "enter the account name and the password")
	case len(name) > MaxAccountName:
		return Session{}, arbiter.FieldError("username", "local.account", "an account name has at most %d characters", MaxAccountName)
	case len(password) > maxPassword:
		return Session{}, arbiter.FieldError("password", "local.account", "a password has at most %d characters", maxPassword)
	}
	wait, err := s.SignInWait(ctx, name, addr)
	if err != nil {
		return Session{}, err
	}
	if wait > 0 {
		return Session{}, &arbiter.Error{Code: arbiter.ETOOMANY, RetryAfter: wait,
			Message: fmt.Sprintf("too many failed sign-ins; wait %s before the next try", waitWords(wait))}
	}
	u, hash, err := sqlstore.LocalAccount(ctx, s.DB, name)
	if err != nil && arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return Session{}, err
	}
	if err != nil {
		hash = dummyHash()
	}
	if !checkPassword(hash, password) || err != nil {
		if err := s.SignInFailed(ctx, name, addr); err != nil {
			return Session{}, err
		}
		return Session{}, arbiter.Errorf(arbiter.EUNAUTHORIZED, "wrong account name or password")
	}
	if err := s.SignInSucceeded(ctx, name, addr); err != nil {
		return Session{}, err
	}
	out := Session{User: userOf(u)}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
		out.Expires = tx.Now().Add(SessionTTL)
		out.Token, err = sqlstore.NewSession(ctx, tx, u.ID, out.Expires)
		return err
	})
	return out, err
}

// waitWords says a wait in whole seconds or minutes, rounded up.
func waitWords(d time.Duration) string {
	if d > 90*time.Second {
		return fmt.Sprintf("%d minutes", int((d+time.Minute-1)/time.Minute))
	}
	s := int((d + time.Second - 1) / time.Second)
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", s)
}

// SessionUser is the user of a session token; EUNAUTHORIZED when the
// session is unknown or expired.
func (s *Service) SessionUser(ctx context.Context, token string) (arbiter.User, error) {
	u, _, err := sqlstore.SessionUser(ctx, s.DB, token, s.now())
	if err != nil {
		return arbiter.User{}, err
	}
	return userOf(u), nil
}

// SignOut ends a session (nothing happens for an unknown token).
func (s *Service) SignOut(ctx context.Context, token string) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error { return sqlstore.DeleteSession(ctx, tx, token) })
}

// TokenUser is the user a bot's API token acts for (acc.As, which must not
// be empty): the use cases then check that user as anyone else.
func TokenUser(acc TokenAccess) arbiter.User {
	return arbiter.User{ID: "api-token:" + acc.Token.ID, LichessID: strings.ToLower(acc.As), LichessUsername: acc.As,
		DisplayName: acc.As + " (API token " + acc.Token.Name + ")"}
}

// Health pings the database.
func (s *Service) Health(ctx context.Context) error { return s.DB.SQLDB().PingContext(ctx) }
