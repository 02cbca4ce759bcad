package app

import (
	"context"
	"fmt"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// Placing is one entrant's place in an event's final ranking.
type Placing struct {
	Rank    int    `json:"rank"`
	Shared  bool   `json:"shared,omitempty"`
	Entrant string `json:"entrant"` // the entrant's ID, as every command prints it
	Name    string `json:"name"`
	// Stage is the last stage the entrant played in.
	Stage string `json:"stage"`
	// DecidedBy says what decided the place: final, third_place,
	// knockout_round, pool, standings or removed; How says it in words.
	DecidedBy string `json:"decided_by"`
	How       string `json:"how"`
}

// How a place was decided (Placing.DecidedBy).
const (
	ByFinal         = "final"
	ByThirdPlace    = "third_place"
	ByKnockoutRound = "knockout_round"
	ByPool          = "pool"
	ByStandings     = "standings"
	ByRemoved       = "removed"
)

// Ranking is the event's final ranking across its stages, once it is
// finished. The last stage ranks its entrants first: a knockout by its
// final (1st, 2nd) and third-place match (3rd, 4th), then by the round in
// which each entrant was eliminated, later rounds first; entrants out in
// the same round (RKCC's semifinal losers: R2 names no third-place match)
// are ordered by their seed in the knockout, that is the previous stage's
// standings. Every earlier stage then ranks the entrants who went no
// further: a Swiss or round robin by its standings; pools by the place in
// the pool, equal places across pools by the previous stage's ranking
// (W9's last tiebreak is the qualification result). Entrants removed by a
// sanction come last. Entrants the standings leave tied share a rank.
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
		out, err = ranking(ctx, tx, st)
		return err
	})
	return out, err
}

// rankGroup is entrants that share a place unless their order is given
// (ordered: their order in the group decides).
type rankGroup struct {
	ids     []string
	ordered bool
	by, how []string // per entrant
	stage   string
}

func ranking(ctx context.Context, q sqlstore.Queryer, st *state) ([]Placing, error) {
	es, err := docEntrant.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	byID := map[string]arbiter.Entrant{}
	for _, e := range es {
		byID[e.ID] = e
	}
	removed := func(id string) bool { return byID[id].Status == arbiter.EntrantRemoved }
	placed := map[string]bool{}
	var groups []rankGroup
	var last []string // removed entrants, the latest stage's first
	for si := len(st.ev.Stages) - 1; si >= 0; si-- {
		sg := st.ev.Stages[si]
		var gs []rankGroup
		switch sg.Kind {
		case format.Knockout:
			if gs, err = knockoutGroups(ctx, q, st, si, 0); err != nil {
				return nil, err
			}
		case format.Pool:
			if gs, err = poolGroups(ctx, q, st, si); err != nil {
				return nil, err
			}
		default:
			t, err := stageTable(ctx, q, st, si, "")
			if err != nil {
				return nil, err
			}
			gs = tableGroups(t, sg.Name)
		}
		for _, g := range gs {
			var kept rankGroup
			kept.ordered, kept.stage = g.ordered, g.stage
			for i, id := range g.ids {
				if placed[id] {
					continue
				}
				placed[id] = true
				if removed(id) {
					last = append(last, id)
					continue
				}
				kept.ids, kept.by, kept.how = append(kept.ids, id), append(kept.by, g.by[i]), append(kept.how, g.how[i])
			}
			if len(kept.ids) > 0 {
				groups = append(groups, kept)
			}
		}
	}
	if len(last) > 0 {
		g := rankGroup{ids: last, ordered: true}
		for range last {
			g.by, g.how = append(g.by, ByRemoved), append(g.how, "withdrew or was disqualified (removed by a sanction)")
		}
		groups = append(groups, g)
	}
	var out []Placing
	for _, g := range groups {
		first := len(out) + 1
		for i, id := range g.ids {
			p := Placing{Rank: len(out) + 1, Entrant: id, Name: byID[id].Name, Stage: g.stage, DecidedBy: g.by[i], How: g.how[i]}
			if !g.ordered && len(g.ids) > 1 {
				p.Rank, p.Shared = first, true
			}
			if p.Stage == "" {
				p.Stage = lastStageOf(st, id)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// lastStageOf names the last stage an entrant was seeded into.
func lastStageOf(st *state, id string) string {
	for si := len(st.ev.Stages) - 1; si > 0; si-- {
		if slices.Contains(st.ev.Stages[si].Seeds, id) {
			return st.ev.Stages[si].Name
		}
	}
	return st.ev.Stages[0].Name
}

// tableGroups turns a standings table into rank groups: entrants sharing a
// rank form one group.
func tableGroups(t standings.Table, stage string) []rankGroup {
	var out []rankGroup
	for i := 0; i < len(t.Rows); {
		j := i
		for j+1 < len(t.Rows) && t.Rows[j+1].Rank == t.Rows[i].Rank {
			j++
		}
		g := rankGroup{ordered: j == i, stage: stage}
		for _, r := range t.Rows[i : j+1] {
			g.ids = append(g.ids, r.ID)
			g.by = append(g.by, ByStandings)
			g.how = append(g.how, fmt.Sprintf("place %d in the %s", r.Rank, stage))
		}
		out = append(out, g)
		i = j + 1
	}
	return out
}

// poolGroups ranks a pool stage: by the place in the pool, equal places
// across pools by the entrants' seeds in the stage (the previous stage's
// ranking), which is how the pools were filled.
func poolGroups(ctx context.Context, q sqlstore.Queryer, st *state, si int) ([]rankGroup, error) {
	sg := st.ev.Stages[si]
	seed := map[string]int{}
	for i, id := range sg.Seeds {
		seed[id] = i + 1
	}
	type row struct {
		id, pool string
		place    int
	}
	var rows []row
	for _, p := range sg.Pools {
		t, err := stageTable(ctx, q, st, si, p.Name)
		if err != nil {
			return nil, err
		}
		for _, r := range t.Rows {
			rows = append(rows, row{r.ID, p.Name, r.Rank})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if a.place != b.place {
			return a.place - b.place
		}
		return seed[a.id] - seed[b.id]
	})
	prev := "the previous stage"
	if si > 0 {
		prev = "the " + st.ev.Stages[si-1].Name
	}
	g := rankGroup{ordered: true, stage: sg.Name}
	for _, r := range rows {
		g.ids = append(g.ids, r.id)
		g.by = append(g.by, ByPool)
		g.how = append(g.how, fmt.Sprintf("place %d in pool %s; equal places across pools by %s (seed %d)", r.place, r.pool, prev, seed[r.id]))
	}
	return []rankGroup{g}, nil
}

// knockoutGroups ranks a knockout stage from its matches of rounds up to
// after (0: all): the final's winner and loser, the third-place match's,
// then the entrants out in each round, later rounds first, each group in
// seed order; entrants still in (a round not played yet) come first,
// sharing a place.
func knockoutGroups(ctx context.Context, q sqlstore.Queryer, st *state, si, after int) ([]rankGroup, error) {
	sg := st.ev.Stages[si]
	rounds, err := stageRounds(ctx, q, st, si)
	if err != nil {
		return nil, err
	}
	seed := map[string]int{}
	for i, id := range sg.Seeds {
		seed[id] = i + 1
	}
	entrants := slices.Clone(sg.Seeds)
	for _, l := range sg.MovedUp {
		if !slices.Contains(entrants, l) {
			entrants = append(entrants, l)
		}
	}
	outIn := map[string]int{} // the round an entrant lost in
	var final, third [2]string
	for _, rd := range rounds {
		if after > 0 && rd.Number > after {
			break
		}
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, q, st, id)
			if err != nil {
				return nil, err
			}
			if m.IsBye() || m.Status != arbiter.MatchFinal || m.Result == nil {
				continue
			}
			var w, l string
			switch m.Result.Result {
			case "home_win":
				w, l = m.Home, m.Away
			case "away_win":
				w, l = m.Away, m.Home
			default:
				continue // no winner yet: both still in
			}
			switch m.Format {
			case "final":
				final = [2]string{w, l}
			case "third_place":
				third = [2]string{w, l}
			default:
				outIn[l] = rd.Number
			}
		}
	}
	done := map[string]bool{}
	var out []rankGroup
	one := func(id, by, how string) {
		if id == "" || done[id] {
			return
		}
		done[id] = true
		out = append(out, rankGroup{ids: []string{id}, ordered: true, by: []string{by}, how: []string{how}, stage: sg.Name})
	}
	var still rankGroup
	still.stage = sg.Name
	for _, id := range entrants {
		if _, lost := outIn[id]; !lost && id != final[1] && id != third[0] && id != third[1] && id != final[0] {
			still.ids = append(still.ids, id)
			still.by, still.how = append(still.by, ByKnockoutRound), append(still.how, "still in the knockout")
		}
	}
	if final[0] != "" {
		still = rankGroup{stage: sg.Name}
	}
	if len(still.ids) > 0 {
		still.ordered = len(still.ids) == 1
		for _, id := range still.ids {
			done[id] = true
		}
		out = append(out, still)
	}
	one(final[0], ByFinal, "won the final")
	one(final[1], ByFinal, "lost the final")
	one(third[0], ByThirdPlace, "won the third-place match")
	one(third[1], ByThirdPlace, "lost the third-place match")
	prev := "the previous stage's ranking"
	if si > 0 {
		prev = "the " + st.ev.Stages[si-1].Name
	}
	for r := sg.Rounds; r >= 1; r-- {
		g := rankGroup{ordered: true, stage: sg.Name}
		for _, id := range entrants {
			if outIn[id] == r && !done[id] {
				g.ids = append(g.ids, id)
			}
		}
		slices.SortStableFunc(g.ids, func(a, b string) int { return seed[a] - seed[b] })
		for _, id := range g.ids {
			done[id] = true
			g.by = append(g.by, ByKnockoutRound)
			how := "lost in " + knockoutRoundName(r, sg.Rounds)
			if len(g.ids) > 1 {
				how += fmt.Sprintf("; ordered by %s (knockout seed %d)", prev, seed[id])
			}
			g.how = append(g.how, how)
		}
		if len(g.ids) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// knockoutRoundName names round r of a knockout of n rounds by how many
// entrants it has left: the final, the semifinals, the quarterfinals,
// then "the round of 16" and so on.
func knockoutRoundName(r, n int) string {
	switch n - r {
	case 0:
		return "the final"
	case 1:
		return "the semifinals"
	case 2:
		return "the quarterfinals"
	}
	return fmt.Sprintf("the round of %d", 1<<(n-r+1))
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
		for i, id := range g.ids {
			r, ok := rows[id]
			if !ok {
				continue
			}
			delete(rows, id)
			r.Rank, r.Shared = len(out.Rows)+1, false
			if len(g.ids) > 1 && (g.by[i] == ByKnockoutRound) {
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
