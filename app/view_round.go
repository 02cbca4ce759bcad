package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
)

// RoundView is one round of an event as one user may see it, read in one
// transaction: its calendar window, the round once paired, and its
// matches (byes included) with the entrants when the user sees its
// pairings. Whether they do is Roles.SeesRound: pairings under the TDs'
// review are theirs alone until published.
type RoundView struct {
	Event    arbiter.Event
	Format   *format.Format
	Entrants []arbiter.Entrant // by seed
	Roles    Roles
	ID       string // "s1r2"

	// Window is the round's calendar window: its start and deadline as
	// planned (nil for a paired round the calendar no longer holds).
	Window *arbiter.RoundWindow
	// Round is the paired round (nil before its pairing): its state,
	// start and deadline.
	Round *arbiter.Round
	// Visible: the user sees the round's pairings; Matches are then the
	// round's matches by board, byes included (nil otherwise).
	Visible bool
	Matches []arbiter.Match
	// Rounds are the event's paired rounds this user sees, by stage and
	// number (the pages' navigation).
	Rounds []arbiter.Round
}

// RoundView reads round id ("s1r2") of the event for user u (nil: a
// visitor). A round neither in the calendar nor paired is not found.
func (s *Service) RoundView(ctx context.Context, u *arbiter.User, slug, id string) (*RoundView, error) {
	var out *RoundView
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		d := &RoundView{Event: st.ev, Format: st.f, Roles: v.roles, ID: id}
		for i, w := range st.ev.Calendar {
			if roundID(w.Stage, w.Number) == id {
				d.Window = &st.ev.Calendar[i]
			}
		}
		all, err := docRound.list(ctx, q, st)
		if err != nil {
			return err
		}
		sortRounds(all)
		for i, rd := range all {
			if rd.ID == id {
				d.Round = &all[i]
			}
			if v.roles.SeesRound(rd) {
				d.Rounds = append(d.Rounds, rd)
			}
		}
		if d.Window == nil && d.Round == nil {
			return arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no round %q", st.ev.Slug, id)
		}
		if d.Entrants, err = docEntrant.list(ctx, q, st); err != nil {
			return err
		}
		sortBySeed(d.Entrants)
		if d.Visible = d.Round != nil && v.roles.SeesRound(*d.Round); d.Visible {
			ms, err := docMatch.list(ctx, q, st)
			if err != nil {
				return err
			}
			d.Matches = []arbiter.Match{}
			for _, m := range ms {
				if roundID(m.Stage, m.Round) == id {
					d.Matches = append(d.Matches, m)
				}
			}
			sortMatches(d.Matches)
		}
		out = d
		return nil
	})
	return out, err
}
