package format

import "slices"

// Clauses are the rulebook clause IDs the application cites in its errors
// and notes, carried by the format so that a custom format file citing the
// same rules behaves as the preset. An empty field falls back to the
// format's own field path (e.g. "format.calendar").
type Clauses struct {
	// Round defines the round window (R4, A4, W13).
	Round string `json:"round,omitempty"`
	// Offer defines the time offers (A5, W14).
	Offer string `json:"offer,omitempty"`
	// MinEntrants is cited when fewer than MinEntrants entered (A9).
	MinEntrants string `json:"min_entrants,omitempty"`
	// Sizing is cited when the stages cannot be sized for the entrant
	// count (W6: 12 advance from the Swiss; R2: 4).
	Sizing string `json:"sizing,omitempty"`
	// Games is cited for games not played as the match format says: in
	// another clock, unrated, missing (R3, A17, W2).
	Games string `json:"games,omitempty"`
	// Decided is cited for games played after a match that ends once
	// decided was decided (W4).
	Decided string `json:"decided,omitempty"`
	// Registration is cited for a registration after the calendar's
	// registration_close_hours_before (R8).
	Registration string `json:"registration,omitempty"`
	// Unplayed is cited for a match unplayed at the round deadline in a
	// format without time offers, made a double forfeit, and for the
	// appeal window that follows (R5).
	Unplayed string `json:"unplayed,omitempty"`
	// TeamSize is cited for a team that cannot field the format's players
	// (A9: teams of 4, 3 with fewer than 10 teams; R3: a player per set).
	TeamSize string `json:"team_size,omitempty"`
	// Tie is cited for a knockout tie's procedure on a match sheet (A20:
	// the captains' advantage point, then tiebreak games; W11).
	Tie string `json:"tie,omitempty"`
	// Armageddon is cited for the armageddon game's bids and result (A3,
	// W12).
	Armageddon string `json:"armageddon,omitempty"`
}

// Variants of the games (Lichess variant keys).
const (
	VariantStandard  = "standard"
	VariantAntichess = "antichess"
)

// WrongTimeControl is R6: a set played in the wrong time control counts
// normally once per player within the first GraceRounds rounds of the
// event; otherwise it becomes a full-points draw.
type WrongTimeControl struct {
	GraceRounds int    `json:"grace_rounds"`
	Clause      string `json:"clause,omitempty"`
}

// Sanction policies: which rulebook's sanction rules (package sanction)
// apply to withdrawals, disqualifications and forfeits.
const (
	SanctionsRKCC      = "rkcc"      // R14-R16
	SanctionsAntichess = "antichess" // A7, A8, A15
	SanctionsACWC      = "acwc"      // W16, W17
)

// Eligibility rules (package eligibility) an event's entrants are checked
// against on Lichess.
const (
	EligibilityAntichessTeamCup = "antichess-team-cup" // A2
	EligibilityACWC2023         = "acwc-2023"          // W1
)

// Lineup policies: how a team names its players for a match.
const (
	// LineupSets: one player per set, named before the round (R7-R9),
	// with the Swiss winner's wild card in knockout rounds (R9).
	LineupSets = "sets"
	// LineupBoards: board order by rating with TD-approved interchanges,
	// an optional substitute and captain rules (A12-A16).
	LineupBoards = "boards"
)

// Negotiation outcomes when both players missed the offer deadline.
const (
	BothMissedOpen              = "open"                // the TDs rule (A5)
	BothMissedDrawBothForfeited = "draw_both_forfeited" // W14: a draw, and both count a forfeited game
)

func (f *Format) validatePolicy() error {
	if f.Sanctions != "" && !slices.Contains([]string{SanctionsRKCC, SanctionsAntichess, SanctionsACWC}, f.Sanctions) {
		return fieldErr("sanctions", "format.sanctions", "want rkcc, antichess or acwc, got %q", f.Sanctions)
	}
	if f.Eligibility != "" && !slices.Contains([]string{EligibilityAntichessTeamCup, EligibilityACWC2023}, f.Eligibility) {
		return fieldErr("eligibility", "format.eligibility", "want antichess-team-cup or acwc-2023, got %q", f.Eligibility)
	}
	if f.Variant != "" && !slices.Contains([]string{VariantStandard, VariantAntichess}, f.Variant) {
		return fieldErr("variant", "format.variant", "want standard or antichess, got %q", f.Variant)
	}
	if f.Lineups != "" {
		if !slices.Contains([]string{LineupSets, LineupBoards}, f.Lineups) {
			return fieldErr("lineups", "format.lineups", "want sets or boards, got %q", f.Lineups)
		}
		if f.Entrant != Team {
			return fieldErr("lineups", "format.lineups", "lineups are for team events")
		}
	}
	if w := f.WrongTimeControl; w != nil && (w.GraceRounds < 0 || w.GraceRounds > 100) {
		return fieldErr("wrong_time_control.grace_rounds", "format.wrong_time_control", "want 0 to 100 rounds, got %d", w.GraceRounds)
	}
	c := f.Calendar
	for _, h := range []struct {
		field string
		v     int
	}{{"lineup_grace_hours", c.LineupGraceHours}, {"wild_card_hours", c.WildCardHours},
		{"registration_close_hours_before", c.RegistrationCloseHoursBefore}, {"registration_final_hours_before", c.RegistrationFinalHoursBefore}} {
		if h.v < 0 || h.v > 24*7*52 {
			return fieldErr("calendar."+h.field, "format.calendar", "want 0 to %d hours, got %d", 24*7*52, h.v)
		}
	}
	if n := c.Negotiation; n != nil && n.BothMissed != "" && n.BothMissed != BothMissedOpen && n.BothMissed != BothMissedDrawBothForfeited {
		return fieldErr("calendar.negotiation.both_missed", "format.calendar.negotiation", "want open or draw_both_forfeited, got %q", n.BothMissed)
	}
	return nil
}
