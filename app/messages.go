package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/sqlstore"
)

// Messages through the Lichess inbox (issue 14 §4), sent with the
// organiser's token (msg:write). What happens to a player becomes a line
// in their outbox, in the transaction of the change; a job sends the
// lines waiting MessageBundle later as one message, so many things at
// once make one message rather than a flood. A line has an id made of
// what it is about, so the same thing is never told twice. An event's TDs
// turn messages on (SetMessages); a player may opt out (SetMessageOptOut).
// The texts are in docs/lichess.md ("Messages").

const (
	kindOutbox = "outbox"      // one per user: the lines to send
	kindOptOut = "message_off" // one per user who opted out
)

// MessageBundle is how long a line waits for others before its message
// is sent.
const MessageBundle = 2 * time.Minute

// Outbox is one user's lines, sent and waiting.
type Outbox struct {
	User  string    `json:"user"`
	Lines []OutLine `json:"lines"`

	Version int64 `json:"-"`
}

// OutLine is one thing to tell a user.
type OutLine struct {
	ID   string    `json:"id"` // what it is about: "pairing:s1r1b3"
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	Sent bool      `json:"sent,omitempty"`
}

// SetBaseURL sets the web app's address for links in messages (default
// http://localhost:8080).
func (s *Service) SetBaseURL(u string) { s.baseURL = strings.TrimRight(u, "/") }

func (s *Service) matchURL(slug, id string) string {
	base := s.baseURL
	if base == "" {
		base = "http://localhost:8080"
	}
	return base + "/events/" + slug + "/matches/" + id
}

// SetMessages turns the event's Lichess messages on or off. TD only; audited.
func (s *Service) SetMessages(ctx context.Context, a arbiter.Actor, slug string, on bool) (arbiter.Event, error) {
	var ev arbiter.Event
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "turn Lichess messages on or off"); err != nil {
			return err
		}
		st.ev.Messages = on
		err = st.save(ctx, tx, change(a, "event.messages", fmt.Sprintf("messages on Lichess: %v", on), false))
		ev = st.ev
		return err
	})
	return ev, err
}

// SetMessageOptOut records whether a user wants no Lichess messages from
// the event; each user decides for themselves.
func (s *Service) SetMessageOptOut(ctx context.Context, a arbiter.Actor, slug string, out bool) error {
	if err := requireActor(a); err != nil {
		return err
	}
	user := normUser(a.Name)
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		ch := change(a, "messages.opt_out", fmt.Sprintf("no messages: %v", out), false)
		_, v, err := docOptOut.read(ctx, tx, st.row.ID, user)
		switch arbiter.ErrorCode(err) {
		case "":
			_, err = docOptOut.update(ctx, tx, ch, st, user, v, out)
		case arbiter.ENOTFOUND:
			_, err = docOptOut.create(ctx, tx, ch, st, user, out)
		}
		return err
	})
}

// tell adds a line to user's outbox, unless messages are off, the user
// opted out or the line was told already, and enqueues its message.
func (s *Service) tell(ctx context.Context, tx *sqlstore.Tx, st *state, user, id, text string) error {
	user = normUser(user)
	if s.queue == nil || !st.ev.Messages || user == "" {
		return nil
	}
	out, _, err := docOptOut.read(ctx, tx, st.row.ID, user)
	if err == nil && out {
		return nil
	}
	if err != nil && arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return err
	}
	ob, v, err := docOutbox.read(ctx, tx, st.row.ID, user)
	ch := change(systemJob, "message.queue", id, false)
	line := OutLine{ID: id, Text: text, At: s.now()}
	switch arbiter.ErrorCode(err) {
	case "":
		if slices.ContainsFunc(ob.Lines, func(l OutLine) bool { return l.ID == id }) {
			return nil // told already
		}
		ob.Lines = append(ob.Lines, line)
		_, err = docOutbox.update(ctx, tx, ch, st, user, v, ob)
	case arbiter.ENOTFOUND:
		ob = Outbox{User: user, Lines: []OutLine{line}}
		_, err = docOutbox.create(ctx, tx, ch, st, user, ob)
	}
	if err != nil {
		return err
	}
	return s.enqueueMessage(ctx, tx, st.ev.Slug, ob)
}

// enqueueMessage enqueues the message of the user's waiting lines: its
// batch is the first waiting line's time, so lines added while it waits
// join it (the same key), and later ones start the next.
func (s *Service) enqueueMessage(ctx context.Context, tx *sqlstore.Tx, slug string, ob Outbox) error {
	i := slices.IndexFunc(ob.Lines, func(l OutLine) bool { return !l.Sent })
	if i < 0 {
		return nil
	}
	first := ob.Lines[i].At
	_, err := s.queue.Enqueue(ctx, tx, MessageJob{EventSlug: slug, User: ob.User, Batch: first}, first.Add(MessageBundle))
	return err
}

// compose writes one message from lines.
func compose(evName string, lines []OutLine) string {
	if len(lines) == 1 {
		return lines[0].Text
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d updates\n", evName, len(lines))
	for _, l := range lines {
		b.WriteString("\n- " + l.Text)
	}
	return b.String()
}

// messageHooks are the lines the changes of a transaction tell, for
// events with messages on.
func (s *Service) messageHooks(ctx context.Context, tx *sqlstore.Tx, st *state, e sqlstore.AuditEntry) error {
	if !st.ev.Messages {
		return nil
	}
	name := st.ev.Name
	switch e.Kind {
	case kindRound:
		var before, after arbiter.Round
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil || before.Status == after.Status {
			return nil
		}
		if err := s.announceRound(ctx, tx, st, after); err != nil { // messages_team.go
			return err
		}
		if after.Status != arbiter.RoundPublished {
			return nil
		}
		for _, id := range after.Matches {
			m, err := docMatch.get(ctx, tx, st, id)
			if err != nil || m.IsBye() {
				return err
			}
			sides, err := s.sideUsers(ctx, tx, st, &m)
			if err != nil {
				return err
			}
			for i, u := range sides {
				opp := sides[1-i]
				text := fmt.Sprintf("%s, round %d: you play %s. Deadline %s. Agree a time on the match page: %s",
					name, after.Number, opp, calendar.Format(after.End.Add(-1)), s.matchURL(st.ev.Slug, m.ID))
				if err := s.tell(ctx, tx, st, u, "pairing:"+m.ID, text); err != nil {
					return err
				}
			}
			if at := after.End.Add(-24 * time.Hour); at.After(s.now()) {
				if _, err := s.queue.Enqueue(ctx, tx, ReminderJob{EventSlug: st.ev.Slug, Match: m.ID, What: "deadline", At: at}, at); err != nil {
					return err
				}
			}
		}
	case kindMatch:
		var before, after arbiter.Match
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil {
			return nil
		}
		if at := after.ScheduledAt; !at.IsZero() && !at.Equal(before.ScheduledAt) && at.Add(-time.Hour).After(s.now()) {
			if _, err := s.queue.Enqueue(ctx, tx, ReminderJob{EventSlug: st.ev.Slug, Match: after.ID, What: "start", At: at}, at.Add(-time.Hour)); err != nil {
				return err
			}
		}
		if after.Status == arbiter.MatchReported && (before.Status != arbiter.MatchReported || before.Report != after.Report) {
			rep, err := docReport.get(ctx, tx, st, after.Report)
			if err != nil {
				return err
			}
			sides, err := s.sideUsers(ctx, tx, st, &after)
			if err != nil {
				return err
			}
			score := ""
			if after.Result != nil {
				score = after.Result.Home.Points.String() + "-" + after.Result.Away.Points.String()
			}
			for i, u := range sides {
				if rep.Side == arbiter.SideAt(i) {
					continue // the reporter's side knows
				}
				text := fmt.Sprintf("%s: a result of your match was reported (%s, %s). Confirm or dispute it: %s",
					name, score, orField(map[bool]string{true: "from Lichess"}[rep.By == LichessReporter.Name], "by "+rep.By), s.matchURL(st.ev.Slug, after.ID))
				if err := s.tell(ctx, tx, st, u, "result:"+rep.ID, text); err != nil {
					return err
				}
			}
		}
	case kindAppeal:
		var before, after arbiter.Appeal
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil || before.Status == after.Status || after.Status == arbiter.AppealPending {
			return nil
		}
		text := fmt.Sprintf("%s: your appeal on match %s was %s: %s", name, after.Match, after.Status, after.Decision)
		return s.tell(ctx, tx, st, after.By, "appeal:"+after.ID, text)
	}
	return nil
}

// sideUsers are who hears about a match: the players of an individual
// match, the captains of a team match (home first).
func (s *Service) sideUsers(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match) ([2]string, error) {
	var out [2]string
	for i, id := range []string{m.Home, m.Away} {
		e, err := docEntrant.get(ctx, q, st, id)
		if err != nil {
			return out, err
		}
		out[i] = orField(e.Player, e.Captain)
	}
	return out, nil
}
