package app

import (
	"context"
	"slices"

	"arbiter"
	"arbiter/sqlstore"
)

// Who is asking. Reads that depend on the viewer (a match's reports and
// lineups, the pairings of a round under review) take the user and decide
// here, once, what that user may see; pages and the CLI show what they
// get. A nil user is an anonymous visitor.

// viewer is the user of one read and their roles in the event.
type viewer struct {
	name  string // normalised username; "" for anonymous
	roles Roles
}

// rolesIn works out the roles of user (normalised) in the loaded event.
func rolesIn(ctx context.Context, q sqlstore.Queryer, st *state, u string) (Roles, error) {
	var r Roles
	if u == "" {
		return r, nil
	}
	var err error
	if r.TD, err = isTD(ctx, q, st, arbiter.Actor{Name: u, Role: arbiter.RoleTD}); err != nil {
		return r, err
	}
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return r, err
	}
	for _, e := range es {
		switch sideRole(e, u) {
		case arbiter.RolePlayer:
			r.Player = append(r.Player, e.ID)
		case arbiter.RoleCaptain:
			r.Captain = append(r.Captain, e.ID)
		}
		if e.Kind == arbiter.EntrantTeam && slices.ContainsFunc(append(slices.Clone(e.Members), e.Substitute), func(m string) bool { return normUser(m) == u }) {
			r.Member = append(r.Member, e.ID)
		}
	}
	return r, nil
}

// viewerIn is u in the loaded event.
func viewerIn(ctx context.Context, q sqlstore.Queryer, st *state, u *arbiter.User) (viewer, error) {
	v := viewer{name: normUser(u.Name())}
	var err error
	v.roles, err = rolesIn(ctx, q, st, v.name)
	return v, err
}

// read runs fn in one read transaction (a consistent snapshot) with the
// event loaded and the viewer's roles in it.
func (s *Service) read(ctx context.Context, slug string, u *arbiter.User, fn func(q sqlstore.Queryer, st *state, v viewer) error) error {
	return s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		v, err := viewerIn(ctx, tx, st, u)
		if err != nil {
			return err
		}
		return fn(tx, st, v)
	})
}

// PublicRound tells whether a round's pairings are public: published or
// closed. Pairings under the TDs' review are theirs alone.
func PublicRound(rd arbiter.Round) bool {
	return rd.Status == arbiter.RoundPublished || rd.Status == arbiter.RoundClosed
}

// SeesRound tells whether the user with these roles sees the round's
// pairings: a public round, or any round for the event's TDs.
func (r Roles) SeesRound(rd arbiter.Round) bool { return r.TD || PublicRound(rd) }

// InMatch tells whether the user has a part in match m: a TD of the
// event, or a side's player, captain or member. They see its reports.
func (r Roles) InMatch(m arbiter.Match) bool {
	if r.TD {
		return true
	}
	for _, id := range []string{m.Home, m.Away} {
		if id != "" && (slices.Contains(r.Captain, id) || slices.Contains(r.Player, id) || slices.Contains(r.Member, id)) {
			return true
		}
	}
	return false
}

// MatchSide is the side ("home", "away") the user acts for in match m and
// the role to act in: a team's captain acts as captain, an individual
// entrant as player; "" when the user is neither.
func (r Roles) MatchSide(m arbiter.Match) (side, role string) {
	for _, sd := range []struct{ name, id string }{{"home", m.Home}, {"away", m.Away}} {
		if sd.id == "" {
			continue
		}
		if slices.Contains(r.Captain, sd.id) {
			return sd.name, arbiter.RoleCaptain
		}
		if slices.Contains(r.Player, sd.id) {
			return sd.name, arbiter.RolePlayer
		}
	}
	return "", ""
}

// tdRead is read for the event's TDs only: anyone else is EFORBIDDEN.
func (s *Service) tdRead(ctx context.Context, slug string, u *arbiter.User, what string, fn func(q sqlstore.Queryer, st *state) error) error {
	return s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		if !v.roles.TD {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD of %s sees %s", slug, what)
		}
		return fn(q, st)
	})
}
