// Package odds estimates each entrant's chances in the rest of an event:
// the probability of reaching each qualifying band (the next stage, the
// knockout's later rounds, the title), the expected final place, and the
// same chances conditioned on the result of the entrant's next match.
//
// It simulates the remaining rounds many times with the event's own
// machinery: rounds are paired by the engines the app uses (pairing/dutch,
// pairing/teamswiss, pairing/berger, pairing/knockout), every simulated
// match is a match sheet scored by package score (parts, factors, early
// end, knockout ties with the captains' advantage point, tiebreak games
// and armageddon), stages are ranked by package standings and entrants go
// on to the next stage as the app's AdvanceStage sends them (ties the
// tiebreaks leave are drawn by lot, as the TDs would). Games follow the
// Elo expectation of the entrants' ratings with a draw rate estimated per
// time control from the event's own games.
//
// An entrant certain to reach a band shows exactly 1 and one who cannot
// exactly 0; both are decided by an exact check on match points (exact.go),
// never by the samples. The package is pure: no I/O, no clock, and the
// randomness comes from Options.Seed, so the same input and seed give the
// same answer on any number of cores. See docs/odds.md.
package odds

import (
	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

// Input is the event as it stands, in the domain's own values.
type Input struct {
	Format *format.Format
	// Event holds the sized stages (seeds, pools, moved-up finalists), the
	// stage being played and the initial colour.
	Event arbiter.Event
	// Entrants are the entrants admitted to the event (approved, or
	// approved and later removed), in any order; their Seed, Rating,
	// Captain and Boards are read.
	Entrants []arbiter.Entrant
	// Matches are every match paired so far, in any order and any status:
	// final matches count as played, the others are simulated.
	Matches []arbiter.Match
	// Sheets are the standing match sheets of final matches by match ID,
	// when known: the draw rates are estimated from their games.
	Sheets map[string]*score.Sheet
	// Forbidden are the TDs' forbidden pairings by stage (0-based).
	Forbidden []Forbidden
	// Fixed are results a TD sets by hand for the simulation ("if A beats
	// B").
	Fixed []Fixed
}

// Forbidden is a group of entrants who may not meet in a stage.
type Forbidden struct {
	Stage    int
	Entrants []string
}

// Results a Fixed may give, from the home (first-named) side's view.
const (
	HomeWins = "home"
	AwayWins = "away"
	Drawn    = "draw"
)

// Fixed is a result given by hand: either the paired match Match (its ID,
// not final yet), or the match of Home against Away whenever they meet in
// the rest of the stage being played. Result is HomeWins, AwayWins or
// Drawn; a knockout match cannot be drawn.
type Fixed struct {
	Match  string `json:"match,omitempty"`
	Home   string `json:"home,omitempty"`
	Away   string `json:"away,omitempty"`
	Result string `json:"result"`
}

// Options say how much to simulate.
type Options struct {
	// Sims is the number of simulated runs of the rest of the event
	// (DefaultSims when 0).
	Sims int
	// Seed makes the answer reproducible: the same input and seed give
	// the same answer whatever Workers is.
	Seed uint64
	// Workers run simulations in parallel; 0 means one per core
	// (runtime.GOMAXPROCS).
	Workers int
	// DrawRates override the estimated draw rate of equal opponents by
	// time control ("1+2"), between 0 and 0.9.
	DrawRates map[string]float64
}

// DefaultSims is the number of runs when Options.Sims is 0.
const DefaultSims = 2000

// MaxSims bounds Options.Sims.
const MaxSims = 1_000_000

// Result is the answer.
type Result struct {
	Sims int    `json:"sims"`
	Seed uint64 `json:"seed"`
	// Stage is the name of the stage being played.
	Stage string `json:"stage"`
	// Bands are the qualifying bands still open, in the order they are
	// reached; Entrants[i].Bands[k] is the chance of Bands[k].
	Bands []Band `json:"bands"`
	// DrawRates are the draw rates of equal opponents used, by time control.
	DrawRates []DrawRate `json:"draw_rates"`
	// Fixed are the results given by hand.
	Fixed []Fixed `json:"fixed,omitempty"`
	// Entrants are in seed order.
	Entrants []Odds `json:"entrants"`
}

// Band is a set of places worth reaching: the next stage, a knockout
// round, the title. The chances of all entrants add up to Places.
type Band struct {
	ID string `json:"id"`
	// Name says what the band is in plain words ("Top 12: candidates").
	Name   string `json:"name"`
	Places int    `json:"places"`
}

// DrawRate is the chance that a game between equal opponents is drawn.
type DrawRate struct {
	TC   string  `json:"tc"`
	Rate float64 `json:"rate"`
	// Games and Draws are the event's games the estimate saw.
	Games int `json:"games"`
	Draws int `json:"draws"`
}

// Exactness of a chance.
const (
	Clinched   = "clinched"   // certain: the chance is exactly 1
	Eliminated = "eliminated" // impossible: exactly 0
)

// Odds are one entrant's chances.
type Odds struct {
	Entrant string `json:"entrant"`
	Name    string `json:"name"`
	Rating  int    `json:"rating,omitempty"`
	// Qualify is the chance of the first band (the current stage's
	// qualifying places; in the last stage, the title).
	Qualify float64 `json:"qualify"`
	// Bands holds the chance of each of Result.Bands.
	Bands []Chance `json:"bands"`
	// ExpectedPlace is the mean final place across the event.
	ExpectedPlace float64 `json:"expected_place"`
	// Next is the entrant's next match and the chances after each of its
	// results; nil when the entrant plays no further match.
	Next *Next `json:"next,omitempty"`
}

// Chance is the probability of one band.
type Chance struct {
	P float64 `json:"p"`
	// Exact is Clinched or Eliminated when the exact check decided it.
	Exact string `json:"exact,omitempty"`
}

// Next is an entrant's next match: the paired match (or the opponent the
// engine will pair when the round is not paired yet, Predicted), or only
// the round when the opponent depends on results still to come.
type Next struct {
	Match     string `json:"match,omitempty"`
	Opponent  string `json:"opponent,omitempty"`
	Predicted bool   `json:"predicted,omitempty"`
	Stage     string `json:"stage"`
	Round     int    `json:"round"`
	// If holds the chances after a win, a draw and a loss, in that order
	// (no draw in a knockout).
	If []IfResult `json:"if"`
}

// Results of a match for the entrant, in Next.If.
const (
	Win  = "win"
	Draw = "draw"
	Loss = "loss"
)

// IfResult is the chances after one result of the next match.
type IfResult struct {
	Result string `json:"result"`
	// Chance is how often the simulation gave that result; Runs how many
	// runs the conditional chances come from.
	Chance float64 `json:"chance"`
	Runs   int     `json:"runs"`
	// Qualify and Bands as in Odds, after that result.
	Qualify       float64  `json:"qualify"`
	Bands         []Chance `json:"bands"`
	ExpectedPlace float64  `json:"expected_place"`
}
