package standings

import (
	"slices"

	"arbiter"
)

// mutual describes a tiebreak computed inside the tied group only.
type mutual struct {
	basis    int
	average  bool // average the games of a pair that met more than once (C.07 6.1.2)
	forfeits bool // forfeits count as results between the two (6.1.1 exception)
}

// group splits the tied group grp (entrant indices) into ordered subgroups
// by a group tiebreak and writes each member's value into col. member is
// an all −1 scratch slice of length n, restored before returning.
func (s *state) group(tb Tiebreak, grp []int, col []val, member []int32) [][]int {
	for p, i := range grp {
		member[i] = int32(p)
	}
	defer func() {
		for _, i := range grp {
			member[i] = -1
		}
	}()
	if tb.ID == WinsVsTied {
		return s.winsVsTied(grp, col, member)
	}
	m := mutual{basis: bPrimary, forfeits: true}
	switch tb.ID {
	case DirectEncounter:
		// C.07 6.1.1: forfeits are excluded, except under pre-determined
		// pairings where they are regular games (15.2).
		m = mutual{basis: basis(tb), average: true, forfeits: s.opts.RoundRobin}
	case MutualGameScore:
		m.basis = bSecondary
	}
	g := len(grp)
	sum := make([]arbiter.Points, g*g)
	cnt := make([]int64, g*g)
	for p, i := range grp {
		for _, x := range s.rounds[i] {
			if x.opp < 0 || member[x.opp] < 0 || !(x.kind == kPlayed || m.forfeits && x.kind.hasOpponent()) {
				continue
			}
			q := int(member[x.opp])
			sum[p*g+q] += x.pts[m.basis]
			cnt[p*g+q]++
		}
	}
	// Common denominator so that averages stay integers.
	den := int64(1)
	if m.average {
		for _, c := range cnt {
			if c > 1 {
				den = lcm(den, c)
			}
		}
	}
	t := &miniTable{g: g, sum: sum, cnt: cnt, den: den, average: m.average, win: int64(s.win(m.basis)) * den}
	all := make([]int, g)
	for p := range all {
		all[p] = p
	}
	for p, i := range grp {
		col[i] = val{n: t.score(p, all) * 100, d: den}
	}
	var out [][]int
	for _, part := range t.rank(all) {
		ids := make([]int, len(part))
		for k, p := range part {
			ids[k] = grp[p]
		}
		out = append(out, ids)
	}
	return out
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// miniTable is the separate standings of a tied group (C.07 6.1).
type miniTable struct {
	g       int
	sum     []arbiter.Points
	cnt     []int64
	den     int64
	average bool
	win     int64 // most a missing game can add, in score units
}

// score is p's sum against the members of set, in hundredths × den.
func (t *miniTable) score(p int, set []int) int64 {
	var s int64
	for _, q := range set {
		if c := t.cnt[p*t.g+q]; q != p && c > 0 {
			if t.average {
				s += int64(t.sum[p*t.g+q]) * t.den / c
			} else {
				s += int64(t.sum[p*t.g+q])
			}
		}
	}
	return s
}

// missing counts the members of set p has not met.
func (t *miniTable) missing(p int, set []int) int64 {
	var m int64
	for _, q := range set {
		if q != p && t.cnt[p*t.g+q] == 0 {
			m++
		}
	}
	return m
}

// rank applies C.07 Art. 6.2 / 6.3 to set and returns its ordered partition.
func (t *miniTable) rank(set []int) [][]int {
	if len(set) <= 1 {
		return [][]int{set}
	}
	complete := true
	for _, p := range set {
		if t.missing(p, set) > 0 {
			complete = false
			break
		}
	}
	if complete { // 6.2: the separate standings rank everyone; reapply to smaller ties
		sc := make(map[int]int64, len(set))
		for _, p := range set {
			sc[p] = t.score(p, set)
		}
		sorted := slices.Clone(set)
		slices.SortStableFunc(sorted, func(a, b int) int { return cmpInt(sc[b], sc[a]) })
		var out [][]int
		for lo := 0; lo < len(sorted); {
			hi := lo + 1
			for hi < len(sorted) && sc[sorted[hi]] == sc[sorted[lo]] {
				hi++
			}
			sub := sorted[lo:hi]
			if len(sub) > 1 && len(sub) < len(set) {
				out = append(out, t.rank(sub)...)
			} else {
				out = append(out, sub)
			}
			lo = hi
		}
		return out
	}
	// 6.3: place a participant first only if it stays alone at the top
	// whatever the outcome of the missing games; then the next; and so on.
	rest := slices.Clone(set)
	var out [][]int
	for len(rest) > 1 {
		top := -1
		for k, p := range rest {
			low := t.score(p, rest) // P loses every missing game
			alone := true
			for _, q := range rest {
				if q != p && low <= t.score(q, rest)+t.missing(q, rest)*t.win {
					alone = false
					break
				}
			}
			if alone {
				top = k
				break
			}
		}
		if top < 0 {
			break
		}
		out = append(out, []int{rest[top]})
		rest = append(rest[:top], rest[top+1:]...)
	}
	if len(rest) > 1 && len(rest) < len(set) {
		return append(out, t.rank(rest)...) // reapply Art. 6 to the remaining
	}
	return append(out, rest)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// winsVsTied counts match wins against members of the tied group (ACWC W7)
// and splits the group by that count.
func (s *state) winsVsTied(grp []int, col []val, member []int32) [][]int {
	c := make(map[int]int, len(grp))
	for _, i := range grp {
		for _, x := range s.rounds[i] {
			if x.opp >= 0 && member[x.opp] >= 0 && x.kind.hasOpponent() && x.pts[bPrimary] >= s.sc.Win {
				c[i]++
			}
		}
		col[i] = count(c[i])
	}
	sorted := slices.Clone(grp)
	slices.SortStableFunc(sorted, func(a, b int) int { return c[b] - c[a] })
	var out [][]int
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && c[sorted[hi]] == c[sorted[lo]] {
			hi++
		}
		out = append(out, sorted[lo:hi])
		lo = hi
	}
	return out
}
