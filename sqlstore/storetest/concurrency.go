package storetest

import (
	"strings"
	"sync"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// Two writers both hold version 1 and write at the same moment: exactly
// one wins, the other gets ECONFLICT, and the winner's data is stored.
func testConcurrentWriters(t *testing.T, s *suite) {
	ev := s.event(t, "race")
	create(t, s, td, ev, "match", "12", match{Board: 1})
	const rounds = 5
	for round := 0; round < rounds; round++ {
		_, ver, err := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		gate := make(chan struct{})
		errs := make([]error, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				_, errs[w] = update(s, captain, ev, "match", "12", ver, match{Board: 100*round + w})
			}()
		}
		close(gate)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch arbiter.ErrorCode(err) {
			case "":
				if winner >= 0 {
					t.Fatalf("round %d: both writers won", round)
				}
				winner = w
			case arbiter.ECONFLICT:
				if !strings.Contains(err.Error(), "reload and try again") {
					t.Errorf("loser's message %q", err)
				}
			default:
				t.Fatalf("round %d writer %d: %v", round, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won: %v", round, errs)
		}
		got, v2, _ := sqlstore.Get[match](s.ctx, s.db, ev, "match", "12")
		if v2 != ver+1 || got.Board != 100*round+winner {
			t.Fatalf("round %d: stored %+v version %d; want the winner's board %d at version %d", round, got, v2, 100*round+winner, ver+1)
		}
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match"})
	if len(entries) != 1+rounds {
		t.Fatalf("%d audit entries, want %d (create + one per round)", len(entries), 1+rounds)
	}
}

type counter struct {
	N int `json:"n"`
}

// Writers that reload and try again on ECONFLICT, as users are told to,
// lose no increment.
func testNoLostUpdates(t *testing.T, s *suite) {
	ev := s.event(t, "counter")
	create(t, s, td, ev, "counter", "c", counter{})
	const writers, each = 6, 5
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < each; {
				c, ver, err := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
				if err != nil {
					errc <- err
					return
				}
				c.N++
				_, err = update(s, captain, ev, "counter", "c", ver, c)
				switch arbiter.ErrorCode(err) {
				case "":
					done++
				case arbiter.ECONFLICT: // reload and try again
				default:
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	c, ver, err := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
	if err != nil || c.N != writers*each || ver != writers*each+1 {
		t.Fatalf("counter %d version %d (%v); want %d at version %d", c.N, ver, err, writers*each, writers*each+1)
	}
}

// Reads and writes inside one transaction are isolated: concurrent
// read-modify-write transactions (retried by DB.Tx when the database
// reports a collision) lose nothing.
func testReadModifyWriteInTx(t *testing.T, s *suite) {
	ev := s.event(t, "rmw")
	create(t, s, td, ev, "counter", "c", counter{})
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errc := make(chan error, writers*each)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				errc <- s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
					c, ver, err := sqlstore.Get[counter](s.ctx, tx, ev, "counter", "c")
					if err != nil {
						return err
					}
					c.N++
					_, err = sqlstore.Update(s.ctx, tx, captain, ev, "counter", "c", ver, c)
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Fatal(err)
		}
	}
	c, ver, _ := sqlstore.Get[counter](s.ctx, s.db, ev, "counter", "c")
	if c.N != writers*each || ver != writers*each+1 {
		t.Fatalf("counter %d version %d; want %d at version %d", c.N, ver, writers*each, writers*each+1)
	}
}

// The same user signing in from several browsers at once gets one user row.
func testConcurrentSignIn(t *testing.T, s *suite) {
	const n = 4
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			errs[i] = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
				u, err := sqlstore.UpsertUser(s.ctx, tx, td, "Hikaru", "")
				ids[i] = u.ID
				return err
			})
		}()
	}
	close(gate)
	wg.Wait()
	for i := range n {
		// A sign-in may be told to try again, never fail otherwise.
		if code := arbiter.ErrorCode(errs[i]); code != "" && code != arbiter.ECONFLICT {
			t.Fatalf("sign-in %d: %v", i, errs[i])
		}
		if errs[i] == nil && ids[i] != ids[0] && errs[0] == nil {
			t.Fatalf("sign-ins got different users %s and %s", ids[0], ids[i])
		}
	}
	st, _ := s.db.Status(s.ctx)
	entries, _ := sqlstore.Audit(s.ctx, s.db, "", sqlstore.AuditFilter{Kind: sqlstore.UserKind})
	if st.Users != 1 || len(entries) != 1 {
		t.Fatalf("%d users and %d audit entries, want 1 and 1", st.Users, len(entries))
	}
}
