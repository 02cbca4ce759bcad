package lichess

import (
	"slices"
	"strings"
)

// OAuth scopes Arbiter asks for, spelled as Lichess names them (the
// securitySchemes of the API document). Player sign-in asks for none:
// Arbiter only needs to know who signed in, unless a TD chose bulk
// pairing, when the players grant ScopeChallengeWrite.
const (
	// ScopeChallengeWrite creates, accepts and declines challenges. Bulk
	// pairing needs it from every paired player; POST /api/challenge/{user}
	// needs it from the challenger.
	ScopeChallengeWrite = "challenge:write"
	// ScopeChallengeRead lists the token owner's challenges.
	ScopeChallengeRead = "challenge:read"
	// ScopeChallengeBulk creates, reads, starts and cancels bulk pairings
	// (the organiser's token).
	ScopeChallengeBulk = "challenge:bulk"
	// ScopeMsgWrite sends private messages (POST /inbox/{username}).
	ScopeMsgWrite = "msg:write"
	// ScopeTeamRead reads private team information (members of a team
	// whose member list is private).
	ScopeTeamRead = "team:read"
	// ScopeTeamLead manages a team, including messages to all its members.
	ScopeTeamLead = "team:lead"
)

// Feature is something Arbiter does on Lichess with the organiser's token
// and the scope it needs.
type Feature struct {
	Key   string // stable name: "open_challenges", "bulk_pairing", ...
	Name  string // what a TD reads
	Scope string // "" when no scope is needed
	// Disabled is the TD console's message when the token lacks Scope.
	Disabled string
}

// Features lists what the organiser's token is used for, in the order the
// TD console shows them. Open challenges and the game, rating and token
// reads need no scope; the rest do.
var Features = []Feature{
	{Key: "open_challenges", Name: "Create each game as an open challenge for its two players",
		Disabled: ""},
	{Key: "bulk_pairing", Name: "Bulk pairing: games created and clocks started at a fixed time", Scope: ScopeChallengeBulk,
		Disabled: "Bulk pairing is off: the organiser's token lacks challenge:bulk. Games are created as open challenges instead."},
	{Key: "messages", Name: "Messages to players through the Lichess inbox", Scope: ScopeMsgWrite,
		Disabled: "No Lichess messages: the organiser's token lacks msg:write. Players see pairings and deadlines only on Arbiter."},
	{Key: "team_members", Name: "Team membership checks on private teams", Scope: ScopeTeamRead,
		Disabled: "Private team member lists cannot be read: the organiser's token lacks team:read. Public teams are still checked."},
	{Key: "team_messages", Name: "Announcements to the event's Lichess team", Scope: ScopeTeamLead,
		Disabled: "No team announcements: the organiser's token lacks team:lead (and must lead the event's team)."},
}

// FeatureStatus is one Feature for a given token.
type FeatureStatus struct {
	Feature
	Enabled bool
}

// FeaturesFor says which Features a token with these scopes enables. Nil
// scopes (no token at all) enable only what needs none.
func FeaturesFor(scopes []string) []FeatureStatus {
	out := make([]FeatureStatus, len(Features))
	for i, f := range Features {
		out[i] = FeatureStatus{Feature: f, Enabled: f.Scope == "" || slices.Contains(scopes, f.Scope)}
	}
	return out
}

// parseScopes splits Lichess's comma-separated scope list ("" = none).
func parseScopes(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	out := strings.Split(s, ",")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}
