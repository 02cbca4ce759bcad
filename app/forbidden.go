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

const kindForbidden = "forbidden"

// forbiddenClause is the rule cited for forbidden pairings: a TD's
// decision for the event (same club, same federation), not a rulebook
// clause, so it names the use case.
const forbiddenClause = "app.forbidden"

// Forbidden is a TD's declaration that a group of entrants must not meet
// each other in a Swiss stage (e.g. players of the same club or
// federation). The Swiss pairing (Dutch and team Swiss) honours it for
// every round paired while it stands; removing it keeps the record.
type Forbidden struct {
	ID       string    `json:"id"`    // "f1", "f2", ...
	Stage    int       `json:"stage"` // index of the stage (0 = first)
	Entrants []string  `json:"entrants"`
	Reason   string    `json:"reason"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	Removal            // set when a TD lifts the declaration, with the reason

	Version int64 `json:"-"`
}

// ForbidRequest declares entrants (two or more) that must not meet in the
// stage with index Stage (0 = first).
type ForbidRequest struct {
	Stage    int
	Entrants []string
	Reason   string
}

// Forbid records that the entrants of req must not meet each other in a
// Swiss stage; the next rounds paired honour it. TD only, with a reason
// (audited). Refused for a stage that is not a Swiss, an entrant who is
// not in the event, or fewer than two entrants.
func (s *Service) Forbid(ctx context.Context, a arbiter.Actor, slug string, req ForbidRequest) (Forbidden, error) {
	var fb Forbidden
	if err := requireReason(req.Reason, "a forbidden pairing"); err != nil {
		return fb, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "forbid pairings"); err != nil {
			return err
		}
		if st.ev.Status == arbiter.EventFinished {
			return arbiter.RuleError("app.event", "event %s is finished", slug)
		}
		if req.Stage < 0 || req.Stage >= len(st.f.Stages) {
			return arbiter.FieldError("stage", forbiddenClause, "the format has stages 1 to %d", len(st.f.Stages))
		}
		if req.Stage < st.ev.Stage {
			return arbiter.FieldError("stage", forbiddenClause, "stage %d is over", req.Stage+1)
		}
		if k := st.f.Stages[req.Stage].Kind; k != format.Swiss {
			return arbiter.FieldError("stage", forbiddenClause, "stage %d is a %s: only Swiss pairings can avoid pairs", req.Stage+1, k)
		}
		var ids []string
		for i, id := range req.Entrants {
			id = normUser(id)
			e, err := docEntrant.get(ctx, tx, st, id)
			if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
				return arbiter.FieldError(fmt.Sprintf("entrants[%d]", i), forbiddenClause, "%q is not an entrant of %s", id, slug)
			}
			if err != nil {
				return err
			}
			if e.Status == arbiter.EntrantRejected {
				return arbiter.FieldError(fmt.Sprintf("entrants[%d]", i), forbiddenClause, "%s was rejected", id)
			}
			if slices.Contains(ids, id) {
				return arbiter.FieldError(fmt.Sprintf("entrants[%d]", i), forbiddenClause, "%s is listed twice", id)
			}
			ids = append(ids, id)
		}
		if len(ids) < 2 {
			return arbiter.FieldError("entrants", forbiddenClause, "name at least two entrants who must not meet")
		}
		all, err := docForbidden.list(ctx, tx, st)
		if err != nil {
			return err
		}
		fb = Forbidden{ID: fmt.Sprintf("f%d", len(all)+1), Stage: req.Stage, Entrants: ids,
			Reason: strings.TrimSpace(req.Reason), By: normUser(a.Name), At: s.now()}
		fb.Version, err = docForbidden.create(ctx, tx, change(a, "pairing.forbid", fb.Reason, false), st, fb.ID, fb)
		return err
	})
	return fb, err
}

// RemoveForbidden lifts a forbidden pairing (TD only, with a reason); the
// record stays, marked removed, and the next rounds paired ignore it.
func (s *Service) RemoveForbidden(ctx context.Context, a arbiter.Actor, slug, id, reason string) (Forbidden, error) {
	if err := requireReason(reason, "lifting a forbidden pairing"); err != nil {
		return Forbidden{}, err
	}
	return amendAsTD(ctx, s, a, slug, docForbidden, id, "lift a forbidden pairing", func(fb *Forbidden) (sqlstore.Change, error) {
		if err := fb.remove(a, s.now(), reason, "forbidden pairing "+id+" was already removed"); err != nil {
			return sqlstore.Change{}, err
		}
		return change(a, "pairing.unforbid", fb.RemovedReason, false), nil
	})
}

// ForbiddenPairings lists the event's forbidden pairings, removed ones
// included (marked).
func (s *Service) ForbiddenPairings(ctx context.Context, slug string) ([]Forbidden, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return docForbidden.list(ctx, s.DB, st)
}

// forbiddenGroups returns the groups of entrants that must not meet in
// stage si, from the declarations still standing, as positions in the
// pairing's entrant index: entrants not being paired are left out, and so
// are groups left with fewer than two members.
func forbiddenGroups(ctx context.Context, q sqlstore.Queryer, st *state, si int, index map[string]int) ([][]int, error) {
	all, err := docForbidden.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	var out [][]int
	for _, f := range all {
		if f.Removed || f.Stage != si {
			continue
		}
		var g []int
		for _, id := range f.Entrants {
			if i, ok := index[id]; ok {
				g = append(g, i)
			}
		}
		if len(g) >= 2 {
			out = append(out, g)
		}
	}
	return out, nil
}
