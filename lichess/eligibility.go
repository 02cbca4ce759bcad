package lichess

import (
	"time"

	"arbiter/eligibility"
)

// The eligibility rules judge a snapshot of an account, not Lichess's own
// types: this file is where a profile and a rating history become that
// snapshot, so that package eligibility never imports this one.

// EligibilitySnapshot fills an eligibility snapshot from a fetched
// profile; fetchedAt is when it was read.
func EligibilitySnapshot(u *User, fetchedAt time.Time) eligibility.Snapshot {
	s := eligibility.Snapshot{Username: u.Username, FetchedAt: fetchedAt, Closed: u.Disabled, TosViolation: u.TosViolation,
		Bot: u.IsBot(), Title: u.Title, CreatedAt: u.CreatedAt}
	if p, ok := u.Perf(PerfAntichess); ok {
		s.Antichess = &eligibility.Perf{Games: p.Games, Rating: p.Rating, RD: p.RD, Provisional: p.Provisional}
	}
	return s
}

// EligibilityHistory converts the rating history of one perf into the
// daily points A11's board-4 cap is judged on (Lichess gives no RD).
func EligibilityHistory(h RatingHistory) []eligibility.RatingPoint {
	out := make([]eligibility.RatingPoint, len(h.Points))
	for i, p := range h.Points {
		out[i] = eligibility.RatingPoint{Date: p.Date, Rating: p.Rating}
	}
	return out
}
