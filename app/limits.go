package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// Limits on how often one client may do some things: try passwords, and
// send registrations, reports, appeals and time offers. The counts live in
// the database (sqlstore counters), so every process serving it applies
// the same limits, and a process keeps nothing per client in memory: a
// flood of made-up names costs a few fixed-size rows, deleted once their
// window has passed (Sweep).

// delays is a throttle by growing delays rather than a hard lock: after
// free failures in a window, each further try waits 1 s, 2 s, 4 s, ... up
// to max after the latest failure. Nobody is ever locked out for longer
// than max.
type delays struct {
	free int64
	max  time.Duration
}

func (d delays) wait(c sqlstore.Counter, now time.Time) time.Duration {
	if c.Hits < d.free {
		return 0
	}
	step := time.Second << min(c.Hits-d.free, 20)
	return max(0, c.Last.Add(min(step, d.max)).Sub(now))
}

// signInWindow is how long failed sign-ins are remembered after the
// latest one: the delays grow while failures go on, and start afresh only
// after an hour without any.
const signInWindow = time.Hour

// The three throttles of password sign-in. One address trying many
// accounts slows down; one account tried from one address slows down
// quickly; one account tried from everywhere (a botnet) slows down too,
// but only to one try every few seconds, so that nobody elsewhere can
// keep its owner out for long. A signed-in session is never affected.
var (
	signInPerAddress        = delays{free: 10, max: 5 * time.Minute}
	signInPerAccountAddress = delays{free: 5, max: 15 * time.Minute}
	signInPerAccount        = delays{free: 50, max: 10 * time.Second}
)

type signInKey struct {
	key string
	d   delays
}

func signInKeys(account, addr string) []signInKey {
	account = strings.ToLower(strings.TrimSpace(account))
	return []signInKey{
		{"signin/addr/" + addr, signInPerAddress},
		{"signin/account-addr/" + account + "\x00" + addr, signInPerAccountAddress},
		{"signin/account/" + account, signInPerAccount},
	}
}

// SignInWait tells how long the client at addr must wait before its next
// password try for account (0: it may try now).
func (s *Service) SignInWait(ctx context.Context, account, addr string) (time.Duration, error) {
	now := s.now()
	var wait time.Duration
	for _, k := range signInKeys(account, addr) {
		c, err := sqlstore.ReadCounter(ctx, s.DB, k.key, now)
		if err != nil {
			return 0, err
		}
		wait = max(wait, k.d.wait(c, now))
	}
	return wait, nil
}

// SignInFailed counts a wrong password for account from addr.
func (s *Service) SignInFailed(ctx context.Context, account, addr string) error {
	now := s.now()
	for _, k := range signInKeys(account, addr) {
		if _, err := sqlstore.CountHit(ctx, s.DB, k.key, now, signInWindow, true); err != nil {
			return err
		}
	}
	return nil
}

// SignInSucceeded forgets the failures of account from addr (the owner
// typed the password right at last); the address's and the account's
// other counts stand.
func (s *Service) SignInSucceeded(ctx context.Context, account, addr string) error {
	return sqlstore.ResetCounter(ctx, s.DB, signInKeys(account, addr)[1].key)
}

// RateLimit is how many requests of one kind one user may send per window.
type RateLimit struct {
	N   int64
	Per time.Duration
}

// RateLimits are the per-user limits by kind of request (Limit): a real
// player or captain stays far below them; a script flooding the TDs
// (issue 12: thirty huge reports made the console 29 MB) is stopped.
var RateLimits = map[string]RateLimit{
	"register": {N: 20, Per: time.Hour},  // registrations (a TD registering many entrants is not limited)
	"report":   {N: 30, Per: time.Hour},  // result reports and reports of cheating
	"appeal":   {N: 10, Per: time.Hour},  // appeals
	"offer":    {N: 120, Per: time.Hour}, // time offers and answers in a negotiation
}

// Limit counts one request of kind by user and refuses it, with ETOOMANY
// and the wait in RetryAfter, beyond RateLimits[kind].
func (s *Service) Limit(ctx context.Context, kind, user string) error {
	l, ok := RateLimits[kind]
	if !ok {
		return arbiter.Errorf(arbiter.EINTERNAL, "no rate limit named %q", kind)
	}
	now := s.now()
	c, err := sqlstore.CountHit(ctx, s.DB, "rate/"+kind+"/"+normUser(user), now, l.Per, false)
	if err != nil {
		return err
	}
	if c.Hits <= l.N {
		return nil
	}
	wait := max(time.Second, c.Since.Add(l.Per).Sub(now))
	return &arbiter.Error{Code: arbiter.ETOOMANY, RetryAfter: wait,
		Message: fmt.Sprintf("too many requests of this kind (at most %d in %s); try again in %s", l.N, plainDuration(l.Per), plainDuration(wait))}
}

// plainDuration says d in minutes or seconds, rounded up.
func plainDuration(d time.Duration) string {
	if d >= time.Minute {
		m := int((d + time.Minute - 1) / time.Minute)
		if m == 1 {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", m)
	}
	sec := int((d + time.Second - 1) / time.Second)
	if sec == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", sec)
}

// Swept says what Sweep deleted.
type Swept struct {
	Sessions int64 // expired sessions
	Counters int64 // counters whose window has passed
}

// Sweep deletes expired sessions and stale counters. Any process may run
// it at any time (serve runs it every few minutes); the deletes are
// idempotent.
func (s *Service) Sweep(ctx context.Context) (Swept, error) {
	var out Swept
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
		out.Sessions, err = sqlstore.DeleteExpiredSessions(ctx, tx)
		return err
	})
	if err != nil {
		return out, err
	}
	out.Counters, err = sqlstore.DeleteStaleCounters(ctx, s.DB, s.now())
	return out, err
}
