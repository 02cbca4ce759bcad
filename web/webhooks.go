package web

import (
	"context"
	"net/http"

	"arbiter"
	"arbiter/app"
)

// Outgoing webhooks and the Challonge push on the TD console
// (docs/exports.md): the Webhooks page (/events/{slug}/td/webhooks) adds,
// disables and deletes endpoints, shows a new one's secret once, and holds
// the delivery log with a Redeliver button; the Challonge page links the
// event to a tournament and pushes its knockout.

// webhookRoutes registers the console's pages and forms.
func (s *Server) webhookRoutes() {
	s.handleFunc("GET /events/{slug}/td/webhooks", s.tdWebhooksPage)
	s.handleFunc("POST /events/{slug}/td/webhooks", s.tdCreateWebhook)
	s.handleFunc("POST /events/{slug}/td/webhooks/{id}/disable", s.tdDisableWebhook)
	s.handleFunc("POST /events/{slug}/td/webhooks/{id}/delete", s.tdDeleteWebhook)
	s.handleFunc("POST /events/{slug}/td/webhook-deliveries/{id}/redeliver", s.tdRedeliver)
	s.handleFunc("GET /events/{slug}/td/challonge", s.tdChallongePage)
	s.handleFunc("POST /events/{slug}/td/challonge", s.tdLinkChallonge)
	s.handleFunc("POST /events/{slug}/td/challonge/push", s.tdPushChallonge)
}

// apiWebhookRoutes are the same through the API (openapi/webhooks.json).
var apiWebhookRoutes = []apiRoute{
	{"GET /api/events/{slug}/webhooks", func(s *Server) http.HandlerFunc { return s.apiWebhooks }},
	{"POST /api/events/{slug}/webhooks", func(s *Server) http.HandlerFunc { return s.apiCreateWebhook }},
	{"POST /api/events/{slug}/webhooks/{id}/disable", func(s *Server) http.HandlerFunc { return s.apiDisableWebhook }},
	{"DELETE /api/events/{slug}/webhooks/{id}", func(s *Server) http.HandlerFunc { return s.apiDeleteWebhook }},
	{"GET /api/events/{slug}/webhook-deliveries", func(s *Server) http.HandlerFunc { return s.apiDeliveries }},
	{"GET /api/events/{slug}/webhook-deliveries/{id}", func(s *Server) http.HandlerFunc { return s.apiDelivery }},
	{"POST /api/events/{slug}/webhook-deliveries/{id}/redeliver", func(s *Server) http.HandlerFunc { return s.apiRedeliver }},
	{"GET /api/events/{slug}/challonge", func(s *Server) http.HandlerFunc { return s.apiChallonge }},
	{"POST /api/events/{slug}/challonge", func(s *Server) http.HandlerFunc { return s.apiLinkChallonge }},
	{"POST /api/events/{slug}/challonge/push", func(s *Server) http.HandlerFunc { return s.apiPushChallonge }},
}

// hookTypes are the webhook types with what each means, for the form.
var hookTypes = []struct{ ID, Label string }{
	{app.HookRoundPublished, "a round's pairings are published"},
	{app.HookTimeAgreed, "a match's start time is agreed"},
	{app.HookResultFinal, "a match's result is final"},
	{app.HookRoundClosed, "a round closes"},
	{app.HookStageFinished, "a stage finishes"},
}

// tdWebhooksData is the Webhooks page.
type tdWebhooksData struct {
	Ev         arbiter.Event
	Here       string
	Webhooks   []app.Webhook
	Deliveries []tdDeliveryRow
	Types      []struct{ ID, Label string }
	Jobs       bool // the server runs background jobs (else nothing is sent)
	// Secret is the webhook just added, shown this once.
	Secret string
	New    *app.Webhook
}

func (s *Server) webhooksData(ctx context.Context, ev arbiter.Event, a arbiter.Actor) (tdWebhooksData, error) {
	d := tdWebhooksData{Ev: ev, Here: "webhooks", Types: hookTypes, Jobs: s.app.Jobs() != nil}
	var err error
	if d.Webhooks, err = s.app.Webhooks(ctx, a, ev.Slug); err != nil {
		return d, err
	}
	ds, err := s.app.WebhookDeliveries(ctx, a, ev.Slug, "")
	for _, dl := range ds {
		d.Deliveries = append(d.Deliveries, tdDeliveryRow{D: dl, State: deliveryState(dl), Host: hostOf(dl.URL),
			Redeliver: d.Jobs && dl.State != app.DeliveryRunning && dl.State != app.DeliverySkipped})
	}
	return d, err
}

// tdDeliveryRow is a line of the delivery log.
type tdDeliveryRow struct {
	D         app.WebhookDelivery
	State     string // in plain words
	Host      string
	Redeliver bool
}

func (s *Server) tdWebhooksPage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	d, err := s.webhooksData(r.Context(), ev, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "td_webhooks", page{Title: "Webhooks: " + ev.Name, Nav: "home", Data: d})
}

// tdCreateWebhook adds an endpoint and shows its secret on the answer page
// itself (no redirect: the secret must not travel in a cookie or a URL).
// Links in its bodies go to this site's address as the TD reached it.
func (s *Server) tdCreateWebhook(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	req := app.NewWebhook{URL: r.FormValue("url"), BaseURL: baseURL(r)}
	if err := r.ParseForm(); err == nil {
		req.Events = r.PostForm["events"]
	}
	secret, hook, err := s.app.CreateWebhook(r.Context(), a, ev.Slug, req)
	if err != nil {
		if arbiter.ErrorCode(err) == arbiter.EINTERNAL {
			s.internal(w, r, err)
			return
		}
		s.setFlash(w, r, true, userMessage(err))
		http.Redirect(w, r, consoleURL(ev.Slug)+"/webhooks", http.StatusSeeOther)
		return
	}
	d, err := s.webhooksData(r.Context(), ev, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d.Secret, d.New = secret, &hook
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, "td_webhooks", page{Title: "Webhooks: " + ev.Name, Nav: "home", Data: d})
}

func (s *Server) tdDisableWebhook(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"/webhooks", func(a arbiter.Actor) (string, error) {
		h, err := s.app.DisableWebhook(r.Context(), a, slug, r.PathValue("id"))
		return "Disabled the webhook to " + h.Host() + ": nothing more is sent to it.", err
	})
}

func (s *Server) tdDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"/webhooks", func(a arbiter.Actor) (string, error) {
		h, err := s.app.DeleteWebhook(r.Context(), a, slug, r.PathValue("id"))
		return "Deleted the webhook to " + h.Host() + " and its deliveries.", err
	})
}

func (s *Server) tdRedeliver(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"/webhooks#deliveries", func(a arbiter.Actor) (string, error) {
		d, err := s.app.RedeliverWebhook(r.Context(), a, slug, r.PathValue("id"))
		return "The " + d.Type + " webhook to " + hostOf(d.URL) + " is queued to be sent again.", err
	})
}

// hostOf is a URL's host, to name a webhook in plain words.
func hostOf(u string) string { return app.Webhook{URL: u}.Host() }

// deliveryState says in plain words where a delivery stands.
func deliveryState(d app.WebhookDelivery) string {
	switch d.State {
	case app.DeliveryQueued:
		if !d.NextTry.IsZero() {
			return "waiting: next try at " + utcTime(d.NextTry)
		}
		return "queued"
	case app.DeliveryRunning:
		return "sending"
	case app.DeliveryDelivered:
		return "delivered " + utcTime(d.DeliveredAt)
	case app.DeliveryFailed:
		return "failed"
	case app.DeliverySkipped:
		return "not sent: the webhook was disabled"
	}
	return d.State
}

// tdChallongeData is the Challonge page.
type tdChallongeData struct {
	Ev   arbiter.Event
	Here string
	C    app.ChallongeStatus
	Job  *tdJobRow
}

func (s *Server) tdChallongePage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD)
	st, err := s.app.Challonge(r.Context(), a, ev.Slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := tdChallongeData{Ev: ev, Here: "challonge", C: st}
	if st.Job != nil {
		row := jobRow(*st.Job)
		d.Job = &row
	}
	s.render(w, r, http.StatusOK, "td_challonge", page{Title: "Challonge: " + ev.Name, Nav: "home", Data: d})
}

func (s *Server) tdLinkChallonge(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"/challonge", func(a arbiter.Actor) (string, error) {
		l, err := s.app.LinkChallonge(r.Context(), a, slug, r.FormValue("tournament"))
		if l == nil {
			return "The event is no longer linked to Challonge.", err
		}
		return "Linked to the Challonge tournament " + l.Tournament + ": each knockout result is pushed there once final.", err
	})
}

func (s *Server) tdPushChallonge(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"/challonge", func(a arbiter.Actor) (string, error) {
		j, err := s.app.RequestChallongePush(r.Context(), a, slug)
		return queuedMessage(j), err
	})
}

// apiWebhooks lists the event's webhooks (TD).
func (s *Server) apiWebhooks(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	ws, err := s.app.Webhooks(r.Context(), a, r.PathValue("slug"))
	if ws == nil {
		ws = []app.Webhook{}
	}
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"webhooks": ws}, err)
}

type apiNewWebhook struct {
	URL     string   `json:"url"`
	Events  []string `json:"events"`
	BaseURL *string  `json:"base_url"`
}

// apiCreateWebhook adds a webhook (TD); the answer holds its secret,
// once. Without base_url, links go to this site as the request reached it.
func (s *Server) apiCreateWebhook(w http.ResponseWriter, r *http.Request) {
	var in apiNewWebhook
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	base := baseURL(r)
	if in.BaseURL != nil {
		base = *in.BaseURL
	}
	secret, h, err := s.app.CreateWebhook(r.Context(), a, r.PathValue("slug"), app.NewWebhook{URL: in.URL, Events: in.Events, BaseURL: base})
	w.Header().Set("Cache-Control", "no-store")
	s.apiAnswer(w, r, http.StatusCreated, map[string]any{"secret": secret, "webhook": h}, err)
}

func (s *Server) apiDisableWebhook(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	h, err := s.app.DisableWebhook(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"webhook": h}, err)
}

func (s *Server) apiDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	h, err := s.app.DeleteWebhook(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"webhook": h}, err)
}

// apiDeliveries is the delivery log (?webhook=ID for one endpoint).
func (s *Server) apiDeliveries(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	ds, err := s.app.WebhookDeliveries(r.Context(), a, r.PathValue("slug"), r.URL.Query().Get("webhook"))
	if ds == nil {
		ds = []app.WebhookDelivery{}
	}
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"deliveries": ds}, err)
}

func (s *Server) apiDelivery(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	d, err := s.app.GetWebhookDelivery(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusOK, d, err)
}

func (s *Server) apiRedeliver(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	d, err := s.app.RedeliverWebhook(r.Context(), a, r.PathValue("slug"), r.PathValue("id"))
	s.apiAnswer(w, r, http.StatusAccepted, d, err)
}

func (s *Server) apiChallonge(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	st, err := s.app.Challonge(r.Context(), a, r.PathValue("slug"))
	s.apiAnswer(w, r, http.StatusOK, st, err)
}

type apiChallongeLink struct {
	Tournament string `json:"tournament"`
}

func (s *Server) apiLinkChallonge(w http.ResponseWriter, r *http.Request) {
	var in apiChallongeLink
	a, ok := s.apiTD(w, r, &in)
	if !ok {
		return
	}
	l, err := s.app.LinkChallonge(r.Context(), a, r.PathValue("slug"), in.Tournament)
	s.apiAnswer(w, r, http.StatusOK, map[string]any{"link": l}, err)
}

// apiPushChallonge queues a push (202 with the job); without a job queue
// it ran at once and the job is done.
func (s *Server) apiPushChallonge(w http.ResponseWriter, r *http.Request) {
	a, ok := s.apiTD(w, r, nil)
	if !ok {
		return
	}
	j, err := s.app.RequestChallongePush(r.Context(), a, r.PathValue("slug"))
	s.apiQueued(w, r, j, err)
}
