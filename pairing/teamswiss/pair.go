package teamswiss

import (
	"errors"

	"arbiter"
	"arbiter/pairing/dutch"
)

// Pair pairs the next round of ev with the Dutch engine. Boards come in the
// engine's publication order (higher team's match points, lower team's match
// points, higher team's place in the pairing order); Home has White on board
// 1 / game 1. Bad input is an EINVALID *arbiter.Error naming the field; a
// round that cannot be paired (C1-C3 leave no complete pairing) is
// ENOPAIRING.
func Pair(ev *Event) (*Pairing, error) {
	m, err := build(ev)
	if err != nil {
		return nil, err
	}
	pairs, err := dutch.Pair(m.t)
	if errors.Is(err, dutch.ErrNoPairing) {
		return nil, arbiter.Errorf(arbiter.ENOPAIRING, "the Dutch system finds no valid pairing of the teams for round %d", m.played+1)
	}
	if err != nil {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "pairing round %d: %v", m.played+1, err)
	}
	out := &Pairing{Round: m.played + 1, Boards: []Board{}}
	for _, p := range pairs {
		if p.Black < 0 {
			out.Bye = ev.Teams[p.White].ID
			continue
		}
		out.Boards = append(out.Boards, Board{Home: ev.Teams[p.White].ID, Away: ev.Teams[p.Black].ID})
	}
	return out, nil
}

// Order returns the pairing order of the round to pair: present teams by
// match points (descending), secondary score (descending) and seed
// (ascending), then the withdrawn teams. Its TPN is the pairing number the
// engine ranks the team by inside its scoregroup.
func Order(ev *Event) ([]Ranked, error) {
	m, err := build(ev)
	if err != nil {
		return nil, err
	}
	return m.ranked(), nil
}
