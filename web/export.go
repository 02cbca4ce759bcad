package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/export"
)

// Exports (docs/exports.md): the event in the formats other tools read,
// through package export. The API route answers the file itself (bots,
// download buttons, calendar subscriptions); the page shows a text
// export ready to copy for browsers without JavaScript; the calendar
// route sends a subscriber to the webcal:// address of a feed.

// exportRoutes registers the export pages.
func (s *Server) exportRoutes() {
	s.handleFunc("GET /events/{slug}/export", s.exportPage)
	s.handleFunc("GET /events/{slug}/calendar", s.calendarSubscribe)
}

// apiExportRoutes are the export's and the API tokens' API routes
// (described in openapi/exports.json).
var apiExportRoutes = []apiRoute{
	{"GET /api/events/{slug}/export", func(s *Server) http.HandlerFunc { return s.apiExport }},
	{"GET /api/events/{slug}/tokens", func(s *Server) http.HandlerFunc { return s.apiTokens }},
	{"POST /api/events/{slug}/tokens", func(s *Server) http.HandlerFunc { return s.apiCreateToken }},
	{"POST /api/events/{slug}/tokens/{id}/revoke", func(s *Server) http.HandlerFunc { return s.apiRevokeToken }},
}

// baseURL is this site's address as the request reached it.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// exportOptions reads the export's query parameters: format, what,
// stage, round, trf-version, entrant, player.
func exportOptions(r *http.Request) (export.Options, error) {
	q := r.URL.Query()
	o := export.Options{Format: q.Get("format"), What: q.Get("what"), Entrant: q.Get("entrant"), Player: q.Get("player")}
	for _, n := range []struct {
		name string
		v    *int
	}{{"stage", &o.Stage}, {"round", &o.Round}, {"trf-version", &o.TRFVersion}} {
		if !q.Has(n.name) {
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(q.Get(n.name)))
		if err != nil {
			return o, arbiter.FieldError(n.name, "export."+strings.ReplaceAll(n.name, "-", "_"), "%s must be a whole number, not %q", n.name, q.Get(n.name))
		}
		*n.v = v
	}
	return o, nil
}

// exported is one export, written.
type exported struct {
	snap *export.Snapshot
	o    export.Options
	body []byte
}

// exportFor builds the export r asks for, as the requester may see it:
// the signed-in user (or the user an API token acts for), else anyone.
func (s *Server) exportFor(ctx context.Context, r *http.Request, o export.Options) (exported, error) {
	viewer := ""
	if u := currentUser(r); u != nil {
		viewer = u.LichessUsername
	}
	snap, err := s.app.ExportSnapshot(ctx, viewer, r.PathValue("slug"), baseURL(r))
	if err != nil {
		return exported{}, err
	}
	if o, err = export.Resolve(snap, o); err != nil {
		return exported{}, err
	}
	var b bytes.Buffer
	if err := export.Write(&b, snap, o); err != nil {
		return exported{}, err
	}
	return exported{snap: snap, o: o, body: b.Bytes()}, nil
}

// apiExportLink is one export the event offers.
type apiExportLink struct {
	Title   string         `json:"title"`
	Options map[string]any `json:"options"`
	URL     string         `json:"url"`
}

// apiExport answers the file: markdown, CSV, TRF, iCalendar or the
// Challonge CSV, named for a download. Without a format it answers the
// list of exports the event offers the requester, with their addresses.
func (s *Server) apiExport(w http.ResponseWriter, r *http.Request) {
	o, err := exportOptions(r)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	if o.Format == "" {
		s.apiExportIndex(w, r, o)
		return
	}
	x, err := s.exportFor(r.Context(), r, o)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", export.ContentType(x.o))
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", export.Filename(x.snap, x.o)))
	h.Set("Content-Length", strconv.Itoa(len(x.body)))
	setCacheControl(h, r)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(x.body)
	}
}

// exportPageData is a text export shown for copying.
type exportPageData struct {
	Ev       arbiter.Event
	Title    string
	Text     string
	Download string // the API address of the same export
}

// exportPage shows a text export in a box to copy by hand (the copy
// buttons' target without JavaScript) with a download link.
func (s *Server) exportPage(w http.ResponseWriter, r *http.Request) {
	o, err := exportOptions(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	x, err := s.exportFor(r.Context(), r, o)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	title := exportTitle(x.o)
	d := exportPageData{Ev: x.snap.Event, Title: title, Text: string(x.body),
		Download: "/api/events/" + url.PathEscape(x.snap.Event.Slug) + "/export?" + r.URL.RawQuery}
	s.render(w, r, http.StatusOK, "export", page{Title: title + ": " + x.snap.Event.Name, Nav: "home", Data: d})
}

// exportTitle names an export in words.
func exportTitle(o export.Options) string {
	what := map[string]string{export.State: "State of the event", export.Pairings: "Pairings", export.Results: "Results",
		export.Standings: "Standings", export.Entrants: "Entrants"}[o.What]
	switch {
	case o.Round != 0:
		what += fmt.Sprintf(" of stage %d, round %d", o.Stage, o.Round)
	case o.Stage != 0 && o.Format != export.TRF:
		what += fmt.Sprintf(" of stage %d", o.Stage)
	}
	switch o.Format {
	case export.Markdown:
		return what + ": forum post"
	case export.CSV:
		return what + ": CSV"
	case export.TRF:
		return fmt.Sprintf("TRF-%d of stage %d", o.TRFVersion, o.Stage)
	case export.ICS:
		return "Calendar"
	}
	return "Challonge: " + strings.ToLower(what)
}

// calendarSubscribe sends a subscriber to the feed's webcal:// address,
// which calendar apps open to subscribe (they then poll the feed).
func (s *Server) calendarSubscribe(w http.ResponseWriter, r *http.Request) {
	o, err := exportOptions(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	o.Format = export.ICS
	if _, err := s.exportFor(r.Context(), r, o); err != nil {
		s.fail(w, r, err)
		return
	}
	q := url.Values{"format": {export.ICS}}
	if o.Entrant != "" {
		q.Set("entrant", o.Entrant)
	}
	if o.Player != "" {
		q.Set("player", o.Player)
	}
	http.Redirect(w, r, "webcal://"+r.Host+"/api/events/"+url.PathEscape(r.PathValue("slug"))+"/export?"+q.Encode(), http.StatusSeeOther)
}

// apiExportIndex lists the exports on offer. Options without a format
// are refused, naming the first one given.
func (s *Server) apiExportIndex(w http.ResponseWriter, r *http.Request, o export.Options) {
	q := r.URL.Query()
	for _, name := range []string{"what", "stage", "round", "trf-version", "entrant", "player"} {
		if q.Has(name) {
			s.apiFail(w, r, arbiter.FieldError(name, "export.format", "%s goes with a format (%s); without one the answer lists the exports on offer", name, strings.Join(export.Formats, ", ")))
			return
		}
	}
	viewer := ""
	if u := currentUser(r); u != nil {
		viewer = u.LichessUsername
	}
	slug := r.PathValue("slug")
	snap, err := s.app.ExportSnapshot(r.Context(), viewer, slug, baseURL(r))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	out := []apiExportLink{}
	for _, x := range export.Available(snap) {
		opts := map[string]any{"format": x.Format}
		for k, v := range map[string]any{"what": x.What, "stage": x.Stage, "round": x.Round} {
			if v != "" && v != 0 {
				opts[k] = v
			}
		}
		if x.Format == export.TRF {
			opts["trf-version"] = x.TRFVersion
		}
		out = append(out, apiExportLink{Title: exportTitle(x), Options: opts, URL: "/api/events/" + url.PathEscape(slug) + "/export?" + x.Query()})
	}
	s.writeJSON(w, r, http.StatusOK, map[string]any{"event": slug, "exports": out})
}
