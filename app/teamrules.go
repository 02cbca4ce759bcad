package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// A11's team rules in the product: at most two AGM or higher in a team,
// and the board-4 rating cap the titles set, judged on the board-4
// player's Lichess rating history with the 2025 cap-crossing rule
// (package eligibility: TeamA11). They run when a team registers, when
// its board list changes (the TDs' ranking, the captain's list, a
// substitution) and when a replacement is named. The antichess titles
// (AGM, ASGM, an unclaimed AGM) are not on Lichess: the TDs record them
// (SetTitles). What the data cannot settle is "unknown" and the TD
// decides; only a failing check refuses a board list or a replacement.
//
// CheckTeamRules is a plain function of the service: the scheduler or a
// job queue may call it as the system actor.

const kindTeamCheck = "teamcheck"

// TeamCheck is the last A11 check of a team, as stored.
type TeamCheck struct {
	Entrant string    `json:"entrant"`
	At      time.Time `json:"at"`
	By      string    `json:"by"`
	// Titles is the TDs' record of the players' antichess titles: "AGM"
	// (an unclaimed AGM counts as one), "ASGM" or "" for none.
	Titles map[string]string   `json:"titles,omitempty"`
	Status eligibility.Status  `json:"status"`
	Checks []eligibility.Check `json:"checks"`

	Version int64 `json:"-"`
}

// RatingHistories is the part of an AccountSource A11 needs beyond
// profiles: the daily ratings of every perf. *lichess.Client has it; an
// AccountSource without it leaves the cap "unknown".
type RatingHistories interface {
	RatingHistory(ctx context.Context, username string) ([]lichess.RatingHistory, error)
}

// teamRulesApply tells whether a format has A11's team rules: the
// antichess cup's eligibility rules, in a team event.
func teamRulesApply(f *format.Format) bool {
	return f.Entrant == format.Team && f.Eligibility == format.EligibilityAntichessTeamCup
}

// HasTeamRules tells whether a format has A11's team rules.
func HasTeamRules(f *format.Format) bool { return teamRulesApply(f) }

// TeamRulesRequest names what a check is about beyond the stored team.
type TeamRulesRequest struct {
	// Titles adds to (or corrects) the TDs' record of titles; nil keeps it.
	Titles map[string]string
	// Players and Board4 replace the team's players and the board-4
	// candidates (a board list or replacement still to be made); nil
	// derives them from the team.
	Players []string
	Board4  []string
}

// CheckTeamRules runs A11's team check of a team and stores it (audited).
// A TD, or the system (a job, a registration), runs it. Lichess failures
// make the checks they concern "unknown"; nothing is refused here.
func (s *Service) CheckTeamRules(ctx context.Context, a arbiter.Actor, slug, entrantID string, req TeamRulesRequest) (TeamCheck, error) {
	out, err := s.teamCheck(ctx, a, slug, entrantID, req)
	if err != nil {
		return out, err
	}
	err = s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		ch := change(a, "entrant.team_rules", "A11: "+teamCheckSummary(out), false)
		old, err := docTeamCheck.get(ctx, tx, st, out.Entrant)
		switch {
		case err == nil:
			out.Version, err = docTeamCheck.update(ctx, tx, ch, st, out.Entrant, old.Version, out)
		case arbiter.ErrorCode(err) == arbiter.ENOTFOUND:
			out.Version, err = docTeamCheck.create(ctx, tx, ch, st, out.Entrant, out)
		}
		return err
	})
	return out, err
}

// teamCheck computes a team's A11 check without storing it.
func (s *Service) teamCheck(ctx context.Context, a arbiter.Actor, slug, entrantID string, req TeamRulesRequest) (TeamCheck, error) {
	var out TeamCheck
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if a.Role != arbiter.RoleSystem {
		if err := requireTD(ctx, s.DB, st, a, "check a team's A11 rules"); err != nil {
			return out, err
		}
	} else if err := requireActor(a); err != nil {
		return out, err
	}
	if !teamRulesApply(st.f) {
		return out, arbiter.RuleError("app.team_rules", "format %s has no A11 team rules (a team event with the antichess cup's eligibility)", st.f.Name)
	}
	e, err := docEntrant.get(ctx, s.DB, st, normUser(entrantID))
	if err != nil {
		return out, err
	}
	if e.Kind != arbiter.EntrantTeam {
		return out, arbiter.FieldError("entrant", "app.team_rules", "%s is not a team", e.ID)
	}
	old, err := optional(docTeamCheck.get(ctx, s.DB, st, e.ID))
	if err != nil {
		return out, err
	}
	out = TeamCheck{Entrant: e.ID, At: s.now(), By: normUser(a.Name), Titles: map[string]string{}}
	if old != nil {
		for p, t := range old.Titles {
			out.Titles[p] = t
		}
	}
	for p, t := range req.Titles {
		t = strings.ToUpper(strings.TrimSpace(t))
		if t == "NONE" {
			t = ""
		}
		if t != "" && t != eligibility.TitleAGM && t != eligibility.TitleASGM {
			return out, arbiter.FieldError("titles", "A11", "a title is AGM, ASGM or none, got %q for %s", t, p)
		}
		out.Titles[normUser(p)] = t
	}
	players := req.Players
	if players == nil {
		players = e.Users()
	}
	board4 := req.Board4
	if board4 == nil {
		if board4, err = s.board4Candidates(ctx, st, e, players); err != nil {
			return out, err
		}
	}
	in := eligibility.TeamInput{Players: players, Titles: out.Titles, Now: s.now()}
	for _, p := range board4 {
		in.Board4 = append(in.Board4, s.board4History(ctx, p))
	}
	if len(board4) == 0 {
		in.Board4 = []eligibility.Board4Player{{Name: "the board-4 player (not known: no Lichess ratings to rank the team by, and the TDs have not ranked its boards)"}}
	}
	out.Checks = eligibility.TeamA11(in)
	out.Status = eligibility.Worst(out.Checks)
	return out, nil
}

// board4Candidates are the players who may play a team's last board: on
// the TDs' board list, its last board and any player off the boards (the
// fifth member, A14, replaces a player of similar rating); before the
// ranking, the players below the top boards by their Lichess rating (A12:
// "ranked according to the player's strength/rating"). Nil when Lichess
// cannot rank them.
func (s *Service) board4Candidates(ctx context.Context, st *state, e arbiter.Entrant, players []string) ([]string, error) {
	boards := slices.Max(st.f.TeamSizes())
	if bt, err := getBoards(ctx, s.DB, st, e.ID); err == nil && len(bt.Team.Boards) > 0 {
		out := []string{bt.Team.Boards[len(bt.Team.Boards)-1]}
		for _, p := range players {
			if !slices.Contains(bt.Team.Boards, p) {
				out = append(out, p)
			}
		}
		return out, nil
	} else if arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return nil, err
	}
	ratings := map[string]int{}
	// The ratings fetched at registration (ratings.go), when they cover
	// every player: no need to ask Lichess again.
	if rec, err := ratingsOf(ctx, s.DB, st, e.ID); err != nil {
		return nil, err
	} else if rec != nil && rec.Perf == lichess.PerfAntichess {
		for _, p := range rec.Players {
			if p.Missing == "" {
				ratings[p.Username] = p.Rating
			}
		}
		if len(ratings) == len(players) && everyIn(players, ratings) {
			return rankedBoard4(ratings, boards), nil
		}
		clear(ratings)
	}
	if s.accounts == nil {
		return nil, nil
	}
	for _, p := range players {
		u, err := s.accounts.User(ctx, p)
		if err != nil {
			return nil, nil // Lichess cannot rank them: the TDs will
		}
		r := 0
		if pf, ok := u.Perf(lichess.PerfAntichess); ok {
			r = pf.Rating
		}
		ratings[p] = r
	}
	return rankedBoard4(ratings, boards), nil
}

// rankedBoard4 are the players from the last of boards down, by rating.
func rankedBoard4(ratings map[string]int, boards int) []string {
	order := eligibility.ByRating(ratings)
	if len(order) < boards {
		return order[len(order)-1:]
	}
	return order[boards-1:]
}

func everyIn(players []string, ratings map[string]int) bool {
	for _, p := range players {
		if _, ok := ratings[p]; !ok {
			return false
		}
	}
	return true
}

// board4History fetches a player's antichess rating history (Known false
// when Lichess cannot give it).
func (s *Service) board4History(ctx context.Context, player string) eligibility.Board4Player {
	b := eligibility.Board4Player{Name: player}
	src, ok := s.accounts.(RatingHistories)
	if !ok || s.accounts == nil {
		return b
	}
	hs, err := src.RatingHistory(ctx, player)
	if err != nil {
		return b
	}
	b.Known = true
	for _, h := range hs {
		if strings.EqualFold(h.Name, "antichess") {
			b.History = lichess.EligibilityHistory(h)
		}
	}
	return b
}

// teamCheckSummary says in one line what a team check found.
func teamCheckSummary(c TeamCheck) string {
	var parts []string
	for _, ch := range c.Checks {
		if ch.Status != eligibility.Pass {
			parts = append(parts, string(ch.Status)+": "+ch.Detail)
		}
	}
	if len(parts) == 0 {
		return string(c.Status)
	}
	return string(c.Status) + " (" + strings.Join(parts, "; ") + ")"
}

// Summary says in one line what the check found.
func (c *TeamCheck) Summary() string { return teamCheckSummary(*c) }

// TeamChecks returns the last A11 check of every team checked, by ID.
func (s *Service) TeamChecks(ctx context.Context, slug string) (map[string]TeamCheck, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	xs, err := docTeamCheck.list(ctx, s.DB, st)
	if err != nil {
		return nil, err
	}
	out := make(map[string]TeamCheck, len(xs))
	for _, x := range xs {
		out[x.Entrant] = x
	}
	return out, nil
}

// requireTeamRules refuses a board list or replacement whose A11 check
// fails (the titles the TDs recorded give three AGM or higher, or a
// board-4 crossing is established); "unknown" is the TD's to decide and
// passes. Formats without A11 pass.
func (s *Service) requireTeamRules(ctx context.Context, slug, entrantID string, req TeamRulesRequest) error {
	st, err := load(ctx, s.DB, slug)
	if err != nil || !teamRulesApply(st.f) {
		return err
	}
	// Computed, not stored: the action refused or done is what is audited.
	c, err := s.teamCheck(ctx, arbiter.Actor{Name: "arbiter", Role: arbiter.RoleSystem}, slug, entrantID, req)
	if err != nil {
		return err
	}
	if c.Status == eligibility.Fail {
		return arbiter.RuleError("A11", "the team rules of %s fail: %s", entrantID, teamCheckSummary(c))
	}
	return nil
}

// lastBoards are the board-4 candidates of a board list: its last board
// and the players off it.
func lastBoards(boards, players []string) []string {
	if len(boards) == 0 {
		return nil
	}
	out := []string{boards[len(boards)-1]}
	for _, p := range players {
		if !slices.Contains(boards, p) {
			out = append(out, p)
		}
	}
	return out
}
