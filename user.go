package arbiter

import "strings"

// User is who is asking: a person signed in with Lichess, a local account
// (its name ends in "@local", such as "td@local"), or a bot acting for a
// user through an API token. Package app returns it from sign-in and
// sessions; pages and the CLI pass it back to app, which derives the
// user's role and side in an event from it.
type User struct {
	ID              string `json:"id"`
	LichessID       string `json:"lichess_id"`       // lower-case username: the key
	LichessUsername string `json:"lichess_username"` // as Lichess spells it
	DisplayName     string `json:"display_name"`
	// Local: a local account signed in with its password.
	Local bool `json:"local"`
}

// Name is the username the user acts under ("" for nobody).
func (u *User) Name() string {
	if u == nil {
		return ""
	}
	return u.LichessUsername
}

// As is the user acting in role (see Actor).
func (u *User) As(role string) Actor { return Actor{Name: u.Name(), Role: role} }

// NamedUser is the user with this username, for callers that know only a
// name (the CLI's --as, background work acting for someone).
func NamedUser(name string) *User {
	return &User{LichessID: strings.ToLower(strings.TrimSpace(name)), LichessUsername: strings.TrimSpace(name), DisplayName: strings.TrimSpace(name)}
}
