package arbiter

// Side is one side of a match: the home entrant (White, or White on board
// 1, where colours matter) or the away entrant. It is the one encoding of
// a side in the domain records and the API ("home", "away"); "" is no
// side (a TD, someone outside the match). Engines that keep a pair of
// something (armageddon bids, negotiation offers) index it by Index.
type Side string

// The two sides of a match.
const (
	Home Side = "home"
	Away Side = "away"
)

// Sides are the two sides in order: home, away.
var Sides = [2]Side{Home, Away}

// Other returns the opposing side ("" for no side).
func (s Side) Other() Side {
	switch s {
	case Home:
		return Away
	case Away:
		return Home
	}
	return ""
}

// Valid reports whether s is home or away.
func (s Side) Valid() bool { return s == Home || s == Away }

// Index is 0 for home and 1 for away: the position of the side in the
// pairs the engines keep (armageddon.Side, negotiation.Player).
func (s Side) Index() int {
	if s == Away {
		return 1
	}
	return 0
}

// SideAt is the side at index i of a pair (0 home, 1 away).
func SideAt(i int) Side { return Sides[i&1] }

// Entrant is the ID of the entrant playing side s of m ("" for the away
// side of a bye or no side).
func (m *Match) Entrant(s Side) string {
	switch s {
	case Home:
		return m.Home
	case Away:
		return m.Away
	}
	return ""
}

// SideOf is the side entrant id plays in m, or "" when it does not play.
func (m *Match) SideOf(id string) Side {
	switch {
	case id == "":
		return ""
	case id == m.Home:
		return Home
	case id == m.Away:
		return Away
	}
	return ""
}
