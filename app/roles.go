package app

import (
	"context"
	"slices"

	"arbiter"
)

// Roles is what one user may do in one event, for pages to show the
// right controls. It grants nothing: every use case checks the actor again.
type Roles struct {
	TD bool `json:"td"`
	// Captain: the teams the user captains; Player: the individual entrant
	// that is the user; Member: the teams the user plays for. All entrant
	// IDs, whatever the entrants' status.
	Captain []string `json:"captain,omitempty"`
	Player  []string `json:"player,omitempty"`
	Member  []string `json:"member,omitempty"`
}

// Any tells whether the user has any part in the event.
func (r Roles) Any() bool {
	return r.TD || len(r.Captain) > 0 || len(r.Player) > 0 || len(r.Member) > 0
}

// RolesOf returns the user's roles in the event (none for an empty user).
func (s *Service) RolesOf(ctx context.Context, slug, user string) (Roles, error) {
	var r Roles
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return r, err
	}
	u := normUser(user)
	if u == "" {
		return r, nil
	}
	if r.TD, err = isTD(ctx, s.DB, st, arbiter.Actor{Name: u, Role: arbiter.RoleTD}); err != nil {
		return r, err
	}
	es, err := docEntrant.list(ctx, s.DB, st)
	if err != nil {
		return r, err
	}
	for _, e := range es {
		switch {
		case e.Kind == arbiter.EntrantPlayer && normUser(e.Player) == u:
			r.Player = append(r.Player, e.ID)
		case e.Kind == arbiter.EntrantTeam:
			if normUser(e.Captain) == u {
				r.Captain = append(r.Captain, e.ID)
			}
			if slices.ContainsFunc(append(slices.Clone(e.Members), e.Substitute), func(m string) bool { return normUser(m) == u }) {
				r.Member = append(r.Member, e.ID)
			}
		}
	}
	return r, nil
}
