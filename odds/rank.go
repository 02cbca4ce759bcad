package odds

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/ranking"
)

// The final place across stages follows the event's final ranking
// (package ranking, as app.Service.Ranking): the last stage's ranking
// first, then each earlier stage's entrants who went no further, the
// entrants removed by a sanction last; entrants the standings leave tied
// share a place. The order a stage sends entrants on in (r.order, r.pools)
// is the standings' with ties drawn by lot, as the TDs would.

// rankStage ranks stage s once it is played: r.order[s], for a pool stage
// r.pools[s] (each pool best first), and r.rank[s] for the final ranking.
// Ties the tiebreaks leave are drawn by lot.
func (r *run) rankStage(s int) error {
	p := r.p
	ids := p.stageIDs(s, r.stages[s].Seeds)
	order, pools, rs, err := stageOrder(p, r.stages, s, ids, r.rounds[s], r.rng)
	if err != nil {
		return err
	}
	r.order[s], r.pools[s], r.rank[s] = order, pools, rs
	return nil
}

// stageOrder ranks a played stage; rng draws the lots between entrants
// the tiebreaks leave tied (nil keeps the standings' own order: seed).
// It also returns the stage as the final ranking reads it.
func stageOrder(p *plan, stages []arbiter.Stage, s int, ids []string, rounds [][]arbiter.Match, rng *rand.Rand) ([]string, [][]string, ranking.Stage, error) {
	st := &stages[s]
	rs := ranking.Stage{Name: st.Name, Kind: st.Kind, Rounds: st.Rounds, Seeds: ids, MovedUp: st.MovedUp}
	switch st.Kind {
	case format.Knockout:
		rs.Matches = rounds
		return knockoutOrder(ids, rounds), nil, rs, nil
	case format.Pool:
		seed := map[string]int{}
		for i, id := range ids {
			seed[id] = i
		}
		var pools [][]string
		for _, pool := range st.Pools {
			t, err := stageTable(p, stages, s, ids, rounds, pool.Name)
			if err != nil {
				return nil, nil, rs, err
			}
			pools = append(pools, lots(t, rng))
			rs.Pools = append(rs.Pools, ranking.Pool{Name: pool.Name, Table: t})
		}
		var order []string
		for place := 0; ; place++ {
			var at []string
			for _, pl := range pools {
				if place < len(pl) {
					at = append(at, pl[place])
				}
			}
			if len(at) == 0 {
				break
			}
			slices.SortFunc(at, func(a, b string) int { return seed[a] - seed[b] })
			order = append(order, at...)
		}
		return order, pools, rs, nil
	}
	t, err := stageTable(p, stages, s, ids, rounds, "")
	if err != nil {
		return nil, nil, rs, err
	}
	rs.Table = t
	return lots(t, rng), nil, rs, nil
}

// knockoutOrder ranks a knockout from its matches.
func knockoutOrder(ids []string, rounds [][]arbiter.Match) []string {
	seed := map[string]int{}
	for i, id := range ids {
		seed[id] = i
	}
	out := make([]string, 0, len(ids))
	lostIn := map[string]int{}
	var top []string // champion, runner-up, third, fourth when known
	var champion, runnerUp, third, fourth string
	for _, rd := range rounds {
		for i := range rd {
			m := &rd[i]
			if m.IsBye() {
				if m.Format == "third_place" {
					third = m.Home // W17: the other semifinal loser moved up
				}
				continue
			}
			if m.Result == nil {
				continue
			}
			w, l := m.Home, m.Away
			switch m.Result.Result {
			case "home_win":
			case "away_win":
				w, l = l, w
			default:
				continue
			}
			switch m.Format {
			case "final":
				champion, runnerUp = w, l
			case "third_place":
				third, fourth = w, l
			default:
				lostIn[l] = m.Round
			}
		}
	}
	for _, id := range []string{champion, runnerUp, third, fourth} {
		if id != "" {
			top = append(top, id)
		}
	}
	out = append(out, top...)
	var rest []string
	for _, id := range ids {
		if !slices.Contains(top, id) {
			rest = append(rest, id)
		}
	}
	const notOut = 1 << 30 // still in: ahead of those who lost
	slices.SortStableFunc(rest, func(a, b string) int {
		la, lb := lostIn[a], lostIn[b]
		if la == 0 {
			la = notOut
		}
		if lb == 0 {
			lb = notOut
		}
		if c := cmp.Compare(lb, la); c != 0 {
			return c
		}
		return seed[a] - seed[b]
	})
	return append(out, rest...)
}

// places writes each entrant's final place (1 = first, shared when the
// standings leave entrants tied) into out (by plan index), by the event's
// final ranking (package ranking); an entrant it does not place (none
// should be) comes after every placed one.
func (r *run) places(out []int32) {
	clear(out)
	pl := ranking.Final(r.rank, ranking.Options{Removed: r.gone, Brief: true})
	next := int32(1)
	for _, x := range pl {
		if i, ok := r.p.idx[x.Entrant]; ok && out[i] == 0 {
			out[i] = int32(x.Rank)
			next = max(next, int32(x.Rank)+1)
		}
	}
	for i := range out {
		if out[i] == 0 {
			out[i] = next
			next++
		}
	}
}
