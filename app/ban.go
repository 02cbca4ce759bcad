package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/sqlstore"
)

const kindBan = "ban"

// Ban is a suspension or ban that spans events (RKCC R17): the player may
// not play in the events of the same series (events run with the same
// format) while it stands. It is recorded in the event where the TDs
// decide it and checked wherever the player registers or is named as a
// replacement. Lifting it keeps the record.
type Ban struct {
	ID     string `json:"id"` // "b1", "b2", ...
	Player string `json:"player"`
	// How long: for good, until a date (events starting before it), or
	// for the next Events events of the series starting from the day it is
	// recorded (the event it is recorded in counts when it starts then).
	Permanent bool      `json:"permanent,omitempty"`
	Until     time.Time `json:"until,omitzero"`
	Events    int       `json:"events,omitempty"`
	Reason    string    `json:"reason"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
	Event     string    `json:"event"` // slug of the event it was recorded in
	Series    string    `json:"series"`

	Lifted       bool      `json:"lifted,omitempty"`
	LiftedBy     string    `json:"lifted_by,omitempty"`
	LiftedAt     time.Time `json:"lifted_at,omitzero"`
	LiftedReason string    `json:"lifted_reason,omitempty"`

	Version int64 `json:"-"`
}

// BanRequest records a ban: exactly one of Permanent, Until or Events.
type BanRequest struct {
	Player    string
	Permanent bool
	Until     time.Time
	Events    int
	Reason    string
}

// Ban records a suspension or ban of a player across the events of this
// event's series (R17). TD only, with a reason (audited).
func (s *Service) Ban(ctx context.Context, a arbiter.Actor, slug string, req BanRequest) (Ban, error) {
	var b Ban
	if err := requireReason(req.Reason, "a ban"); err != nil {
		return b, err
	}
	player := normUser(req.Player)
	if player == "" {
		return b, arbiter.FieldError("player", "R17", "name the player's Lichess username")
	}
	if err := checkUser("player", player); err != nil {
		return b, err
	}
	if err := checkTimes("until", s.now(), req.Until); err != nil {
		return b, err
	}
	n := 0
	if req.Permanent {
		n++
	}
	if !req.Until.IsZero() {
		n++
	}
	if req.Events < 0 {
		return b, arbiter.FieldError("events", "R17", "a number of events is 1 or more")
	}
	if req.Events > 0 {
		n++
	}
	if n != 1 {
		return b, arbiter.FieldError("until", "R17", "say how long: for good, until a date, or for a number of events (exactly one)")
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "ban a player"); err != nil {
			return err
		}
		now := s.now()
		if !req.Until.IsZero() && !req.Until.After(now) {
			return arbiter.FieldError("until", "R17", "the ban would end at %s, which is not in the future", req.Until.UTC().Format(time.RFC3339))
		}
		all, err := docBan.list(ctx, tx, st)
		if err != nil {
			return err
		}
		b = Ban{ID: fmt.Sprintf("b%d", len(all)+1), Player: player, Permanent: req.Permanent, Until: req.Until.UTC(),
			Events: req.Events, Reason: strings.TrimSpace(req.Reason), By: normUser(a.Name), At: now,
			Event: st.ev.Slug, Series: st.ev.Format}
		b.Version, err = docBan.create(ctx, tx, change(a, "player.ban", player+": "+b.Reason, false), st, b.ID, b)
		return err
	})
	return b, err
}

// LiftBan ends a ban early (TD of the event it was recorded in, with a
// reason); the record stays, marked lifted.
func (s *Service) LiftBan(ctx context.Context, a arbiter.Actor, slug, id, reason string) (Ban, error) {
	if err := requireReason(reason, "lifting a ban"); err != nil {
		return Ban{}, err
	}
	return amendAsTD(ctx, s, a, slug, docBan, id, "lift a ban", func(b *Ban) (sqlstore.Change, error) {
		if b.Lifted {
			return sqlstore.Change{}, arbiter.Errorf(arbiter.ECONFLICT, "ban %s was already lifted", id)
		}
		b.Lifted, b.LiftedBy, b.LiftedAt, b.LiftedReason = true, normUser(a.Name), s.now(), strings.TrimSpace(reason)
		return change(a, "player.unban", b.Player+": "+b.LiftedReason, false), nil
	})
}

// Bans lists the bans recorded in an event, lifted ones included, for
// its TDs (u).
func (s *Service) Bans(ctx context.Context, u *arbiter.User, slug string) ([]Ban, error) {
	var out []Ban
	err := s.tdRead(ctx, slug, u, "its bans", func(q sqlstore.Queryer, st *state) (err error) {
		out, err = docBan.list(ctx, q, st)
		return err
	})
	return out, err
}

// checkBans refuses players banned from the event st (R17): by a ban
// recorded in any event of its series that still stands for it. It runs
// on every registration, so it reads only the other events' documents
// (name of the format, start), never their formats.
func checkBans(ctx context.Context, q sqlstore.Queryer, st *state, players []string) error {
	rows, err := sqlstore.ListEvents(ctx, q)
	if err != nil {
		return err
	}
	var series []arbiter.Event // the events of st's series, st included (ID = the row's)
	for _, r := range rows {
		ev := st.ev
		if r.ID != st.row.ID {
			if ev, _, err = docEvent.read(ctx, q, r.ID, docID); err != nil {
				return err
			}
		}
		if ev.Format == st.ev.Format {
			ev.ID = r.ID
			series = append(series, ev)
		}
	}
	for _, ev := range series {
		bans, err := docBan.records(ctx, q, ev.ID)
		if err != nil {
			return err
		}
		for _, rec := range bans {
			b := rec.Value
			if b.Lifted || !slices.Contains(players, b.Player) || !b.covers(st.ev, series) {
				continue
			}
			return arbiter.RuleError("R17", "%s is banned from %s events (%s, recorded in %s on %s: %s)",
				b.Player, b.Series, b.term(), b.Event, b.At.UTC().Format("2006-01-02"), b.Reason)
		}
	}
	return nil
}

// covers reports whether the ban stands for event ev of the series.
func (b Ban) covers(ev arbiter.Event, series []arbiter.Event) bool {
	day := b.At.Truncate(24 * time.Hour)
	switch {
	case b.Permanent:
		return true
	case !b.Until.IsZero():
		return ev.Start.Before(b.Until)
	case b.Events > 0:
		if ev.Start.Before(day) {
			return false
		}
		n := 0 // events of the series from the ban's day up to ev's start
		for _, o := range series {
			if !o.Start.Before(day) && !o.Start.After(ev.Start) {
				n++
			}
		}
		return n <= b.Events
	}
	return false
}

// term says how long the ban runs, for messages.
func (b Ban) term() string {
	switch {
	case b.Permanent:
		return "for good"
	case !b.Until.IsZero():
		return "until " + b.Until.UTC().Format("2006-01-02 15:04 UTC")
	default:
		return fmt.Sprintf("for %d events", b.Events)
	}
}
