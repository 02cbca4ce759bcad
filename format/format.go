// Package format holds competition formats as data: who enters, how many
// per team, how many rounds and who advances for a given entrant count, the
// stages in order, the match format of each stage (parts or sets, time
// controls, points), knockout tie procedures, calendar and negotiation
// settings. The three rulebooks ship as embedded presets; any other
// competition is a JSON file read by Load. The package is pure: no I/O
// beyond the io.Reader/io.Writer it is given.
package format

import "arbiter"

// Entrant kinds.
const (
	Individual = "individual"
	Team       = "team"
)

// Stage kinds.
const (
	Swiss      = "swiss"
	RoundRobin = "round_robin"
	Knockout   = "knockout"
	Pool       = "pool"
)

// Match kinds.
const (
	MatchIndividual = "individual"  // one player against one player
	TeamBoards      = "team_boards" // each board pair plays the whole match; team score = sum of boards (A19)
	TeamSets        = "team_sets"   // each set has its own players; decided by sets won, set points break a tie (R10, R11)
)

// Format is one competition's rules as data.
type Format struct {
	// Name is the short id ("rkcc-team-three-tc"): lowercase letters, digits, '-'.
	Name  string `json:"name"`
	Title string `json:"title"`
	// Rulebook cites the source text, e.g. "shared/rules/acwc-2023.txt".
	Rulebook string `json:"rulebook,omitempty"`
	// Entrant is "individual" or "team".
	Entrant string `json:"entrant"`
	// Team is required for team events and forbidden otherwise.
	Team *TeamRules `json:"team,omitempty"`
	// MinEntrants is the fewest entrants for the event to run (A9: 10);
	// 0 when the rulebook states none (the stages still need enough).
	MinEntrants int `json:"min_entrants,omitempty"`
	// Weeks is the event's duration by entrant count (A22); absent when
	// the rulebook does not state one.
	Weeks      *Count      `json:"weeks,omitempty"`
	Calendar   Calendar    `json:"calendar"`
	Armageddon *Armageddon `json:"armageddon,omitempty"`
	Stages     []Stage     `json:"stages"`
	// Clauses are the rulebook clauses cited in errors (see Clauses).
	Clauses Clauses `json:"clauses,omitzero"`
	// Sanctions names the sanction rules that apply: "rkcc", "antichess"
	// or "acwc" (package sanction); empty = no sanctions through the app.
	Sanctions string `json:"sanctions,omitempty"`
	// Eligibility names the rulebook's eligibility clause checked against
	// Lichess (package eligibility): "antichess-team-cup" (A2) or
	// "acwc-2023" (W1); empty = the format has no eligibility rules.
	Eligibility string `json:"eligibility,omitempty"`
	// WrongTimeControl is the rule for a set or part played in the wrong
	// time control (R6); nil when the rulebook has none.
	WrongTimeControl *WrongTimeControl `json:"wrong_time_control,omitempty"`
	// Lineups is how teams name their players: "sets" (R7-R9) or "boards"
	// (A12-A16); empty = the registered members play in order.
	Lineups string `json:"lineups,omitempty"`
	// Variant is the Lichess variant every game is played in: "standard"
	// or "antichess" (A1, W2); empty = standard. Result verification
	// against Lichess looks for games in it.
	Variant string `json:"variant,omitempty"`
	// Lichess is what Arbiter does on Lichess for the games (lichess.go);
	// nil = nothing: players create their games and report the results.
	Lichess *Lichess `json:"lichess,omitempty"`
	// Notes are remarks shown by explain (interpretations of the rulebook).
	Notes []string `json:"notes,omitempty"`
}

// TeamRules describes a team entrant.
type TeamRules struct {
	// Size is the number of players who play a match (boards, or one
	// player per set), which may depend on the number of teams (A9).
	Size Count `json:"size"`
	// Substitutes is how many extra members a team may register (A14: 1);
	// nil when the rulebook sets no number.
	Substitutes *int `json:"substitutes,omitempty"`
	// Captain says each team names a captain (A11).
	Captain bool `json:"captain,omitempty"`
}

// Count is a number that depends on the number of entrants N: exactly one
// of Fixed, Steps or Log2 is set.
type Count struct {
	Fixed *int   `json:"fixed,omitempty"`
	Steps []Step `json:"steps,omitempty"`
	Log2  *Log2  `json:"log2,omitempty"`
}

// Step is one band of a step table: N in [Min, Max] gives Value. A nil
// Min means "from 0", a nil Max "no upper bound". A nil Value means the
// TDs decide for that band; Note then says so (A10: more than 63 teams).
type Step struct {
	Min   *int   `json:"min,omitempty"`
	Max   *int   `json:"max,omitempty"`
	Value *int   `json:"value"`
	Note  string `json:"note,omitempty"`
}

// Log2 is Mul*floor(log2 N) + Add (W5: 1*floor(log2 N) + 2).
type Log2 struct {
	Mul int `json:"mul"`
	Add int `json:"add"`
}

// WeekTime is a weekday and a UTC clock time, e.g. Monday 23:59.
type WeekTime struct {
	Day  string `json:"day"`  // monday .. sunday
	Time string `json:"time"` // HH:MM, 24-hour, UTC
}

// Calendar is the weekly rhythm of rounds (R4, A4, W13) and the
// negotiation rules (A5, W14). The lifecycle engine reads it.
type Calendar struct {
	// RoundsPerWeek is 1 in all three rulebooks.
	RoundsPerWeek int `json:"rounds_per_week"`
	// RoundStart is when a round opens (R4: Monday 00:00); nil when a
	// round opens at its pairings.
	RoundStart *WeekTime `json:"round_start,omitempty"`
	// PairingsBy is when pairings are published at the latest (A4, W13: Tuesday).
	PairingsBy *WeekTime `json:"pairings_by,omitempty"`
	// Deadline is when every match of the round must be finished.
	Deadline WeekTime `json:"deadline"`
	// AppealHours is the appeal window after a round result (R5: 24).
	AppealHours int `json:"appeal_hours,omitempty"`
	// Appeals says how a result of a closed round is appealed:
	// AppealsWindow (inside AppealHours after the round end, R5) or
	// AppealsTDDiscretion (to the TDs, who make the final call, until the
	// next round is published: antichess §1, ACWC §1). Empty means
	// AppealsWindow when AppealHours > 0 and no appeals otherwise.
	Appeals string `json:"appeals,omitempty"`
	// LineupGraceHours is how long after the round start a lineup may
	// still be given (R7.1: 24); WildCardHours how long after the pairings
	// the wild card may be played (R9: 24).
	LineupGraceHours int `json:"lineup_grace_hours,omitempty"`
	WildCardHours    int `json:"wild_card_hours,omitempty"`
	// RegistrationCloseHoursBefore / RegistrationFinalHoursBefore: how long
	// before the first round registration closes and is final (R8: 42, 24).
	RegistrationCloseHoursBefore int `json:"registration_close_hours_before,omitempty"`
	RegistrationFinalHoursBefore int `json:"registration_final_hours_before,omitempty"`
	// MayBringForward lets the TDs end a round early once all its matches
	// are finished (A4).
	MayBringForward bool `json:"may_bring_forward,omitempty"`
	// Negotiation is nil when the rulebook fixes the window and leaves the
	// time to the players (RKCC).
	Negotiation *Negotiation `json:"negotiation,omitempty"`
}

// The values of Calendar.Appeals.
const (
	AppealsWindow       = "window"
	AppealsTDDiscretion = "td_discretion"
)

// AppealMode is the effective appeal rule: AppealsWindow,
// AppealsTDDiscretion, or "" when the format has no appeals.
func (c *Calendar) AppealMode() string {
	if c.Appeals == "" && c.AppealHours > 0 {
		return AppealsWindow
	}
	return c.Appeals
}

// Negotiation holds the time-offer rules.
type Negotiation struct {
	MinOffers   int `json:"min_offers"`    // 3 (A5, W14)
	MinGapHours int `json:"min_gap_hours"` // offers at least this far apart: 3
	// NotAllWithinHours: the offers must not all fall within this many
	// hours of each other (A5: 24); 0 = no such rule.
	NotAllWithinHours int `json:"not_all_within_hours,omitempty"`
	// MaxPerDate: at most this many offers on one UTC date (W14: 2); 0 = no rule.
	MaxPerDate int `json:"max_per_date,omitempty"`
	// OfferDeadline is when the offers are due.
	OfferDeadline OfferDeadline `json:"offer_deadline"`
	// ReplyHours is the expected reply time to an offer (W14: 24); 0 = none.
	ReplyHours int `json:"reply_hours,omitempty"`
	// RetryOffers is how many more offers each player makes when none of
	// the first ones suit (A5: 3 more each, different); 0 = no such rule.
	RetryOffers int `json:"retry_offers,omitempty"`
	// NoFaultResult is the match result when no agreement is reached and
	// nobody is at fault: "double_forfeit" (A5: a 0-0 draw) or "full_draw" (W14).
	NoFaultResult string `json:"no_fault_result"`
	// BothMissed is the result when both players missed the offer
	// deadline: "open" (the TDs rule, the default) or
	// "draw_both_forfeited" (W14).
	BothMissed string `json:"both_missed,omitempty"`
	// NoUnplayedDraw: the players may not agree a draw without playing (A5).
	NoUnplayedDraw bool `json:"no_unplayed_draw,omitempty"`
}

// OfferDeadline is either a number of hours after the previous round's
// end (A5: 72) or a weekday time (W14: Friday 23:59); exactly one is set.
type OfferDeadline struct {
	HoursAfterPreviousRound int       `json:"hours_after_previous_round,omitempty"`
	Weekly                  *WeekTime `json:"weekly,omitempty"`
}

// Armageddon is the sudden-death game that ends a knockout tie (A3, W12).
// The lowest bid for White's time plays White.
type Armageddon struct {
	// Black is Black's clock (3+0: 3 minutes, no increment).
	Black TimeControl `json:"black"`
	// BlackDrawOdds: a draw counts as a win for Black.
	BlackDrawOdds bool `json:"black_draw_odds"`
	// EqualBids names who decides White on equal bids: "coin_flip" (A3)
	// or "rock_paper_scissors" (W12).
	EqualBids string `json:"equal_bids"`
}

// Stage is one stage of the event.
type Stage struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // swiss, round_robin, knockout, pool
	// BreakWeeksBefore is the idle weeks between the previous stage's last
	// round and this stage's first (W13: 1 before the candidates and 1
	// before the knockout, whose semifinals and final follow each other).
	// Always 0 on the first stage.
	BreakWeeksBefore int `json:"break_weeks_before,omitempty"`
	// Pairing is the pairing system: "dutch" (swiss), "berger"
	// (round_robin, pool), "bracket" (knockout).
	Pairing string `json:"pairing"`
	// Rounds is the number of Swiss rounds by entrant count (R1, W5);
	// Swiss only (other kinds derive their rounds).
	Rounds *Count `json:"rounds,omitempty"`
	// Cycles is 1 (single) or 2 (double round robin, W8): round_robin and pool.
	Cycles int `json:"cycles,omitempty"`
	// Pools fill a pool stage from the previous stage's places (W8).
	Pools []PoolDef `json:"pools,omitempty"`
	// Advance is how many entrants go on to the next stage, taken from the
	// top of this stage's standings (R2: 4, W6: 12, A10: by count). Pool
	// stages give it per pool instead. Absent on the last stage.
	Advance *Count `json:"advance,omitempty"`
	// Seeding of a knockout: "standings" (1 v N, 2 v N-1, ... from the
	// previous stage's order) or "cross_pool" (pool A winner v pool B
	// runner-up and vice versa, W10).
	Seeding string `json:"seeding,omitempty"`
	// ThirdPlace: a knockout plays a match for third place (W11).
	ThirdPlace bool `json:"third_place,omitempty"`
	// Tiebreaks order tied entrants (ids of package standings).
	Tiebreaks []string `json:"tiebreaks,omitempty"`
	// TiebreakClause is the rulebook clause of the tiebreaks (R12, A21,
	// W7, W9), cited when a tie is left to the TDs.
	TiebreakClause string `json:"tiebreak_clause,omitempty"`
	// TiebreakEdition is the FIDE C.07 edition applied to unplayed rounds
	// by package standings: "2024" or "2026"; omitted = the standings default.
	TiebreakEdition string `json:"tiebreak_edition,omitempty"`
	// Match is the match format of the stage's rounds (knockout: every
	// round but the final and third-place match when those are given).
	Match Match `json:"match"`
	// Final and ThirdPlaceMatch override Match for those knockout matches
	// (A18: 5 parts; W11: 12 games).
	Final           *Match `json:"final,omitempty"`
	ThirdPlaceMatch *Match `json:"third_place_match,omitempty"`
	Note            string `json:"note,omitempty"`
}

// PoolDef is one pool of a pool stage.
type PoolDef struct {
	Name string `json:"name"`
	// Places are the previous stage's final places that fill the pool
	// (W8 upper: 12, 9, 7, 6, 4, 1).
	Places []int `json:"places"`
	// Advance is how many of the pool's top entrants go on (W10: 2).
	Advance int `json:"advance"`
}

// Match is a match format.
type Match struct {
	Kind string `json:"kind"` // individual, team_boards, team_sets
	// Parts are the time-control parts (sets for team_sets) in their
	// default playing order (A17, A18).
	Parts []Part `json:"parts"`
	// PlayAllGames: every game is played even once the result is decided
	// (A18, W8); false means the match ends as soon as it is decided (W4).
	PlayAllGames bool `json:"play_all_games"`
	// MatchPoints for a won, drawn and lost match (R13: 1 / 0.5 / 0).
	MatchPoints MatchPoints `json:"match_points"`
	// DoubleForfeit is what a double forfeit (0-0) counts as for match
	// points: "loss" for both, or "draw" (A5: "a 0-0 draw").
	DoubleForfeit string `json:"double_forfeit"`
	// Tie is the knockout tie procedure, in order (A20, W10, W11); empty
	// when the rulebook defines none (a tie is then left to the TDs).
	Tie []TieStep `json:"tie,omitempty"`
}

// MatchPoints values a match result.
type MatchPoints struct {
	Win  arbiter.Points `json:"win"`
	Draw arbiter.Points `json:"draw"`
	Loss arbiter.Points `json:"loss"`
}

// Part is one time control within a match (a set for team_sets).
type Part struct {
	TC    TimeControl `json:"tc"`
	Games int         `json:"games"`
	// Win and Draw are the points per won and drawn game (A18: 12/6);
	// or Factor multiplies the game score (R10: 40/24/15). Exactly one
	// of the two ways is used.
	Win    *arbiter.Points `json:"win,omitempty"`
	Draw   *arbiter.Points `json:"draw,omitempty"`
	Factor *arbiter.Points `json:"factor,omitempty"`
}

// Tie step kinds.
const (
	TieCaptainsAdvantage = "captains_advantage" // A20: the captains' board winner gets a 1-0 head start
	TieGames             = "games"              // a mini-match of tiebreak games (A20: 4 x 3+0; W11: 4 / 2)
	TieArmageddon        = "armageddon"         // one armageddon game (A3, W12)
)

// TieStep is one step of a knockout tie procedure.
type TieStep struct {
	Kind string `json:"kind"`
	// Games and TC for kind "games".
	Games int          `json:"games,omitempty"`
	TC    *TimeControl `json:"tc,omitempty"`
	// Players for team matches: "captains" (A20).
	Players string `json:"players,omitempty"`
}
