package odds

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"arbiter"
	"arbiter/format"
)

// The final place across stages: the last stage's ranking first, then
// each earlier stage's entrants who went no further, in that stage's
// order, and the entrants removed by a sanction last. A knockout ranks its champion, the runner-up, the third-place
// match's winner and loser, then the others by the round they lost in
// (later first) and their seed; a pool stage ranks its pool winners, then
// the runners-up, and so on, each place by seed; a Swiss or round robin
// by its standings.

// rankStage ranks stage s once it is played: r.order[s], and for a pool
// stage r.pools[s] (each pool best first). Ties the tiebreaks leave are
// drawn by lot.
func (r *run) rankStage(s int) error {
	p := r.p
	ids := p.stageIDs(s, r.stages[s].Seeds)
	order, pools, err := stageOrder(p, r.stages, s, ids, r.rounds[s], r.rng)
	if err != nil {
		return err
	}
	r.order[s], r.pools[s] = order, pools
	return nil
}

// stageOrder ranks a played stage; rng draws the lots between entrants
// the tiebreaks leave tied (nil keeps the standings' own order: seed).
func stageOrder(p *plan, stages []arbiter.Stage, s int, ids []string, rounds [][]arbiter.Match, rng *rand.Rand) ([]string, [][]string, error) {
	switch stages[s].Kind {
	case format.Knockout:
		return knockoutOrder(ids, rounds), nil, nil
	case format.Pool:
		seed := map[string]int{}
		for i, id := range ids {
			seed[id] = i
		}
		var pools [][]string
		for _, pool := range stages[s].Pools {
			t, err := stageTable(p, stages, s, ids, rounds, pool.Name)
			if err != nil {
				return nil, nil, err
			}
			pools = append(pools, lots(t, rng))
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
		return order, pools, nil
	}
	t, err := stageTable(p, stages, s, ids, rounds, "")
	if err != nil {
		return nil, nil, err
	}
	return lots(t, rng), nil, nil
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

// places writes each entrant's final place (1 = first) into out (by plan
// index) from the stages' rankings; entrants removed by a sanction come
// last, the latest stage's first (as app.Ranking orders them).
func (r *run) places(out []int32) {
	clear(out)
	next := int32(1)
	var removed []int
	seen := make([]bool, len(out))
	for s := len(r.order) - 1; s >= 0; s-- {
		for _, id := range r.order[s] {
			i, ok := r.p.idx[id]
			if !ok || seen[i] {
				continue
			}
			seen[i] = true
			if r.p.removed[i] {
				removed = append(removed, i)
				continue
			}
			out[i] = next
			next++
		}
	}
	for _, i := range removed {
		out[i] = next
		next++
	}
	for i := range out {
		if out[i] == 0 {
			out[i] = next
			next++
		}
	}
}
