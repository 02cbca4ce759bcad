package odds

import (
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing/berger"
	"arbiter/standings"
)

// group is one ranking the places are taken from: a stage or a pool.
type group struct {
	p       *plan
	ids     []string // plan indexes below are into ids
	entrant []int    // plan index of each
	score   []arbiter.Points
	active  []bool // not removed: plays and competes for the places
	pairs   [][2]int
	multi   [][2]int // known matches of entrants who have several
	free    int      // rounds not paired yet (Swiss)
	places  int
	mp      format.MatchPoints
	// table is the final standings when nothing remains to be played.
	table *standings.Table
}

// group builds the check's view of a stage (pool "" ) or a pool: the
// match points so far, the known matches still open (results fixed by
// hand, or in extra, counted as played), the rounds still to pair.
func (p *plan) group(ids []string, pool string, places int, extra map[string]string, known [][]arbiter.Match) *group {
	fs := &p.f.Stages[p.cur]
	st := p.ev.Stages[p.cur]
	g := &group{p: p, ids: ids, places: places, mp: fs.Match.MatchPoints}
	at := map[string]int{}
	for i, id := range ids {
		at[id] = i
		g.entrant = append(g.entrant, p.idx[id])
		g.score = append(g.score, 0)
		g.active = append(g.active, !p.removed[p.idx[id]])
	}
	var open [][2]int
	add := func(m *arbiter.Match, known bool) {
		if m.Pool != pool {
			return
		}
		h, okh := at[m.Home]
		if !okh {
			return
		}
		a, oka := at[m.Away]
		if m.Status == arbiter.MatchFinal {
			if m.Result != nil {
				g.score[h] += m.Result.Home.MatchPoints
				if oka {
					g.score[a] += m.Result.Away.MatchPoints
				}
			}
			return
		}
		if m.IsBye() || !oka {
			return
		}
		res := ""
		if known {
			res = extra[m.ID]
			if res == "" {
				res = p.fixedMatch[m.ID]
			}
		}
		if res == "" {
			res = p.fixedPair[[2]string{m.Home, m.Away}]
		}
		switch {
		case !g.active[h] && !g.active[a]:
		case !g.active[h]:
			res = AwayWins // a removed entrant's match goes to the opponent
		case !g.active[a]:
			res = HomeWins
		}
		switch res {
		case HomeWins:
			g.score[h] += g.mp.Win
			g.score[a] += g.mp.Loss
		case AwayWins:
			g.score[h] += g.mp.Loss
			g.score[a] += g.mp.Win
		case Drawn:
			g.score[h] += g.mp.Draw
			g.score[a] += g.mp.Draw
		default:
			open = append(open, [2]int{h, a})
		}
	}
	for _, rd := range known {
		for i := range rd {
			add(&rd[i], true)
		}
	}
	rest := st.Rounds - len(known)
	if st.Kind == format.RoundRobin || st.Kind == format.Pool {
		// The schedule names every pair still to meet.
		for n := len(known) + 1; n <= st.Rounds; n++ {
			ms, err := berger.RoundMatches(ids, max(1, fs.Cycles), n, pool)
			if err != nil {
				break
			}
			for i := range ms {
				add(&ms[i], false)
			}
		}
		rest = 0
	}
	g.free = max(0, rest)
	count := make([]int, len(ids))
	for _, o := range open {
		count[o[0]]++
		count[o[1]]++
	}
	for _, o := range open {
		if count[o[0]] == 1 && count[o[1]] == 1 {
			g.pairs = append(g.pairs, o)
		} else {
			g.multi = append(g.multi, o)
		}
	}
	if len(open) == 0 && g.free == 0 {
		if t, err := stageTable(p, p.ev.Stages, p.cur, ids, p.played, pool); err == nil {
			g.table = &t
		}
	}
	return g
}

// decide writes each member's verdict on the group's places into out (by
// plan index), for the members in only (all when nil).
func (g *group) decide(out []string, only []bool) {
	if g.table != nil {
		g.fromTable(out)
		return
	}
	enumerate := g.free == 0 && len(g.multi) > 0 && len(g.pairs)+len(g.multi) <= enumerateMax
	var canMake, canMiss []bool
	if enumerate {
		canMake, canMiss = g.enumerate()
	}
	for x := range g.ids {
		e := g.entrant[x]
		if only != nil && !only[e] || !g.active[x] {
			continue
		}
		switch {
		case enumerate && !canMiss[x], !enumerate && g.clinched(x):
			out[e] = Clinched
		case enumerate && !canMake[x], !enumerate && g.eliminated(x):
			out[e] = Eliminated
		}
	}
}

// fromTable reads a complete stage's standings: the top places without
// the removed entrants, a tie across the cut left open.
func (g *group) fromTable(out []string) {
	var rows []standings.Row
	for _, r := range g.table.Rows {
		if i, ok := g.p.idx[r.ID]; ok && !g.p.removed[i] {
			rows = append(rows, r)
		}
	}
	for k, r := range rows {
		e := g.p.idx[r.ID]
		tiedAcross := false
		for j, o := range rows {
			if o.Rank == r.Rank && (k < g.places) != (j < g.places) {
				tiedAcross = true
			}
		}
		switch {
		case tiedAcross:
		case k < g.places:
			out[e] = Clinched
		default:
			out[e] = Eliminated
		}
	}
}

// enumerate tries every combination of the open known matches' results
// (no rounds left to pair): can each member still make the places (with
// the ties in its favour), and can it still miss them (ties against it)?
func (g *group) enumerate() (canMake, canMiss []bool) {
	open := append(slices.Clone(g.pairs), g.multi...)
	n := len(g.ids)
	canMake, canMiss = make([]bool, n), make([]bool, n)
	sc := make([]arbiter.Points, n)
	combos := 1
	for range open {
		combos *= 3
	}
	mp := g.mp
	for c := range combos {
		copy(sc, g.score)
		k := c
		for _, o := range open {
			switch k % 3 {
			case 0:
				sc[o[0]] += mp.Win
				sc[o[1]] += mp.Loss
			case 1:
				sc[o[0]] += mp.Draw
				sc[o[1]] += mp.Draw
			default:
				sc[o[0]] += mp.Loss
				sc[o[1]] += mp.Win
			}
			k /= 3
		}
		for x := range n {
			if !g.active[x] {
				continue
			}
			ahead, level := 0, 0
			for y := range n {
				switch {
				case y == x || !g.active[y]:
				case sc[y] > sc[x]:
					ahead++
				case sc[y] == sc[x]:
					level++
				}
			}
			if ahead < g.places {
				canMake[x] = true
			}
			if ahead+level >= g.places {
				canMiss[x] = true
			}
		}
	}
	return canMake, canMiss
}
