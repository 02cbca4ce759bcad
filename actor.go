package arbiter

// Roles an actor may hold in an event. A user's role is per event: the TD
// of one event may be a player in another.
const (
	RoleTD      = "td"      // tournament director: creates, approves, pairs, overrides
	RoleCaptain = "captain" // team captain: registers the team, reports its matches
	RolePlayer  = "player"  // an individual entrant or a team member
	// RoleSystem is the scheduler acting at deadlines (closing rounds,
	// negotiation deadlines). It is not checked against the event, so only
	// trusted callers (the CLI operator, the scheduler) may claim it; an
	// HTTP layer must never accept it from a user.
	RoleSystem = "system"
)

// Actor is who asks for an action: a user (by Lichess username, compared
// case-insensitively) and the capacity claimed. The application layer
// checks the claim against the event (a TD must be one of its TDs, a
// player must be an entrant or member).
type Actor struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

func (a Actor) String() string {
	if a.Role == "" {
		return a.Name
	}
	return a.Name + " (" + a.Role + ")"
}

// Official is a user holding a role in one event that is not derived from
// an entrant (today: the TDs). Stored one document per user.
type Official struct {
	User  string   `json:"user"`
	Roles []string `json:"roles"`
}
