package app

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/jobs"
	"arbiter/sqlstore"
	"arbiter/webhook"
)

// Outgoing webhooks: a TD registers endpoints for an event, each with the
// moments it wants (WebhookTypes); when one happens, the transaction that
// made it stores a delivery per endpoint with its body and enqueues the
// job that sends it (webhook_changes.go), so a delivery exists exactly
// when the change committed, whichever use case made it. The job signs
// and sends it, retrying with backoff, and keeps a log the TDs read
// (job_webhook.go). docs/exports.md documents the bodies and how a
// receiver checks the signature.

// The webhook types: what a webhook may be sent for.
const (
	HookRoundPublished = "round.published" // a round's pairings are public
	HookTimeAgreed     = "time.agreed"     // a match's start time was agreed (or changed)
	HookResultFinal    = "result.final"    // a match's result is final (or a final one was changed)
	HookRoundClosed    = "round.closed"    // a round closed at its deadline
	HookStageFinished  = "stage.finished"  // a stage ended (the event, after the last)
)

// WebhookTypes lists every type in order.
var WebhookTypes = []string{HookRoundPublished, HookTimeAgreed, HookResultFinal, HookRoundClosed, HookStageFinished}

// maxWebhooks bounds an event's endpoints: each change is sent to each.
const maxWebhooks = 10

// webhookClause is the rule cited for webhook requests.
const webhookClause = "app.webhook"

// Webhook is an endpoint as the TDs see it (never its secret).
type Webhook struct {
	ID         string    `json:"id"`
	URL        string    `json:"url"`
	Events     []string  `json:"events"`
	BaseURL    string    `json:"base_url,omitempty"`
	CreatedBy  string    `json:"created_by"`
	CreatedAt  time.Time `json:"created_at"`
	DisabledBy string    `json:"disabled_by,omitempty"`
	DisabledAt time.Time `json:"disabled_at,omitzero"`
}

func webhookOf(w sqlstore.Webhook) Webhook {
	return Webhook{ID: w.ID, URL: w.URL, Events: w.Events, BaseURL: w.BaseURL, CreatedBy: w.CreatedBy, CreatedAt: w.CreatedAt,
		DisabledBy: w.DisabledBy, DisabledAt: w.DisabledAt}
}

// Host is the endpoint's host, to name it in plain words.
func (w Webhook) Host() string {
	if u, err := url.Parse(w.URL); err == nil {
		return u.Host
	}
	return w.URL
}

// NewWebhook is what CreateWebhook needs.
type NewWebhook struct {
	URL    string
	Events []string
	// BaseURL is the web app's address, for the links in the bodies
	// ("https://arbiter.example"); "" leaves the links relative.
	BaseURL string
}

// CreateWebhook registers an endpoint for the event and returns the
// secret that signs its deliveries, shown this once. TD only; audited.
// The URL must be http or https and, unless the server allows it, not a
// loopback or private address (webhook.CheckURL).
func (s *Service) CreateWebhook(ctx context.Context, a arbiter.Actor, slug string, req NewWebhook) (string, Webhook, error) {
	u, err := webhook.CheckURL(req.URL, s.integrations.allowPrivate)
	if err != nil {
		return "", Webhook{}, arbiter.FieldError("url", webhookClause, "%v", err)
	}
	if len(u.String()) > 500 {
		return "", Webhook{}, arbiter.FieldError("url", webhookClause, "the URL is longer than 500 characters")
	}
	var types []string
	for i, t := range req.Events {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(WebhookTypes, t) {
			return "", Webhook{}, arbiter.FieldError(fmt.Sprintf("events[%d]", i), webhookClause, "unknown event %q (events: %s)", t, strings.Join(WebhookTypes, ", "))
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return "", Webhook{}, arbiter.FieldError("events", webhookClause, "choose what the webhook is sent for: %s", strings.Join(WebhookTypes, ", "))
	}
	slices.SortFunc(types, func(x, y string) int { return slices.Index(WebhookTypes, x) - slices.Index(WebhookTypes, y) })
	base := strings.TrimRight(strings.TrimSpace(req.BaseURL), "/")
	if base != "" {
		if b, err := url.Parse(base); err != nil || (b.Scheme != "http" && b.Scheme != "https") || b.Host == "" {
			return "", Webhook{}, arbiter.FieldError("base_url", webhookClause, "the web app's address is an http or https URL, not %q", base)
		}
	}
	var secret string
	var w sqlstore.Webhook
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "add webhooks"); err != nil {
			return err
		}
		have, err := sqlstore.Webhooks(ctx, tx, st.row.ID)
		if err != nil {
			return err
		}
		if len(have) >= maxWebhooks {
			return arbiter.RuleError(webhookClause, "an event has at most %d webhooks; delete one first", maxWebhooks)
		}
		secret, w, err = sqlstore.CreateWebhook(ctx, tx, change(a, "webhook.create", "", false),
			sqlstore.Webhook{EventID: st.row.ID, URL: u.String(), Events: types, BaseURL: base})
		return err
	})
	return secret, webhookOf(w), err
}

// Webhooks lists the event's endpoints. TD only.
func (s *Service) Webhooks(ctx context.Context, a arbiter.Actor, slug string) ([]Webhook, error) {
	var out []Webhook
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "see the webhooks"); err != nil {
			return err
		}
		ws, err := sqlstore.Webhooks(ctx, tx, st.row.ID)
		for _, w := range ws {
			out = append(out, webhookOf(w))
		}
		return err
	})
	return out, err
}

// DisableWebhook stops sending to an endpoint; deliveries still queued
// for it are not sent. TD only; audited.
func (s *Service) DisableWebhook(ctx context.Context, a arbiter.Actor, slug, id string) (Webhook, error) {
	return s.changeWebhook(ctx, a, slug, id, "disable webhooks", func(tx *sqlstore.Tx, st *state) (sqlstore.Webhook, error) {
		return sqlstore.DisableWebhook(ctx, tx, change(a, "webhook.disable", "", false), st.row.ID, id)
	})
}

// DeleteWebhook removes an endpoint and its delivery log. TD only;
// audited.
func (s *Service) DeleteWebhook(ctx context.Context, a arbiter.Actor, slug, id string) (Webhook, error) {
	return s.changeWebhook(ctx, a, slug, id, "delete webhooks", func(tx *sqlstore.Tx, st *state) (sqlstore.Webhook, error) {
		return sqlstore.DeleteWebhook(ctx, tx, change(a, "webhook.delete", "", false), st.row.ID, id)
	})
}

func (s *Service) changeWebhook(ctx context.Context, a arbiter.Actor, slug, id, what string, fn func(*sqlstore.Tx, *state) (sqlstore.Webhook, error)) (Webhook, error) {
	var w sqlstore.Webhook
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, what); err != nil {
			return err
		}
		w, err = fn(tx, st)
		return err
	})
	return webhookOf(w), err
}

// WebhookDelivery is one entry of the delivery log.
type WebhookDelivery struct {
	ID         string    `json:"id"`
	Webhook    string    `json:"webhook"`
	URL        string    `json:"url"`
	Type       string    `json:"type"`
	Occurrence string    `json:"occurrence"` // the body's "id"
	CreatedAt  time.Time `json:"created_at"`
	// State: queued (not tried yet, or waiting for its next try), running,
	// delivered, failed (no further try unless a TD asks), skipped (not
	// sent: the webhook was disabled).
	State        string    `json:"state"`
	Attempts     int       `json:"attempts"`
	MaxAttempts  int       `json:"max_attempts,omitempty"` // of the current job
	LastStatus   int       `json:"last_status,omitempty"`  // the last answer's HTTP status
	LastError    string    `json:"last_error,omitempty"`
	LastAt       time.Time `json:"last_at,omitzero"`
	NextTry      time.Time `json:"next_try,omitzero"`
	DeliveredAt  time.Time `json:"delivered_at,omitzero"`
	Redeliveries int       `json:"redeliveries,omitempty"`
	Job          int64     `json:"job,omitempty"`
	// Body is the JSON sent (only when one delivery is asked for).
	Body string `json:"body,omitempty"`
}

// Delivery states.
const (
	DeliveryQueued    = "queued"
	DeliveryRunning   = "running"
	DeliveryDelivered = sqlstore.DeliveryDelivered
	DeliveryFailed    = sqlstore.DeliveryFailed
	DeliverySkipped   = sqlstore.DeliverySkipped
)

// deliveryOf joins a stored delivery with its current job.
func deliveryOf(d sqlstore.WebhookDelivery, url string, j *Job) WebhookDelivery {
	out := WebhookDelivery{ID: d.ID, Webhook: d.Webhook, URL: url, Type: d.Type, Occurrence: d.Occurrence, CreatedAt: d.CreatedAt,
		Attempts: d.Attempts, LastStatus: d.LastStatus, LastError: d.LastError, LastAt: d.LastAt, DeliveredAt: d.DeliveredAt,
		Redeliveries: d.Sends, Job: d.JobID}
	switch {
	case j != nil && j.State == jobs.Running:
		out.State = DeliveryRunning
	case j != nil && j.State == jobs.Queued:
		out.State = DeliveryQueued
		if j.Attempt > 0 { // the job's last try failed
			out.NextTry = j.RunAt
		}
	case d.Outcome == DeliveryDelivered || d.Outcome == DeliveryFailed || d.Outcome == DeliverySkipped:
		out.State = d.Outcome
	case j != nil && j.State == jobs.Failed: // ended without recording it (timed out, say)
		out.State = DeliveryFailed
	default:
		out.State = DeliveryQueued
	}
	if j != nil {
		out.MaxAttempts = j.MaxAttempts
	}
	return out
}

// maxDeliveries is how much of the log the console and the API show.
const maxDeliveries = 100

// WebhookDeliveries lists the event's newest deliveries (of one endpoint
// when webhookID is not ""). TD only.
func (s *Service) WebhookDeliveries(ctx context.Context, a arbiter.Actor, slug, webhookID string) ([]WebhookDelivery, error) {
	var ds []sqlstore.WebhookDelivery
	urls := map[string]string{}
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "see the webhook deliveries"); err != nil {
			return err
		}
		ws, err := sqlstore.Webhooks(ctx, tx, st.row.ID)
		if err != nil {
			return err
		}
		for _, w := range ws {
			urls[w.ID] = w.URL
		}
		if _, ok := urls[webhookID]; webhookID != "" && !ok {
			return arbiter.Errorf(arbiter.ENOTFOUND, "webhook %s not found", webhookID)
		}
		ds, err = sqlstore.WebhookDeliveries(ctx, tx, st.row.ID, webhookID, maxDeliveries)
		return err
	})
	if err != nil {
		return nil, err
	}
	js, err := s.jobsByID(ctx, slug)
	if err != nil {
		return nil, err
	}
	out := make([]WebhookDelivery, len(ds))
	for i, d := range ds {
		out[i] = deliveryOf(d, urls[d.Webhook], js[d.JobID])
	}
	return out, nil
}

// jobsByID maps the event's jobs by ID (none without a queue).
func (s *Service) jobsByID(ctx context.Context, slug string) (map[int64]*Job, error) {
	out := map[int64]*Job{}
	if s.queue == nil {
		return out, nil
	}
	infos, err := s.queue.List(ctx, jobs.Filter{Event: slug})
	if err != nil {
		return nil, err
	}
	for _, in := range infos {
		j := jobOf(in)
		out[in.ID] = &j
	}
	return out, nil
}

// GetWebhookDelivery returns one delivery with its body. TD only.
func (s *Service) GetWebhookDelivery(ctx context.Context, a arbiter.Actor, slug, id string) (WebhookDelivery, error) {
	d, w, err := s.readDelivery(ctx, a, slug, id, "see the webhook deliveries")
	if err != nil {
		return WebhookDelivery{}, err
	}
	j, err := s.deliveryJob(ctx, d.JobID)
	if err != nil {
		return WebhookDelivery{}, err
	}
	out := deliveryOf(d, w.URL, j)
	out.Body = d.Body
	return out, nil
}

func (s *Service) readDelivery(ctx context.Context, a arbiter.Actor, slug, id, what string) (sqlstore.WebhookDelivery, sqlstore.Webhook, error) {
	var d sqlstore.WebhookDelivery
	var w sqlstore.Webhook
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, what); err != nil {
			return err
		}
		if d, err = sqlstore.GetWebhookDelivery(ctx, tx, st.row.ID, id); err != nil {
			return err
		}
		w, err = sqlstore.GetWebhook(ctx, tx, st.row.ID, d.Webhook)
		return err
	})
	return d, w, err
}

func (s *Service) deliveryJob(ctx context.Context, id int64) (*Job, error) {
	if s.queue == nil || id == 0 {
		return nil, nil
	}
	in, err := s.queue.Get(ctx, id)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil, nil // removed after its retention period
	}
	if err != nil {
		return nil, err
	}
	j := jobOf(in)
	return &j, nil
}

// WebhookRedelivery is the audit record of the TDs' redeliveries of one
// delivery.
type WebhookRedelivery struct {
	Delivery     string    `json:"delivery"`
	Webhook      string    `json:"webhook"`
	Type         string    `json:"type"`
	Occurrence   string    `json:"occurrence"`
	Redeliveries int       `json:"redeliveries"`
	By           string    `json:"by"` // the last TD to ask
	At           time.Time `json:"at"`
}

const kindWebhookRedelivery = "webhook_redelivery"

// RedeliverWebhook sends a delivery again, with the same body (and the
// same delivery ID, so a receiver that already has it can tell): at once
// when it waits for its next try, else as a new job of its own. A
// delivery being sent is ECONFLICT, and so is one whose webhook is
// disabled. TD only; audited.
func (s *Service) RedeliverWebhook(ctx context.Context, a arbiter.Actor, slug, id string) (WebhookDelivery, error) {
	const what = "redeliver webhooks"
	d, w, err := s.readDelivery(ctx, a, slug, id, what)
	if err != nil {
		return WebhookDelivery{}, err
	}
	if s.queue == nil {
		return WebhookDelivery{}, arbiter.Errorf(arbiter.EUNAVAILABLE, "this server runs no background jobs: nothing can be delivered")
	}
	if w.Disabled() {
		return WebhookDelivery{}, arbiter.RuleError(webhookClause, "the webhook to %s is disabled: add it again to receive deliveries", webhookOf(w).Host())
	}
	j, err := s.deliveryJob(ctx, d.JobID)
	if err != nil {
		return WebhookDelivery{}, err
	}
	if j != nil && j.State == jobs.Running {
		return WebhookDelivery{}, arbiter.Errorf(arbiter.ECONFLICT, "delivery %s is being sent: wait for it to finish", id)
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, what); err != nil {
			return err
		}
		cur, err := sqlstore.GetWebhookDelivery(ctx, tx, st.row.ID, id)
		if err != nil {
			return err
		}
		if cur.JobID != d.JobID || cur.Sends != d.Sends {
			return arbiter.Errorf(arbiter.ECONFLICT, "delivery %s was redelivered meanwhile; reload", id)
		}
		if j != nil && j.State == jobs.Queued {
			_, err = s.queue.Retry(ctx, tx, j.ID) // waiting for its next try: now
		} else {
			var in jobs.Info
			in, err = s.queue.Enqueue(ctx, tx, WebhookJob{EventSlug: slug, Delivery: id, Send: d.Sends + 1, Type: d.Type, Host: webhookOf(w).Host()}, time.Time{})
			if err == nil {
				d.JobID, d.Sends = in.ID, d.Sends+1
				err = sqlstore.SetWebhookDeliveryJob(ctx, tx, id, in.ID, d.Sends)
			}
		}
		if err != nil {
			return err
		}
		r := WebhookRedelivery{Delivery: id, Webhook: w.ID, Type: d.Type, Occurrence: d.Occurrence, By: normUser(a.Name), At: s.now()}
		ch := change(a, "webhook.redeliver", d.Type+" to "+webhookOf(w).Host(), false)
		old, v, err := docWebhookRedelivery.read(ctx, tx, st.row.ID, id)
		switch {
		case err == nil:
			r.Redeliveries = old.Redeliveries + 1
			_, err = docWebhookRedelivery.update(ctx, tx, ch, st, id, v, r)
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
			r.Redeliveries = 1
			_, err = docWebhookRedelivery.create(ctx, tx, ch, st, id, r)
		}
		return err
	})
	if err != nil {
		return WebhookDelivery{}, err
	}
	return s.GetWebhookDelivery(ctx, a, slug, id)
}
