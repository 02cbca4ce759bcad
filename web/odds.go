package web

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/odds"
)

// The chances to qualify (package odds through app.Odds): the API route
// and what the standings page shows of them.

var apiOddsRoutes = []apiRoute{
	{"GET /api/events/{slug}/odds", func(s *Server) http.HandlerFunc { return s.apiOdds }},
}

// maxAPIOddsSims bounds the runs a public request may ask for: a
// simulation holds the process's simulation slot until it ends.
const maxAPIOddsSims = 10_000

// apiOdds answers the simulated chances: ?sims=N&seed=S&fix=MATCH=RESULT
// (fix repeatable), every one optional.
func (s *Server) apiOdds(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var req app.OddsRequest
	if v := q.Get("sims"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAPIOddsSims {
			s.apiFail(w, r, arbiter.FieldError("sims", "web.odds", "sims is a number of runs from 1 to %d", maxAPIOddsSims))
			return
		}
		req.Sims = n
	}
	if v := q.Get("seed"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			s.apiFail(w, r, arbiter.FieldError("seed", "web.odds", "seed is a whole number from 1"))
			return
		}
		req.Seed = n
	}
	for _, v := range q["fix"] {
		f, err := odds.ParseFixed(v)
		if err != nil {
			s.apiFail(w, r, err)
			return
		}
		req.Fixed = append(req.Fixed, f)
	}
	o, err := s.app.Odds(r.Context(), r.PathValue("slug"), req)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, o)
}

// oddsView is what the standings page shows of the simulation: a column
// with each entrant's chance of the first band and a chart of them.
type oddsView struct {
	Band       odds.Band
	Sims       int
	Seed       uint64
	Stale      bool
	Pending    bool // no answer yet: the simulation is running
	ComputedAt time.Time
	// Cell is each entrant's chance as shown; Title what its next match
	// may change.
	Cell  map[string]string
	Title map[string]string
	Chart template.HTML
	// Next lists the what-if of every entrant with a next match.
	Next []string
}

// standingsOdds is the simulation for the standings page of the stage
// being played; nil for other stages, finished events and errors (the
// standings stand without it). It never waits: with nothing cached yet
// it says the simulation is running.
func (s *Server) standingsOdds(ctx context.Context, ev arbiter.Event, stage int) *oddsView {
	if ev.Status != arbiter.EventRunning || stage != ev.Stage {
		return nil
	}
	o, err := s.app.Odds(ctx, ev.Slug, app.OddsRequest{NoWait: true})
	if err != nil {
		return nil
	}
	if o == nil {
		return &oddsView{Pending: true}
	}
	if len(o.Bands) == 0 {
		return nil
	}
	v := &oddsView{Band: o.Bands[0], Sims: o.Sims, Seed: o.Seed, Stale: o.Stale, ComputedAt: o.ComputedAt,
		Cell: map[string]string{}, Title: map[string]string{}}
	name := map[string]string{}
	for _, e := range o.Entrants {
		name[e.Entrant] = e.Name
		if name[e.Entrant] == "" {
			name[e.Entrant] = e.Entrant
		}
	}
	for _, e := range o.Entrants {
		v.Cell[e.Entrant] = odds.Percent(e.Bands[0])
		if t := whatIf(e.Next, name); t != "" {
			v.Title[e.Entrant] = "Next match " + t
			v.Next = append(v.Next, name[e.Entrant]+" "+t)
		}
	}
	v.Chart = oddsChart(o, name)
	return v
}

// whatIf is "v Bob: win 91%, draw 70%, loss 30%" for the first band.
func whatIf(n *odds.Next, name map[string]string) string {
	if n == nil || len(n.If) == 0 {
		return ""
	}
	var b strings.Builder
	if n.Opponent != "" {
		fmt.Fprintf(&b, "v %s", name[n.Opponent])
		if n.Predicted {
			b.WriteString(" (if paired as the rules pair now)")
		}
	} else {
		b.WriteString("(opponent not known yet)")
	}
	b.WriteString(": ")
	for i, r := range n.If {
		if i > 0 {
			b.WriteString(", ")
		}
		c := odds.Chance{P: r.Qualify}
		if len(r.Bands) > 0 {
			c = r.Bands[0]
		}
		fmt.Fprintf(&b, "if %s %s", r.Result, odds.Verdict(c))
	}
	return b.String()
}

// Chart geometry (viewBox units): one row per entrant.
const (
	chartW      = 360
	chartNameW  = 130
	chartBarW   = 170
	chartRowH   = 18
	chartMaxLen = 18
	chartRows   = 16 // the most likely; the column lists everyone
)

// oddsChart draws the chances of the first band as horizontal bars, the
// most likely first. Like the bracket it carries no style attribute (the
// CSP forbids them); it scales to the page's width.
func oddsChart(o *app.Odds, name map[string]string) template.HTML {
	type row struct {
		id string
		c  odds.Chance
	}
	var rows []row
	for _, e := range o.Entrants {
		if e.Bands[0].Exact != odds.Eliminated {
			rows = append(rows, row{e.Entrant, e.Bands[0]})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		switch {
		case a.c.P > b.c.P:
			return -1
		case a.c.P < b.c.P:
			return 1
		}
		return 0
	})
	if len(rows) > chartRows {
		rows = rows[:chartRows]
	}
	if len(rows) == 0 {
		return ""
	}
	h := len(rows)*chartRowH + 4
	var w strings.Builder
	fmt.Fprintf(&w, `<svg class="odds-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-labelledby="odds-chart-title">`, chartW, h)
	fmt.Fprintf(&w, `<title id="odds-chart-title">Simulated chance of %s, most likely first; the standings column gives every entrant's figure as text</title>`, esc(o.Bands[0].Name))
	for i, r := range rows {
		y := 2 + i*chartRowH
		n := []rune(name[r.id])
		label := string(n)
		if len(n) > chartMaxLen {
			label = string(n[:chartMaxLen-1]) + "…"
		}
		cls := "bar"
		if r.c.Exact == odds.Clinched {
			cls = "bar certain"
		}
		fmt.Fprintf(&w, `<text class="name" x="0" y="%d">%s</text>`, y+13, esc(label))
		fmt.Fprintf(&w, `<rect class="track" x="%d" y="%d" width="%d" height="%d"></rect>`, chartNameW, y+3, chartBarW, chartRowH-6)
		fmt.Fprintf(&w, `<rect class="%s" x="%d" y="%d" width="%.1f" height="%d"></rect>`, cls, chartNameW, y+3, r.c.P*chartBarW, chartRowH-6)
		fmt.Fprintf(&w, `<text class="pct" x="%d" y="%d">%s</text>`, chartNameW+chartBarW+6, y+13, esc(odds.Percent(r.c)))
	}
	w.WriteString(`</svg>`)
	return template.HTML(w.String())
}
