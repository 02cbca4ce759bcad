package app

import (
	"context"
	"sync"

	"arbiter/challonge"
	"arbiter/sqlstore"
	"arbiter/webhook"
)

// Integrations are the server's outgoing connections besides Lichess:
// webhooks (webhooks.go, job_webhook.go) and Challonge (job_challonge.go).
// Both are sent by background jobs that the transaction making a change
// enqueues (changeHooks), so they exist exactly when the change commits.
type integrations struct {
	hooks        *webhook.Client // nil: the default, public addresses only
	allowPrivate bool
	challonge    *challonge.Client // nil: no API key
}

// IntegrationOptions configure the webhooks and Challonge pushes of a
// service.
type IntegrationOptions struct {
	// WebhooksAllowPrivate lets webhooks go to loopback and private
	// addresses (serve --webhooks-allow-private). Off, such URLs are
	// refused when registered and when sent.
	WebhooksAllowPrivate bool
	// Webhook overrides the webhook client's options (tests: a short
	// timeout); its AllowPrivate is WebhooksAllowPrivate.
	Webhook webhook.Options
	// Challonge is the client of the Challonge pushes (with the server's
	// API key); nil: pushes fail, saying that the key is missing.
	Challonge *challonge.Client
}

// SetIntegrations configures webhooks and Challonge.
func (s *Service) SetIntegrations(o IntegrationOptions) {
	o.Webhook.AllowPrivate = o.WebhooksAllowPrivate
	s.integrations = integrations{hooks: webhook.NewClient(o.Webhook), allowPrivate: o.WebhooksAllowPrivate, challonge: o.Challonge}
}

func (s *Service) hookClient() *webhook.Client {
	if s.integrations.hooks != nil {
		return s.integrations.hooks
	}
	return defaultHookClient()
}

// defaultHookClient sends to public addresses only.
var defaultHookClient = sync.OnceValue(func() *webhook.Client { return webhook.NewClient(webhook.Options{}) })

// watchChanges makes every transaction of the store that commits a
// change a webhook or Challonge cares about enqueue their jobs in it.
func (s *Service) watchChanges() {
	s.DB.SetBeforeCommit(func(ctx context.Context, tx *sqlstore.Tx, written []sqlstore.AuditEntry) error {
		return s.changeHooks(ctx, tx, written)
	})
}
