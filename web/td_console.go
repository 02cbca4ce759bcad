package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// attentionWindow is how close to its deadline an unplayed match shows
// among the results that need attention.
const attentionWindow = 48 * time.Hour

// tdConsoleData is the console of one event.
type tdConsoleData struct {
	Ev        arbiter.Event
	Here      string // the console tab: console
	Entrants  []arbiter.Entrant
	Pending   int
	Current   *arbiter.Round
	Matches   []tdMatchRow // the current round's
	Attention []tdMatchRow
	Notes     []string // the TDs' notes of closed rounds
	Rounds    []arbiter.Round
	Forbidden []app.Forbidden
	Team      bool            // a team event
	Separated []app.Separated // team events only (A11)
	Bans      []app.Ban       // recorded in this event (R17)
	Cheating  []app.CheatReport
	Officials []string
	NextStage string // the next stage's name, "" when none
	Appeals   int    // pending appeals
	Now       time.Time
	// Eligible says the format has eligibility rules (A2, W1): each
	// entrant gets a "Check eligibility" form; Eligibility holds the last
	// check of each entrant checked.
	Eligible    bool
	Eligibility map[string]*app.EligibilityCheck
	// TeamRules holds the last A11 check of each team where the format
	// has A11's team rules (TeamRulesApply).
	TeamRulesApply bool
	TeamRules      map[string]*app.TeamCheck
	// The pages of the long lists shown (paging.go); the full lists stay
	// above for counts and choices.
	EntrantsShown []arbiter.Entrant
	EntrantsPager pager
	RecordsPager  pager // the same page of entrants, under the entrant records
	CheatingShown []app.CheatReport
	CheatingPager pager
	BansShown     []app.Ban
	BansPager     pager
	// Jobs are the event's queued, running and failed background jobs;
	// EligibilityJobs each entrant's latest eligibility job (td_jobs.go).
	Jobs            []tdJobRow
	EligibilityJobs map[string]tdJobRow
	// Lichess is the organiser's token and what it enables (issue 14).
	Lichess app.LichessAccess
	// Bulk is bulk pairing's state (app.BulkPairingStatus).
	Bulk app.BulkStatus
	// Needs is what needs the TDs now (app.NeedsAttention), the top of the
	// console; NextStep its next step's kind ("" for none).
	Needs    tdNow
	NextStep string
	// OpenCheating says a private report of cheating is still open.
	OpenCheating bool
	// Ratings are the ratings from Lichess (app.Ratings): the format's
	// perf ("" when typed), the last refresh, and each entrant's in
	// RatingOf.
	Ratings  app.EventRatings
	RatingOf map[string]*app.EntrantRatings
}

// tdMatchRow is a match in a table, with names and its result in words.
type tdMatchRow struct {
	M        arbiter.Match
	Home     string
	Away     string
	Result   string
	Why      string // why it needs attention
	Deadline time.Time
}

func (s *Server) tdConsolePage(w http.ResponseWriter, r *http.Request) {
	ev, ok := s.tdGate(w, r)
	if !ok {
		return
	}
	a, _ := actorAs(r, arbiter.RoleTD) // tdGate let only a TD through
	d, err := s.consoleData(r.Context(), ev, a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	d.EntrantsShown, d.EntrantsPager = pageOf(d.Entrants, q, "entrants", "registrations", "entrants", entrantsPerPage)
	_, d.RecordsPager = pageOf(d.Entrants, q, "entrants", "entrant-tools", "entrant records", entrantsPerPage)
	d.CheatingShown, d.CheatingPager = pageOf(d.Cheating, q, "reports", "cheating", "reports", reportsPerPage)
	d.BansShown, d.BansPager = pageOf(d.Bans, q, "bans", "bans", "bans", bansPerPage)
	s.render(w, r, http.StatusOK, "td_console", page{Title: "TD console: " + ev.Name, Nav: "home", Data: d})
}

func (s *Server) consoleData(ctx context.Context, ev arbiter.Event, a arbiter.Actor) (tdConsoleData, error) {
	slug := ev.Slug
	d := tdConsoleData{Ev: ev, Here: "console", Now: s.app.Now()}
	var err error
	if d.Lichess, err = s.app.LichessAccessOf(ctx, a, slug); err != nil {
		return d, err
	}
	if d.Bulk, err = s.app.BulkPairingStatus(ctx, a, slug); err != nil {
		return d, err
	}
	names, es, err := s.entrantNames(ctx, slug)
	if err != nil {
		return d, err
	}
	d.Entrants = es
	for _, e := range es {
		if e.Status == arbiter.EntrantPending {
			d.Pending++
		}
	}
	if d.Rounds, err = s.app.Rounds(ctx, slug); err != nil {
		return d, err
	}
	d.Current = currentRound(d.Rounds)
	ends := map[string]time.Time{}
	for _, rd := range d.Rounds {
		ends[fmt.Sprintf("%d/%d", rd.Stage, rd.Number)] = rd.End
		if rd.Status == arbiter.RoundClosed {
			for _, n := range rd.Notes {
				d.Notes = append(d.Notes, rd.ID+": "+n)
			}
		}
	}
	status := map[string]string{}
	for _, rd := range d.Rounds {
		for _, id := range rd.Matches {
			status[id] = rd.Status
		}
	}
	ms, err := s.app.Matches(ctx, slug, "")
	if err != nil {
		return d, err
	}
	for _, m := range ms {
		row := tdMatchRow{M: m, Home: nameOr(names, m.Home), Away: nameOr(names, m.Away), Result: outcomeText(m.Result),
			Deadline: ends[fmt.Sprintf("%d/%d", m.Stage, m.Round)]}
		if d.Current != nil && m.Stage == d.Current.Stage && m.Round == d.Current.Number {
			d.Matches = append(d.Matches, row)
		}
		switch {
		case m.Status == arbiter.MatchDisputed:
			row.Why = "disputed"
		case m.Status == arbiter.MatchHeld:
			row.Why = "held for the TDs: " + m.Note
		case status[m.ID] == arbiter.RoundPublished && m.Status != arbiter.MatchFinal && !m.IsBye() &&
			!row.Deadline.IsZero() && row.Deadline.Sub(d.Now) < attentionWindow:
			row.Why = "not final, deadline near"
			if !d.Now.Before(row.Deadline) {
				row.Why = "not final, deadline passed"
			}
		default:
			continue
		}
		d.Attention = append(d.Attention, row)
	}
	if d.Forbidden, err = s.app.ForbiddenPairings(ctx, slug); err != nil {
		return d, err
	}
	f, err := s.app.Format(ctx, slug)
	if err != nil {
		return d, err
	}
	if d.Team = f.Entrant == format.Team; d.Team {
		if d.Separated, err = s.app.SeparatedPlayers(ctx, slug); err != nil {
			return d, err
		}
	}
	if d.Bans, err = s.app.Bans(ctx, arbiter.NamedUser(a.Name), slug); err != nil {
		return d, err
	}
	if d.Ratings, err = s.app.Ratings(ctx, arbiter.NamedUser(a.Name), slug); err != nil {
		return d, err
	}
	d.RatingOf = map[string]*app.EntrantRatings{}
	for id, r := range d.Ratings.ByID {
		d.RatingOf[id] = &r
	}
	d.Eligible = f.Eligibility != ""
	checks, err := s.app.Eligibilities(ctx, arbiter.NamedUser(a.Name), slug)
	if err != nil {
		return d, err
	}
	d.Eligibility = map[string]*app.EligibilityCheck{}
	for id, c := range checks {
		d.Eligibility[id] = &c
	}
	if d.TeamRulesApply = app.HasTeamRules(f); d.TeamRulesApply {
		tcs, err := s.app.TeamChecks(ctx, slug)
		if err != nil {
			return d, err
		}
		d.TeamRules = map[string]*app.TeamCheck{}
		for id, c := range tcs {
			d.TeamRules[id] = &c
		}
	}
	if d.Cheating, err = s.app.CheatReports(ctx, a, slug); err != nil {
		return d, err
	}
	if err := s.consoleJobs(ctx, &d, a); err != nil {
		return d, err
	}
	offs, err := s.app.Officials(ctx, ev.Slug)
	if err != nil {
		return d, err
	}
	for _, o := range offs {
		d.Officials = append(d.Officials, o.User)
	}
	if ev.Status == arbiter.EventRunning && ev.Stage+1 < len(ev.Stages) {
		d.NextStage = ev.Stages[ev.Stage+1].Name
	}
	at, err := s.app.Attention(ctx, a, slug)
	if err != nil {
		return d, err
	}
	d.Needs = nowOf(slug, at)
	if at.Next != nil {
		d.NextStep = at.Next.Kind
	}
	for _, c := range d.Cheating {
		d.OpenCheating = d.OpenCheating || !c.Closed
	}
	aps, err := s.app.Appeals(ctx, slug)
	if err != nil {
		return d, err
	}
	for _, ap := range aps {
		if ap.Status == arbiter.AppealPending {
			d.Appeals++
		}
	}
	return d, nil
}

func nameOr(names map[string]string, id string) string {
	if n := names[id]; n != "" {
		return n
	}
	return id
}

// tdEntrantAction approves or rejects a registration.
func (s *Server) tdEntrantAction(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		v, err := formVersion(r, "version")
		if err != nil {
			return "", err
		}
		switch r.FormValue("action") {
		case "approve":
			e, err := s.app.Approve(r.Context(), a, slug, id, v)
			return "Approved " + e.Name + ".", err
		case "reject":
			e, err := s.app.Reject(r.Context(), a, slug, id, strings.TrimSpace(r.FormValue("reason")), v)
			return "Rejected " + e.Name + ".", err
		}
		return "", arbiter.FieldError("action", "web.action", "action must be approve or reject")
	})
}

// tdCheckEligibility checks an entrant's players on Lichess against the
// format's eligibility rules (A2, W1); the outcome shows in the
// registrations table.
func (s *Server) tdCheckEligibility(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		if s.app.Jobs() != nil { // a background job (td_jobs.go)
			j, err := s.app.RequestEligibility(r.Context(), a, slug, id)
			return queuedMessage(j), err
		}
		c, err := s.app.CheckEligibility(r.Context(), a, slug, id)
		return "Eligibility of " + c.Entrant + " checked on Lichess: " + c.Summary() + ".", err
	})
}

// tdRefreshRatings fetches every rating from Lichess again: a job where
// the server runs them, else at once.
func (s *Server) tdRefreshRatings(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug)+"#lichess", func(a arbiter.Actor) (string, error) {
		j, err := s.app.RequestRatingsRefresh(r.Context(), a, slug)
		return queuedMessage(j), err
	})
}

// tdCloseRegistration closes registration; the top seed's round-1 colour
// is drawn by lot unless the TDs give it (with a reason), as in the CLI.
func (s *Server) tdCloseRegistration(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		o := app.CloseOptions{InitialColour: strings.TrimSpace(r.FormValue("initial_colour")), Reason: strings.TrimSpace(r.FormValue("reason")),
			AllowPast: r.FormValue("allow_past") == "yes"}
		if o.InitialColour == "lot" {
			o.InitialColour = ""
		}
		ev, err := s.app.CloseRegistrationWith(r.Context(), a, slug, o)
		return fmt.Sprintf("Registration closed with %s; the top seed has %s in round 1.", count(ev.Entrants, "entrant"), ev.InitialColour), err
	})
}

// tdRoundAction pairs, publishes, discards, closes or brings forward the
// current round. The form names the round it showed (hidden "round"), so
// a stale page cannot act on another one.
func (s *Server) tdRoundAction(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		ctx := r.Context()
		action := r.FormValue("action")
		if action != "pair" {
			if err := s.checkRound(ctx, slug, strings.TrimSpace(r.FormValue("round"))); err != nil {
				return "", err
			}
		}
		switch action {
		case "pair":
			rd, ms, err := s.app.PairRound(ctx, a, slug)
			return fmt.Sprintf("Round %s paired (%s, %s): review the pairings, then publish or discard them.", rd.ID, count(len(ms), "match", "matches"), rd.Method), err
		case "publish":
			rd, err := s.app.PublishRound(ctx, a, slug)
			return "Round " + rd.ID + " published; deadline " + deadlineText(deadlineOf(rd.End)) + ".", err
		case "discard":
			rd, err := s.app.DiscardRound(ctx, a, slug, strings.TrimSpace(r.FormValue("reason")))
			return "Round " + rd.ID + " discarded: pair it again when ready.", err
		case "close":
			rd, err := s.app.CloseRound(ctx, a, slug)
			return "Round " + rd.ID + " closed.", err
		case "bring-forward":
			end, err := parseUTC("end", r.FormValue("end"))
			if err != nil {
				return "", err
			}
			rd, err := s.app.BringForward(ctx, a, slug, end)
			return "Round " + rd.ID + " now has the deadline " + deadlineText(deadlineOf(rd.End)) + ".", err
		}
		return "", arbiter.FieldError("action", "web.action", "action must be pair, publish, discard, close or bring-forward")
	})
}

// tdAdvanceStage ends the current stage and fills the next one.
func (s *Server) tdAdvanceStage(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		opt := app.AdvanceOptions{Reason: strings.TrimSpace(r.FormValue("reason"))}
		for _, id := range splitList(r.FormValue("tie_order")) {
			opt.TieOrder = append(opt.TieOrder, strings.ToLower(id))
		}
		ev, err := s.app.AdvanceStage(r.Context(), a, slug, opt)
		if err != nil {
			return "", err
		}
		return "Stage " + strconv.Itoa(ev.Stage+1) + " (" + ev.Stages[ev.Stage].Name + ") begins.", nil
	})
}

// tdAddOfficial makes another user a TD of the event.
func (s *Server) tdAddOfficial(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		user := strings.TrimSpace(r.FormValue("user"))
		if user == "" {
			return "", arbiter.FieldError("user", "web.required", "give the Lichess username of the new TD")
		}
		return user + " is now a TD of this event.", s.app.AddTD(r.Context(), a, slug, user)
	})
}

// tdForbid declares entrants who must not meet in a Swiss stage.
func (s *Server) tdForbid(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		stage, err := strconv.Atoi(strings.TrimSpace(r.FormValue("stage")))
		if err != nil || stage < 1 {
			return "", arbiter.FieldError("stage", "web.stage", "stage must be a number from 1")
		}
		fb, err := s.app.Forbid(r.Context(), a, slug, app.ForbidRequest{Stage: stage - 1, Entrants: splitList(r.FormValue("entrants")),
			Reason: strings.TrimSpace(r.FormValue("reason"))})
		return "Forbidden pairing " + fb.ID + " recorded.", err
	})
}

// tdRemoveForbidden lifts a forbidden pairing.
func (s *Server) tdRemoveForbidden(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		fb, err := s.app.RemoveForbidden(r.Context(), a, slug, r.PathValue("id"), strings.TrimSpace(r.FormValue("reason")))
		return "Forbidden pairing " + fb.ID + " lifted.", err
	})
}

// tdSeparate records players who must play on different teams (A11).
func (s *Server) tdSeparate(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		sp, err := s.app.Separate(r.Context(), a, slug, app.SeparateRequest{Players: splitList(r.FormValue("players")),
			Reason: strings.TrimSpace(r.FormValue("reason"))})
		return "List " + sp.ID + " recorded: these players must play on different teams.", err
	})
}

// tdMessages turns the event's Lichess messages on or off.
func (s *Server) tdMessages(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		on := r.FormValue("on") == "1"
		_, err := s.app.SetMessages(r.Context(), a, slug, on)
		if on {
			return "Players now get messages on Lichess.", err
		}
		return "Messages on Lichess are off.", err
	})
}

// tdRemoveSeparated lifts a list of separated players.
func (s *Server) tdRemoveSeparated(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		sp, err := s.app.RemoveSeparated(r.Context(), a, slug, r.PathValue("id"), strings.TrimSpace(r.FormValue("reason")))
		return "List " + sp.ID + " lifted.", err
	})
}

// tdBan records a ban across the event's series (R17): permanent, until
// a date, or for a number of events (exactly one of them).
func (s *Server) tdBan(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		req := app.BanRequest{Player: r.FormValue("player"), Permanent: r.FormValue("permanent") != "",
			Reason: strings.TrimSpace(r.FormValue("reason"))}
		if v := strings.TrimSpace(r.FormValue("until")); v != "" {
			t, err := parseUTC("until", v)
			if err != nil {
				return "", err
			}
			req.Until = t
		}
		if v := strings.TrimSpace(r.FormValue("events")); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "", arbiter.FieldError("events", "R17", "a number of events is a whole number from 1")
			}
			req.Events = n
		}
		b, err := s.app.Ban(r.Context(), a, slug, req)
		return "Ban " + b.ID + " of " + b.Player + " recorded.", err
	})
}

// tdLiftBan ends a ban early, with a reason.
func (s *Server) tdLiftBan(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		b, err := s.app.LiftBan(r.Context(), a, slug, r.PathValue("id"), strings.TrimSpace(r.FormValue("reason")))
		return "Ban " + b.ID + " lifted.", err
	})
}

// tdEntrantValue records a TD-entered tiebreak value, a captain change
// or a replacement for one entrant (action).
func (s *Server) tdEntrantValue(w http.ResponseWriter, r *http.Request) {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	s.tdAct(w, r, consoleURL(slug), func(a arbiter.Actor) (string, error) {
		ctx := r.Context()
		switch r.FormValue("action") {
		case "tiebreak":
			v, err := arbiter.ParsePoints(strings.TrimSpace(r.FormValue("value")))
			if err != nil {
				return "", arbiter.FieldError("value", "web.points", "value must be a number such as 1 or 0.5")
			}
			key := strings.TrimSpace(r.FormValue("key"))
			e, err := s.app.SetTiebreakValue(ctx, a, slug, id, key, v)
			return e.Name + "'s tiebreak value " + tiebreakName("td_value:"+key).Name + " is now " + v.String() + ".", err
		case "captain":
			e, err := s.app.SetCaptain(ctx, a, slug, id, strings.TrimSpace(r.FormValue("user")))
			return e.Name + " is now captained by " + e.Captain + ".", err
		case "change-captain":
			_, err := s.app.ChangeCaptain(ctx, a, slug, id, strings.TrimSpace(r.FormValue("user")), strings.TrimSpace(r.FormValue("reason")))
			return "Captain change recorded: it takes effect when the next round is paired.", err
		}
		return "", arbiter.FieldError("action", "web.action", "action must be tiebreak, captain or change-captain")
	})
}
