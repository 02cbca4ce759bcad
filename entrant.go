package arbiter

import "time"

// Entrant kinds.
const (
	EntrantPlayer = "player"
	EntrantTeam   = "team"
)

// Entrant statuses: registration is approved or rejected by a TD.
const (
	EntrantPending   = "pending"
	EntrantApproved  = "approved"
	EntrantRejected  = "rejected"
	EntrantWithdrawn = "withdrawn"
	// EntrantRemoved: dropped from the pairings by a sanction (DQ, ban);
	// the results it keeps are decided by the sanction.
	EntrantRemoved = "removed"
)

// Entrant is a player or a team entered in an event.
type Entrant struct {
	// ID is the lower-case Lichess username of a player, or a slug of a
	// team's name.
	ID   string `json:"id"`
	Kind string `json:"kind"` // player or team
	Name string `json:"name"`
	// Player is the Lichess username of an individual entrant.
	Player string `json:"player,omitempty"`
	// Rating orders the initial seeding (a team's: its members' average
	// as given by the captain or TD).
	Rating int `json:"rating,omitempty"`
	// Team entrants: Captain is one of Members (A11); Boards is the board
	// order (A12), empty until the captain gives it; Substitute is the
	// optional extra member (A14).
	Captain    string   `json:"captain,omitempty"`
	Members    []string `json:"members,omitempty"`
	Boards     []string `json:"boards,omitempty"`
	Substitute string   `json:"substitute,omitempty"`

	Status string `json:"status"`
	// Reason is the TD's reason for a rejection.
	Reason       string    `json:"reason,omitempty"`
	RegisteredBy string    `json:"registered_by"`
	RegisteredAt time.Time `json:"registered_at"`
	// Seed is the pairing number given when registration closes (1 = top).
	Seed int `json:"seed,omitempty"`
	// Values are TD-entered tiebreak values by key (td_value:<key>, W9:
	// "previous_final"); higher is better.
	Values map[string]Points `json:"values,omitempty"`

	Version int64 `json:"-"`
}

// Users lists everyone who plays for the entrant: the player, or the
// captain, members and substitute of a team.
func (e *Entrant) Users() []string {
	if e.Kind == EntrantPlayer {
		return []string{e.Player}
	}
	out := append([]string(nil), e.Members...)
	if e.Substitute != "" {
		out = append(out, e.Substitute)
	}
	return out
}
