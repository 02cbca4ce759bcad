package arbiter

import (
	"time"
)

// Match statuses.
const (
	MatchScheduled = "scheduled" // paired, no result yet
	MatchReported  = "reported"  // one side reported; the opponent confirms or disputes
	MatchDisputed  = "disputed"  // the opponent disputed the report; a TD decides
	MatchFinal     = "final"     // result stands (confirmed, decided by a TD, forfeited or a bye)
	// MatchHeld: the round's deadline passed without a result and the
	// rulebook leaves it to the TDs (A5, W14: a side at fault, no
	// agreement, a time agreed but not played); Note says why. A TD decides.
	MatchHeld = "held"
)

// Match is one pairing of a round: two entrants (Away empty for a bye).
type Match struct {
	ID    string `json:"id"` // "s1r3b2": stage 1, round 3, board 2
	Stage int    `json:"stage"`
	Round int    `json:"round"`
	Board int    `json:"board"`
	Home  string `json:"home"` // entrant ID; White (board 1 White) where it matters
	Away  string `json:"away,omitempty"`
	// Pool names the pool of a pool stage's match.
	Pool string `json:"pool,omitempty"`
	// Bracket is the knockout bracket's match ID ("r1m2"); Format is
	// "final" or "third_place" for those knockout matches (their own
	// match format, A18, W11).
	Bracket string `json:"bracket,omitempty"`
	Format  string `json:"format,omitempty"`
	Status  string `json:"status"`
	// ScheduledAt is the start time the players agreed (A5, W14).
	ScheduledAt time.Time `json:"scheduled_at,omitzero"`
	// BoardTimes are the start times each board's players agreed, board 1
	// first, where players negotiate board by board (A5); zero until agreed.
	BoardTimes []time.Time `json:"board_times,omitempty"`
	// Rulings fix boards or sets of a team match whatever is reported: a
	// board or set forfeited because of a sanction (R14, A8) or decided by
	// its time negotiation (A5's no-fault 0-0).
	Rulings []Ruling `json:"rulings,omitempty"`
	// Note says what the TDs must decide about a held match (the fault
	// found in its time negotiation).
	Note string `json:"note,omitempty"`
	// Result is the scored result: the pending report's while reported or
	// disputed, the standing one when final.
	Result *Outcome `json:"result,omitempty"`
	// Report is the ID of the report the result comes from.
	Report string `json:"report,omitempty"`
	// How the final result came about: confirmed, td_confirmed,
	// accepted_at_deadline, override, double_forfeit, bye, appeal.
	Decision string `json:"decision,omitempty"`
	// HomeBoards and AwayBoards are the teams' board lists (players from
	// board 1 down, after substitutions) as they stood when the round was
	// paired, in formats with board lineups (A12, A14); a reported sheet
	// naming board players must name these. Empty when a team's boards
	// were not ranked.
	HomeBoards []string `json:"home_boards,omitempty"`
	AwayBoards []string `json:"away_boards,omitempty"`
	// HomeCaptain and AwayCaptain are the teams' captains for the round,
	// as paired (A13: a change counts from the next round): whether they
	// met, and on which board, decides a knockout tie's advantage point
	// (A20). Empty in individual events.
	HomeCaptain string `json:"home_captain,omitempty"`
	AwayCaptain string `json:"away_captain,omitempty"`

	Version int64 `json:"-"`
}

// Ruling fixes one board (team_boards) or set (team_sets) of a team match.
type Ruling struct {
	Board int    `json:"board,omitempty"`
	Set   string `json:"set,omitempty"` // the set's time control, as the format writes it
	// Forfeit is the board's or set's result as a forfeit: "double" (0-0),
	// "full_draw", "home" or "away" (all its points to that side); or
	// "reopened": its games are to be played again (A8).
	Forfeit string `json:"forfeit"`
	Player  string `json:"player,omitempty"` // the player it is about
	Clause  string `json:"clause"`
	Reason  string `json:"reason,omitempty"`
}

// IsBye reports whether the match has a single entrant.
func (m *Match) IsBye() bool { return m.Away == "" }

// Outcome is a scored match result in summary: what the standings need
// and the part (or set) scores to show.
type Outcome struct {
	Result    string `json:"result"` // home_win, away_win, draw, double_loss, tie_unresolved
	Forfeit   string `json:"forfeit,omitempty"`
	DecidedBy string `json:"decided_by,omitempty"`
	// Decision as the standings see it: played, double_forfeit, full_draw,
	// forfeit_win, forfeit_loss, pairing_bye.
	Decision string    `json:"decision"`
	Home     SideScore `json:"home"`
	Away     SideScore `json:"away"`
	// Parts (individual and team_boards) or Sets (team_sets) in order.
	Parts []PartResult `json:"parts,omitempty"`
	Sets  []PartResult `json:"sets,omitempty"`
}

// SideScore is one side's totals in a match.
type SideScore struct {
	MatchPoints Points `json:"match_points"`
	// Points is the secondary score: game points, points scored or set points.
	Points   Points `json:"points"`
	SetsWon  int    `json:"sets_won,omitempty"`
	GamesWon int    `json:"games_won,omitempty"`
}

// PartResult is one part or set's score.
type PartResult struct {
	TC   string `json:"tc"`
	Home Points `json:"home"`
	Away Points `json:"away"`
}

// Report statuses.
const (
	ReportPending    = "pending"
	ReportConfirmed  = "confirmed"
	ReportDisputed   = "disputed"
	ReportSuperseded = "superseded" // replaced by a TD decision
)

// Report is a result reported by one side (or entered by a TD).
type Report struct {
	ID    string    `json:"id"`
	Match string    `json:"match"`
	By    string    `json:"by"`
	Role  string    `json:"role"`
	Side  Side      `json:"side,omitempty"` // whom the reporter plays for
	At    time.Time `json:"at"`
	// Sheet is the match sheet the result was scored from (checked
	// against the match and the format when it was reported); Summary the
	// short form it was built from, if any.
	Sheet   *Sheet `json:"sheet"`
	Summary string `json:"summary,omitempty"`
	// WrongTC lists the sets (by time control) the report says were
	// played in the wrong time control (R6); the rule is applied when the
	// result stands.
	WrongTC []string `json:"wrong_tc,omitempty"`
	Result  Outcome  `json:"result"`
	Status  string   `json:"status"`
	// Who confirmed or disputed it, and why it was disputed.
	ActedBy string `json:"acted_by,omitempty"`
	Reason  string `json:"reason,omitempty"`

	Version int64 `json:"-"`
}

// Appeal statuses.
const (
	AppealPending  = "pending"
	AppealAccepted = "accepted"
	AppealRejected = "rejected"
)

// Appeal asks the TDs to overturn a match's result (R5: within 24 h of
// the automatic double forfeits).
type Appeal struct {
	ID       string    `json:"id"`
	Match    string    `json:"match"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	Reason   string    `json:"reason"`
	Status   string    `json:"status"`
	Decided  string    `json:"decided_by,omitempty"`
	Decision string    `json:"decision,omitempty"` // the TD's reason
	// Result is the result the TD set when accepting.
	Result *Outcome `json:"result,omitempty"`

	Version int64 `json:"-"`
}

// Sanction is a disciplinary decision against an entrant or player
// (R14, A7, A8, W16, W17): who, what, which rule, why.
type Sanction struct {
	ID      string    `json:"id"`
	Entrant string    `json:"entrant"`
	Player  string    `json:"player,omitempty"`
	Kind    string    `json:"kind"` // e.g. disqualification, removal, warning
	Rule    string    `json:"rule"`
	Reason  string    `json:"reason"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	// Notes are what the TDs must still decide (a player's board in a
	// match that the data cannot tell, a knockout match already played).
	Notes []string `json:"notes,omitempty"`

	Version int64 `json:"-"`
}
