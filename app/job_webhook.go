package app

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
	"arbiter/webhook"
)

// WebhookJob sends one delivery of a webhook (webhooks.go): signed, with
// retries and backoff. Its key names the delivery and the send (0 the
// first, n a TD's n-th redelivery), and a successful send is recorded
// under it before the job ends, so a re-run after a crash does not send
// again.
type WebhookJob struct {
	EventSlug string `json:"event"`
	Delivery  string `json:"delivery"`
	Send      int    `json:"send,omitempty"`
	// Type and Host say in plain words what the job does.
	Type string `json:"type"`
	Host string `json:"host"`
}

func (WebhookJob) Kind() string { return "webhook" }
func (j WebhookJob) Key() string {
	return "webhook:" + j.EventSlug + ":" + j.Delivery + ":" + strconv.Itoa(j.Send)
}
func (j WebhookJob) Event() string { return j.EventSlug }

// webhookAttempts: 8 tries, the last about an hour after the first
// (jobs.Backoff: 30 s, 1, 2, 4, 8, 16, 32 min).
const webhookAttempts = 8

func init() {
	addJobKind(jobKind{
		name: WebhookJob{}.Kind(),
		add: func(s *Service, k *jobs.Kinds) {
			jobs.Add(k, jobs.Options{MaxAttempts: webhookAttempts, Timeout: time.Minute}, s.runWebhookJob) // once per key
		},
		what: func(args json.RawMessage) string {
			var j WebhookJob
			json.Unmarshal(args, &j)
			return "Webhook " + j.Type + " to " + j.Host
		},
	})
}

func (s *Service) runWebhookJob(ctx context.Context, j *jobs.Job[WebhookJob]) error {
	if _, sent, err := j.Effect(ctx); err != nil || sent {
		return err // sent by an earlier run that did not live to finish
	}
	var d sqlstore.WebhookDelivery
	var w sqlstore.Webhook
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		row, err := sqlstore.GetEventBySlug(ctx, tx, j.Args.EventSlug)
		if err != nil {
			return err
		}
		if d, err = sqlstore.GetWebhookDelivery(ctx, tx, row.ID, j.Args.Delivery); err != nil {
			return err
		}
		w, err = sqlstore.GetWebhook(ctx, tx, row.ID, d.Webhook)
		return err
	})
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil // the webhook was deleted, and its log with it
	}
	if err != nil {
		return err
	}
	if w.Disabled() {
		return s.recordAttempt(ctx, j, d.ID, sqlstore.DeliverySkipped, false, webhook.Response{}, "not sent: the webhook was disabled")
	}
	// The signature's timestamp is the real time, whatever the app's clock
	// (a rehearsal's): receivers compare it with theirs.
	resp, err := s.hookClient().Send(ctx, webhook.Request{URL: w.URL, Secret: w.Secret, Event: d.Type, Delivery: d.ID,
		Body: []byte(d.Body), At: time.Now()})
	if err == nil {
		return s.recordAttempt(ctx, j, d.ID, sqlstore.DeliveryDelivered, true, resp, "")
	}
	permanent := webhook.Permanent(err)
	outcome := sqlstore.DeliveryRetrying
	if permanent || j.Attempt >= j.MaxAttempts {
		outcome = sqlstore.DeliveryFailed
	}
	if rerr := s.recordAttempt(ctx, j, d.ID, outcome, true, resp, err.Error()); rerr != nil {
		return rerr
	}
	if permanent {
		return jobs.Permanent(err)
	}
	return &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: err.Error(), Err: err}
}

// recordAttempt writes a try in the delivery log and, for a success, the
// job's effect, in one transaction.
func (s *Service) recordAttempt(ctx context.Context, j *jobs.Job[WebhookJob], id, outcome string, tried bool, resp webhook.Response, errText string) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		if err := sqlstore.RecordWebhookAttempt(ctx, tx, id, outcome, tried, resp.Status, errText); err != nil {
			return err
		}
		if outcome != sqlstore.DeliveryDelivered {
			return nil
		}
		return sqlstore.RecordJobEffect(ctx, tx, sqlstore.JobEffect{Key: j.Key(), Effect: "HTTP " + strconv.Itoa(resp.Status), JobID: j.ID})
	})
}
