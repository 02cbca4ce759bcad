package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
)

const kindSeparated = "separated"

// Separated is a TD's list of players who must play on different teams:
// the antichess cup's "named strongest players" (A11). While it stands, no
// team may hold two of them, whether it registers with them or gains one
// as a replacement. Lifting it keeps the record.
type Separated struct {
	ID      string    `json:"id"` // "s1", "s2", ...
	Players []string  `json:"players"`
	Reason  string    `json:"reason"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	Removal           // set when a TD lifts the list, with the reason

	Version int64 `json:"-"`
}

// SeparateRequest names two or more Lichess usernames who must not share
// a team, with the TDs' reason.
type SeparateRequest struct {
	Players []string
	Reason  string
}

// Separate records that the players of req must play on different teams
// (A11). TD only, in a team event, with a reason (audited). Refused while
// an entered team already holds two of them: the TDs settle that team
// first, so the list and the entries never disagree.
func (s *Service) Separate(ctx context.Context, a arbiter.Actor, slug string, req SeparateRequest) (Separated, error) {
	var sp Separated
	if err := requireReason(req.Reason, "players who must play on different teams"); err != nil {
		return sp, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "separate players"); err != nil {
			return err
		}
		if st.f.Entrant != format.Team {
			return arbiter.RuleError("A11", "%s is an individual event: there are no teams to keep players apart in", slug)
		}
		if st.ev.Status == arbiter.EventFinished {
			return arbiter.RuleError("app.event", "event %s is finished", slug)
		}
		var players []string
		for i, p := range req.Players {
			p = normUser(p)
			field := fmt.Sprintf("players[%d]", i)
			if p == "" {
				return arbiter.FieldError(field, "A11", "a player's Lichess username is empty")
			}
			if err := checkUser(field, p); err != nil {
				return err
			}
			if slices.Contains(players, p) {
				return arbiter.FieldError(field, "A11", "%s is listed twice", p)
			}
			players = append(players, p)
		}
		if len(players) < 2 {
			return arbiter.FieldError("players", "A11", "name at least two players who must play on different teams")
		}
		entrants, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, e := range entrants {
			if !entered(e) {
				continue
			}
			if both := together(e.Users(), players); len(both) >= 2 {
				return arbiter.RuleError("A11", "team %s already holds %s: settle that team first (reject it, or name another list)", e.Name, strings.Join(both, " and "))
			}
		}
		all, err := docSeparated.list(ctx, tx, st)
		if err != nil {
			return err
		}
		sp = Separated{ID: fmt.Sprintf("s%d", len(all)+1), Players: players, Reason: strings.TrimSpace(req.Reason),
			By: normUser(a.Name), At: s.now()}
		sp.Version, err = docSeparated.create(ctx, tx, change(a, "entrant.separate", sp.Reason, false), st, sp.ID, sp)
		return err
	})
	return sp, err
}

// RemoveSeparated lifts a list of separated players (TD only, with a
// reason); the record stays, marked removed.
func (s *Service) RemoveSeparated(ctx context.Context, a arbiter.Actor, slug, id, reason string) (Separated, error) {
	if err := requireReason(reason, "lifting a list of separated players"); err != nil {
		return Separated{}, err
	}
	return amendAsTD(ctx, s, a, slug, docSeparated, id, "lift a list of separated players", func(sp *Separated) (sqlstore.Change, error) {
		if err := sp.remove(a, s.now(), reason, "list "+id+" was already lifted"); err != nil {
			return sqlstore.Change{}, err
		}
		return change(a, "entrant.unseparate", sp.RemovedReason, false), nil
	})
}

// SeparatedPlayers lists the event's lists of separated players, lifted
// ones included (marked).
func (s *Service) SeparatedPlayers(ctx context.Context, slug string) ([]Separated, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return docSeparated.list(ctx, s.DB, st)
}

// checkSeparated refuses a team whose players would hold two of a standing
// list (A11). users are the team's players after the change.
func checkSeparated(ctx context.Context, q sqlstore.Queryer, st *state, team string, users []string) error {
	all, err := docSeparated.list(ctx, q, st)
	if err != nil {
		return err
	}
	for _, sp := range all {
		if sp.Removed {
			continue
		}
		if both := together(users, sp.Players); len(both) >= 2 {
			return arbiter.RuleError("A11", "%s and %s must play on different teams (the TDs' list %s: %s), so %s cannot hold both",
				both[0], both[1], sp.ID, sp.Reason, team)
		}
	}
	return nil
}

// together returns the players of list found among users.
func together(users, list []string) []string {
	var out []string
	for _, p := range list {
		if slices.Contains(users, p) {
			out = append(out, p)
		}
	}
	return out
}

// entered is an entrant still in the event's entries.
func entered(e arbiter.Entrant) bool {
	return e.Status != arbiter.EntrantRejected && e.Status != arbiter.EntrantWithdrawn
}
