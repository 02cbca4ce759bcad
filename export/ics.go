package export

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter"
	"arbiter/format"
)

// iCalendar feeds (RFC 5545) of an event, of one entrant (Options.Entrant)
// or of the entrants a user plays for (Options.Player): every round's
// window, its deadline and its time-offer deadline, and every match with
// an agreed start time, with the opponent and the match page. Calendar
// apps subscribe to the feed (webcal://) and poll it, so:
//
//   - each entry has a UID that never changes (the event's slug and the
//     round or match ID), so a poll updates the entry instead of adding one;
//   - SEQUENCE grows when an entry changes: a match's is its record's
//     version (which grows with every change to the match, its agreed time
//     included), a round's the event plan's version;
//   - times are UTC ("Z"); lines end in CRLF and are folded at 75 octets;
//     text escapes backslash, semicolon, comma and line breaks.

// WriteICS writes the calendar of o (as Resolve returned it).
func WriteICS(w io.Writer, s *Snapshot, o Options) error {
	c := &icsWriter{w: bufio.NewWriter(w)}
	host := "arbiter.invalid"
	if u, err := url.Parse(s.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	name := s.Event.Name
	var mine map[string]bool // the entrants whose matches are listed; nil = all
	switch {
	case o.Entrant != "":
		mine = map[string]bool{o.Entrant: true}
		name += " — " + s.name(o.Entrant)
	case o.Player != "":
		mine = map[string]bool{}
		for _, id := range entrantsOf(s, o.Player) {
			mine[id] = true
		}
		name += " — " + o.Player
	}
	stamp := icsTime(s.Now)
	c.line("BEGIN", "VCALENDAR")
	c.line("VERSION", "2.0")
	c.line("PRODID", "-//Arbiter//Arbiter event calendar//EN")
	c.line("CALSCALE", "GREGORIAN")
	c.line("METHOD", "PUBLISH")
	c.text("X-WR-CALNAME", name)
	c.line("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
	c.line("X-PUBLISHED-TTL", "PT1H")
	planSeq := fmt.Sprint(max(s.Event.Version-1, 0))
	for _, win := range s.Event.Calendar {
		rid := roundID(win.Stage, win.Number)
		title := fmt.Sprintf("%s: round %d", s.Event.Name, win.Number)
		if s.stageCount() > 1 {
			title = fmt.Sprintf("%s: %s round %d", s.Event.Name, s.stageName(win.Stage), win.Number)
		}
		page := s.roundURL(win.Stage, win.Number)
		desc := fmt.Sprintf("Round window: %s to %s.", utc(win.Start), utc(deadlineOf(win.End)))
		if page != "" {
			desc += "\nPairings: " + page
		}
		c.event(icsEvent{uid: fmt.Sprintf("%s-%s-window@%s", s.Event.Slug, rid, host), stamp: stamp, seq: planSeq,
			start: win.Start, end: win.End, summary: title, desc: desc, url: page, transparent: true})
		c.event(icsEvent{uid: fmt.Sprintf("%s-%s-deadline@%s", s.Event.Slug, rid, host), stamp: stamp, seq: planSeq,
			start: deadlineOf(win.End), end: win.End, summary: title + " deadline",
			desc: "Every match of the round must be played by " + utc(deadlineOf(win.End)) + ".", url: page, transparent: true})
		if !win.OfferDeadline.IsZero() {
			c.event(icsEvent{uid: fmt.Sprintf("%s-%s-offers@%s", s.Event.Slug, rid, host), stamp: stamp, seq: planSeq,
				start: deadlineOf(win.OfferDeadline), end: win.OfferDeadline, summary: title + ": time offers due",
				desc: "Time offers for the round's matches are due by " + utc(deadlineOf(win.OfferDeadline)) + ".", url: page, transparent: true})
		}
	}
	for _, m := range s.Matches {
		if m.IsBye() || m.ScheduledAt.IsZero() || (mine != nil && !mine[m.Home] && !mine[m.Away]) {
			continue
		}
		home, away := s.name(m.Home), s.name(m.Away)
		summary := home + " vs " + away
		if mine != nil && mine[m.Home] != mine[m.Away] {
			opp := away
			if mine[m.Away] {
				opp = home
			}
			summary = "vs " + opp
		}
		white, black := "White", "Black"
		if s.team() {
			white, black = "Home", "Away"
		}
		desc := fmt.Sprintf("%s, %s round %d.\n%s: %s\n%s: %s", s.Event.Name, s.stageName(m.Stage), m.Round, white, home, black, away)
		if page := s.matchURL(m.ID); page != "" {
			desc += "\nMatch page: " + page
		}
		c.event(icsEvent{uid: fmt.Sprintf("%s-%s@%s", s.Event.Slug, m.ID, host), stamp: stamp,
			seq: fmt.Sprint(max(m.Version-1, 0)), start: m.ScheduledAt, end: m.ScheduledAt.Add(matchDuration(s, m)),
			summary: s.Event.Name + ": " + summary, desc: desc, url: s.matchURL(m.ID)})
	}
	c.line("END", "VCALENDAR")
	if c.err != nil {
		return c.err
	}
	return c.w.Flush()
}

type icsEvent struct {
	uid, stamp, seq    string
	start, end         time.Time
	summary, desc, url string
	transparent        bool
}

func (c *icsWriter) event(e icsEvent) {
	c.line("BEGIN", "VEVENT")
	c.text("UID", e.uid)
	c.line("DTSTAMP", e.stamp)
	c.line("SEQUENCE", e.seq)
	c.line("DTSTART", icsTime(e.start))
	c.line("DTEND", icsTime(e.end))
	c.text("SUMMARY", e.summary)
	c.text("DESCRIPTION", e.desc)
	if e.url != "" {
		c.line("URL", e.url)
	}
	c.line("STATUS", "CONFIRMED")
	if e.transparent {
		c.line("TRANSP", "TRANSPARENT")
	} else {
		c.line("TRANSP", "OPAQUE")
	}
	c.line("END", "VEVENT")
}

// matchDuration estimates how long a match takes: each game at 40 moves
// a side, both clocks used up (2 × base + 80 × increment), rounded up to
// a quarter of an hour. A calendar entry needs an end; the real one is
// whenever the last game ends.
func matchDuration(s *Snapshot, m arbiter.Match) time.Duration {
	mf := s.stageMatch(m.Stage)
	if s.Format != nil && m.Stage < len(s.Format.Stages) {
		st := &s.Format.Stages[m.Stage]
		switch {
		case m.Format == "final" && st.Final != nil:
			mf = st.Final
		case m.Format == "third_place" && st.ThirdPlaceMatch != nil:
			mf = st.ThirdPlaceMatch
		}
	}
	if mf == nil {
		return time.Hour
	}
	var secs int
	for _, p := range mf.Parts {
		secs += p.Games * gameSeconds(p.TC)
	}
	d := time.Duration(secs) * time.Second
	q := 15 * time.Minute
	if d <= 0 {
		return time.Hour
	}
	return (d + q - 1) / q * q
}

func gameSeconds(tc format.TimeControl) int { return 2*tc.BaseSeconds + 80*tc.IncrementSeconds }

// icsTime is a UTC DATE-TIME: 20260105T180000Z.
func icsTime(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// icsWriter writes content lines: NAME[;PARAMS]:VALUE, folded at 75
// octets (never inside a UTF-8 sequence), each ended by CRLF.
type icsWriter struct {
	w   *bufio.Writer
	err error
}

// text writes a TEXT property, escaped.
func (c *icsWriter) text(name, v string) { c.line(name, icsEscape(v)) }

func (c *icsWriter) line(name, value string) {
	if c.err != nil {
		return
	}
	l := name + ":" + value
	const limit = 75
	first := true
	for len(l) > 0 {
		room := limit
		if !first {
			room = limit - 1 // the leading space of a continuation counts
			c.w.WriteByte(' ')
		}
		n := len(l)
		if n > room {
			n = room
			for n > 0 && !utf8.RuneStart(l[n]) {
				n--
			}
		}
		c.w.WriteString(l[:n])
		c.w.WriteString("\r\n")
		l = l[n:]
		first = false
	}
}

// icsEscape escapes a TEXT value (RFC 5545 3.3.11).
func icsEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", "")
	return r.Replace(s)
}
