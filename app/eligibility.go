package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Eligibility on Lichess (A2, W1): a TD asks Lichess for the profile of
// each player of an entrant, and for the game counts the rules need, and
// the format's eligibility rules judge them at the entrant's registration
// ("at registration", A2). The reports are stored on the entrant and
// audited; they decide nothing: what the public API cannot show stays
// "unknown" for the TD, who approves or rejects (Approve, Reject).

const kindEligibility = "eligibility"

// AccountSource reads Lichess accounts. *lichess.Client satisfies it;
// tests pass a fake.
type AccountSource interface {
	// User is the public profile; an arbiter.ENOTFOUND error when Lichess
	// knows no such account.
	User(ctx context.Context, username string) (*lichess.User, error)
	// CountGames counts the user's games matching q (created at or after
	// q.Since, at or before q.Until).
	CountGames(ctx context.Context, username string, q lichess.GamesQuery) (int, error)
}

// SetAccountSource gives the service its Lichess accounts; nil (the
// default) makes CheckEligibility unavailable. Call it before serving.
func (s *Service) SetAccountSource(a AccountSource) { s.accounts = a }

// EligibilityCheck is the last eligibility check of one entrant.
type EligibilityCheck struct {
	Entrant string    `json:"entrant"`
	Ruleset string    `json:"ruleset"` // eligibility.Ruleset.Name
	At      time.Time `json:"at"`      // when Lichess was asked
	By      string    `json:"by"`      // the TD who asked
	// Judged is the time the rules were judged at: the entrant's
	// registration.
	Judged time.Time `json:"judged"`
	// Status is fail if a player's report fails, else unknown if one is
	// unknown, else pass.
	Status  eligibility.Status   `json:"status"`
	Reports []eligibility.Report `json:"reports"` // one per player, in the entrant's order

	Version int64 `json:"-"`
}

// NoAccountRule is the check of a player Lichess does not know.
const NoAccountRule = "account"

// eligibilityRules picks the format's ruleset: A2 judges the rating at
// the announcement of the initial pairings (round 1 published, else the
// event's start).
func (s *Service) eligibilityRules(ctx context.Context, st *state) (eligibility.Ruleset, error) {
	switch st.f.Eligibility {
	case format.EligibilityAntichessTeamCup:
		pairings := st.ev.Start
		if rd, err := docRound.get(ctx, s.DB, st, roundID(0, 1)); err == nil && !rd.PublishedAt.IsZero() {
			pairings = rd.PublishedAt
		}
		return eligibility.AntichessTeamCup(pairings), nil
	case format.EligibilityACWC2023:
		return eligibility.ACWC2023(), nil
	}
	return eligibility.Ruleset{}, arbiter.RuleError("app.eligibility", "format %s has no eligibility rules (its \"eligibility\" field is empty): check the accounts by hand", orField(st.f.Name, st.ev.Format))
}

// CheckEligibility judges every player of an entrant (the player, or a
// team's members and substitute) against the format's eligibility rules
// on what Lichess shows now, stores the reports on the entrant and audits
// the check. TD only (or the system, in a job the app started). It needs an AccountSource (SetAccountSource);
// without one it is a rule error (app.lichess). A player Lichess does not
// know fails ("no such Lichess account"); any other Lichess failure is
// EUNAVAILABLE and nothing is stored.
func (s *Service) CheckEligibility(ctx context.Context, a arbiter.Actor, slug, entrantID string) (EligibilityCheck, error) {
	var out EligibilityCheck
	const what = "check an entrant's eligibility on Lichess"
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireTDOrJob(ctx, s.DB, st, a, what); err != nil {
		return out, err
	}
	if s.accounts == nil {
		return out, arbiter.RuleError("app.lichess", "eligibility checks are unavailable: this server has no Lichess client (give --lichess-url)")
	}
	e, err := docEntrant.get(ctx, s.DB, st, normUser(entrantID))
	if err != nil {
		return out, err
	}
	rs, err := s.eligibilityRules(ctx, st)
	if err != nil {
		return out, err
	}
	out = EligibilityCheck{Entrant: e.ID, Ruleset: rs.Name, By: normUser(a.Name), At: s.now(), Judged: e.RegisteredAt,
		Status: eligibility.Pass, Reports: []eligibility.Report{}}
	if out.Judged.IsZero() {
		out.Judged = out.At
	}
	players := e.Users()
	if len(players) == 0 {
		return out, arbiter.RuleError("app.eligibility", "entrant %s names no players: nobody to look up", e.ID)
	}
	for _, p := range players {
		r, err := s.eligibilityOf(ctx, rs, p, out.Judged)
		if err != nil {
			return EligibilityCheck{}, err
		}
		out.Reports = append(out.Reports, r)
		switch {
		case r.Status == eligibility.Fail:
			out.Status = eligibility.Fail
		case r.Status == eligibility.Unknown && out.Status == eligibility.Pass:
			out.Status = eligibility.Unknown
		}
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		if err := requireTDOrJob(ctx, tx, st, a, what); err != nil {
			return err
		}
		ch := change(a, "entrant.eligibility", e.ID+": "+out.Summary(), false)
		old, err := docEligibility.get(ctx, tx, st, e.ID)
		switch {
		case err == nil:
			out.Version, err = docEligibility.update(ctx, tx, ch, st, e.ID, old.Version, out)
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
			out.Version, err = docEligibility.create(ctx, tx, ch, st, e.ID, out)
		}
		return err
	})
	return out, err
}

// eligibilityOf fetches one player's profile and the game counts the
// rules need, and evaluates them at judged.
func (s *Service) eligibilityOf(ctx context.Context, rs eligibility.Ruleset, player string, judged time.Time) (eligibility.Report, error) {
	unavailable := func(err error) error {
		return &arbiter.Error{Code: arbiter.EUNAVAILABLE, Message: fmt.Sprintf("fetching the Lichess account %s failed; try again later", player), Err: err}
	}
	u, err := s.accounts.User(ctx, player)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		clause := ""
		if len(rs.Rules) > 0 {
			clause = rs.Rules[0].Clause
		}
		return eligibility.Report{Username: player, At: judged, Status: eligibility.Fail, Checks: []eligibility.Check{{
			Rule: NoAccountRule, Clause: clause, Text: "a Lichess account", Status: eligibility.Fail, Detail: "no such Lichess account"}}}, nil
	}
	if err != nil {
		return eligibility.Report{}, unavailable(err)
	}
	fetched := s.now()
	snap := lichess.EligibilitySnapshot(u, fetched)
	if !snap.Closed {
		count := func(from, to time.Time, max int) (eligibility.GameCount, error) {
			rated := true
			n, err := s.accounts.CountGames(ctx, u.Username, lichess.GamesQuery{PerfType: lichess.PerfAntichess, Rated: &rated,
				Since: from, Until: to.Add(-time.Millisecond), Max: max})
			if err != nil {
				return eligibility.GameCount{}, unavailable(err)
			}
			c := eligibility.GameCount{From: from, To: to, Games: n, AtLeast: n >= max}
			snap.Counts = append(snap.Counts, c)
			return c, nil
		}
		for _, plan := range countPlans(rs, snap, judged) {
			c, err := count(plan.from, plan.to, plan.max)
			if err != nil {
				return eligibility.Report{}, err
			}
			if plan.before != nil && c.AtLeast {
				if _, err := count(time.Time{}, *plan.before, plan.max); err != nil {
					return eligibility.Report{}, err
				}
			}
		}
	}
	return eligibility.Evaluate(rs, snap, judged), nil
}

// countPlan is one count of rated antichess games in [from, to), cut at
// max games (Lichess streams about 20 games a second: a count stops once
// the rule is settled). before, when set, asks for the games before that
// date, up to max, if this count is cut short.
type countPlan struct {
	from, to time.Time
	max      int
	before   *time.Time
}

// countPlans are the counts the game rules need:
//   - at least Min in the Months before the judged time: the window's
//     games, up to Min;
//   - at least Min before a date D (registration for A2, 2023-03-12 for W1)
//     that the profile was read after, when its total T reaches Min: the
//     games since D, up to the fewer of T-Min+1 (that many or more means
//     fewer than Min before D) and Min; cut at Min, the games before D, up
//     to Min. With T below Min, or D not yet passed, the total decides.
func countPlans(rs eligibility.Ruleset, snap eligibility.Snapshot, judged time.Time) []countPlan {
	total := 0
	if snap.Antichess != nil {
		total = snap.Antichess.Games
	}
	var out []countPlan
	for _, r := range rs.Rules {
		switch r.Kind {
		case eligibility.MinGamesRecent:
			out = append(out, countPlan{from: judged.AddDate(0, -r.Months, 0), to: judged, max: r.Min})
		case eligibility.MinGamesBefore:
			end := r.Date
			if end.IsZero() {
				end = judged
			}
			if !end.Before(snap.FetchedAt) || total < r.Min {
				continue
			}
			p := countPlan{from: end, to: snap.FetchedAt, max: min(total-r.Min+1, r.Min)}
			if total-r.Min+1 > r.Min {
				p.before = &end
			}
			out = append(out, p)
		}
	}
	return out
}

// Outcome is the check's status in the TDs' words: eligible, not
// eligible, or unknown (a check only a TD can settle).
func (c *EligibilityCheck) Outcome() string {
	switch c.Status {
	case eligibility.Pass:
		return "eligible"
	case eligibility.Fail:
		return "not eligible"
	}
	return "unknown"
}

// Summary says in one line what the check found: the overall status, the
// players who fail with their failing rules, and how many checks are left
// for the TD.
func (c *EligibilityCheck) Summary() string {
	var fails []string
	unknown := 0
	for _, r := range c.Reports {
		var rules []string
		for _, ch := range r.Checks {
			switch ch.Status {
			case eligibility.Fail:
				rules = append(rules, ch.Rule)
			case eligibility.Unknown:
				unknown++
			}
		}
		if len(rules) > 0 {
			fails = append(fails, r.Username+" fails "+strings.Join(rules, ", "))
		}
	}
	out := string(c.Status)
	if len(fails) > 0 {
		out += ": " + strings.Join(fails, "; ")
	}
	switch unknown {
	case 0:
	case 1:
		out += " (1 check for the TD to confirm)"
	default:
		out += fmt.Sprintf(" (%d checks for the TD to confirm)", unknown)
	}
	return out
}

// Eligibility returns an entrant's last eligibility check, nil when it
// was never checked.
func (s *Service) Eligibility(ctx context.Context, slug, entrantID string) (*EligibilityCheck, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return optional(docEligibility.get(ctx, s.DB, st, normUser(entrantID)))
}

// Eligibilities returns the last eligibility check of every entrant
// checked, by entrant ID, for the event's TDs (u).
func (s *Service) Eligibilities(ctx context.Context, u *arbiter.User, slug string) (map[string]EligibilityCheck, error) {
	var out map[string]EligibilityCheck
	err := s.tdRead(ctx, slug, u, "its eligibility checks", func(q sqlstore.Queryer, st *state) error {
		xs, err := docEligibility.list(ctx, q, st)
		if err != nil {
			return err
		}
		out = make(map[string]EligibilityCheck, len(xs))
		for _, x := range xs {
			out[x.Entrant] = x
		}
		return nil
	})
	return out, err
}
