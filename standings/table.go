package standings

import "arbiter"

// Editions of FIDE C.07 selectable for the unplayed-rounds rules (Art. 16).
const (
	Edition2024 = "2024" // Sep-2023 .. Aug-2024 texts: dummy = own score, uncapped (16.4)
	Edition2026 = "2026" // from 1 Mar 2026: dummy capped by 16.4.1 / 16.4.2
)

// Options tune Compute.
type Options struct {
	// Edition is the C.07 edition for Art. 16 ("2024" or "2026"); "" = 2026.
	Edition string
	// RoundRobin marks pre-determined pairings (round robin, pools): per
	// C.07 Art. 15.2 forfeits count as games and Art. 16 does not apply.
	RoundRobin bool
	// TotalRounds is N of C.07 16.4.2 (the planned number of rounds);
	// 0 = len(Input.Rounds).
	TotalRounds int
}

// Table is the ranked standings.
type Table struct {
	Tiebreaks []Tiebreak `json:"tiebreaks"`
	Rows      []Row      `json:"rows"`
}

// Row is one entrant's line. Rows are in rank order.
type Row struct {
	// Rank is 1-based; entrants that no tiebreak separates share a rank
	// only when Shared is true (see Compute for the final fallback).
	Rank   int            `json:"rank"`
	Shared bool           `json:"shared,omitempty"`
	ID     string         `json:"id"`
	Name   string         `json:"name,omitempty"`
	Score  arbiter.Points `json:"score"` // primary score: Σ match points
	// Values[i] is the value of Tiebreaks[i] for this entrant (rounded to
	// hundredths for display where the exact value is finer, e.g. AOB).
	Values []arbiter.Points `json:"values"`
}
