package app

import (
	"context"
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/jobs"
)

// What needs the TDs now: the console opens on it. NeedsAttention works
// on a hand-made state (AttentionInput) so that every case is a table
// test; Service.Attention gathers the state of a stored event.

// Next steps of an event, in the order an event takes them.
const (
	StepCloseRegistration = "close_registration"
	StepPair              = "pair"
	StepPublish           = "publish"
	StepCloseRound        = "close_round"
	StepAdvanceStage      = "advance_stage"
)

// Kinds of what is waiting or overdue.
const (
	AttendRegistrations  = "registrations"   // entrants waiting for approval
	AttendPairingsDue    = "pairings_due"    // the next round's pairings are late by the calendar
	AttendDeadlinePassed = "deadline_passed" // a round's deadline passed and it is still open
	AttendAppeals        = "appeals"         // appeals waiting for a decision
	AttendDisputed       = "disputed"        // results disputed: a TD decides
	AttendHeld           = "held"            // matches held for the TDs at a deadline
	AttendUnconfirmed    = "unconfirmed"     // reported, not confirmed, the deadline near or passed
	AttendFailedJobs     = "failed_jobs"     // background jobs that failed
)

// unconfirmedWindow is how close to its deadline a reported result not
// yet confirmed needs the TDs.
const unconfirmedWindow = 48 * time.Hour

// Attention is what an event's TDs should look at now.
type Attention struct {
	// Next is the event's next step when it can be taken now (and would
	// succeed), nil when there is none: the round is running, or
	// something listed in Items must be settled first.
	Next *NextStep
	// Items are what waits for the TDs or is overdue, most urgent first;
	// none when all is well.
	Items []AttentionItem
}

// NextStep is the step the console offers as its main button.
type NextStep struct {
	Kind  string
	Round string // the round it acts on (pair: the round it will make)
	// Stage is the stage it starts (advance_stage), by name.
	Stage string
	// Due is when the calendar wants it done (exclusive); zero when it
	// sets no time. Overdue: Due has passed.
	Due     time.Time
	Overdue bool
}

// AttentionItem is one kind of thing waiting, with how many.
type AttentionItem struct {
	Kind  string
	Count int
	// Round is the round concerned (pairings_due, deadline_passed).
	Round string
	// Due is the deadline that passed or comes (exclusive).
	Due time.Time
	// Matches are the matches concerned (disputed, held, unconfirmed).
	Matches []string
}

// AttentionInput is an event's state as NeedsAttention reads it.
type AttentionInput struct {
	Event   arbiter.Event
	Rounds  []arbiter.Round // every round of the event
	Matches []arbiter.Match // every match of the event
	Appeals []arbiter.Appeal
	// Pending and Approved count the entrants; RegistrationRuns says the
	// format can start with the approved ones (Explain).
	Pending, Approved int
	RegistrationRuns  bool
	FailedJobs        int
	// PairingsDue is when a round opening at start must be paired and
	// published (calendar.Rules.PairingsDue).
	PairingsDue func(start time.Time) time.Time
	Now         time.Time
}

// NeedsAttention says what an event's TDs should do now: the next step
// when it can succeed, and what waits or is overdue by the calendar.
func NeedsAttention(in AttentionInput) Attention {
	var out Attention
	ev, now := in.Event, in.Now
	add := func(it AttentionItem) {
		if it.Count > 0 {
			out.Items = append(out.Items, it)
		}
	}
	due := func(start time.Time) time.Time {
		if in.PairingsDue == nil {
			return time.Time{}
		}
		return in.PairingsDue(start)
	}
	overdue := func(t time.Time) bool { return !t.IsZero() && !now.Before(t) }

	switch ev.Status {
	case arbiter.EventRegistration:
		add(AttentionItem{Kind: AttendRegistrations, Count: in.Pending})
		if in.Pending == 0 && in.RegistrationRuns {
			out.Next = &NextStep{Kind: StepCloseRegistration, Due: ev.Start, Overdue: overdue(ev.Start)}
		}
	case arbiter.EventRunning:
		out.Next, out.Items = runningSteps(in, due, overdue)
	}

	// Whatever the state: matches, appeals, jobs.
	ends := map[string]time.Time{}
	for _, rd := range in.Rounds {
		for _, id := range rd.Matches {
			ends[id] = rd.End
		}
	}
	disputed, held, unconfirmed := AttentionItem{Kind: AttendDisputed}, AttentionItem{Kind: AttendHeld}, AttentionItem{Kind: AttendUnconfirmed}
	for _, m := range in.Matches {
		switch {
		case m.Status == arbiter.MatchDisputed:
			disputed.Matches = append(disputed.Matches, m.ID)
		case m.Status == arbiter.MatchHeld:
			held.Matches = append(held.Matches, m.ID)
		case m.Status == arbiter.MatchReported && !ends[m.ID].IsZero() && ends[m.ID].Sub(now) < unconfirmedWindow:
			unconfirmed.Matches = append(unconfirmed.Matches, m.ID)
			if unconfirmed.Due.IsZero() || ends[m.ID].Before(unconfirmed.Due) {
				unconfirmed.Due = ends[m.ID]
			}
		}
	}
	for _, it := range []*AttentionItem{&disputed, &held, &unconfirmed} {
		it.Count = len(it.Matches)
		add(*it)
	}
	appeals := 0
	for _, ap := range in.Appeals {
		if ap.Status == arbiter.AppealPending {
			appeals++
		}
	}
	add(AttentionItem{Kind: AttendAppeals, Count: appeals})
	add(AttentionItem{Kind: AttendFailedJobs, Count: in.FailedJobs})
	return out
}

// runningSteps is the next step of a running event and the rounds that
// are late.
func runningSteps(in AttentionInput, due func(time.Time) time.Time, overdue func(time.Time) bool) (*NextStep, []AttentionItem) {
	ev, now := in.Event, in.Now
	if ev.Stage >= len(ev.Stages) {
		return nil, nil
	}
	stage := ev.Stages[ev.Stage]
	var rounds []arbiter.Round
	for _, rd := range in.Rounds {
		if rd.Stage == ev.Stage {
			rounds = append(rounds, rd)
		}
	}
	slices.SortFunc(rounds, func(a, b arbiter.Round) int { return a.Number - b.Number })
	window := func(number int) (arbiter.RoundWindow, bool) {
		for _, w := range ev.Calendar {
			if w.Stage == ev.Stage && w.Number == number {
				return w, true
			}
		}
		return arbiter.RoundWindow{}, false
	}
	final := func(rd arbiter.Round) bool {
		for _, m := range in.Matches {
			if slices.Contains(rd.Matches, m.ID) && m.Status != arbiter.MatchFinal {
				return false
			}
		}
		return true
	}
	var items []AttentionItem
	var cur *arbiter.Round
	if len(rounds) > 0 {
		cur = &rounds[len(rounds)-1]
	}
	switch {
	case cur == nil || cur.Status == arbiter.RoundClosed:
		next := 1
		if cur != nil {
			next = cur.Number + 1
			if !final(*cur) {
				return nil, nil // a held or disputed result first (listed)
			}
		}
		if next > stage.Rounds {
			if ev.Stage+1 < len(ev.Stages) {
				return &NextStep{Kind: StepAdvanceStage, Stage: ev.Stages[ev.Stage+1].Name}, nil
			}
			return nil, nil // the last stage is over
		}
		st := &NextStep{Kind: StepPair, Round: fmt.Sprintf("s%dr%d", ev.Stage+1, next)}
		if w, ok := window(next); ok {
			st.Due = due(w.Start)
			st.Overdue = overdue(st.Due)
		}
		if st.Overdue {
			items = append(items, AttentionItem{Kind: AttendPairingsDue, Count: 1, Round: st.Round, Due: st.Due})
		}
		return st, items
	case cur.Status == arbiter.RoundPaired:
		st := &NextStep{Kind: StepPublish, Round: cur.ID}
		if w, ok := window(cur.Number); ok {
			st.Due = due(w.Start)
			st.Overdue = overdue(st.Due)
		}
		if st.Overdue {
			items = append(items, AttentionItem{Kind: AttendPairingsDue, Count: 1, Round: cur.ID, Due: st.Due})
		}
		return st, items
	case cur.Status == arbiter.RoundPublished && !now.Before(cur.End):
		items = append(items, AttentionItem{Kind: AttendDeadlinePassed, Count: 1, Round: cur.ID, Due: cur.End})
		return &NextStep{Kind: StepCloseRound, Round: cur.ID, Due: cur.End, Overdue: true}, items
	}
	return nil, nil // the round is running
}

// Attention gathers what needs the event's TDs now (NeedsAttention). TD
// only: it reads the appeals and the jobs.
func (s *Service) Attention(ctx context.Context, a arbiter.Actor, slug string) (Attention, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Attention{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see what needs the TDs"); err != nil {
		return Attention{}, err
	}
	in := AttentionInput{Event: st.ev, Now: s.now()}
	if in.Rounds, err = docRound.list(ctx, s.DB, st); err != nil {
		return Attention{}, err
	}
	if in.Matches, err = docMatch.list(ctx, s.DB, st); err != nil {
		return Attention{}, err
	}
	if in.Appeals, err = docAppeal.list(ctx, s.DB, st); err != nil {
		return Attention{}, err
	}
	es, err := docEntrant.list(ctx, s.DB, st)
	if err != nil {
		return Attention{}, err
	}
	for _, e := range es {
		switch e.Status {
		case arbiter.EntrantPending:
			in.Pending++
		case arbiter.EntrantApproved:
			in.Approved++
		}
	}
	if st.ev.Status == arbiter.EventRegistration {
		if x, err := st.f.Explain(in.Approved); err == nil {
			in.RegistrationRuns = x.Runs
		}
	}
	if rules, err := calendarRules(st.f); err == nil {
		in.PairingsDue = rules.PairingsDue
	}
	if s.queue != nil {
		failed, err := s.queue.List(ctx, jobs.Filter{Event: slug, States: []jobs.State{jobs.Failed}})
		if err != nil {
			return Attention{}, err
		}
		in.FailedJobs = len(failed)
	}
	return NeedsAttention(in), nil
}
