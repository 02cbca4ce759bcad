// Package ranking computes an event's final ranking across its stages
// from the stages' standings and knockout matches. It is pure: the app
// (app.Service.Ranking, `arbiter event ranking`, the API) and the
// simulation of package odds read the same rules from here.
//
// The last stage ranks its entrants first: a knockout by its final (1st,
// 2nd) and third-place match (3rd, 4th), then by the round in which each
// entrant was eliminated, later rounds first; entrants out in the same
// round (RKCC's semifinal losers: R2 names no third-place match) are
// ordered by their seed in the knockout, that is the previous stage's
// standings. Every earlier stage then ranks the entrants who went no
// further: a Swiss or round robin by its standings; pools by the place in
// the pool, equal places across pools by the entrants' seeds in the stage
// (the previous stage's ranking: W9's last tiebreak is the qualification
// result). Entrants removed by a sanction come last, the latest stage's
// first. Entrants the standings leave tied share a rank.
package ranking

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"arbiter"
	"arbiter/format"
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

// Stage is one stage as the ranking reads it.
type Stage struct {
	Name string
	Kind string // format.Swiss, format.RoundRobin, format.Pool or format.Knockout
	// Rounds is the knockout's number of rounds (it names them).
	Rounds int
	// Seeds are the stage's entrants in seed order; MovedUp maps a
	// knockout finalist who left to the entrant moved up from below (W17).
	Seeds   []string
	MovedUp map[string]string
	// Table is a Swiss or round robin stage's standings; Pools a pool
	// stage's, pool by pool.
	Table standings.Table
	Pools []Pool
	// Matches are a knockout's matches, round by round (round 1 first).
	Matches [][]arbiter.Match
}

// Pool is one pool's standings.
type Pool struct {
	Name  string
	Table standings.Table
}

// Options say what the ranking knows of the entrants and how much to say.
type Options struct {
	// Removed reports an entrant removed by a sanction (nil: none).
	Removed func(id string) bool
	// Name gives an entrant's name (nil: names left empty).
	Name func(id string) string
	// Brief leaves How empty (the simulation ranks thousands of runs and
	// reads only the places).
	Brief bool
}

// Group is entrants that share a place unless Ordered (then their order in
// the group decides).
type Group struct {
	IDs     []string
	Ordered bool
	By, How []string // per entrant
	Stage   string
}

// Final is the final ranking of an event whose stages are given in order.
func Final(stages []Stage, o Options) []Placing {
	removed := o.Removed
	if removed == nil {
		removed = func(string) bool { return false }
	}
	placed := map[string]bool{}
	var groups []Group
	var last []string // removed entrants, the latest stage's first
	for si := len(stages) - 1; si >= 0; si-- {
		sg := &stages[si]
		prev := ""
		if si > 0 {
			prev = stages[si-1].Name
		}
		var gs []Group
		switch sg.Kind {
		case format.Knockout:
			gs = Knockout(sg, prev, 0, o.Brief)
		case format.Pool:
			gs = pools(sg, prev, o.Brief)
		default:
			gs = table(sg.Table, sg.Name, o.Brief)
		}
		for _, g := range gs {
			kept := Group{Ordered: g.Ordered, Stage: g.Stage}
			for i, id := range g.IDs {
				if placed[id] {
					continue
				}
				placed[id] = true
				if removed(id) {
					last = append(last, id)
					continue
				}
				kept.IDs, kept.By, kept.How = append(kept.IDs, id), append(kept.By, g.By[i]), append(kept.How, g.How[i])
			}
			if len(kept.IDs) > 0 {
				groups = append(groups, kept)
			}
		}
	}
	if len(last) > 0 {
		g := Group{IDs: last, Ordered: true}
		for range last {
			g.By, g.How = append(g.By, ByRemoved), append(g.How, words(o.Brief, "withdrew or was disqualified (removed by a sanction)"))
		}
		groups = append(groups, g)
	}
	out := make([]Placing, 0, len(placed))
	for _, g := range groups {
		first := len(out) + 1
		for i, id := range g.IDs {
			p := Placing{Rank: len(out) + 1, Entrant: id, Stage: g.Stage, DecidedBy: g.By[i], How: g.How[i]}
			if o.Name != nil {
				p.Name = o.Name(id)
			}
			if !g.Ordered && len(g.IDs) > 1 {
				p.Rank, p.Shared = first, true
			}
			if p.Stage == "" {
				p.Stage = lastStageOf(stages, id)
			}
			out = append(out, p)
		}
	}
	return out
}

func words(brief bool, s string) string {
	if brief {
		return ""
	}
	return s
}

// lastStageOf names the last stage an entrant was seeded into.
func lastStageOf(stages []Stage, id string) string {
	for si := len(stages) - 1; si > 0; si-- {
		if slices.Contains(stages[si].Seeds, id) {
			return stages[si].Name
		}
	}
	return stages[0].Name
}

// table turns a standings table into groups: entrants sharing a rank form
// one group.
func table(t standings.Table, stage string, brief bool) []Group {
	var out []Group
	for i := 0; i < len(t.Rows); {
		j := i
		for j+1 < len(t.Rows) && t.Rows[j+1].Rank == t.Rows[i].Rank {
			j++
		}
		g := Group{Ordered: j == i, Stage: stage}
		for _, r := range t.Rows[i : j+1] {
			g.IDs = append(g.IDs, r.ID)
			g.By = append(g.By, ByStandings)
			how := ""
			if !brief {
				how = fmt.Sprintf("place %d in the %s", r.Rank, stage)
			}
			g.How = append(g.How, how)
		}
		out = append(out, g)
		i = j + 1
	}
	return out
}

// pools ranks a pool stage: by the place in the pool, equal places across
// pools by the entrants' seeds in the stage (the previous stage's
// ranking), which is how the pools were filled.
func pools(sg *Stage, prevName string, brief bool) []Group {
	seed := seeds(sg.Seeds)
	type row struct {
		id, pool string
		place    int
	}
	var rows []row
	for _, p := range sg.Pools {
		for _, r := range p.Table.Rows {
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
	if prevName != "" {
		prev = "the " + prevName
	}
	g := Group{Ordered: true, Stage: sg.Name}
	for _, r := range rows {
		g.IDs = append(g.IDs, r.id)
		g.By = append(g.By, ByPool)
		how := ""
		if !brief {
			how = fmt.Sprintf("place %d in pool %s; equal places across pools by %s (seed %d)", r.place, r.pool, prev, seed[r.id])
		}
		g.How = append(g.How, how)
	}
	return []Group{g}
}

// seeds maps each entrant to its seed (1 first); an entrant not seeded
// has seed 0.
func seeds(ids []string) map[string]int {
	seed := make(map[string]int, len(ids))
	for i, id := range ids {
		seed[id] = i + 1
	}
	return seed
}

// Knockout ranks a knockout stage from its matches of rounds up to after
// (0: all): the final's winner and loser, the third-place match's, then
// the entrants out in each round, later rounds first, each group in seed
// order; entrants still in (a round not played yet) come first, sharing a
// place. prevName names the stage before it ("" when none).
func Knockout(sg *Stage, prevName string, after int, brief bool) []Group {
	seed := seeds(sg.Seeds)
	entrants := slices.Clone(sg.Seeds)
	left := slices.Sorted(maps.Keys(sg.MovedUp))
	for _, f := range left {
		if l := sg.MovedUp[f]; !slices.Contains(entrants, l) {
			entrants = append(entrants, l)
		}
	}
	outIn := map[string]int{} // the round an entrant lost in
	var final, third [2]string
	for i, rd := range sg.Matches {
		number := i + 1
		if after > 0 && number > after {
			break
		}
		for j := range rd {
			m := &rd[j]
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
				outIn[l] = number
			}
		}
	}
	done := map[string]bool{}
	var out []Group
	one := func(id, by, how string) {
		if id == "" || done[id] {
			return
		}
		done[id] = true
		out = append(out, Group{IDs: []string{id}, Ordered: true, By: []string{by}, How: []string{words(brief, how)}, Stage: sg.Name})
	}
	still := Group{Stage: sg.Name}
	for _, id := range entrants {
		if _, lost := outIn[id]; !lost && id != final[1] && id != third[0] && id != third[1] && id != final[0] {
			still.IDs = append(still.IDs, id)
			still.By, still.How = append(still.By, ByKnockoutRound), append(still.How, words(brief, "still in the knockout"))
		}
	}
	if final[0] != "" {
		still = Group{Stage: sg.Name}
	}
	if len(still.IDs) > 0 {
		still.Ordered = len(still.IDs) == 1
		for _, id := range still.IDs {
			done[id] = true
		}
		out = append(out, still)
	}
	one(final[0], ByFinal, "won the final")
	one(final[1], ByFinal, "lost the final")
	one(third[0], ByThirdPlace, "won the third-place match")
	one(third[1], ByThirdPlace, "lost the third-place match")
	prev := "the previous stage's ranking"
	if prevName != "" {
		prev = "the " + prevName
	}
	for r := sg.Rounds; r >= 1; r-- {
		g := Group{Ordered: true, Stage: sg.Name}
		for _, id := range entrants {
			if outIn[id] == r && !done[id] {
				g.IDs = append(g.IDs, id)
			}
		}
		slices.SortStableFunc(g.IDs, func(a, b string) int { return cmp.Compare(seed[a], seed[b]) })
		for _, id := range g.IDs {
			done[id] = true
			g.By = append(g.By, ByKnockoutRound)
			how := ""
			if !brief {
				how = "lost in " + RoundName(r, sg.Rounds)
				if len(g.IDs) > 1 {
					how += fmt.Sprintf("; ordered by %s (knockout seed %d)", prev, seed[id])
				}
			}
			g.How = append(g.How, how)
		}
		if len(g.IDs) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// RoundName names round r of a knockout of n rounds by how many entrants
// it has left: the final, the semifinals, the quarterfinals, then "the
// round of 16" and so on.
func RoundName(r, n int) string {
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
