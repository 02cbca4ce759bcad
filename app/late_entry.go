package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/calendar"
	"arbiter/format"
	"arbiter/sqlstore"
)

// lateEntryClause is cited where a late entry is refused for the shape
// of the event rather than by a rulebook clause.
const lateEntryClause = "app.late_entry"

// LateEntry is a TD entering a player or team after registration closed
// (docs/running-an-event.md, "Late entries"), approved at once and audited
// with the reason. It is refused once the format's registration is final
// (RKCC R8: Saturday 23:59 UTC before the start), and, in a running
// event, unless the current stage is the first and a Swiss, and one more
// entrant leaves the format's sizing as it is (rounds by the number of
// entrants, R1, W5; team size, A9; the knockout's size, A10; the
// duration, A22): the calendar is fixed. The entrant joins with no points
// for the rounds already paired, as an absent player does (a zero-point
// bye, C.04.1: neither rulebook says otherwise), and takes the pairing
// number its rating gives among the others, who are renumbered (C.04.2
// Art. 2). The membership rules of registration apply (one team per
// player, A11; bans, R17; separated players, A11), and no player removed
// from the event may come back (R16). TD only.
func (s *Service) LateEntry(ctx context.Context, a arbiter.Actor, slug string, e arbiter.Entrant, reason string) (arbiter.Entrant, error) {
	if err := requireReason(reason, "a late entry"); err != nil {
		return e, err
	}
	if err := checkEntrantText(&e); err != nil {
		return e, err
	}
	reason = strings.TrimSpace(reason)
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "enter a late entrant"); err != nil {
			return err
		}
		if err := registrationFinal(st.f, st.ev.Start, s.now()); err != nil {
			return err
		}
		running := st.ev.Status == arbiter.EventRunning
		switch {
		case st.ev.Status == arbiter.EventRegistration:
		case !running:
			return arbiter.RuleError("app.event", "event %s is %s: no entries", slug, st.ev.Status)
		case st.ev.Stage != 0 || st.ev.Stages[0].Kind != format.Swiss:
			stg := st.ev.Stages[st.ev.Stage]
			return arbiter.RuleError(lateEntryClause, "the event is in its %s stage (%s): a late entrant joins only a first stage that is a Swiss",
				stg.Name, strings.ReplaceAll(stg.Kind, "_", " "))
		}
		if err := normaliseEntrant(st.f, &e); err != nil {
			return err
		}
		all, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		old := slices.IndexFunc(all, func(o arbiter.Entrant) bool { return o.ID == e.ID })
		if old >= 0 && entered(all[old]) && all[old].Status != arbiter.EntrantPending {
			return arbiter.Errorf(arbiter.ECONFLICT, "%s is already in the event (%s)", e.ID, all[old].Status)
		}
		removed, err := removedPlayers(ctx, tx, st)
		if err != nil {
			return err
		}
		played, err := playedFor(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, u := range e.Users() {
			if err := mayJoin(st, e.ID, u, removed, all, played); err != nil {
				return err
			}
		}
		if err := checkBans(ctx, tx, st, e.Users()); err != nil {
			return err
		}
		if e.Kind == arbiter.EntrantTeam {
			if err := checkSeparated(ctx, tx, st, e.Name, e.Users()); err != nil {
				return err
			}
		}
		e.Status, e.RegisteredBy, e.RegisteredAt, e.Seed, e.Reason = arbiter.EntrantApproved, normUser(a.Name), s.now(), 0, ""
		ch := change(a, "entrant.late_entry", reason, false)
		if running {
			if err := sameSizing(st, st.ev.Entrants+1); err != nil {
				return err
			}
			if err := s.seedLate(ctx, tx, st, a, &e, all); err != nil {
				return err
			}
			st.ev.Entrants++
			st.ev.Stages[0].Entrants++
			if err := st.save(ctx, tx, ch); err != nil {
				return err
			}
		}
		if old >= 0 {
			e.Version, err = docEntrant.update(ctx, tx, ch, st, e.ID, all[old].Version, e)
		} else {
			e.Version, err = docEntrant.create(ctx, tx, ch, st, e.ID, e)
		}
		if err != nil {
			return err
		}
		// A late entrant is checked on Lichess like any other (A2, W1,
		// ratings, A11): the TD entered them, the rules still apply.
		_, err = s.lichessOnEntry(ctx, tx, st, e.ID)
		return err
	})
	return e, err
}

// registrationFinal refuses an entry once the format's registration is
// final (RKCC R8: finalised Saturday 23:59 UTC, 24 hours before the Monday
// start); formats without such a time leave late entries to the TDs.
func registrationFinal(f *format.Format, start, now time.Time) error {
	h := f.Calendar.RegistrationFinalHoursBefore
	if h <= 0 {
		return nil
	}
	final := start.Add(-time.Duration(h) * time.Hour)
	if now.Before(final) {
		return nil
	}
	return arbiter.RuleError(orField(f.Clauses.Registration, "format.calendar.registration_final_hours_before"),
		"registration was final at %s (%d hours before the first round): no more entries", calendar.Format(final.Add(-1)), h)
}

// sameSizing refuses n entrants when the format would size the running
// event differently: its stages, rounds and calendar were fixed when
// registration closed.
func sameSizing(st *state, n int) error {
	x, err := st.f.Explain(n)
	if err != nil {
		return err
	}
	if !x.Runs {
		return arbiter.RuleError(sizingClause(st.f, n), "%s cannot run with %s: %s", st.f.Name, arbiter.Count(n, "entrant"), x.Reason)
	}
	was, err := st.f.Explain(st.ev.Entrants)
	if err != nil {
		return err
	}
	differs := func(what string, a, b *int) error {
		if a == nil || b == nil || *a == *b {
			return nil
		}
		return arbiter.RuleError(sizingClause(st.f, n), "with %d entrants the format gives %d %s, not %d: the event's stages and calendar are fixed, so it takes no late entrant",
			n, *a, what, *b)
	}
	if err := differs("as the team size", x.TeamSize, was.TeamSize); err != nil {
		return err
	}
	if err := differs("weeks", x.Weeks, was.Weeks); err != nil {
		return err
	}
	for i, se := range x.Stages {
		if i >= len(st.ev.Stages) {
			break
		}
		stg := st.ev.Stages[i]
		if err := differs(fmt.Sprintf("rounds in the %s stage", stg.Name), se.Rounds, &stg.Rounds); err != nil {
			return err
		}
		if se.Advance != nil && *se.Advance != stg.Advance {
			return differs(fmt.Sprintf("advancing from the %s stage", stg.Name), se.Advance, &stg.Advance)
		}
		if i > 0 {
			if err := differs(fmt.Sprintf("entrants in the %s stage", stg.Name), se.Entrants, &stg.Entrants); err != nil {
				return err
			}
		}
	}
	return nil
}

// seedLate gives a late entrant the pairing number of its rating among
// the entrants already seeded (rating, then ID, as at the close) and
// moves those below it down one (C.04.2 Art. 2: late entries are
// inserted and the list renumbered).
func (s *Service) seedLate(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, e *arbiter.Entrant, all []arbiter.Entrant) error {
	var seeded []arbiter.Entrant
	for _, o := range all {
		if o.Seed > 0 && o.ID != e.ID {
			seeded = append(seeded, o)
		}
	}
	sortBySeed(seeded)
	e.Seed = len(seeded) + 1
	for _, o := range seeded {
		if o.Rating < e.Rating || (o.Rating == e.Rating && o.ID > e.ID) {
			e.Seed = o.Seed
			break
		}
	}
	ch := change(a, "entrant.seed", "late entry of "+e.ID+" (C.04.2 Art. 2)", false)
	for _, o := range seeded {
		if o.Seed < e.Seed {
			continue
		}
		o.Seed++
		if _, err := docEntrant.update(ctx, tx, ch, st, o.ID, o.Version, o); err != nil {
			return err
		}
	}
	return nil
}
