package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

func testAudit(t *testing.T, s *suite) {
	ev := s.event(t, "audit")                                               // reading 1
	create(t, s, captain, ev, "match", "12", match{White: "A", Black: "B"}) // reading 2
	if _, err := update(s, captain.As("result.report"), ev, "match", "12", 1, match{White: "A", Black: "B", Result: arbiter.P(3)}); err != nil {
		t.Fatal(err) // reading 3
	}
	override := sqlstore.Change{Actor: td.Actor, Action: "result.override", Override: true, Reason: "appeal upheld (R7)"}
	if _, err := update(s, override, ev, "match", "12", 2, match{White: "A", Black: "B", Result: arbiter.P(1.5)}); err != nil {
		t.Fatal(err) // reading 4
	}
	create(t, s, td, ev, "match", "13", match{White: "C", Black: "D"}) // reading 5

	entries, err := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Kind: "match", RecordID: "12"})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		at             time.Time
		actor          sqlstore.Actor
		action, reason string
		version        int64
		before, after  string
	}
	want := []row{
		{reading(2), captain.Actor, "match.create", "", 1, "", `{"white":"A","black":"B","result":0,"board":0}`},
		{reading(3), captain.Actor, "result.report", "", 2, `{"white":"A","black":"B","result":0,"board":0}`, `{"white":"A","black":"B","result":3,"board":0}`},
		{reading(4), td.Actor, "result.override", "appeal upheld (R7)", 3, `{"white":"A","black":"B","result":3,"board":0}`, `{"white":"A","black":"B","result":1.5,"board":0}`},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d entries for match 12, want %d: %+v", len(entries), len(want), entries)
	}
	for i, e := range entries {
		w := want[i]
		if !e.At.Equal(w.at) || e.Actor != w.actor || e.Action != w.action || e.Reason != w.reason || e.Version != w.version ||
			e.EventID != ev || e.Kind != "match" || e.RecordID != "12" ||
			!sameJSON(e.Before, w.before) || !sameJSON(e.After, w.after) {
			t.Errorf("entry %d = %+v (before %s after %s)\nwant %+v", i, e, e.Before, e.After, w)
		}
		if i > 0 && e.Seq <= entries[i-1].Seq {
			t.Errorf("entry %d: seq %d not after %d", i, e.Seq, entries[i-1].Seq)
		}
	}
	all, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if len(all) != 5 || all[0].Kind != sqlstore.EventKind {
		t.Fatalf("whole event log: %+v, want 5 entries starting with the event's creation", all)
	}
	byTD, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{Actor: "alice"})
	if len(byTD) != 3 { // event create, override, match 13
		t.Fatalf("alice's entries: %d, want 3", len(byTD))
	}
	// Paging: two at a time after a sequence number.
	page, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{AfterSeq: all[1].Seq, Limit: 2})
	if len(page) != 2 || page[0].Seq != all[2].Seq || page[1].Seq != all[3].Seq {
		t.Fatalf("page = %+v", page)
	}
	other, _ := sqlstore.Audit(s.ctx, s.db, "another-event", sqlstore.AuditFilter{})
	if len(other) != 0 {
		t.Fatalf("another event's log holds %d entries", len(other))
	}
}

func testReplay(t *testing.T, s *suite) {
	ev := s.event(t, "replay")
	ev2 := s.event(t, "replay-two")
	create(t, s, td, ev, "match", "1", match{White: "A", Black: "B"})
	create(t, s, td, ev, "match", "2", match{White: "C", Black: "D"})
	create(t, s, td, ev, "lineup", "team-a", map[string][]string{"boards": {"p1", "p2"}})
	create(t, s, td, ev2, "match", "1", match{White: "X", Black: "Y"})
	update(s, captain, ev, "match", "1", 1, match{White: "A", Black: "B", Result: arbiter.P(2)})
	update(s, captain, ev, "lineup", "team-a", 1, map[string][]string{"boards": {"p2", "p1"}})
	update(s, td.WithReason("correction"), ev, "match", "1", 2, match{White: "A", Black: "B", Result: arbiter.P(2.5)})
	s.tx(t, func(tx *sqlstore.Tx) error {
		return sqlstore.Delete(s.ctx, tx, td, ev, "match", "2", 1)
	})
	create(t, s, td, ev, "match", "2", match{White: "C", Black: "E"})
	s.tx(t, func(tx *sqlstore.Tx) error {
		e, err := sqlstore.GetEvent(s.ctx, tx, ev)
		if err != nil {
			return err
		}
		e.Status, e.Format = "running", json.RawMessage(`{"preset":"rkcc-team-three-tc","rounds":7}`)
		_, err = sqlstore.UpdateEvent(s.ctx, tx, td, e)
		return err
	})

	entries, err := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	state, err := sqlstore.Replay(entries)
	if err != nil {
		t.Fatal(err)
	}
	// Every current record of the event, and nothing else, comes out of the log.
	n := 0
	for _, kind := range []string{"match", "lineup"} {
		recs, err := sqlstore.List[json.RawMessage](s.ctx, s.db, ev, kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			n++
			got, ok := state[sqlstore.RecordKey{EventID: ev, Kind: kind, ID: r.ID}]
			if !ok || got.Version != r.Version || !sameJSON(got.Data, string(r.Value)) {
				t.Errorf("%s %s: replayed %+v (%s), stored version %d %s", kind, r.ID, got, got.Data, r.Version, r.Value)
			}
		}
	}
	e, _ := sqlstore.GetEvent(s.ctx, s.db, ev)
	evDoc, _ := json.Marshal(e)
	got := state[sqlstore.RecordKey{EventID: ev, Kind: sqlstore.EventKind, ID: ev}]
	if got.Version != e.Version || !sameJSON(got.Data, string(evDoc)) {
		t.Errorf("event: replayed %d %s, stored %d %s", got.Version, got.Data, e.Version, evDoc)
	}
	if len(state) != n+1 {
		t.Errorf("replay has %d records, the store %d", len(state), n+1)
	}
	if got := state[sqlstore.RecordKey{EventID: ev, Kind: "match", ID: "2"}]; got.Version != 3 {
		t.Errorf("re-created match 2 replays at version %d, want 3", got.Version)
	}
	// A log with an entry missing is refused, not silently replayed.
	if _, err := sqlstore.Replay(append(entries[:3:3], entries[4:]...)); err == nil {
		t.Error("Replay accepted a log with a missing entry")
	}
}

func testAuditAppendOnly(t *testing.T, s *suite) {
	ev := s.event(t, "append-only")
	create(t, s, td, ev, "match", "1", match{})
	for _, q := range []string{`UPDATE audit SET reason = 'rewritten'`, `DELETE FROM audit`} {
		if _, err := s.db.SQLDB().ExecContext(s.ctx, q); err == nil {
			t.Errorf("%s: allowed", q)
		}
	}
	entries, _ := sqlstore.Audit(s.ctx, s.db, ev, sqlstore.AuditFilter{})
	if len(entries) != 2 || entries[1].Reason != "" {
		t.Fatalf("audit changed: %+v", entries)
	}
}
