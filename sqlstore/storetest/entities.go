package storetest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

func testEvents(t *testing.T, s *suite) {
	var created sqlstore.Event
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		created, err = sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "acwc-2026", Name: "Antichess World Cup 2026",
			Format: json.RawMessage(`{"preset": "acwc-2023"}`)})
		return err
	})
	if created.ID == "" || created.Version != 1 || created.Status != "draft" {
		t.Fatalf("created %+v", created)
	}
	e, err := sqlstore.GetEventBySlug(s.ctx, s.db, "acwc-2026")
	if err != nil || e.ID != created.ID || e.Name != "Antichess World Cup 2026" || !sameJSON(e.Format, `{"preset":"acwc-2023"}`) ||
		!e.CreatedAt.Equal(reading(1)) {
		t.Fatalf("GetEventBySlug = %+v, %v", e, err)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.CreateEvent(s.ctx, tx, td, sqlstore.Event{Slug: "acwc-2026", Name: "Again"})
		return err
	})
	wantCode(t, err, arbiter.ECONFLICT)
	for _, bad := range []sqlstore.Event{{Slug: "Bad Slug", Name: "x"}, {Slug: "-x", Name: "x"}, {Slug: "ok", Name: ""},
		{Slug: "ok", Name: "x", Format: json.RawMessage(`{`)}} {
		err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.CreateEvent(s.ctx, tx, td, bad); return err })
		wantCode(t, err, arbiter.EINVALID)
	}

	e.Name, e.Status = "ACWC 2026", "registration"
	s.tx(t, func(tx *sqlstore.Tx) (err error) { e, err = sqlstore.UpdateEvent(s.ctx, tx, td, e); return err })
	if e.Version != 2 {
		t.Fatalf("updated event version %d", e.Version)
	}
	stale := e
	stale.Version = 1
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.UpdateEvent(s.ctx, tx, td, stale); return err })
	wantCode(t, err, arbiter.ECONFLICT)
	want := "event acwc-2026 was changed by someone else (version 2, you had 1); reload and try again"
	if msg := arbiter.ErrorMessage(err); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	s.event(t, "second")
	list, err := sqlstore.ListEvents(s.ctx, s.db)
	if err != nil || len(list) != 2 || list[0].Slug != "second" || list[1].Name != "ACWC 2026" {
		t.Fatalf("ListEvents = %+v, %v", list, err)
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, e.ID, sqlstore.AuditFilter{Kind: sqlstore.EventKind})
	if len(entries) != 2 || entries[1].Action != "event.update" || !strings.Contains(string(entries[1].Before), "draft") {
		t.Fatalf("event audit: %+v", entries)
	}
}

func testUsers(t *testing.T, s *suite) {
	var u sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		u, err = sqlstore.UpsertUser(s.ctx, tx, sqlstore.Change{Actor: sqlstore.Actor{Name: "lichess-oauth", Role: "system"}}, "DrNykterstein", "")
		return err
	})
	if u.LichessID != "drnykterstein" || u.DisplayName != "DrNykterstein" || u.Version != 1 {
		t.Fatalf("user %+v", u)
	}
	// Signing in again finds the same user (any letter case); a new spelling is recorded.
	var again sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		again, err = sqlstore.UpsertUser(s.ctx, tx, td, "drnykterstein", "Magnus")
		return err
	})
	if again.ID != u.ID || again.DisplayName != "Magnus" || again.Version != 2 {
		t.Fatalf("second sign-in: %+v", again)
	}
	got, err := sqlstore.GetUserByLichess(s.ctx, s.db, "DRNYKTERSTEIN")
	if err != nil || got.ID != u.ID || got.LichessUsername != "drnykterstein" {
		t.Fatalf("GetUserByLichess = %+v, %v", got, err)
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, "", sqlstore.AuditFilter{Kind: sqlstore.UserKind})
	if len(entries) != 2 || entries[1].Before == nil {
		t.Fatalf("user audit %+v", entries)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.UpsertUser(s.ctx, tx, td, "no spaces", ""); return err })
	wantCode(t, err, arbiter.EINVALID)

	var token string
	var txTime time.Time
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		txTime = tx.Now()
		token, err = sqlstore.NewSession(s.ctx, tx, u.ID, tx.Now().Add(time.Hour))
		return err
	})
	if len(token) < 40 {
		t.Fatalf("token %q is too short", token)
	}
	su, sess, err := sqlstore.SessionUser(s.ctx, s.db, token, txTime.Add(59*time.Minute))
	if err != nil || su.ID != u.ID || !sess.ExpiresAt.Equal(txTime.Add(time.Hour)) {
		t.Fatalf("SessionUser = %+v %+v, %v", su, sess, err)
	}
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, token, txTime.Add(time.Hour))
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, "forged", txTime)
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	// The token itself is not stored.
	var n int
	q := `SELECT COUNT(*) FROM sessions WHERE token_hash = ` + map[sqlstore.Dialect]string{sqlstore.SQLite: "?", sqlstore.Postgres: "$1"}[s.db.Dialect()]
	if err := s.db.SQLDB().QueryRowContext(s.ctx, q, token).Scan(&n); err != nil || n != 0 {
		t.Fatalf("plain token found in sessions: %d, %v", n, err)
	}
	s.tx(t, func(tx *sqlstore.Tx) error { return sqlstore.DeleteSession(s.ctx, tx, token) })
	_, _, err = sqlstore.SessionUser(s.ctx, s.db, token, txTime)
	wantCode(t, err, arbiter.EUNAUTHORIZED)

	// Expired sessions are swept at the transaction's time.
	s.tx(t, func(tx *sqlstore.Tx) error {
		for _, d := range []time.Duration{time.Second, 2 * time.Second, time.Hour} {
			if _, err := sqlstore.NewSession(s.ctx, tx, u.ID, tx.Now().Add(d)); err != nil {
				return err
			}
		}
		return nil
	})
	s.clock.now() // a second passes: the first session has expired
	var swept int64
	s.tx(t, func(tx *sqlstore.Tx) (err error) { swept, err = sqlstore.DeleteExpiredSessions(s.ctx, tx); return err })
	// This transaction is two clock readings after the one that created
	// the sessions: those of 1 s and 2 s have expired.
	if swept != 2 {
		t.Fatalf("swept %d expired sessions, want 2", swept)
	}
	st, _ := s.db.Status(s.ctx)
	if st.Users != 1 || st.Sessions != 1 || st.Events != 0 || st.AuditEntries != 2 {
		t.Fatalf("status %+v", st)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.NewSession(s.ctx, tx, "nobody", tx.Now().Add(time.Hour))
		return err
	})
	wantCode(t, err, arbiter.ENOTFOUND)
}

func testTimestamps(t *testing.T, s *suite) {
	ev := s.event(t, "time") // reading 1
	var txNow time.Time
	s.tx(t, func(tx *sqlstore.Tx) error { // reading 2
		txNow = tx.Now()
		_, err := sqlstore.Create(s.ctx, tx, td, ev, "match", "1", match{})
		return err
	})
	if txNow.Location() != time.UTC || !txNow.Equal(reading(2)) || txNow.Nanosecond()%1000 != 0 {
		t.Fatalf("Tx.Now = %v, want %v in UTC with µs precision", txNow, reading(2))
	}
	recs, _ := sqlstore.List[match](s.ctx, s.db, ev, "match")
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match"})
	e, _ := sqlstore.GetEvent(s.ctx, s.db, ev)
	for name, got := range map[string]time.Time{"record created": recs[0].CreatedAt, "audit at": entries[0].At, "event created": e.CreatedAt} {
		want := reading(2)
		if name == "event created" {
			want = reading(1)
		}
		if got != want { // == also compares the location: must be UTC
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
}

func testLocalAccounts(t *testing.T, s *suite) {
	n, err := sqlstore.CountLocalAccounts(s.ctx, s.db)
	if err != nil || n != 0 {
		t.Fatalf("CountLocalAccounts on a new store = %d, %v", n, err)
	}
	var u sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		u, err = sqlstore.CreateLocalAccount(s.ctx, tx, td, "td@local", "pbkdf2$hash")
		return err
	})
	got, hash, err := sqlstore.LocalAccount(s.ctx, s.db, "TD@local")
	if err != nil || got.ID != u.ID || hash != "pbkdf2$hash" || got.LichessUsername != "td@local" {
		t.Fatalf("LocalAccount = %+v %q, %v", got, hash, err)
	}
	if n, _ := sqlstore.CountLocalAccounts(s.ctx, s.db); n != 1 {
		t.Fatalf("CountLocalAccounts = %d, want 1", n)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.CreateLocalAccount(s.ctx, tx, td, "td@local", "x")
		return err
	})
	wantCode(t, err, arbiter.ECONFLICT)
	for _, bad := range []string{"td", "t@local", "no spaces@local", "td@lichess"} {
		err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
			_, err := sqlstore.CreateLocalAccount(s.ctx, tx, td, bad, "x")
			return err
		})
		wantCode(t, err, arbiter.EINVALID)
	}
	// A Lichess user is not a local account, and no Lichess sign-in can
	// produce a local name.
	s.tx(t, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.UpsertUser(s.ctx, tx, td, "td", "")
		return err
	})
	_, _, err = sqlstore.LocalAccount(s.ctx, s.db, "td")
	wantCode(t, err, arbiter.ENOTFOUND)
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error { _, err := sqlstore.UpsertUser(s.ctx, tx, td, "td@local", ""); return err })
	wantCode(t, err, arbiter.EINVALID)
}

// testLocalPassword: SetLocalPassword creates a missing local account,
// replaces the hash of an existing one and ends its sessions (signing in
// with the old password, or an old cookie, no longer works).
func testLocalPassword(t *testing.T, s *suite) {
	var u sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		u, err = sqlstore.SetLocalPassword(s.ctx, tx, td, "td@local", "first")
		return err
	})
	if _, hash, err := sqlstore.LocalAccount(s.ctx, s.db, "td@local"); err != nil || hash != "first" {
		t.Fatalf("after create: %q, %v", hash, err)
	}
	var token string
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		token, err = sqlstore.NewSession(s.ctx, tx, u.ID, reading(1).Add(time.Hour))
		return err
	})
	var again sqlstore.User
	s.tx(t, func(tx *sqlstore.Tx) (err error) {
		again, err = sqlstore.SetLocalPassword(s.ctx, tx, td, "TD@local", "second")
		return err
	})
	if again.ID != u.ID {
		t.Fatalf("reset made another user: %s, want %s", again.ID, u.ID)
	}
	if _, hash, err := sqlstore.LocalAccount(s.ctx, s.db, "td@local"); err != nil || hash != "second" {
		t.Fatalf("after reset: %q, %v", hash, err)
	}
	_, _, err := sqlstore.SessionUser(s.ctx, s.db, token, reading(1))
	wantCode(t, err, arbiter.EUNAUTHORIZED)
	if n, _ := sqlstore.CountLocalAccounts(s.ctx, s.db); n != 1 {
		t.Fatalf("CountLocalAccounts = %d, want 1", n)
	}
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.SetLocalPassword(s.ctx, tx, td, "td@local", "")
		return err
	})
	wantCode(t, err, arbiter.EINVALID)
	// A Lichess user's name never ends in @local: no Lichess account can be given a password.
	err = s.db.Tx(s.ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.SetLocalPassword(s.ctx, tx, td, "someone", "x")
		return err
	})
	wantCode(t, err, arbiter.EINVALID)
}
