package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
	"arbiter/sanction"
	"arbiter/sqlstore"
)

// entrantEditClause is cited where an edit is refused for what it is.
const entrantEditClause = "app.entrant_edit"

// EntrantEdit is a TD's correction of an entrant: nil (or, for Members,
// an empty list) leaves a field as it is.
type EntrantEdit struct {
	Name   *string
	Rating *int
	// Members is a team's new member list (the captain stays among them).
	Members []string
	// Substitute is a team's new substitute ("" removes it).
	Substitute *string
	Reason     string
	// Version is the entrant version the TD saw (0: the current one).
	Version int64
}

// EntrantEdited is an edited entrant with what changed and what the TDs
// still have to do.
type EntrantEdited struct {
	Entrant arbiter.Entrant `json:"entrant"`
	Changes []string        `json:"changes"`
	Notes   []string        `json:"notes,omitempty"`
}

// EditEntrant corrects an entrant's name, rating, members or substitute
// (docs/running-an-event.md, "Correcting an entrant"), with a reason
// (audited). The ID stays (results and pairings name it). The format's
// team rules apply as at registration (team size, captain among the
// members, A11; substitute, A14; bans, R17; separated players, A11), and
// a new member may not be entered with, or have played for, another
// entrant (one team per player: A11, R14) nor have been removed from the
// event (R16, A15). Once the event runs, a member who has played for the
// team leaves only through a sanction (a replacement is named then, R14,
// A15); a rating change does not reseed (the pairing numbers were fixed
// at the close, C.04.2). A player entrant's account cannot change: it is
// the entrant. TD only.
func (s *Service) EditEntrant(ctx context.Context, a arbiter.Actor, slug, id string, req EntrantEdit) (EntrantEdited, error) {
	var out EntrantEdited
	if err := requireReason(req.Reason, "editing an entrant"); err != nil {
		return out, err
	}
	if err := checkEntrantEdit(&req); err != nil {
		return out, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "edit an entrant"); err != nil {
			return err
		}
		e, err := docEntrant.get(ctx, tx, st, strings.ToLower(strings.TrimSpace(id)))
		if err != nil {
			return err
		}
		if e.Status != arbiter.EntrantApproved && e.Status != arbiter.EntrantPending {
			return arbiter.RuleError(entrantEditClause, "%s is %s: only entrants in the event are edited", e.Name, e.Status)
		}
		all, err := docEntrant.list(ctx, tx, st)
		if err != nil {
			return err
		}
		ed := e
		ed.Members = slices.Clone(e.Members)
		var changes, notes []string
		if req.Name != nil && strings.TrimSpace(*req.Name) != e.Name {
			name := strings.TrimSpace(*req.Name)
			if name == "" {
				return arbiter.FieldError("name", entrantEditClause, "a name is not empty")
			}
			for _, o := range all {
				if o.ID != e.ID && entered(o) && (strings.EqualFold(o.Name, name) || (e.Kind == arbiter.EntrantTeam && o.ID == teamID(name))) {
					return arbiter.FieldError("name", entrantEditClause, "%s is the name of another entrant", name)
				}
			}
			changes = append(changes, fmt.Sprintf("name %q → %q", e.Name, name))
			ed.Name = name
		}
		if req.Rating != nil && *req.Rating != e.Rating {
			if *req.Rating < 0 {
				return arbiter.FieldError("rating", entrantEditClause, "a rating is not negative")
			}
			changes = append(changes, fmt.Sprintf("rating %d → %d", e.Rating, *req.Rating))
			ed.Rating = *req.Rating
			switch {
			case s.ratingsFromLichess(st):
				notes = append(notes, "the ratings come from Lichess: the next fetch (a refresh, or round 1's pairing, which numbers the entrants by them) replaces this one")
			case e.Seed > 0:
				notes = append(notes, "the pairing numbers were fixed when registration closed (C.04.2): the new rating does not change the seeding")
			}
		}
		if req.Members != nil || req.Substitute != nil {
			if e.Kind != arbiter.EntrantTeam {
				return arbiter.FieldError("members", "format.entrant", "%s is a player: a player entrant has no members or substitute (the Lichess account is the entrant)", e.Name)
			}
			if len(req.Members) > 0 {
				ed.Members = slices.Clone(req.Members)
			}
			if req.Substitute != nil {
				ed.Substitute = *req.Substitute
			}
			n, err := s.checkMembers(ctx, tx, st, e, &ed, all)
			if err != nil {
				return err
			}
			gone, came := diff(e.Users(), ed.Users())
			if len(gone)+len(came) > 0 {
				changes = append(changes, "members "+memberChange(gone, came))
			}
			notes = append(notes, n...)
		}
		if len(changes) == 0 {
			return arbiter.FieldError("entrant", entrantEditClause, "nothing to change: give a new name, rating, members or substitute")
		}
		ch := change(a, "entrant.edit", strings.TrimSpace(req.Reason)+" ("+strings.Join(changes, "; ")+")", false)
		if ed.Version, err = docEntrant.update(ctx, tx, ch, st, e.ID, expected(req.Version, e.Version), ed); err != nil {
			return err
		}
		if err := s.followMembers(ctx, tx, st, ch, &ed, e, &notes); err != nil {
			return err
		}
		out = EntrantEdited{Entrant: ed, Changes: changes, Notes: notes}
		return nil
	})
	return out, err
}

// checkMembers applies the team rules to the edited team ed (was e) and
// returns the TDs' follow-ups.
func (s *Service) checkMembers(ctx context.Context, tx *sqlstore.Tx, st *state, e arbiter.Entrant, ed *arbiter.Entrant, all []arbiter.Entrant) ([]string, error) {
	if st.ev.Status == arbiter.EventFinished {
		return nil, arbiter.RuleError("app.event", "event %s is finished: its teams stay as they played", st.ev.Slug)
	}
	// normaliseEntrant derives the ID from the name; the edited team
	// keeps its own.
	if err := normaliseEntrant(st.f, ed); err != nil {
		return nil, err
	}
	ed.ID = e.ID
	gone, came := diff(e.Users(), ed.Users())
	removed, err := removedPlayers(ctx, tx, st)
	if err != nil {
		return nil, err
	}
	played, err := playedFor(ctx, tx, st)
	if err != nil {
		return nil, err
	}
	for _, u := range came {
		if err := mayJoin(st, e.ID, u, removed, all, played); err != nil {
			return nil, err
		}
	}
	rule := entrantEditClause
	if rb, ok := sanctionRulebook(st.f); ok {
		rule = map[sanction.Rulebook]string{sanction.RKCC: "R14", sanction.Antichess: "A15"}[rb]
	}
	for _, u := range gone {
		if slices.Contains(played[e.ID], u) {
			return nil, arbiter.RuleError(orField(rule, entrantEditClause), "%s has played for %s: a member who has played leaves the team only through a sanction, and a replacement is named then", u, e.Name)
		}
	}
	if err := checkBans(ctx, tx, st, came); err != nil {
		return nil, err
	}
	if err := checkSeparated(ctx, tx, st, ed.Name, ed.Users()); err != nil {
		return nil, err
	}
	return nil, nil
}

// followMembers keeps the team's board record (A12) in step with a
// member change: one member for another takes the old one's place and
// rating in the TDs' ranking; any other change leaves the ranking to be
// given again before the next pairing.
func (s *Service) followMembers(ctx context.Context, tx *sqlstore.Tx, st *state, ch sqlstore.Change, ed *arbiter.Entrant, e arbiter.Entrant, notes *[]string) error {
	gone, came := diff(e.Users(), ed.Users())
	if len(gone)+len(came) == 0 {
		return nil
	}
	if st.f.Lineups == format.LineupSets {
		if _, err := docLineup.get(ctx, tx, st, e.ID); err == nil {
			*notes = append(*notes, "the team's lineups name its members: the captain gives the next round's lineup with the new members (R7)")
		}
	}
	if st.f.Lineups != format.LineupBoards {
		return nil
	}
	bt, err := getBoards(ctx, tx, st, e.ID)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if len(gone) != 1 || len(came) != 1 {
		*notes = append(*notes, "rank the team's boards again with its new members before the next pairing (A12)")
		return nil
	}
	old, nu := gone[0], came[0]
	t := bt.Team
	t.Members = slices.Clone(t.Members)
	for i := range t.Members {
		if t.Members[i].Name == old {
			t.Members[i].Name = nu
		}
	}
	rename := func(xs []string) []string {
		out := slices.Clone(xs)
		for i := range out {
			if out[i] == old {
				out[i] = nu
			}
		}
		return out
	}
	t.Boards = rename(t.Boards)
	var cmp lineup.Comparable
	for _, p := range t.Comparable {
		cmp = append(cmp, lineup.Pair(rename(p[:])))
	}
	t.Comparable = cmp
	bt.Team, bt.TDOrder = t, rename(bt.TDOrder)
	*notes = append(*notes, fmt.Sprintf("%s takes %s's place in the board order (A12)", nu, old))
	return saveBoards(ctx, tx, st, ch, &bt, ed, false)
}

// diff returns what is in a and not in b, and what is in b and not in a.
func diff(a, b []string) (gone, came []string) {
	for _, x := range a {
		if !slices.Contains(b, x) {
			gone = append(gone, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			came = append(came, x)
		}
	}
	return gone, came
}

func memberChange(gone, came []string) string {
	var ps []string
	for _, g := range gone {
		ps = append(ps, "-"+g)
	}
	for _, c := range came {
		ps = append(ps, "+"+c)
	}
	return strings.Join(ps, " ")
}
