package app

import (
	"context"
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
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return Roles{}, err
	}
	return rolesIn(ctx, s.DB, st, normUser(user))
}
