package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/lineup"
	"arbiter/sanction"
	"arbiter/sqlstore"
)

const kindReplacement = "replacement"

// Replacement is a player named in place of a team member removed by a
// sanction (R14, A15), as stored; its ID is the replaced player's.
type Replacement struct {
	Replaced string    `json:"replaced"`
	Player   string    `json:"player"`
	Entrant  string    `json:"entrant"`
	Reason   string    `json:"reason"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`

	Version int64 `json:"-"`
}

// ReplacementRequest names a replacement for a removed member. The TDs
// vouch for the facts the app cannot know: the two ratings (A15) and the
// candidate's eligibility (A2, A11) and willingness to play reopened
// matches.
type ReplacementRequest struct {
	Entrant        string
	Replaced       string // the member removed by a sanction
	Player         string // the replacement
	Rating         int    // the replacement's rating
	ReplacedRating int    // the replaced player's rating (A15: at least 100 above)
	Eligible       bool
	Willing        bool
	Reason         string
}

// NameReplacement adds a replacement for a team member removed by a
// sanction, once per removed member, under the format's sanction rules:
// RKCC R14/R16 (not registered with another team; no player removed from
// the event, R16 bars them from every team), antichess A15 (eligible,
// willing, at least 100 rating points below the replaced player, team
// still in). The ACWC has no replacements (W17). TD only; audited.
func (s *Service) NameReplacement(ctx context.Context, a arbiter.Actor, slug string, req ReplacementRequest) (arbiter.Entrant, error) {
	var e arbiter.Entrant
	if err := requireReason(req.Reason, "naming a replacement"); err != nil {
		return e, err
	}
	replaced, player := normUser(req.Replaced), normUser(req.Player)
	if player == "" {
		return e, arbiter.FieldError("player", "app.replacement", "name the replacement player")
	}
	if err := checkUser("player", player); err != nil {
		return e, err
	}
	if err := s.replacementTeamRules(ctx, a, slug, req, replaced, player); err != nil {
		return e, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "name a replacement"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("app.event", "event %s is %s: replacements are named while it runs", slug, st.ev.Status)
		}
		rb, ok := sanctionRulebook(st.f)
		if !ok {
			return arbiter.RuleError("format.sanctions", "format %s names no sanction rules, so no replacements", st.f.Name)
		}
		e, err = docEntrant.get(ctx, tx, st, strings.ToLower(req.Entrant))
		if err != nil {
			return err
		}
		if e.Kind != arbiter.EntrantTeam {
			return arbiter.FieldError("entrant", "app.replacement", "%s is not a team: only team members are replaced", e.ID)
		}
		sanctions, err := docSanction.list(ctx, tx, st)
		if err != nil {
			return err
		}
		var removed []string
		wasRemoved := false
		for _, x := range sanctions {
			if x.Player != "" {
				removed = append(removed, x.Player)
			}
			if x.Entrant == e.ID && x.Player == replaced && replaced != "" {
				wasRemoved = true
			}
		}
		entrants, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, o := range entrants {
			if o.Status == arbiter.EntrantRemoved {
				removed = append(removed, o.Users()...)
			}
		}
		if !wasRemoved {
			return arbiter.FieldError("replaced", "app.replacement", "%q was not removed from %s by a sanction", req.Replaced, e.ID)
		}
		if _, err := docReplacement.get(ctx, tx, st, replaced); err == nil {
			return arbiter.Errorf(arbiter.ECONFLICT, "%s was already replaced", replaced)
		} else if arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
			return err
		}
		c := sanction.Candidate{Name: player, Rating: req.Rating, Eligible: req.Eligible, Willing: req.Willing}
		for _, o := range entrants {
			if entered(o) && slices.Contains(o.Users(), player) {
				c.Team = o.ID
			}
		}
		if c.Team == e.ID {
			return arbiter.FieldError("player", "app.replacement", "%s is already a member of %s", player, e.ID)
		}
		if err := sanction.CheckReplacement(rb, e.ID, req.ReplacedRating, c, removed, e.Status == arbiter.EntrantRemoved); err != nil {
			return err
		}
		// A11: the replacement may not bring the team a second player of
		// a TDs' list of players who must play on different teams.
		after := slices.DeleteFunc(append(e.Users(), player), func(u string) bool { return u == replaced })
		if err := checkSeparated(ctx, tx, st, e.Name, after); err != nil {
			return err
		}
		if err := checkBans(ctx, tx, st, []string{player}); err != nil {
			return err
		}
		e.Members = append(e.Members, player)
		ch := change(a, "entrant.replacement", replaced+" -> "+player+": "+req.Reason, true)
		if e.Version, err = docEntrant.update(ctx, tx, ch, st, e.ID, e.Version, e); err != nil {
			return err
		}
		r := Replacement{Replaced: replaced, Player: player, Entrant: e.ID, Reason: req.Reason, By: normUser(a.Name), At: s.now()}
		_, err = docReplacement.create(ctx, tx, ch, st, replaced, r)
		return err
	})
	return e, err
}

// replacementTeamRules runs A11's team check on the team the replacement
// would make: its players, and as board-4 candidates the last board of
// the TDs' ranking with the replacement in the replaced player's place
// (ratings as the TDs gave them; the replacement's as given), else the
// team ranked by Lichess ratings. A failing check refuses it (A11).
func (s *Service) replacementTeamRules(ctx context.Context, a arbiter.Actor, slug string, req ReplacementRequest, replaced, player string) error {
	st, err := load(ctx, s.DB, slug)
	if err != nil || !teamRulesApply(st.f) {
		return nil
	}
	if ok, err := isTD(ctx, s.DB, st, a); err != nil || !ok {
		return nil // the replacement itself is refused, naming why
	}
	id := strings.ToLower(req.Entrant)
	e, err := docEntrant.get(ctx, s.DB, st, id)
	if err != nil {
		return nil
	}
	players := slices.DeleteFunc(append(e.Users(), player), func(u string) bool { return u == replaced })
	var cands []string
	if bt, err := getBoards(ctx, s.DB, st, id); err == nil {
		var ms []lineup.Member
		for _, m := range bt.Team.Members {
			if m.Name != replaced {
				ms = append(ms, m)
			}
		}
		ms = append(ms, lineup.Member{Name: player, Rating: req.Rating})
		order := lineup.RankByRating(ms)
		cands = lastBoards(order[:min(len(order), boardRules(st).Boards)], players)
	}
	return s.requireTeamRules(ctx, slug, id, TeamRulesRequest{Players: players, Board4: cands})
}
