package app

import (
	"bytes"
	"context"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/sqlstore"
)

// NewEvent is what CreateEvent needs: exactly one of Preset (a built-in
// format's name) or Format (a format file's JSON).
type NewEvent struct {
	Slug   string
	Name   string
	Preset string
	Format []byte
	// Start is when the first round starts, in UTC (RKCC: a Monday 00:00;
	// antichess and ACWC: the first pairings).
	Start time.Time
	// AllowPast accepts a start already in the past (a rehearsal, an
	// event entered after the fact): the TD must say so, since the
	// scheduler closes rounds whose deadline has passed.
	AllowPast bool
}

// CreateEvent creates an event open for registration; the actor, acting as
// a TD, becomes the event's first TD. The start is checked against the
// format's calendar (R4: rounds begin Monday 00:00 UTC).
func (s *Service) CreateEvent(ctx context.Context, a arbiter.Actor, req NewEvent) (arbiter.Event, error) {
	if err := requireActor(a); err != nil {
		return arbiter.Event{}, err
	}
	if a.Role != arbiter.RoleTD {
		return arbiter.Event{}, arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD may create an event (you act as %s)", a)
	}
	if req.Name != "" {
		name, err := arbiter.CleanName("name", req.Name, arbiter.MaxName)
		if err != nil {
			return arbiter.Event{}, err
		}
		req.Name = name
	}
	if err := checkTimes("start", s.now(), req.Start); err != nil {
		return arbiter.Event{}, err
	}
	if reservedSlugs[req.Slug] {
		return arbiter.Event{}, arbiter.FieldError("slug", "app.event", "the slug %q is reserved (the web app's /events/%s page); choose another", req.Slug, req.Slug)
	}
	var f *format.Format
	var err error
	switch {
	case req.Preset != "" && len(req.Format) > 0:
		return arbiter.Event{}, arbiter.FieldError("format", "app.event", "give a preset or a format file, not both")
	case req.Preset != "":
		f, err = format.Preset(req.Preset)
	case len(req.Format) > 0:
		f, err = format.Load(bytes.NewReader(req.Format))
	default:
		return arbiter.Event{}, arbiter.FieldError("format", "app.event", "give a preset (%v) or a format file", format.Presets())
	}
	if err != nil {
		return arbiter.Event{}, err
	}
	if req.Start.IsZero() {
		return arbiter.Event{}, arbiter.FieldError("start", "app.event", "the event needs a start (UTC)")
	}
	start := req.Start.UTC()
	if err := notPast("start", "the first round's start", start, s.now(), req.AllowPast); err != nil {
		return arbiter.Event{}, err
	}
	rules, err := calendarRules(f)
	if err != nil {
		return arbiter.Event{}, err
	}
	// Checks the start against the weekly rhythm; the real calendar is
	// built when registration closes and the stages are sized.
	if _, err := calendar.Build(rules, start, []calendar.Stage{{Name: f.Stages[0].Name, Rounds: 1}}); err != nil {
		return arbiter.Event{}, err
	}
	var canon bytes.Buffer
	if err := format.Write(&canon, f); err != nil {
		return arbiter.Event{}, err
	}
	name := req.Name
	if name == "" {
		name = f.Title
	}
	ev := arbiter.Event{Slug: req.Slug, Name: name, Status: arbiter.EventRegistration, Format: f.Name,
		Preset: req.Preset != "", Start: start}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		ch := change(a, "event.create", "", false)
		row, err := sqlstore.CreateEvent(ctx, tx, ch, sqlstore.Event{Slug: req.Slug, Name: name, Status: ev.Status, Format: canon.Bytes()})
		if err != nil {
			return err
		}
		ev.ID = row.ID
		ev.Version, err = docEvent.createIn(ctx, tx, ch, row.ID, docID, ev)
		if err != nil {
			return err
		}
		td := arbiter.Official{User: normUser(a.Name), Roles: []string{arbiter.RoleTD}}
		_, err = docOfficial.createIn(ctx, tx, change(a, "official.add", "creator of the event", false), row.ID, td.User, td)
		return err
	})
	return ev, err
}

// AddTD makes user a TD of the event; only a TD may.
func (s *Service) AddTD(ctx context.Context, a arbiter.Actor, slug, user string) error {
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "add a TD"); err != nil {
			return err
		}
		u := normUser(user)
		if u == "" {
			return arbiter.FieldError("user", "app.official", "no user given")
		}
		if err := checkOfficial("user", user); err != nil {
			return err
		}
		_, err = docOfficial.create(ctx, tx, change(a, "official.add", "", false), st, u,
			arbiter.Official{User: u, Roles: []string{arbiter.RoleTD}})
		return err
	})
}

// Event returns an event by slug.
func (s *Service) Event(ctx context.Context, slug string) (arbiter.Event, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return arbiter.Event{}, err
	}
	return st.ev, nil
}

// Format returns the event's format.
func (s *Service) Format(ctx context.Context, slug string) (*format.Format, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return st.f, nil
}

// ListEvents returns every event, newest first.
func (s *Service) ListEvents(ctx context.Context) ([]arbiter.Event, error) {
	rows, err := sqlstore.ListEvents(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	out := make([]arbiter.Event, 0, len(rows))
	for _, r := range rows {
		st, err := load(ctx, s.DB, r.Slug)
		if err != nil {
			return nil, err
		}
		out = append(out, st.ev)
	}
	return out, nil
}

// calendarRules are the calendar parameters of a format, derived from its
// data (calendar.RulesFromFormat): a custom format file with the same data
// as a preset gets the same calendar.
func calendarRules(f *format.Format) (calendar.Rules, error) {
	return calendar.RulesFromFormat(f)
}

// reservedSlugs are addresses the web app uses under /events/.
var reservedSlugs = map[string]bool{"new": true}
