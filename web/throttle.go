package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// Password sign-in is throttled by growing delays per client address and
// per account (app.SignInWait), counted in the database so that every
// process applies them and none keeps per-name state in memory. A wrong
// password and an unknown account take the same time (a password hash
// each), so the answer's speed does not tell which accounts exist.

// maxAccountName bounds the account name of a password sign-in; local
// account names ("td@local") are short. Longer names are refused before
// anything is hashed, counted or stored.
const maxAccountName = 64

// maxPassword bounds a password (PBKDF2 hashes any length, but a
// megabyte password is no password).
const maxPassword = 1024

// dummyHash is hashed against when the account does not exist, so that
// an unknown name costs what a wrong password costs. Made once, when the
// first server is built (New), with the iteration count in force then
// (tests lower it).
var dummyHash = sync.OnceValue(func() string {
	h, _ := hashPassword("no account has this password, it is only hashed for time")
	return h
})

// checkLocal returns the local account if the password is right, for the
// client at addr.
func (s *Server) checkLocal(ctx context.Context, name, password, addr string) (sqlstore.User, error) {
	switch {
	case name == "" || password == "":
		return sqlstore.User{}, arbiter.FieldError("username", "local.account", "enter the account name and the password")
	case len(name) > maxAccountName:
		return sqlstore.User{}, arbiter.FieldError("username", "local.account", "an account name has at most %d characters", maxAccountName)
	case len(password) > maxPassword:
		return sqlstore.User{}, arbiter.FieldError("password", "local.account", "a password has at most %d characters", maxPassword)
	}
	wait, err := s.app.SignInWait(ctx, name, addr)
	if err != nil {
		return sqlstore.User{}, err
	}
	if wait > 0 {
		return sqlstore.User{}, &arbiter.Error{Code: arbiter.ETOOMANY, RetryAfter: wait,
			Message: fmt.Sprintf("too many failed sign-ins; wait %s before the next try", waitWords(wait))}
	}
	u, hash, err := sqlstore.LocalAccount(ctx, s.db, name)
	if err != nil && arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return sqlstore.User{}, err
	}
	if err != nil {
		hash = dummyHash()
	}
	if !checkPassword(hash, password) || err != nil {
		if err := s.app.SignInFailed(ctx, name, addr); err != nil {
			return sqlstore.User{}, err
		}
		return sqlstore.User{}, arbiter.Errorf(arbiter.EUNAUTHORIZED, "wrong account name or password")
	}
	if err := s.app.SignInSucceeded(ctx, name, addr); err != nil {
		return sqlstore.User{}, err
	}
	return u, nil
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

// clientAddr is the address of the client that sent r: the peer's IP, or
// behind a trusted reverse proxy (Config.TrustProxy) the last address of
// X-Forwarded-For, the one the proxy itself appended (earlier ones come
// from the client and prove nothing). An IPv6 address is taken as its /64
// network: one client usually holds a whole /64, and would otherwise
// count as 2^64 clients.
func (s *Server) clientAddr(r *http.Request) string {
	if s.trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
				return clientNet(ip)
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		return clientNet(ip)
	}
	return host
}

func clientNet(ip net.IP) string {
	if ip.To4() != nil {
		return ip.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// setRetryAfter sets Retry-After from an error that asks the client to
// wait (too many requests, a saturated database).
func setRetryAfter(w http.ResponseWriter, err error) {
	if d := arbiter.RetryAfter(err); d > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((d+time.Second-1)/time.Second)))
	}
}
