package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing/knockout"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// tiebreakClause names the rule that orders a stage's ties: the clause
// the format carries (R12, A21, W7, W9), else the format field.
func tiebreakClause(f *format.Format, si int) string {
	return orField(f.Stages[si].TiebreakClause, fmt.Sprintf("format.stages[%d].tiebreaks", si))
}

// cut returns the first n entrants of a ranked table, refusing when the
// stage's tiebreaks leave the n-th and the next entrant tied: who goes on
// is then for the TDs to decide, not for the order of the input.
func cut(t standings.Table, n int, clause, what string) ([]string, error) {
	if n > len(t.Rows) {
		return nil, arbiter.RuleError(clause, "%s: %d should advance but only %d are ranked", what, n, len(t.Rows))
	}
	if n < len(t.Rows) && t.Rows[n-1].Rank == t.Rows[n].Rank {
		var tied []string
		for _, r := range t.Rows {
			if r.Rank == t.Rows[n].Rank {
				tied = append(tied, r.ID)
			}
		}
		return nil, arbiter.RuleError(clause, "%s: the tiebreaks leave %s tied at the cut (place %d); the TDs must decide", what, strings.Join(tied, ", "), n)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = t.Rows[i].ID
	}
	return out, nil
}

// AdvanceOptions are the TDs' decision on ties the tiebreaks leave.
type AdvanceOptions struct {
	TieOrder []string // the top N of the stage in order
	Reason   string
}

// AdvanceStage ends the current stage once every round is closed and
// every result final, and fills the next stage from its standings: the
// top N (ties at the cut broken by the stage's tiebreaks, else refused)
// seed a knockout 1 v N (R2, A10), fill pools by the format's placement
// pattern (W8), or, from pools, seed a knockout across pools (W10). TD only.
//
// Where the tiebreaks leave entrants tied on a place that matters (the
// cut, places going to different pools, any two places of a knockout's
// seeding, a pool's winner and runner-up before the cross-pool knockout),
// AdvanceStage refuses naming them and the clause, and the TDs decide
// (drawing of lots): they give the order of the top N in TieOrder with a
// Reason (from pools: every pool's advancing entrants, pool after pool).
// The order may only rearrange entrants the standings leave tied.
func (s *Service) AdvanceStage(ctx context.Context, a arbiter.Actor, slug string, opt AdvanceOptions) (arbiter.Event, error) {
	var ev arbiter.Event
	if len(opt.TieOrder) > 0 {
		if err := requireReason(opt.Reason, "a TD's order of tied entrants"); err != nil {
			return ev, err
		}
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "advance to the next stage"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("app.event", "event %s is %s", slug, st.ev.Status)
		}
		si := st.ev.Stage
		cur := st.ev.Stages[si]
		if si+1 >= len(st.ev.Stages) {
			return arbiter.RuleError("app.stage", "stage %s is the last stage", cur.Name)
		}
		rounds, err := stageRounds(ctx, tx, st, si)
		if err != nil {
			return err
		}
		if len(rounds) < cur.Rounds || rounds[len(rounds)-1].Status != arbiter.RoundClosed {
			return arbiter.RuleError("app.stage", "stage %s has %d rounds; %d paired, the last must be closed", cur.Name, cur.Rounds, len(rounds))
		}
		for _, rd := range rounds {
			for _, id := range rd.Matches {
				m, err := docMatch.get(ctx, tx, st, id)
				if err != nil {
					return err
				}
				if m.Status != arbiter.MatchFinal {
					return arbiter.RuleError("app.stage", "match %s is %s: decide it first", m.ID, m.Status)
				}
			}
		}
		next := &st.ev.Stages[si+1]
		fnext := &st.f.Stages[si+1]
		clause := tiebreakClause(st.f, si)
		var ranked []string
		if cur.Kind == format.Pool {
			if fnext.Kind != format.Knockout {
				return arbiter.RuleError("app.stage", "after pools only a knockout is supported")
			}
			var perPool [][]string
			adv := 0
			for i, p := range cur.Pools {
				t, err := stageTable(ctx, tx, st, si, p.Name)
				if err != nil {
					return err
				}
				if t, err = withoutRemoved(ctx, tx, st, t); err != nil {
					return err
				}
				n := st.f.Stages[si].Pools[i].Advance
				if i > 0 && n != adv {
					return arbiter.RuleError("app.stage", "pools advancing different numbers are not supported")
				}
				adv = n
				var top []string
				if len(opt.TieOrder) > 0 {
					if top, err = tdOrder(t, n, inTable(t, opt.TieOrder), clause); err != nil {
						var e *arbiter.Error
						if errors.As(err, &e) {
							e.Message = "pool " + p.Name + ": " + e.Message
						}
						return err
					}
				} else {
					if top, err = cut(t, n, clause, "pool "+p.Name); err != nil {
						return err
					}
					// W10: a pool's winner meets the other pool's
					// runner-up, so every place that advances matters.
					if err := seedTies(t, n, clause, "pool "+p.Name, "decide the knockout pairings across pools"); err != nil {
						return err
					}
				}
				perPool = append(perPool, top)
			}
			if len(opt.TieOrder) > 0 {
				if err := allInPools(ctx, tx, st, si, cur.Pools, opt.TieOrder, clause); err != nil {
					return err
				}
			}
			if ranked, err = knockout.CrossPoolSeeds(perPool, adv); err != nil {
				return err
			}
		} else {
			t, err := stageTable(ctx, tx, st, si, "")
			if err != nil {
				return err
			}
			if t, err = withoutRemoved(ctx, tx, st, t); err != nil {
				return err
			}
			if len(opt.TieOrder) > 0 {
				if ranked, err = tdOrder(t, cur.Advance, opt.TieOrder, clause); err != nil {
					return err
				}
			} else {
				if ranked, err = cut(t, cur.Advance, clause, "stage "+cur.Name); err != nil {
					return err
				}
				switch fnext.Kind {
				case format.Pool:
					err = poolTies(t, fnext, clause)
				case format.Knockout:
					err = seedTies(t, cur.Advance, clause, "stage "+cur.Name, "decide the knockout seeding")
				}
				if err != nil {
					return err
				}
			}
		}
		next.Seeds = ranked
		if fnext.Kind == format.Pool {
			pattern := make([][]int, len(fnext.Pools))
			for i, p := range fnext.Pools {
				pattern[i] = p.Places
			}
			pools, err := knockout.Pools(ranked, pattern)
			if err != nil {
				return err
			}
			next.Pools = nil
			for i, p := range pools {
				next.Pools = append(next.Pools, arbiter.Pool{Name: fnext.Pools[i].Name, Seeds: p})
			}
		}
		st.ev.Stage = si + 1
		if err := st.save(ctx, tx, change(a, "stage.advance", opt.Reason, len(opt.TieOrder) > 0)); err != nil {
			return err
		}
		ev = st.ev
		return nil
	})
	return ev, err
}

// poolTies refuses when entrants the tiebreaks leave tied hold places
// that go to different pools (W8), since the pool then depends on the TDs.
func poolTies(t standings.Table, next *format.Stage, clause string) error {
	poolOf := map[int]string{}
	for _, p := range next.Pools {
		for _, place := range p.Places {
			poolOf[place] = p.Name
		}
	}
	for i := 0; i < len(t.Rows); {
		j := i
		for j+1 < len(t.Rows) && t.Rows[j+1].Rank == t.Rows[i].Rank {
			j++
		}
		for k := i + 1; k <= j; k++ {
			if poolOf[k+1] != poolOf[i+1] {
				var tied []string
				for _, r := range t.Rows[i : j+1] {
					tied = append(tied, r.ID)
				}
				return arbiter.RuleError(clause, "the tiebreaks leave %s tied on places %d-%d, which go to different pools; the TDs must decide the order", strings.Join(tied, ", "), i+1, j+1)
			}
		}
		i = j + 1
	}
	return nil
}

// seedTies refuses when the stage's tiebreaks leave any of the first n
// entrants tied with each other: their order decides the next stage's
// pairings (why), so it is the TDs' decision (drawing of lots), not the
// order of the input.
func seedTies(t standings.Table, n int, clause, what, why string) error {
	for i := 0; i < n && i < len(t.Rows); {
		j := i
		for j+1 < n && j+1 < len(t.Rows) && t.Rows[j+1].Rank == t.Rows[i].Rank {
			j++
		}
		if j > i {
			var tied []string
			for _, r := range t.Rows[i : j+1] {
				tied = append(tied, r.ID)
			}
			return arbiter.RuleError(clause, "%s: the tiebreaks leave %s tied on places %d-%d, which %s; the TDs must decide the order", what, strings.Join(tied, ", "), i+1, j+1, why)
		}
		i = j + 1
	}
	return nil
}

// inTable keeps the entrants of order that have a row in t, in order: a
// TD's order across pools lists every pool's advancing entrants.
func inTable(t standings.Table, order []string) []string {
	in := map[string]bool{}
	for _, r := range t.Rows {
		in[r.ID] = true
	}
	var out []string
	for _, id := range order {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// allInPools refuses a TD's order naming someone in none of the pools
// (who would otherwise be ignored silently).
func allInPools(ctx context.Context, q sqlstore.Queryer, st *state, si int, pools []arbiter.Pool, order []string, clause string) error {
	in := map[string]bool{}
	for _, p := range pools {
		t, err := stageTable(ctx, q, st, si, p.Name)
		if err != nil {
			return err
		}
		if t, err = withoutRemoved(ctx, q, st, t); err != nil {
			return err
		}
		for _, r := range t.Rows {
			in[r.ID] = true
		}
	}
	for i, id := range order {
		if !in[id] {
			return arbiter.FieldError(fmt.Sprintf("tie_order[%d]", i), clause, "%q is not an entrant of the stage's pools (or was removed)", id)
		}
	}
	return nil
}

// tdOrder checks the TDs' order of the top n: n distinct entrants of the
// table, in an order that only rearranges entrants of equal rank, and
// leaving out nobody ranked strictly better than one it includes.
func tdOrder(t standings.Table, n int, order []string, clause string) ([]string, error) {
	rank := map[string]int{}
	for _, r := range t.Rows {
		rank[r.ID] = r.Rank
	}
	if len(order) != n {
		return nil, arbiter.FieldError("tie_order", clause, "give the order of all %d entrants who advance, got %d", n, len(order))
	}
	seen := map[string]bool{}
	worst := 0
	for i, id := range order {
		r, ok := rank[id]
		switch {
		case !ok || seen[id]:
			return nil, arbiter.FieldError(fmt.Sprintf("tie_order[%d]", i), clause, "%q is not an entrant of the stage, or is listed twice", id)
		case r < worst:
			return nil, arbiter.FieldError(fmt.Sprintf("tie_order[%d]", i), clause, "%s (rank %d) cannot follow an entrant ranked %d: only tied entrants may be reordered", id, r, worst)
		}
		seen[id], worst = true, r
	}
	for _, r := range t.Rows {
		if r.Rank < worst && !seen[r.ID] {
			return nil, arbiter.FieldError("tie_order", clause, "%s (rank %d) is ranked above entrants in the order and must advance", r.ID, r.Rank)
		}
	}
	return order, nil
}

// withoutRemoved drops the rows of entrants removed by a sanction: they
// keep their place in the table shown, but never advance.
func withoutRemoved(ctx context.Context, q sqlstore.Queryer, st *state, t standings.Table) (standings.Table, error) {
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return t, err
	}
	gone := map[string]bool{}
	for _, e := range es {
		gone[e.ID] = e.Status == arbiter.EntrantRemoved
	}
	out := t
	out.Rows = slices.DeleteFunc(slices.Clone(t.Rows), func(r standings.Row) bool { return gone[r.ID] })
	return out, nil
}
