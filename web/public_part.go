package web

import (
	"net/http"
	"slices"

	"arbiter"
)

// partBox is the "Your part in this event" box of the event page: links
// to what the signed-in user may do. It grants nothing; every page and
// use case checks the user again.
type partBox struct {
	TD       bool
	Captain  []entrantLink // the teams the user captains
	Entrants []entrantLink // the entrants the user is or plays for
	Matches  []partMatch   // their matches in the latest published round
	Register bool          // registration is open
}

type partMatch struct {
	ID, Label string
}

// Empty reports whether the user has no part and nothing to do.
func (p *partBox) Empty() bool {
	return !p.TD && len(p.Captain) == 0 && len(p.Entrants) == 0 && !p.Register
}

func (s *Server) partOf(r *http.Request, v *eventView, user string) (*partBox, error) {
	roles, err := s.app.RolesOf(r.Context(), v.Ev.Slug, user)
	if err != nil {
		return nil, err
	}
	p := &partBox{TD: roles.TD, Register: v.Ev.Status == arbiter.EventRegistration}
	for _, id := range roles.Captain {
		p.Captain = append(p.Captain, entrantLink{id, v.name(id)})
	}
	mine := slices.Concat(roles.Player, roles.Member)
	for _, id := range mine {
		p.Entrants = append(p.Entrants, entrantLink{id, v.name(id)})
	}
	mine = append(mine, roles.Captain...)
	if n := len(v.Rounds); n > 0 {
		last := v.Rounds[n-1]
		for _, m := range v.Matches {
			if roundID(m.Stage, m.Round) != last.ID || !(slices.Contains(mine, m.Home) || slices.Contains(mine, m.Away)) {
				continue
			}
			label := v.name(m.Home) + " v bye"
			if !m.IsBye() {
				label = v.name(m.Home) + " v " + v.name(m.Away)
			}
			p.Matches = append(p.Matches, partMatch{ID: m.ID, Label: label + " (round " + last.ID + ", " + words(m.Status) + ")"})
		}
	}
	return p, nil
}
