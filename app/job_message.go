package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/jobs"
	"arbiter/sqlstore"
)

// MessageJob sends a user the lines waiting in their outbox as one
// Lichess message (messages.go). Batch is when the first line came:
// lines added meanwhile join it.
type MessageJob struct {
	EventSlug string    `json:"event"`
	User      string    `json:"user"`
	Batch     time.Time `json:"batch"`
}

func (MessageJob) Kind() string { return "lichess_message" }
func (j MessageJob) Key() string {
	return fmt.Sprintf("message:%s:%s@%s", j.EventSlug, j.User, j.Batch.UTC().Format(time.RFC3339Nano))
}
func (j MessageJob) Event() string { return j.EventSlug }

// ReminderJob tells a match's sides, at its time, what is coming: the
// agreed start in an hour ("start", At is the start), or the deadline in
// 24 hours without an agreed time ("deadline").
type ReminderJob struct {
	EventSlug string    `json:"event"`
	Match     string    `json:"match"`
	What      string    `json:"what"`
	At        time.Time `json:"at"`
}

func (ReminderJob) Kind() string { return "reminder" }
func (j ReminderJob) Key() string {
	return fmt.Sprintf("reminder:%s:%s:%s@%s", j.EventSlug, j.Match, j.What, j.At.UTC().Format(time.RFC3339))
}
func (j ReminderJob) Event() string { return j.EventSlug }

func init() {
	addJobKind(jobKind{
		name: MessageJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{MaxAttempts: 8}, s.runMessageJob)
		},
		what: func(args json.RawMessage) string {
			var j MessageJob
			json.Unmarshal(args, &j)
			return "Lichess message to " + j.User
		},
	})
	addJobKind(jobKind{
		name: ReminderJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{}, func(ctx context.Context, j *jobs.Job[ReminderJob]) error {
				return s.remind(ctx, j.Args)
			})
		},
		what: func(args json.RawMessage) string {
			var j ReminderJob
			json.Unmarshal(args, &j)
			return "Reminder (" + j.What + ") for match " + j.Match
		},
	})
}

func (s *Service) runMessageJob(ctx context.Context, j *jobs.Job[MessageJob]) error {
	st, err := load(ctx, s.DB, j.Args.EventSlug)
	if err != nil {
		return err
	}
	ob, _, err := docOutbox.read(ctx, s.DB, st.row.ID, j.Args.User)
	if err != nil {
		return err
	}
	var ids []string
	var lines []OutLine
	for _, l := range ob.Lines {
		if !l.Sent {
			ids, lines = append(ids, l.ID), append(lines, l)
		}
	}
	_, sent, err := j.Effect(ctx)
	if err != nil {
		return err
	}
	if !sent && len(lines) > 0 && st.ev.Messages {
		if s.lichess == nil {
			return arbiter.Errorf(arbiter.EUNAVAILABLE, "this process has no Lichess client: messages wait")
		}
		if err := s.lichess.SendMessage(ctx, j.Args.User, compose(st.ev.Name, lines)); err != nil {
			return jobError(lichessFailure(err, "sending %s a message on Lichess", j.Args.User))
		}
		if err := j.RecordEffect(ctx, fmt.Sprintf("%d lines", len(lines))); err != nil {
			return err
		}
	}
	// Mark what was sent; lines that came meanwhile get a message of their own.
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		ob, v, err := docOutbox.read(ctx, tx, st.row.ID, j.Args.User)
		if err != nil {
			return err
		}
		for i := range ob.Lines {
			if slices.Contains(ids, ob.Lines[i].ID) {
				ob.Lines[i].Sent = true
			}
		}
		if _, err := docOutbox.update(ctx, tx, change(systemJob, "message.sent", fmt.Sprintf("%d lines", len(ids)), false), st, j.Args.User, v, ob); err != nil {
			return err
		}
		return s.enqueueMessage(ctx, tx, st.ev.Slug, ob)
	})
}

// remind tells a match's sides of its start in an hour, or of its deadline
// in 24 hours with no time agreed; nothing when the match moved on.
func (s *Service) remind(ctx context.Context, r ReminderJob) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, r.EventSlug)
		if err != nil {
			return err
		}
		m, rd, err := matchInRound(ctx, tx, st, r.Match)
		if err != nil || m.Status != arbiter.MatchScheduled || rd.Status != arbiter.RoundPublished {
			return err
		}
		sides, err := s.sideUsers(ctx, tx, st, &m)
		if err != nil {
			return err
		}
		var id, text string
		switch {
		case r.What == "start" && m.ScheduledAt.Equal(r.At):
			id = "start:" + m.ID + "@" + r.At.UTC().Format(time.RFC3339)
			text = fmt.Sprintf("%s: your match starts at %s, in one hour. Arbiter creates the games on Lichess then; the links are on %s",
				st.ev.Name, calendar.Format(r.At), s.matchURL(st.ev.Slug, m.ID))
		case r.What == "deadline" && m.ScheduledAt.IsZero() && !slices.ContainsFunc(m.BoardTimes, func(t time.Time) bool { return !t.IsZero() }):
			id = "deadline:" + m.ID
			text = fmt.Sprintf("%s: your match has no agreed time and the round ends %s. Agree a time now: %s",
				st.ev.Name, calendar.Format(rd.End.Add(-1)), s.matchURL(st.ev.Slug, m.ID))
		default:
			return nil
		}
		for _, u := range sides {
			if err := s.tell(ctx, tx, st, u, id, text); err != nil {
				return err
			}
		}
		return nil
	})
}
