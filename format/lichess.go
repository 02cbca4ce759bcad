package format

import (
	"slices"
	"strings"
)

// Lichess says what Arbiter does on Lichess for an event's games (issue
// 14): create each game as an open challenge for its two players, import
// the results, and how long a result read from Lichess waits for a side
// to dispute it before it is final.
type Lichess struct {
	// Games is "open_challenge" (Arbiter creates every game, at the agreed
	// start or, where the format schedules no times, when the round is
	// published) or "off" (the players challenge each other; results are
	// still imported from their games).
	Games string `json:"games"`
	// Rated: the games Arbiter creates are rated, and only rated games
	// count when importing (W2: "all games are rated").
	Rated bool `json:"rated,omitempty"`
	// ConfirmHours is how long a result imported from Lichess waits for a
	// side to dispute it before it is final (0: 24).
	ConfirmHours int `json:"confirm_hours,omitempty"`
	// Perf is the Lichess rating that seeds the event ("antichess",
	// "blitz", ...: a key of a profile's perfs): fetched for every player
	// right after registration and refreshed before round 1 is paired.
	// Empty: the ratings are typed at registration.
	Perf string `json:"perf,omitempty"`
	// Team is the id of the event's Lichess team (as in
	// lichess.org/team/ID): every player must belong to it (checked with
	// the ratings; a player outside it is shown to the TDs, who decide),
	// and with messages on, Arbiter announces the pairings and the results
	// of each round to its members (POST /team/{teamId}/pm-all, the
	// organiser's token with team:lead, who must lead the team). Empty:
	// neither.
	Team string `json:"team,omitempty"`
}

// Perfs are the Lichess perfs a format may seed by (Lichess's keys).
var Perfs = []string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence", "chess960",
	"kingOfTheHill", "threeCheck", "antichess", "atomic", "horde", "racingKings", "crazyhouse"}

// RatingPerf is the Lichess perf whose rating is fetched for the event's
// players; "" when ratings are typed.
func (f *Format) RatingPerf() string {
	if f.Lichess == nil {
		return ""
	}
	return f.Lichess.Perf
}

// LichessTeam is the event's Lichess team: every player must belong to
// it and, with messages on, it hears each round's pairings and results;
// "" for none.
func (f *Format) LichessTeam() string {
	if f.Lichess == nil {
		return ""
	}
	return f.Lichess.Team
}

// Ways of creating games (Lichess.Games).
const (
	GamesOpenChallenge = "open_challenge"
	GamesOff           = "off"
)

// DefaultConfirmHours is the confirmation window of a result imported
// from Lichess when the format names none.
const DefaultConfirmHours = 24

// CreatesGames reports whether Arbiter creates the event's games on Lichess.
func (f *Format) CreatesGames() bool {
	return f.Lichess != nil && f.Lichess.Games == GamesOpenChallenge
}

// ImportsResults reports whether the event's results are imported from Lichess.
func (f *Format) ImportsResults() bool { return f.Lichess != nil }

// ConfirmHours is the window of a result imported from Lichess.
func (f *Format) ConfirmHours() int {
	if f.Lichess == nil || f.Lichess.ConfirmHours <= 0 {
		return DefaultConfirmHours
	}
	return f.Lichess.ConfirmHours
}

func (f *Format) validateLichess() error {
	l := f.Lichess
	if l == nil {
		return nil
	}
	if l.Games != GamesOpenChallenge && l.Games != GamesOff {
		return fieldErr("lichess.games", "format.lichess", "want open_challenge or off, got %q", l.Games)
	}
	if l.ConfirmHours < 0 || l.ConfirmHours > 24*14 {
		return fieldErr("lichess.confirm_hours", "format.lichess", "want 0 to %d hours, got %d", 24*14, l.ConfirmHours)
	}
	if l.Perf != "" && !slices.Contains(Perfs, l.Perf) {
		return fieldErr("lichess.perf", "format.lichess", "want one of %s, got %q", strings.Join(Perfs, ", "), l.Perf)
	}
	if l.Perf != "" && f.Variant != "" && f.Variant != "standard" && l.Perf != f.Variant {
		return fieldErr("lichess.perf", "format.lichess", "the games are %s: seed by the %s rating, not %s", f.Variant, f.Variant, l.Perf)
	}
	if t := l.Team; t != "" && !validTeamID(t) {
		return fieldErr("lichess.team", "format.lichess", "want a Lichess team id (lower-case letters, digits and hyphens, as in lichess.org/team/ID), got %q", t)
	}
	return nil
}

// validTeamID reports whether id looks like a Lichess team id: the
// slug Lichess makes of a team's name.
func validTeamID(id string) bool {
	if len(id) > 80 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
