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
	// Team is the Lichess team (its id, as in lichess.org/team/ID) every
	// player must belong to; checked with the ratings, a player outside it
	// is shown to the TDs (who decide). Empty: no such rule.
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

// LichessTeam is the Lichess team every player must belong to; "" for none.
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
	if t := strings.TrimSpace(l.Team); t != l.Team || strings.ContainsAny(t, "/ ?#") {
		return fieldErr("lichess.team", "format.lichess", "want a Lichess team id (as in lichess.org/team/ID), got %q", l.Team)
	}
	return nil
}
