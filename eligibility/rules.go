package eligibility

import (
	"fmt"
	"time"
)

// Status is the outcome of one check.
type Status string

const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Unknown Status = "unknown" // the data cannot tell: a TD must confirm
)

// Kind is what a rule checks; each kind reads its own fields of Rule.
type Kind string

const (
	// AccountAge: created at least Months before the evaluation time (registration).
	AccountAge Kind = "account_age"
	// CreatedBefore: created before Date.
	CreatedBefore Kind = "created_before"
	// MinGamesBefore: at least Min rated antichess games created before
	// Date; a zero Date means before the evaluation time.
	MinGamesBefore Kind = "min_games_before"
	// MinGamesRecent: at least Min rated antichess games in the Months
	// before the evaluation time.
	MinGamesRecent Kind = "min_games_recent"
	NotBot         Kind = "not_bot"
	NotClosed      Kind = "not_closed"
	// NoTosViolation: Lichess does not mark the account (engine, booster).
	NoTosViolation Kind = "no_tos_violation"
	// NonProvisional: an established (non-provisional) antichess rating.
	// With Date set (the initial pairings) and the evaluation before it, a
	// provisional rating is unknown rather than a failure.
	NonProvisional Kind = "non_provisional"
	// Manual: not visible in the public API; always unknown.
	Manual Kind = "manual"
)

// Rule is one eligibility requirement, tied to a rulebook clause.
type Rule struct {
	ID     string // stable id, e.g. "A2.games"
	Clause string // the clause in CLAUSES.md: "A2", "W1"
	Kind   Kind
	Months int
	Date   time.Time
	Min    int
	Text   string // the requirement in the rulebook's words, for the TD
}

// Ruleset is an event's eligibility rules.
type Ruleset struct {
	Name  string
	Rules []Rule
}

func utc(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// AntichessTeamCup is clause A2. initialPairings is when the initial
// pairings are announced (the non-provisional rating is judged then); zero
// if not yet known.
func AntichessTeamCup(initialPairings time.Time) Ruleset {
	const c = "A2"
	return Ruleset{Name: "antichess-team-cup", Rules: []Rule{
		{ID: "A2.age", Clause: c, Kind: AccountAge, Months: 6, Text: "account created at least 6 months before registering"},
		{ID: "A2.games", Clause: c, Kind: MinGamesBefore, Min: 1000, Text: "at least 1000 rated antichess games on this account"},
		{ID: "A2.recent", Clause: c, Kind: MinGamesRecent, Months: 3, Min: 100, Text: "at least 100 rated antichess games in the last 3 months"},
		{ID: "A2.cheat", Clause: c, Kind: Manual, Text: "no cheat-detected game in the past 12 months, nor two in the past 24 months"},
		{ID: "A2.closed", Clause: c, Kind: NotClosed, Text: "the account is open"},
		{ID: "A2.tos", Clause: c, Kind: NoTosViolation, Text: "not banned by Lichess (no TOS-violation mark)"},
		{ID: "A2.ban", Clause: c, Kind: Manual, Text: "no Lichess ban in the past 12 months (bans that were lifted are not public)"},
		{ID: "A2.accounts", Clause: c, Kind: Manual, Text: "not entered with multiple accounts"},
		{ID: "A2.bot", Clause: c, Kind: NotBot, Text: "not a BOT account"},
		{ID: "A2.provisional", Clause: c, Kind: NonProvisional, Date: initialPairings, Text: "non-provisional antichess rating at the announcement of the initial pairings"},
	}}
}

// ACWC2023 is clause W1.
func ACWC2023() Ruleset {
	const c = "W1"
	return Ruleset{Name: "acwc-2023", Rules: []Rule{
		{ID: "W1.created", Clause: c, Kind: CreatedBefore, Date: utc(2023, 1, 1), Text: "account created before 2023-01-01 00:00 UTC"},
		{ID: "W1.games", Clause: c, Kind: MinGamesBefore, Date: utc(2023, 3, 12), Min: 1000, Text: "at least 1000 rated antichess games before 2023-03-12 00:00 UTC"},
		{ID: "W1.closed", Clause: c, Kind: NotClosed, Text: "the account is open"},
		{ID: "W1.marks", Clause: c, Kind: NoTosViolation, Text: "no engine mark since 2020-01-01 and no booster mark since 2022-01-01 (a current mark fails; the TD may clear an older one)"},
		{ID: "W1.past-marks", Clause: c, Kind: Manual, Text: "no other account marked (engine since 2020-01-01, booster since 2022-01-01): a Lichess admin confirms"},
		{ID: "W1.cheat", Clause: c, Kind: Manual, Text: "no cheat-detected game since 2022-01-01, nor two since 2020-01-01: a Lichess admin confirms"},
		{ID: "W1.accounts", Clause: c, Kind: Manual, Text: "not entered with another account"},
		{ID: "W1.bot", Clause: c, Kind: NotBot, Text: "not a BOT account"},
	}}
}

// Check is one rule's outcome.
type Check struct {
	Rule   string `json:"rule"` // Rule.ID
	Clause string `json:"clause"`
	Text   string `json:"text"`
	Status Status `json:"status"`
	Detail string `json:"detail,omitempty"` // why, with the figures used
}

// Report is the outcome of a ruleset for one account.
type Report struct {
	Username string    `json:"username"`
	At       time.Time `json:"at"`
	Status   Status    `json:"status"` // fail if any check fails, else unknown if any is unknown, else pass
	Checks   []Check   `json:"checks"`
}

// Evaluate judges s against rs at time now (for A2, the registration time).
func Evaluate(rs Ruleset, s Snapshot, now time.Time) Report {
	r := Report{Username: s.Username, At: now, Status: Pass}
	for _, rule := range rs.Rules {
		st, detail := evalRule(rule, &s, now)
		r.Checks = append(r.Checks, Check{Rule: rule.ID, Clause: rule.Clause, Text: rule.Text, Status: st, Detail: detail})
		switch {
		case st == Fail:
			r.Status = Fail
		case st == Unknown && r.Status == Pass:
			r.Status = Unknown
		}
	}
	return r
}

const day = "2006-01-02"

func evalRule(r Rule, s *Snapshot, now time.Time) (Status, string) {
	if s.Closed && r.Kind != NotClosed && r.Kind != Manual && r.Kind != CreatedBefore && r.Kind != AccountAge {
		return Unknown, "closed account: Lichess shows no profile data"
	}
	switch r.Kind {
	case AccountAge:
		if s.CreatedAt.IsZero() {
			return Unknown, "creation date not shown (closed account?)"
		}
		eligibleFrom := s.CreatedAt.AddDate(0, r.Months, 0)
		if !now.Before(eligibleFrom) {
			return Pass, fmt.Sprintf("created %s, %d months before %s", s.CreatedAt.Format(day), r.Months, now.Format(day))
		}
		return Fail, fmt.Sprintf("created %s: %d months old only from %s", s.CreatedAt.Format(day), r.Months, eligibleFrom.Format(day))
	case CreatedBefore:
		if s.CreatedAt.IsZero() {
			return Unknown, "creation date not shown (closed account?)"
		}
		if s.CreatedAt.Before(r.Date) {
			return Pass, "created " + s.CreatedAt.Format(day)
		}
		return Fail, fmt.Sprintf("created %s, not before %s", s.CreatedAt.Format(day), r.Date.Format(day))
	case MinGamesBefore:
		end, what := r.Date, "before "+r.Date.Format(day)
		if end.IsZero() {
			end, what = now, "so far"
		}
		return minGames(s, r.Min, time.Time{}, end, what)
	case MinGamesRecent:
		from := now.AddDate(0, -r.Months, 0)
		return minGames(s, r.Min, from, now, fmt.Sprintf("in the %d months since %s", r.Months, from.Format(day)))
	case NotBot:
		if s.Bot {
			return Fail, "BOT account"
		}
		return Pass, ""
	case NotClosed:
		if s.Closed {
			return Fail, "the account is closed"
		}
		return Pass, ""
	case NoTosViolation:
		if s.TosViolation {
			return Fail, "Lichess marks this account for a Terms of Service violation"
		}
		return Pass, "no mark at " + s.FetchedAt.Format(day)
	case NonProvisional:
		judgeLater := !r.Date.IsZero() && now.Before(r.Date)
		switch {
		case s.Antichess == nil && judgeLater:
			return Unknown, "no antichess rating yet; needed by " + r.Date.Format(day)
		case s.Antichess == nil:
			return Fail, "no antichess rating"
		case s.Antichess.Provisional && judgeLater:
			return Unknown, fmt.Sprintf("provisional (%d?, RD %d) now; must be established by %s", s.Antichess.Rating, s.Antichess.RD, r.Date.Format(day))
		case s.Antichess.Provisional:
			return Fail, fmt.Sprintf("provisional rating %d? (RD %d)", s.Antichess.Rating, s.Antichess.RD)
		case judgeLater:
			return Pass, fmt.Sprintf("rating %d (RD %d) established; re-check at the initial pairings on %s", s.Antichess.Rating, s.Antichess.RD, r.Date.Format(day))
		}
		return Pass, fmt.Sprintf("rating %d (RD %d)", s.Antichess.Rating, s.Antichess.RD)
	case Manual:
		return Unknown, "not in the public Lichess API — TD must confirm"
	}
	return Unknown, fmt.Sprintf("unknown rule kind %q", r.Kind)
}

// minGames judges "at least min rated antichess games in [from, to)" from
// the bounds the snapshot's counts give: a lower bound reaching min passes,
// an upper bound below min fails, anything else is for the TD.
func minGames(s *Snapshot, min int, from, to time.Time, what string) (Status, string) {
	lo, hi, hasLo, hasHi := gameBounds(s.counts(), from, to)
	switch {
	case hasLo && lo >= min:
		return Pass, fmt.Sprintf("%s%d rated antichess games %s (needs %d)", atLeast(lo, hi, hasHi), lo, what, min)
	case hasHi && hi < min:
		return Fail, fmt.Sprintf("%s%d rated antichess games %s (needs %d)", atMost(lo, hi, hasLo), hi, what, min)
	case hasLo:
		return Unknown, fmt.Sprintf("at least %d rated antichess games %s counted, %d needed: count the games export or TD must confirm", lo, what, min)
	}
	return Unknown, fmt.Sprintf("no count of rated antichess games %s (games export needed): TD must confirm", what)
}

func atLeast(lo, hi int, hasHi bool) string {
	if hasHi && hi == lo {
		return ""
	}
	return "at least "
}

func atMost(lo, hi int, hasLo bool) string {
	if hasLo && hi == lo {
		return ""
	}
	return "at most "
}
