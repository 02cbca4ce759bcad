package sqlstore_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// TestAPITokens: a token is shown once and stored as a hash; it is found
// by its secret until revoked; creation and revocation are audited in the
// event's log (a consistent history, without the secret); last use is
// written at most once a minute and never audited.
func TestAPITokens(t *testing.T) {
	for _, b := range []struct {
		name string
		open func(testing.TB) *sqlstore.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(b.name, func(t *testing.T) {
			if b.name == "postgres" && os.Getenv(storetest.EnvPostgres) == "" {
				t.Skip("set " + storetest.EnvPostgres)
			}
			testAPITokens(t, b.open(t))
		})
	}
}

func testAPITokens(t *testing.T, db *sqlstore.DB) {
	ctx := context.Background()
	now := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	td := sqlstore.Change{Actor: arbiter.Actor{Name: "td", Role: arbiter.RoleTD}}
	var ev sqlstore.Event
	var secret string
	var tok sqlstore.APIToken
	err := db.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
		if ev, err = sqlstore.CreateEvent(ctx, tx, td, sqlstore.Event{Slug: "cup", Name: "Cup", Status: "running", Format: []byte(`{}`)}); err != nil {
			return err
		}
		secret, tok, err = sqlstore.CreateAPIToken(ctx, tx, td.As("api_token.create"), sqlstore.APIToken{EventID: ev.ID, Name: "discord bot",
			Scopes: []string{"read", "report"}, Entrant: "team-a"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, sqlstore.APITokenPrefix) || len(secret) < 40 || tok.ID == "" || tok.CreatedBy != "td" {
		t.Fatalf("token %q, %+v", secret, tok)
	}
	var stored int
	db.SQLDB().QueryRowContext(ctx, `SELECT COUNT(*) FROM api_tokens WHERE token_hash = '`+secret+`'`).Scan(&stored)
	if stored != 0 {
		t.Error("the secret itself is stored")
	}
	got, err := sqlstore.APITokenBySecret(ctx, db, secret)
	if err != nil || got.ID != tok.ID || got.Entrant != "team-a" || strings.Join(got.Scopes, ",") != "read,report" || !got.LastUsedAt.IsZero() {
		t.Fatalf("by secret: %+v, %v", got, err)
	}
	if _, err := sqlstore.APITokenBySecret(ctx, db, secret+"x"); arbiter.ErrorCode(err) != arbiter.EUNAUTHORIZED {
		t.Errorf("a wrong secret: %v", err)
	}
	touch := func() {
		if err := db.Tx(ctx, func(tx *sqlstore.Tx) error { return sqlstore.TouchAPIToken(ctx, tx, tok.ID, now) }); err != nil {
			t.Fatal(err)
		}
	}
	touch()
	first := now
	now = now.Add(30 * time.Second)
	touch() // within the minute: not written
	ts, _ := sqlstore.APITokens(ctx, db, ev.ID)
	if len(ts) != 1 || !ts[0].LastUsedAt.Equal(first) {
		t.Errorf("last use after two uses 30 s apart: %+v", ts)
	}
	now = now.Add(time.Minute)
	touch()
	ts, _ = sqlstore.APITokens(ctx, db, ev.ID)
	if !ts[0].LastUsedAt.Equal(now) {
		t.Errorf("last use a minute later: %s, want %s", ts[0].LastUsedAt, now)
	}
	err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.RevokeAPIToken(ctx, tx, td.As("api_token.revoke"), ev.ID, tok.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sqlstore.APITokenBySecret(ctx, db, secret); arbiter.ErrorCode(err) != arbiter.EUNAUTHORIZED {
		t.Errorf("a revoked token: %v", err)
	}
	err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
		_, err := sqlstore.RevokeAPIToken(ctx, tx, td, ev.ID, tok.ID)
		return err
	})
	if arbiter.ErrorCode(err) != arbiter.ECONFLICT {
		t.Errorf("revoking twice: %v", err)
	}
	log, err := sqlstore.Audit(ctx, db, ev.ID, sqlstore.AuditFilter{Kind: sqlstore.APITokenKind})
	if err != nil || len(log) != 2 || log[0].Action != "api_token.create" || log[1].Action != "api_token.revoke" {
		t.Fatalf("audit: %+v, %v", log, err)
	}
	for _, e := range log {
		if strings.Contains(string(e.After), secret) || strings.Contains(string(e.After), "last_used") {
			t.Errorf("audit entry holds the secret or the last use: %s", e.After)
		}
	}
	all, _ := sqlstore.Audit(ctx, db, ev.ID, sqlstore.AuditFilter{})
	if _, err := sqlstore.Replay(all); err != nil {
		t.Errorf("replay: %v", err)
	}
}
