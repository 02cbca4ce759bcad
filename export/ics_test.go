package export_test

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"arbiter"
	"arbiter/export"
)

// A strict RFC 5545 reader, small enough to trust: it checks what a lenient
// library forgives (line length, folds, CRLF); ics_reader_test.go reads the
// same feeds with a third-party parser.

type icsProp struct {
	Name   string
	Params map[string]string
	Value  string // as written (escaped)
}

type icsComp struct {
	Name  string
	Props map[string][]icsProp
	Subs  []*icsComp
}

// one returns the single value of a property, failing if it is absent or
// repeated.
func (c *icsComp) one(t *testing.T, name string) string {
	t.Helper()
	ps := c.Props[name]
	if len(ps) != 1 {
		t.Fatalf("%s has %d %s properties, want exactly one", c.Name, len(ps), name)
	}
	return ps[0].Value
}

// parseICS reads a calendar strictly: CRLF line ends only, physical lines
// of at most 75 octets, folds that never split a UTF-8 sequence, content
// lines NAME *(;PARAM=VALUE) : VALUE, BEGIN/END nesting.
func parseICS(t *testing.T, b []byte) *icsComp {
	t.Helper()
	s := string(b)
	if !strings.HasSuffix(s, "\r\n") {
		t.Fatal("the calendar does not end with CRLF")
	}
	phys := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	var logical []string
	for i, l := range phys {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Fatalf("line %d is %d octets long (limit 75): %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Fatalf("line %d is not valid UTF-8 on its own (a fold split a character): %q", i+1, l)
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if len(logical) == 0 {
				t.Fatalf("line %d continues nothing", i+1)
			}
			logical[len(logical)-1] += l[1:]
			continue
		}
		logical = append(logical, l)
	}
	var stack []*icsComp
	var root *icsComp
	for _, l := range logical {
		p := parseContentLine(t, l)
		switch p.Name {
		case "BEGIN":
			c := &icsComp{Name: p.Value, Props: map[string][]icsProp{}}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.Subs = append(top.Subs, c)
			} else if root != nil {
				t.Fatal("a second top-level component")
			} else {
				root = c
			}
			stack = append(stack, c)
		case "END":
			if len(stack) == 0 || stack[len(stack)-1].Name != p.Value {
				t.Fatalf("END:%s does not close the open component", p.Value)
			}
			stack = stack[:len(stack)-1]
		default:
			if len(stack) == 0 {
				t.Fatalf("property outside any component: %q", l)
			}
			top := stack[len(stack)-1]
			top.Props[p.Name] = append(top.Props[p.Name], p)
		}
	}
	if len(stack) != 0 || root == nil || root.Name != "VCALENDAR" {
		t.Fatal("not one complete VCALENDAR")
	}
	if root.one(t, "VERSION") != "2.0" || root.one(t, "PRODID") == "" {
		t.Fatal("VCALENDAR needs VERSION:2.0 and a PRODID")
	}
	uids := map[string]bool{}
	for _, ev := range root.Subs {
		if ev.Name != "VEVENT" {
			continue
		}
		uid := unescapeText(t, ev.one(t, "UID"))
		if uids[uid] {
			t.Fatalf("UID %s appears twice", uid)
		}
		uids[uid] = true
		utcTime(t, ev.one(t, "DTSTAMP"))
		start := utcTime(t, ev.one(t, "DTSTART"))
		if ends := ev.Props["DTEND"]; len(ends) == 1 && !utcTime(t, ends[0].Value).After(start) {
			t.Fatalf("%s ends before it starts", uid)
		}
		if seq, err := strconv.Atoi(ev.one(t, "SEQUENCE")); err != nil || seq < 0 {
			t.Fatalf("%s: SEQUENCE %q is not a non-negative integer", uid, ev.one(t, "SEQUENCE"))
		}
		for _, name := range []string{"SUMMARY", "DESCRIPTION"} {
			for _, p := range ev.Props[name] {
				unescapeText(t, p.Value)
			}
		}
	}
	return root
}

// parseContentLine splits NAME *(;PARAM=VALUE) : VALUE.
func parseContentLine(t *testing.T, l string) icsProp {
	t.Helper()
	i := 0
	for i < len(l) && (l[i] >= 'A' && l[i] <= 'Z' || l[i] >= '0' && l[i] <= '9' || l[i] == '-') {
		i++
	}
	if i == 0 {
		t.Fatalf("no property name: %q", l)
	}
	p := icsProp{Name: l[:i], Params: map[string]string{}}
	for i < len(l) && l[i] == ';' {
		j := strings.IndexByte(l[i:], '=')
		if j < 0 {
			t.Fatalf("parameter without value: %q", l)
		}
		name := l[i+1 : i+j]
		i += j + 1
		var v string
		if i < len(l) && l[i] == '"' {
			k := strings.IndexByte(l[i+1:], '"')
			if k < 0 {
				t.Fatalf("unterminated quoted parameter: %q", l)
			}
			v, i = l[i+1:i+1+k], i+2+k
		} else {
			k := strings.IndexAny(l[i:], ";:")
			if k < 0 {
				t.Fatalf("no ':' after parameters: %q", l)
			}
			v, i = l[i:i+k], i+k
		}
		p.Params[name] = v
	}
	if i >= len(l) || l[i] != ':' {
		t.Fatalf("no ':' after the name: %q", l)
	}
	p.Value = l[i+1:]
	return p
}

// unescapeText reads a TEXT value (RFC 5545 3.3.11): only \\ \; \, \n
// \N escapes, no bare ';' or ','.
func unescapeText(t *testing.T, v string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			if i+1 == len(v) {
				t.Fatalf("TEXT ends in a backslash: %q", v)
			}
			i++
			switch v[i] {
			case '\\', ';', ',':
				b.WriteByte(v[i])
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				t.Fatalf("TEXT holds the escape \\%c: %q", v[i], v)
			}
		case ';', ',':
			t.Fatalf("TEXT holds an unescaped %q: %q", c, v)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func utcTime(t *testing.T, v string) time.Time {
	t.Helper()
	tm, err := time.Parse("20060102T150405Z", v)
	if err != nil {
		t.Fatalf("%q is not a UTC DATE-TIME: %v", v, err)
	}
	return tm
}

// events maps UID to VEVENT.
func events(t *testing.T, cal *icsComp) map[string]*icsComp {
	out := map[string]*icsComp{}
	for _, ev := range cal.Subs {
		out[unescapeText(t, ev.one(t, "UID"))] = ev
	}
	return out
}

func TestICSGolden(t *testing.T) {
	t.Parallel()
	golden(t, "team.ics", write(t, teamSnapshot(t), export.Options{Format: "ics"}))
	golden(t, "swiss-alice.ics", write(t, swissSnapshot(t), export.Options{Format: "ics", Entrant: "alice"}))
}

func TestICSParses(t *testing.T) {
	t.Parallel()
	s := swissSnapshot(t)
	cal := parseICS(t, write(t, s, export.Options{Format: "ics"}))
	evs := events(t, cal)
	// 4 round windows, each with its deadline, 3 with an offer deadline;
	// 3 matches with an agreed time (not the byes nor dave–bob).
	if len(evs) != 4*2+3+3 {
		t.Errorf("%d entries, want %d", len(evs), 4*2+3+3)
	}
	m := evs["spring-open-s1r3b1@arbiter.example"]
	if m == nil {
		t.Fatalf("no entry for match s1r3b1: %v", evs)
	}
	if got := unescapeText(t, m.one(t, "SUMMARY")); got != "Spring Open | Rapid *2026*: alice vs dave" {
		t.Errorf("summary %q", got)
	}
	if got, want := utcTime(t, m.one(t, "DTSTART")), time.Date(2026, 1, 21, 19, 30, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("start %s, want %s", got, want)
	}
	// ACWC: 10 games of 1+2 at 2 x 60 s + 80 x 2 s = 280 s each: 46 min
	// 40 s, rounded up to 1 h.
	if got := utcTime(t, m.one(t, "DTEND")).Sub(utcTime(t, m.one(t, "DTSTART"))); got != time.Hour {
		t.Errorf("duration %s, want 1h", got)
	}
	if got := m.one(t, "URL"); got != "https://arbiter.example/events/spring-open/matches/s1r3b1" {
		t.Errorf("URL %s", got)
	}
	if got := unescapeText(t, m.one(t, "DESCRIPTION")); !strings.Contains(got, "\nBlack: dave\nMatch page: https://arbiter.example/events/spring-open/matches/s1r3b1") {
		t.Errorf("description %q", got)
	}
	if got := m.one(t, "SEQUENCE"); got != "4" {
		t.Errorf("SEQUENCE %s, want 4 (version 5)", got)
	}
	dl := evs["spring-open-s1r2-deadline@arbiter.example"]
	if dl == nil || utcTime(t, dl.one(t, "DTSTART")) != time.Date(2026, 1, 18, 23, 59, 0, 0, time.UTC) {
		t.Errorf("round 2 deadline entry: %+v", dl)
	}

	// A changed time updates the same entry: same UID, a later SEQUENCE.
	s.Matches[6].ScheduledAt = time.Date(2026, 1, 22, 17, 0, 0, 0, time.UTC)
	s.Matches[6].Version++
	again := events(t, parseICS(t, write(t, s, export.Options{Format: "ics"})))
	m2 := again["spring-open-s1r3b1@arbiter.example"]
	if m2 == nil || m2.one(t, "SEQUENCE") != "5" || m2.one(t, "DTSTART") != "20260122T170000Z" {
		t.Errorf("after the change: %+v", m2)
	}
}

func TestICSTeamAndPlayerFeeds(t *testing.T) {
	t.Parallel()
	s := teamSnapshot(t)
	for _, o := range []export.Options{{Format: "ics", Entrant: "rooks"}, {Format: "ics", Player: "R2"}} {
		cal := parseICS(t, write(t, s, o))
		var matches []string
		for uid, ev := range events(t, cal) {
			if strings.Contains(uid, "b1@") || strings.Contains(uid, "b2@") {
				matches = append(matches, unescapeText(t, ev.one(t, "SUMMARY")))
			}
		}
		// The rooks have one match with an agreed time: the final.
		if len(matches) != 1 || matches[0] != "RKCC Winter: vs Knights, Inc. | A" {
			t.Errorf("%+v: matches %q", o, matches)
		}
		if name := unescapeText(t, cal.one(t, "X-WR-CALNAME")); !strings.HasPrefix(name, "RKCC Winter — ") {
			t.Errorf("calendar name %q", name)
		}
	}
}

func TestICSFolding(t *testing.T) {
	t.Parallel()
	s := swissSnapshot(t)
	// Multi-byte characters across the fold, and every escaped character.
	s.Event.Name = strings.Repeat("Échecs; à, \\ ", 9) + "\nfin"
	cal := parseICS(t, write(t, s, export.Options{Format: "ics"}))
	if got := unescapeText(t, cal.one(t, "X-WR-CALNAME")); got != s.Event.Name {
		t.Errorf("name came back as %q", got)
	}
}

func TestICSRegistration(t *testing.T) {
	t.Parallel()
	s := swissSnapshot(t)
	s.Event.Status, s.Event.Calendar, s.Rounds, s.Matches = arbiter.EventRegistration, nil, nil, nil
	cal := parseICS(t, write(t, s, export.Options{Format: "ics"}))
	if len(cal.Subs) != 0 {
		t.Errorf("a calendar in registration has %d entries", len(cal.Subs))
	}
}
