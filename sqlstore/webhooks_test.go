package sqlstore_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

func bothStores(t *testing.T, fn func(t *testing.T, db *sqlstore.DB)) {
	for _, b := range []struct {
		name string
		open func(testing.TB) *sqlstore.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			if b.name == "postgres" && os.Getenv(storetest.EnvPostgres) == "" {
				t.Skip("set " + storetest.EnvPostgres)
			}
			fn(t, b.open(t))
		})
	}
}

// TestBeforeCommit: the hook sees, in the transaction, every audit entry
// it wrote and nothing else; its writes commit with the change, its error
// rolls everything back; read-only transactions, transactions that wrote
// no audit entry and failed ones do not call it.
func TestBeforeCommit(t *testing.T) {
	t.Parallel()
	bothStores(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		td := sqlstore.Change{Actor: arbiter.Actor{Name: "td", Role: arbiter.RoleTD}}
		var calls [][]string
		fail := false
		db.SetBeforeCommit(func(ctx context.Context, tx *sqlstore.Tx, written []sqlstore.AuditEntry) error {
			var got []string
			for _, e := range written {
				got = append(got, e.Action+" "+e.Kind+"/"+e.RecordID+"@"+string(rune('0'+e.Version)))
			}
			calls = append(calls, got)
			if fail {
				return arbiter.Errorf(arbiter.EINVALID, "hook refused")
			}
			// A write of the hook's own, audited: not passed to it again.
			_, err := sqlstore.Create(ctx, tx, td.As("note.add"), written[0].EventID, "note", "n"+string(rune('0'+len(calls))), map[string]int{"n": len(calls)})
			return err
		})
		var ev sqlstore.Event
		err := db.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
			ev, err = sqlstore.CreateEvent(ctx, tx, td, sqlstore.Event{Slug: "cup", Name: "Cup", Status: "running", Format: []byte(`{}`)})
			if err != nil {
				return err
			}
			v, err := sqlstore.Create(ctx, tx, td.As("match.pair"), ev.ID, "match", "m1", map[string]string{"status": "scheduled"})
			if err != nil {
				return err
			}
			_, err = sqlstore.Update(ctx, tx, td.As("result.confirm"), ev.ID, "match", "m1", v, map[string]string{"status": "final"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := "event.create event/" + ev.ID + "@1|match.pair match/m1@1|result.confirm match/m1@2"
		if len(calls) != 1 || strings.Join(calls[0], "|") != want {
			t.Fatalf("hook calls %q, want one: %s", calls, want)
		}
		if _, _, err := sqlstore.Get[map[string]int](ctx, db, ev.ID, "note", "n1"); err != nil {
			t.Errorf("the hook's write did not commit: %v", err)
		}
		db.View(ctx, func(tx *sqlstore.Tx) error {
			_, err := sqlstore.Audit(ctx, tx, ev.ID, sqlstore.AuditFilter{})
			return err
		})
		db.Tx(ctx, func(tx *sqlstore.Tx) error { return nil })
		db.Tx(ctx, func(tx *sqlstore.Tx) error {
			sqlstore.Create(ctx, tx, td.As("match.pair"), ev.ID, "match", "m2", map[string]string{})
			return errors.New("the use case failed")
		})
		if len(calls) != 1 {
			t.Fatalf("hook called for reads, empty or failed transactions: %q", calls)
		}
		fail = true
		err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
			_, err := sqlstore.Create(ctx, tx, td.As("match.pair"), ev.ID, "match", "m3", map[string]string{})
			return err
		})
		if arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Fatalf("the hook's error: %v", err)
		}
		if _, _, err := sqlstore.Get[map[string]string](ctx, db, ev.ID, "match", "m3"); arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
			t.Errorf("the change committed despite the hook's error: %v", err)
		}
		db.SetBeforeCommit(nil)
		if err := db.Tx(ctx, func(tx *sqlstore.Tx) error {
			_, err := sqlstore.Create(ctx, tx, td.As("match.pair"), ev.ID, "match", "m4", map[string]string{})
			return err
		}); err != nil || len(calls) != 2 {
			t.Fatalf("after removing the hook: %v, %d calls", err, len(calls))
		}
	})
}

// TestWebhooks: an endpoint's secret is returned once and signs, so it is
// stored, but no audit entry holds it; creation, disabling and deletion
// are audited as one consistent history; a delivery is added once per
// endpoint and occurrence; deleting the endpoint removes its log.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	bothStores(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
		db.Now = func() time.Time { return now }
		td := sqlstore.Change{Actor: arbiter.Actor{Name: "td", Role: arbiter.RoleTD}}
		var ev sqlstore.Event
		var secret string
		var w sqlstore.Webhook
		err := db.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
			if ev, err = sqlstore.CreateEvent(ctx, tx, td, sqlstore.Event{Slug: "cup", Name: "Cup", Status: "running", Format: []byte(`{}`)}); err != nil {
				return err
			}
			secret, w, err = sqlstore.CreateWebhook(ctx, tx, td.As("webhook.create"), sqlstore.Webhook{EventID: ev.ID, URL: "https://bot.example.org/h",
				Events: []string{"round.published", "result.final"}, BaseURL: "https://arbiter.example"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(secret, sqlstore.WebhookSecretPrefix) || len(secret) < 40 || w.Secret != secret || !w.CreatedAt.Equal(now) {
			t.Fatalf("webhook %q %+v", secret, w)
		}
		got, err := sqlstore.GetWebhook(ctx, db, ev.ID, w.ID)
		if err != nil || got.Secret != secret || strings.Join(got.Events, ",") != "round.published,result.final" || got.Disabled() {
			t.Fatalf("stored %+v, %v", got, err)
		}
		add := func(occ string) (sqlstore.WebhookDelivery, bool) {
			var d sqlstore.WebhookDelivery
			var added bool
			err := db.Tx(ctx, func(tx *sqlstore.Tx) (err error) {
				d, added, err = sqlstore.AddWebhookDelivery(ctx, tx, sqlstore.WebhookDelivery{Webhook: w.ID, EventID: ev.ID, Occurrence: occ, Type: "round.published", Body: `{"a": 1}`})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return d, added
		}
		d1, added := add("round.published/round/s1r1@2")
		if _, again := add("round.published/round/s1r1@2"); !added || again {
			t.Fatalf("added %v, then again %v", added, again)
		}
		err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
			if err := sqlstore.SetWebhookDeliveryJob(ctx, tx, d1.ID, 42, 1); err != nil {
				return err
			}
			return sqlstore.RecordWebhookAttempt(ctx, tx, d1.ID, sqlstore.DeliveryDelivered, true, 204, "")
		})
		if err != nil {
			t.Fatal(err)
		}
		d, err := sqlstore.GetWebhookDelivery(ctx, db, ev.ID, d1.ID)
		if err != nil || d.Body != `{"a": 1}` || d.JobID != 42 || d.Sends != 1 || d.Attempts != 1 || d.LastStatus != 204 || !d.DeliveredAt.Equal(now) || d.Outcome != "delivered" {
			t.Fatalf("delivery %+v, %v", d, err)
		}
		err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
			if _, err := sqlstore.DisableWebhook(ctx, tx, td.As("webhook.disable"), ev.ID, w.ID); err != nil {
				return err
			}
			if _, err := sqlstore.DisableWebhook(ctx, tx, td.As("webhook.disable"), ev.ID, w.ID); arbiter.ErrorCode(err) != arbiter.ECONFLICT {
				t.Errorf("disabled twice: %v", err)
			}
			_, err := sqlstore.DeleteWebhook(ctx, tx, td.As("webhook.delete"), ev.ID, w.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if ds, err := sqlstore.WebhookDeliveries(ctx, db, ev.ID, "", 10); err != nil || len(ds) != 0 {
			t.Errorf("deliveries after deleting the endpoint: %+v, %v", ds, err)
		}
		log, err := sqlstore.Audit(ctx, db, ev.ID, sqlstore.AuditFilter{Kind: sqlstore.WebhookKind})
		if err != nil || len(log) != 3 || log[0].Action != "webhook.create" || log[1].Action != "webhook.disable" || log[2].Action != "webhook.delete" {
			t.Fatalf("audit %+v, %v", log, err)
		}
		if _, err := sqlstore.Replay(log); err != nil {
			t.Error(err)
		}
		for _, e := range log {
			if strings.Contains(string(e.Before)+string(e.After), secret) {
				t.Errorf("the secret is in audit entry %s", e.Action)
			}
		}
		// db check compares webhooks and API tokens, kept in tables of
		// their own, with their audit log like the records.
		err = db.Tx(ctx, func(tx *sqlstore.Tx) error {
			if _, _, err := sqlstore.CreateWebhook(ctx, tx, td.As("webhook.create"), sqlstore.Webhook{EventID: ev.ID, URL: "https://b.example.org/",
				Events: []string{"round.closed"}}); err != nil {
				return err
			}
			_, tok, err := sqlstore.CreateAPIToken(ctx, tx, td.As("api_token.create"), sqlstore.APIToken{EventID: ev.ID, Name: "bot", Scopes: []string{"read"}})
			if err != nil {
				return err
			}
			_, err = sqlstore.RevokeAPIToken(ctx, tx, td.As("api_token.revoke"), ev.ID, tok.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := db.Check(ctx)
		if err != nil || len(rep.Problems) != 0 {
			t.Fatalf("check: %v %q", err, rep.Problems)
		}
	})
}
