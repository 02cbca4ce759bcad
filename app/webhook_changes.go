package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

// occurrence is one moment a webhook is sent for, found in the audit
// entries of the transaction that made it.
type occurrence struct {
	Type  string
	ID    string // unique per change: "round.published/round/s1r3@4"
	At    time.Time
	By    string
	Round *arbiter.Round
	Match *arbiter.Match
	Stage int // stage.finished: the stage (0-based) that ended
	// EventFinished: stage.finished of the last stage.
	EventFinished bool
}

// occurrencesOf reads what an audit entry means for webhooks: a round
// going to published or closed, a match's result becoming final (or a
// final result changing), a match's agreed time set or moved, the event
// going on to its next stage or finishing.
func occurrencesOf(e sqlstore.AuditEntry) []occurrence {
	id := func(t string) string { return fmt.Sprintf("%s/%s/%s@%d", t, e.Kind, e.RecordID, e.Version) }
	mk := func(t string) occurrence { return occurrence{Type: t, ID: id(t), At: e.At, By: e.Actor.Name} }
	var out []occurrence
	switch {
	case e.Kind == kindRound && e.After != nil:
		var before, after arbiter.Round
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil || before.Status == after.Status {
			return nil
		}
		switch after.Status {
		case arbiter.RoundPublished:
			o := mk(HookRoundPublished)
			o.Round = &after
			out = append(out, o)
		case arbiter.RoundClosed:
			o := mk(HookRoundClosed)
			o.Round = &after
			out = append(out, o)
		}
	case e.Kind == kindMatch && e.After != nil:
		var before, after arbiter.Match
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil {
			return nil
		}
		if !after.ScheduledAt.IsZero() && !after.ScheduledAt.Equal(before.ScheduledAt) {
			o := mk(HookTimeAgreed)
			o.Match = &after
			out = append(out, o)
		}
		if after.Status == arbiter.MatchFinal && (before.Status != arbiter.MatchFinal || !sameResult(before, after)) {
			o := mk(HookResultFinal)
			o.Match = &after
			out = append(out, o)
		}
	case e.Kind == kindEvent && e.RecordID == docID && e.Before != nil && e.After != nil:
		var before, after arbiter.Event
		if decode(e.Before, &before) != nil || decode(e.After, &after) != nil {
			return nil
		}
		if after.Stage > before.Stage {
			o := mk(HookStageFinished)
			o.Stage = before.Stage
			out = append(out, o)
		}
		if after.Status == arbiter.EventFinished && before.Status != arbiter.EventFinished {
			o := mk(HookStageFinished)
			o.ID += "/event"
			o.Stage, o.EventFinished = after.Stage, true
			out = append(out, o)
		}
	}
	return out
}

// decode reads a document of an audit entry; nil (no document) is the
// zero value.
func decode(b json.RawMessage, v any) error {
	if b == nil {
		return nil
	}
	return json.Unmarshal(b, v)
}

// sameResult compares two final results as the standings see them.
func sameResult(a, b arbiter.Match) bool {
	ja, _ := json.Marshal(a.Result)
	jb, _ := json.Marshal(b.Result)
	return bytes.Equal(ja, jb) && a.Decision == b.Decision
}

// changeHooks runs before a transaction commits (integrations.go): for
// each event whose change a webhook wants, it stores the deliveries and
// enqueues their jobs; for a knockout result made final in an event
// linked to a Challonge tournament, it enqueues the push. Events without
// webhooks or Challonge cost one query per change of interest; other
// changes cost nothing.
func (s *Service) changeHooks(ctx context.Context, tx *sqlstore.Tx, written []sqlstore.AuditEntry) error {
	if s.queue == nil {
		return nil
	}
	byEvent := map[string][]occurrence{}
	var order []string
	for _, e := range written {
		occ := occurrencesOf(e)
		if len(occ) == 0 || e.EventID == "" {
			continue
		}
		if _, seen := byEvent[e.EventID]; !seen {
			order = append(order, e.EventID)
		}
		byEvent[e.EventID] = append(byEvent[e.EventID], occ...)
	}
	for _, id := range order {
		if err := s.eventHooks(ctx, tx, id, byEvent[id]); err != nil {
			return err
		}
	}
	return s.lichessHooks(ctx, tx, written) // job_import.go
}

func (s *Service) eventHooks(ctx context.Context, tx *sqlstore.Tx, eventID string, occ []occurrence) error {
	ws, err := sqlstore.Webhooks(ctx, tx, eventID)
	if err != nil {
		return err
	}
	ws = slices.DeleteFunc(ws, func(w sqlstore.Webhook) bool { return w.Disabled() })
	wanted := func(o occurrence) bool {
		return o.Type == HookResultFinal && o.Match.Bracket != "" ||
			slices.ContainsFunc(ws, func(w sqlstore.Webhook) bool { return slices.Contains(w.Events, o.Type) })
	}
	if !slices.ContainsFunc(occ, wanted) {
		return nil
	}
	row, err := sqlstore.GetEvent(ctx, tx, eventID)
	if err != nil {
		return err
	}
	st, err := load(ctx, tx, row.Slug)
	if err != nil {
		return err
	}
	// A match of a round still under the TDs' review (a bye is final from
	// the start) is nobody else's business yet: its round's publication
	// tells of it.
	pb := &payloadBuilder{ctx: ctx, tx: tx, st: st}
	var keep []occurrence
	for _, o := range occ {
		if !wanted(o) {
			continue
		}
		if o.Match != nil {
			rd, err := pb.round(roundID(o.Match.Stage, o.Match.Round))
			if err != nil {
				return err
			}
			if rd.Status == arbiter.RoundPaired {
				continue
			}
		}
		keep = append(keep, o)
	}
	if slices.ContainsFunc(keep, func(o occurrence) bool { return o.Type == HookResultFinal && o.Match.Bracket != "" }) {
		if err := s.autoPushChallonge(ctx, tx, st); err != nil {
			return err
		}
	}
	for _, o := range keep {
		var body *HookPayload
		for _, w := range ws {
			if !slices.Contains(w.Events, o.Type) {
				continue
			}
			if body == nil {
				if body, err = pb.build(o); err != nil {
					return err
				}
			}
			b, err := json.Marshal(body.withBase(w.BaseURL))
			if err != nil {
				return err
			}
			d, added, err := sqlstore.AddWebhookDelivery(ctx, tx, sqlstore.WebhookDelivery{Webhook: w.ID, EventID: eventID,
				Occurrence: o.ID, Type: o.Type, Body: string(b)})
			if err != nil {
				return err
			}
			if !added {
				continue // already delivered for this change
			}
			in, err := s.queue.Enqueue(ctx, tx, WebhookJob{EventSlug: row.Slug, Delivery: d.ID, Type: o.Type, Host: webhookOf(w).Host()}, time.Time{})
			if err != nil {
				return err
			}
			if err := sqlstore.SetWebhookDeliveryJob(ctx, tx, d.ID, in.ID, 0); err != nil {
				return err
			}
		}
	}
	return nil
}
