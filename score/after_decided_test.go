package score

import (
	"strings"
	"testing"

	"arbiter/format"
)

// twoParts is an individual format of two 4-game parts whose matches end
// once decided (as W4): 8 points in all, 4.5 decides.
const twoParts = `{"name": "two", "title": "Two parts", "entrant": "individual",
  "calendar": {"rounds_per_week": 1, "deadline": {"day": "sunday", "time": "23:59"}},
  "stages": [{"name": "s", "kind": "swiss", "pairing": "dutch", "rounds": {"fixed": 3},
    "match": {"kind": "individual", "parts": [{"tc": "3+2", "games": 4, "win": 1, "draw": 0.5}, {"tc": "1+0", "games": 4, "win": 1, "draw": 0.5}],
      "play_all_games": false, "match_points": {"win": 1, "draw": 0.5, "loss": 0}, "double_forfeit": "loss"}}]}`

// Once a match that ends when decided is decided, neither a game nor the
// forfeit of a later part may follow; the rest of the forfeit that decided
// it is fine.
func TestNothingAfterTheEnd(t *testing.T) {
	f, err := format.Load(strings.NewReader(twoParts))
	if err != nil {
		t.Fatal(err)
	}
	score := func(sheet string) (*MatchScore, error) {
		sh, err := LoadSheet(strings.NewReader(sheet))
		if err != nil {
			t.Fatal(err)
		}
		return Score(f, "s", sh, Options{})
	}
	// 4-0 in 3+2, then 1+0 forfeited to home: 4.5 is reached by the
	// forfeit (its first game), which covers the whole part: 8-0.
	ms, err := score(`{"home": "a", "away": "b", "parts": [{"tc": "3+2", "results": "1 1 1 1"}, {"tc": "1+0", "forfeit": "home"}]}`)
	if err != nil || ms.HomePoints != pts(8) || ms.DecidedAt != "parts[1].forfeit" {
		t.Fatalf("forfeit deciding the match: %v %+v", err, ms)
	}
	// 1+0 3.5-0.5, then 3+2's first game makes 4.5: decided there, the
	// other three 3+2 games are not played.
	ms, err = score(`{"home": "a", "away": "b", "parts": [{"tc": "1+0", "results": "1 1 1 ="}, {"tc": "3+2", "results": "1"}]}`)
	if err != nil || ms.HomePoints != pts(4.5) || ms.DecidedAt != "parts[1].results[0]" || !ms.DecidedEarly {
		t.Fatalf("3.5 then 4.5: %v %+v", err, ms)
	}
	// 3+2 4-0 and 1+0 "1 0": 5 at parts[1].results[0]; the next game is refused.
	_, err = score(`{"home": "a", "away": "b", "parts": [{"tc": "3+2", "results": "1 1 1 1"}, {"tc": "1+0", "results": "1 0"}]}`)
	wantErr(t, err, "parts[1].results[1]", "score.after_decided")
	// A part forfeit after the end: 3+2 4-0 and 1+0 opened by a win is 5 at
	// parts[1].results[0]; with three parts a later part's forfeit fails.
	three := strings.Replace(twoParts, `{"tc": "1+0", "games": 4, "win": 1, "draw": 0.5}]`, `{"tc": "1+0", "games": 4, "win": 1, "draw": 0.5}, {"tc": "0.5+0", "games": 4, "win": 1, "draw": 0.5}]`, 1)
	if f, err = format.Load(strings.NewReader(three)); err != nil {
		t.Fatal(err)
	}
	_, err = score(`{"home": "a", "away": "b", "parts": [{"tc": "3+2", "results": "1 1 1 1"}, {"tc": "1+0", "results": "1 1 1"}, {"tc": "0.5+0", "forfeit": "away"}]}`)
	wantErr(t, err, "parts[2].forfeit", "score.after_decided")
}
