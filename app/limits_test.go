package app

import (
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// TestSignInDelaysGrow: after the free failures each further one doubles
// the wait (1 s, 2 s, 4 s ...) up to the cap; another address is not
// delayed by the account's few failures; a success forgets them.
func TestSignInDelaysGrow(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		wait := func(addr string) time.Duration { return must(s.SignInWait(ctx, "td@local", addr)) }
		for i := range signInPerAccountAddress.free {
			if w := wait("a"); w != 0 {
				t.Fatalf("after %d failures: wait %v", i, w)
			}
			must(0, s.SignInFailed(ctx, "TD@local", "a"))
		}
		for _, want := range []time.Duration{1, 2, 4, 8} {
			if w := wait("a"); w != want*time.Second {
				t.Fatalf("wait %v, want %v", w, want*time.Second)
			}
			c.t = c.t.Add(want * time.Second)
			must(0, s.SignInFailed(ctx, "td@local", "a"))
		}
		if w := wait("b"); w != 0 {
			t.Fatalf("another address waits %v", w)
		}
		// The cap: never more than 15 minutes.
		for range 30 {
			c.t = c.t.Add(wait("a"))
			must(0, s.SignInFailed(ctx, "td@local", "a"))
		}
		if w := wait("a"); w != signInPerAccountAddress.max {
			t.Fatalf("capped wait %v, want %v", w, signInPerAccountAddress.max)
		}
		must(0, s.SignInSucceeded(ctx, "td@local", "a"))
		if w := wait("a"); w > signInPerAddress.max {
			t.Fatalf("after a success: wait %v", w)
		}
	})
}

// TestRateLimit: the limit's requests pass, the next is ETOOMANY with the
// time left in the window; the window's end frees the user.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		l := RateLimits["appeal"]
		for range l.N {
			must(0, s.Limit(ctx, "appeal", "Cap01"))
		}
		c.t = c.t.Add(10 * time.Minute)
		err := s.Limit(ctx, "appeal", "cap01")
		if arbiter.ErrorCode(err) != arbiter.ETOOMANY || arbiter.RetryAfter(err) != 50*time.Minute {
			t.Fatalf("over the limit: %v (retry after %v), want ETOOMANY after 50 minutes", err, arbiter.RetryAfter(err))
		}
		must(0, s.Limit(ctx, "appeal", "cap02")) // someone else
		c.t = c.t.Add(50 * time.Minute)
		must(0, s.Limit(ctx, "appeal", "cap01"))
	})
}

// TestSweep deletes expired sessions and counters whose window passed,
// and keeps the rest.
func TestSweep(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
			u, err := sqlstore.UpsertUser(ctx, tx, sqlstore.Change{Actor: sqlstore.Actor{Name: "x", Role: "player"}}, "someone", "")
			if err != nil {
				return err
			}
			for _, d := range []time.Duration{time.Hour, 48 * time.Hour} {
				if _, err := sqlstore.NewSession(ctx, tx, u.ID, c.t.Add(d)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		must(0, s.SignInFailed(ctx, "td@local", "a"))
		must(0, s.Limit(ctx, "offer", "p1"))
		c.t = c.t.Add(2 * time.Hour)
		got := must(s.Sweep(ctx))
		if got.Sessions != 1 || got.Counters != 4 { // three sign-in counters and the offer's
			t.Fatalf("swept %+v, want 1 session and 4 counters", got)
		}
		if st := must(s.DB.Status(ctx)); st.Sessions != 1 {
			t.Fatalf("%d sessions left, want 1", st.Sessions)
		}
	})
}
