package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/ranking"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// Placing is one entrant's place in an event's final ranking (package
// ranking computes it).
type Placing = ranking.Placing

// How a place was decided (Placing.DecidedBy).
const (
	ByFinal         = ranking.ByFinal
	ByThirdPlace    = ranking.ByThirdPlace
	ByKnockoutRound = ranking.ByKnockoutRound
	ByPool          = ranking.ByPool
	ByStandings     = ranking.ByStandings
	ByRemoved       = ranking.ByRemoved
)

// Ranking is the event's final ranking across its stages, once it is
// finished, by the rules of package ranking (the simulation of package
// odds places entrants by the same rules).
func (s *Service) Ranking(ctx context.Context, slug string) ([]Placing, error) {
	var out []Placing
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventFinished {
			return arbiter.RuleError("app.ranking", "event %s is %s: its final ranking follows its last round", slug, st.ev.Status)
		}
		out, err = finalRanking(ctx, tx, st)
		return err
	})
	return out, err
}

// finalRanking reads each stage's standings (a knockout's matches) and
// ranks.
func finalRanking(ctx context.Context, q sqlstore.Queryer, st *state) ([]Placing, error) {
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	byID := map[string]arbiter.Entrant{}
	for _, e := range es {
		byID[e.ID] = e
	}
	stages := make([]ranking.Stage, len(st.ev.Stages))
	for si, sg := range st.ev.Stages {
		rs := ranking.Stage{Name: sg.Name, Kind: sg.Kind, Rounds: sg.Rounds, Seeds: sg.Seeds, MovedUp: sg.MovedUp}
		switch sg.Kind {
		case format.Knockout:
			if rs.Seeds, err = knockoutSeeds(ctx, q, st, si); err != nil {
				return nil, err
			}
			if rs.Matches, err = knockoutMatches(ctx, q, st, si); err != nil {
				return nil, err
			}
		case format.Pool:
			for _, p := range sg.Pools {
				t, err := stageTable(ctx, q, st, si, p.Name)
				if err != nil {
					return nil, err
				}
				rs.Pools = append(rs.Pools, ranking.Pool{Name: p.Name, Table: t})
			}
		default:
			if rs.Table, err = stageTable(ctx, q, st, si, ""); err != nil {
				return nil, err
			}
		}
		stages[si] = rs
	}
	return ranking.Final(stages, ranking.Options{
		Removed: func(id string) bool { return byID[id].Status == arbiter.EntrantRemoved },
		Name:    func(id string) string { return byID[id].Name },
	}), nil
}

// knockoutMatches are a knockout stage's matches, round by round.
func knockoutMatches(ctx context.Context, q sqlstore.Queryer, st *state, si int) ([][]arbiter.Match, error) {
	rounds, err := stageRounds(ctx, q, st, si)
	if err != nil {
		return nil, err
	}
	out := make([][]arbiter.Match, len(rounds))
	for i, rd := range rounds {
		if rd.Number != i+1 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "stage %s has round %d in place %d", st.ev.Stages[si].Name, rd.Number, i+1)
		}
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, q, st, id)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], m)
		}
	}
	return out, nil
}

// knockoutGroups ranks a knockout stage from its matches of rounds up to
// after (0: all), as package ranking does.
func knockoutGroups(ctx context.Context, q sqlstore.Queryer, st *state, si, after int) ([]ranking.Group, error) {
	sg := st.ev.Stages[si]
	ms, err := knockoutMatches(ctx, q, st, si)
	if err != nil {
		return nil, err
	}
	prev := ""
	if si > 0 {
		prev = st.ev.Stages[si-1].Name
	}
	seeds, err := knockoutSeeds(ctx, q, st, si)
	if err != nil {
		return nil, err
	}
	return ranking.Knockout(&ranking.Stage{Name: sg.Name, Kind: sg.Kind, Rounds: sg.Rounds, Seeds: seeds, MovedUp: sg.MovedUp, Matches: ms}, prev, after, false), nil
}

// knockoutSeeds are a knockout stage's entrants in seed order: its seeds,
// or every admitted entrant when the event starts with the knockout (the
// first stage stores no seeds).
func knockoutSeeds(ctx context.Context, q sqlstore.Queryer, st *state, si int) ([]string, error) {
	if sg := st.ev.Stages[si]; si > 0 || len(sg.Seeds) > 0 {
		return sg.Seeds, nil
	}
	es, err := stageEntrants(ctx, q, st, si)
	return entrantIDs(es), err
}

// knockoutTable reorders a knockout stage's table by the bracket: the
// places of knockoutGroups, entrants out in the same round sharing one
// (match points alone would tie the losing finalist with the winner of
// the third-place match).
func knockoutTable(ctx context.Context, q sqlstore.Queryer, st *state, si, after int, t standings.Table) (standings.Table, error) {
	gs, err := knockoutGroups(ctx, q, st, si, after)
	if err != nil {
		return t, err
	}
	rows := map[string]standings.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	out := t
	out.Rows = nil
	for _, g := range gs {
		first := len(out.Rows) + 1
		for i, id := range g.IDs {
			r, ok := rows[id]
			if !ok {
				continue
			}
			delete(rows, id)
			r.Rank, r.Shared = len(out.Rows)+1, false
			if len(g.IDs) > 1 && (g.By[i] == ByKnockoutRound) {
				r.Rank, r.Shared = first, true
			}
			out.Rows = append(out.Rows, r)
		}
	}
	var rest []standings.Row
	for _, r := range t.Rows {
		if _, ok := rows[r.ID]; ok {
			rest = append(rest, r)
		}
	}
	for _, r := range rest { // not in the bracket (should not happen): last, as the table had them
		r.Rank = len(out.Rows) + 1
		out.Rows = append(out.Rows, r)
	}
	return out, nil
}
