package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"arbiter"
	"arbiter/app"
)

// webhooksSub is `arbiter event webhooks`: an event's outgoing webhooks
// and their delivery log (docs/exports.md).
var webhooksSub = &eventSub{name: "webhooks",
	synopsis: "webhooks SLUG list | add URL [--events round.published,...] [--base-url URL] [--allow-private] | disable ID | remove ID | deliveries | redeliver DELIVERY",
	summary:  "outgoing webhooks: list, add (prints the signing secret once), disable, remove; the delivery log, redeliver (TD)",
	min:      2, max: 3, new: withFlags[webhooksCmd]}

// webhooksCmd holds the flags of "event webhooks".
type webhooksCmd struct {
	events, baseURL string
	allowPrivate    bool
}

func (cmd *webhooksCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.events, "events", strings.Join(app.WebhookTypes, ","), "add: what it is sent for, comma-separated")
	fs.StringVar(&cmd.baseURL, "base-url", "", "add: the web app's address for links in the bodies (default $ARBITER_BASE_URL, else relative links)")
	fs.BoolVar(&cmd.allowPrivate, "allow-private", false, "add: accept a loopback or private address (serve needs --webhooks-allow-private to send to it)")
}

func (cmd *webhooksCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug, action := pos[0], pos[1]
	arg := ""
	if len(pos) > 2 {
		arg = pos[2]
	}
	needArg := func(what string) error {
		if arg == "" {
			return usagef("webhooks %s needs %s", action, what)
		}
		return nil
	}
	switch action {
	case "list":
		ws, err := c.svc.Webhooks(ctx, c.actor, slug)
		if err != nil || c.json {
			return orJSON(e, c, ws, err, []app.Webhook{})
		}
		if len(ws) == 0 {
			fmt.Fprintln(e.stdout, "no webhooks")
			return nil
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tURL\tEVENTS\tSTATE\tADDED")
		for _, w := range ws {
			state := "active"
			if !w.DisabledAt.IsZero() {
				state = "disabled " + w.DisabledAt.Format("2006-01-02 15:04") + " by " + w.DisabledBy
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s by %s\n", w.ID, w.URL, strings.Join(w.Events, ","), state, w.CreatedAt.Format("2006-01-02 15:04"), w.CreatedBy)
		}
		return tw.Flush()
	case "add":
		if err := needArg("the receiver's URL"); err != nil {
			return err
		}
		if cmd.allowPrivate {
			c.svc.SetIntegrations(app.IntegrationOptions{WebhooksAllowPrivate: true})
		}
		base := cmd.baseURL
		if base == "" {
			base = os.Getenv("ARBITER_BASE_URL")
		}
		secret, w, err := c.svc.CreateWebhook(ctx, c.actor, slug, app.NewWebhook{URL: arg, Events: splitList(cmd.events), BaseURL: base})
		if err != nil {
			return asCLIField(err, map[string]string{"url": "URL", "events": "--events", "base_url": "--base-url"})
		}
		if c.json {
			return printJSON(e.stdout, map[string]any{"secret": secret, "webhook": w})
		}
		fmt.Fprintf(e.stdout, "added webhook %s to %s for %s\nsigning secret (shown only now): %s\n", w.ID, w.URL, strings.Join(w.Events, ", "), secret)
		return nil
	case "disable", "remove":
		if err := needArg("the webhook's ID (webhooks SLUG list)"); err != nil {
			return err
		}
		f, verb := c.svc.DisableWebhook, "disabled"
		if action == "remove" {
			f, verb = c.svc.DeleteWebhook, "removed"
		}
		w, err := f(ctx, c.actor, slug, arg)
		if err != nil || c.json {
			return orJSON(e, c, w, err, nil)
		}
		fmt.Fprintf(e.stdout, "%s webhook %s to %s\n", verb, w.ID, w.URL)
		return nil
	case "deliveries":
		ds, err := c.svc.WebhookDeliveries(ctx, c.actor, slug, arg)
		if err != nil || c.json {
			return orJSON(e, c, ds, err, []app.WebhookDelivery{})
		}
		if len(ds) == 0 {
			fmt.Fprintln(e.stdout, "no deliveries")
			return nil
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tTYPE\tTO\tSTATE\tTRIES\tLAST ANSWER\tNEXT TRY")
		for _, d := range ds {
			answer := d.LastError
			if answer == "" && d.LastStatus != 0 {
				answer = fmt.Sprintf("HTTP %d", d.LastStatus)
			}
			next := ""
			if !d.NextTry.IsZero() {
				next = d.NextTry.Format("2006-01-02 15:04:05")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", d.ID, d.Type, app.Webhook{URL: d.URL}.Host(), d.State, d.Attempts, oneLine(answer), next)
		}
		return tw.Flush()
	case "redeliver":
		if err := needArg("the delivery's ID (webhooks SLUG deliveries)"); err != nil {
			return err
		}
		d, err := c.svc.RedeliverWebhook(ctx, c.actor, slug, arg)
		if err != nil || c.json {
			return orJSON(e, c, d, err, nil)
		}
		fmt.Fprintf(e.stdout, "delivery %s (%s to %s) queued to be sent again\n", d.ID, d.Type, app.Webhook{URL: d.URL}.Host())
		return nil
	}
	return usagef("unknown webhooks action %q: list, add, disable, remove, deliveries or redeliver", action)
}

// orJSON returns err, or prints v (empty when v is a nil list) as JSON.
func orJSON(e *env, c *eventCtx, v any, err error, empty any) error {
	if err != nil {
		return err
	}
	if empty != nil && isNilSlice(v) {
		v = empty
	}
	return printJSON(e.stdout, v)
}

func isNilSlice(v any) bool {
	switch s := v.(type) {
	case []app.Webhook:
		return s == nil
	case []app.WebhookDelivery:
		return s == nil
	}
	return false
}

// asCLIField names an error's field as the argument or flag it came from.
func asCLIField(err error, names map[string]string) error {
	if ae, ok := err.(*arbiter.Error); ok {
		field, _, _ := strings.Cut(ae.Field, "[")
		if n, ok := names[field]; ok {
			c := *ae
			c.Field = n
			return &c
		}
	}
	return err
}

// challongePushSub is `arbiter event challonge-push`.
var challongePushSub = &eventSub{name: "challonge-push",
	synopsis: "challonge-push SLUG [--tournament URL|ID | --unlink] [--queue] [--challonge-key-file FILE]",
	summary:  "push the knockout bracket and its results to the linked Challonge tournament now, or --queue it for the workers (TD)",
	min:      1, max: 1, new: withFlags[challongePushCmd]}

// challongePushCmd holds the flags of "event challonge-push".
type challongePushCmd struct {
	tournament, keyFile, challongeURL string
	unlink, queue                     bool
}

func (cmd *challongePushCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&cmd.tournament, "tournament", "", "link the event to this Challonge tournament first (its address or identifier)")
	fs.BoolVar(&cmd.unlink, "unlink", false, "unlink the event from Challonge (and push nothing)")
	fs.BoolVar(&cmd.queue, "queue", false, "queue the push for serve's workers (or 'arbiter jobs run') instead of pushing here")
	fs.StringVar(&cmd.keyFile, "challonge-key-file", "", "file holding the Challonge API key (default $CHALLONGE_API_KEY)")
	fs.StringVar(&cmd.challongeURL, "challonge-url", "https://api.challonge.com/v1", "Challonge's API address (a fake for tests)")
}

func (cmd *challongePushCmd) run(ctx context.Context, e *env, c *eventCtx, pos []string) error {
	slug := pos[0]
	if cmd.unlink || cmd.tournament != "" {
		t := cmd.tournament
		if cmd.unlink {
			if t != "" {
				return usagef("--tournament and --unlink do not go together")
			}
		}
		l, err := c.svc.LinkChallonge(ctx, c.actor, slug, t)
		if err != nil {
			return asCLIField(err, map[string]string{"tournament": "--tournament"})
		}
		if l == nil {
			fmt.Fprintf(e.stdout, "%s is no longer linked to Challonge\n", slug)
			return nil
		}
		fmt.Fprintf(e.stdout, "%s is linked to the Challonge tournament %s\n", slug, l.Tournament)
	}
	if cmd.queue {
		j, err := c.svc.RequestChallongePush(ctx, c.actor, slug)
		if err != nil || c.json {
			return orJSON(e, c, j, err, nil)
		}
		state := "queued"
		if j.Duplicate {
			state = "already " + string(j.State)
		}
		fmt.Fprintf(e.stdout, "job %d %s: %s\n", j.ID, j.Key, state)
		return nil
	}
	cl, err := challongeClient(cmd.keyFile, cmd.challongeURL)
	if err != nil {
		return err
	}
	c.svc.SetIntegrations(app.IntegrationOptions{Challonge: cl})
	p, err := c.svc.PushChallongeNow(ctx, c.actor, slug)
	if err != nil || c.json {
		return orJSON(e, c, p, err, nil)
	}
	fmt.Fprintf(e.stdout, "pushed to Challonge: %s\n", p.Summary())
	return nil
}
