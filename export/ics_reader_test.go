package export_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"arbiter/export"
)

// TestICSThirdPartyReader reads every feed with a calendar library that
// other programs use (emersion/go-ical, the parser of go-webdav's CalDAV),
// so the feeds are checked by a reader this project did not write as well
// as by the strict one above.
func TestICSThirdPartyReader(t *testing.T) {
	t.Parallel()
	swiss, team := swissSnapshot(t), teamSnapshot(t)
	feeds := []struct {
		name string
		out  []byte
	}{
		{"swiss event", write(t, swiss, export.Options{Format: "ics"})},
		{"swiss player", write(t, swiss, export.Options{Format: "ics", Entrant: "alice"})},
		{"team event", write(t, team, export.Options{Format: "ics"})},
		{"team entrant", write(t, team, export.Options{Format: "ics", Entrant: "rooks"})},
		{"team player", write(t, team, export.Options{Format: "ics", Player: "R2"})},
	}
	for _, f := range feeds {
		cal, err := ical.NewDecoder(bytes.NewReader(f.out)).Decode()
		if err != nil {
			t.Fatalf("%s: go-ical cannot read the feed: %v", f.name, err)
		}
		ours := events(t, parseICS(t, f.out))
		theirs := cal.Events()
		if len(theirs) != len(ours) {
			t.Errorf("%s: go-ical reads %d entries, the strict reader %d", f.name, len(theirs), len(ours))
		}
		for _, ev := range theirs {
			uid, err := ev.Props.Text(ical.PropUID)
			if err != nil || uid == "" {
				t.Fatalf("%s: an entry without UID (%v)", f.name, err)
			}
			start, err := ev.DateTimeStart(time.UTC)
			if err != nil {
				t.Fatalf("%s %s: DTSTART: %v", f.name, uid, err)
			}
			if want := utcTime(t, ours[uid].one(t, "DTSTART")); !start.Equal(want) {
				t.Errorf("%s %s: go-ical reads start %s, want %s", f.name, uid, start, want)
			}
		}
	}
	// The match with an agreed time, as the library reads it.
	cal, _ := ical.NewDecoder(bytes.NewReader(feeds[0].out)).Decode()
	for _, ev := range cal.Events() {
		if uid, _ := ev.Props.Text(ical.PropUID); uid != "spring-open-s1r3b1@arbiter.example" {
			continue
		}
		if sum, _ := ev.Props.Text(ical.PropSummary); sum != "Spring Open | Rapid *2026*: alice vs dave" {
			t.Errorf("summary %q", sum)
		}
		end, _ := ev.DateTimeEnd(time.UTC)
		if want := time.Date(2026, 1, 21, 20, 30, 0, 0, time.UTC); !end.Equal(want) {
			t.Errorf("end %s, want %s", end, want)
		}
		return
	}
	t.Error("go-ical finds no entry for match s1r3b1")
}
