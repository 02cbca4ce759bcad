package arbiter

import "time"

// Event statuses, in lifecycle order.
const (
	EventRegistration = "registration" // entrants register; TDs approve or reject
	EventRunning      = "running"      // registration closed, stages sized, rounds played
	EventFinished     = "finished"
)

// Event is a competition run under one format.
type Event struct {
	ID     string `json:"id"`
	Slug   string `json:"slug"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Format names the preset the event was created from, or the format
	// file's own name.
	Format string `json:"format"`
	Preset bool   `json:"preset"`
	// Start is when the first round starts (UTC).
	Start time.Time `json:"start"`
	// Entrants is the number of approved entrants when registration closed.
	Entrants int `json:"entrants,omitempty"`
	// Stages are sized when registration closes.
	Stages []Stage `json:"stages,omitempty"`
	// Calendar holds every round's window (UTC), computed when
	// registration closes.
	Calendar []RoundWindow `json:"calendar,omitempty"`
	// Stage is the index of the stage being played.
	Stage int `json:"stage"`
	// InitialColour is the colour ("white" or "black") the top seed gets
	// in round 1 of a Swiss stage (C.04.3 Art. 5.2.5, TRF 152): drawn by
	// lot when registration closes, or given by the TDs. Empty (events
	// closed before it was recorded) means white.
	InitialColour string `json:"initial_colour,omitempty"`
	// InitialColourLot says how InitialColour was chosen so that the TDs
	// can verify it: the SHA-256 input and digest of the lot, or "TDs".
	InitialColourLot string `json:"initial_colour_lot,omitempty"`
	// Messages: the TDs send the players messages through the Lichess
	// inbox (pairings, offers, reminders, results to confirm, appeals).
	Messages bool `json:"messages,omitempty"`
	// BulkPairing: the TDs chose to create each match's first game
	// through a Lichess bulk pairing, its clocks starting by themselves
	// (issue 14 §2); players are asked for challenge:write at sign-in.
	BulkPairing bool `json:"bulk_pairing,omitempty"`

	Version int64 `json:"-"`
}

// Stage is one stage of an event, sized for its entrants.
type Stage struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`    // swiss, round_robin, knockout, pool
	Pairing  string   `json:"pairing"` // dutch, berger, bracket
	Entrants int      `json:"entrants,omitempty"`
	Rounds   int      `json:"rounds,omitempty"`
	Advance  int      `json:"advance,omitempty"`
	Tiebreak []string `json:"tiebreaks,omitempty"`
	// Seeds are the stage's entrants in seed order, set when the previous
	// stage ends (empty for the first stage: every approved entrant by seed).
	Seeds []string `json:"seeds,omitempty"`
	// Pools of a pool stage, each with its entrants in pool-seed order.
	Pools []Pool `json:"pools,omitempty"`
	// MovedUp maps a knockout finalist who left before the final to the
	// semifinal opponent who takes their place (W17).
	MovedUp map[string]string `json:"moved_up,omitempty"`
}

// Pool is one pool of a pool stage (W8).
type Pool struct {
	Name  string   `json:"name"`
	Seeds []string `json:"seeds"`
}

// RoundWindow is the calendar of one round: matches count from Start to
// the exclusive End (the instant after the rulebook's "23:59").
type RoundWindow struct {
	Seq    int       `json:"seq"`    // 1-based over the whole event
	Stage  int       `json:"stage"`  // 0-based stage index
	Number int       `json:"number"` // 1-based within the stage
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
	// OfferDeadline ends the time for the players' time offers (A5: 72 h
	// after the previous round; W14: Friday 23:59), Weekend is when the
	// TDs may rule on fault; zero when the format has no negotiation.
	OfferDeadline time.Time `json:"offer_deadline,omitzero"`
	Weekend       time.Time `json:"weekend,omitzero"`
}

// Round statuses.
const (
	RoundPaired    = "paired"    // pairings made, under the TDs' review
	RoundPublished = "published" // pairings public; results may be reported
	RoundClosed    = "closed"    // deadline passed; unplayed matches forfeited
)

// Round is one round of a stage and its matches.
type Round struct {
	ID string `json:"id"` // "s1r3": stage 1, round 3
	// Event is the event's slug, set only in listings across events
	// (app.Service.CloseDueRounds); the stored document leaves it empty.
	Event  string `json:"event,omitempty"`
	Stage  int    `json:"stage"`
	Number int    `json:"number"`
	Status string `json:"status"`
	// Start and End are the round's window; End is exclusive.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Method says how the pairings were made (e.g. "dutch", "berger").
	Method      string    `json:"method"`
	Matches     []string  `json:"matches"`
	PairedAt    time.Time `json:"paired_at"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	ClosedAt    time.Time `json:"closed_at,omitzero"`
	// AppealsUntil is the exclusive end of the appeal window opened when
	// the round closed (R5); zero when the format has no fixed window
	// (none at all, or the TDs' discretion until the next round is
	// published: format calendar "appeals": "td_discretion").
	AppealsUntil time.Time `json:"appeals_until,omitzero"`
	// Notes are what the TDs must look at after the round closed (e.g. a
	// player whose forfeits disqualify them, A7, W16).
	Notes []string `json:"notes,omitempty"`

	Version int64 `json:"-"`
}
