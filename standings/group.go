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
	case DirectEncounter, ExtendedDirectEncounter:
		// C.07 6.1.1: forfeits are excluded, except under pre-determined
		// pairings where they are regular games (15.2).
		m = mutual{basis: basis(tb), average: true, forfeits: s.opts.RoundRobin}
	case MutualGameScore:
		m.basis = bSecondary
	}
	g := len(grp)
	t := s.mini(grp, member, m)
	all := make([]int, g)
	for p := range all {
		all[p] = p
	}
	t.mark(all, true)
	for p, i := range grp {
		sc, _ := t.score(p)
		col[i] = val{n: sc * 100, d: t.den}
	}
	t.mark(all, false)
	var parts [][]int
	if tb.ID == ExtendedDirectEncounter {
		m.basis = bSecondary
		parts = ede(t, s.mini(grp, member, m), all)
	} else {
		parts = t.rank(all)
	}
	var out [][]int
	for _, part := range parts {
		ids := make([]int, len(part))
		for k, p := range part {
			ids[k] = grp[p]
		}
		out = append(out, ids)
	}
	return out
}

// mini builds the mini table of grp (positions as in grp) for m.
func (s *state) mini(grp []int, member []int32, m mutual) *miniTable {
	g := len(grp)
	t := &miniTable{average: m.average, den: 1, met: make([][]meeting, g), in: make([]bool, g)}
	for p, i := range grp {
		for _, x := range s.rounds[i] {
			if x.opp < 0 || member[x.opp] < 0 || !(x.kind == kPlayed || m.forfeits && x.kind.hasOpponent()) {
				continue
			}
			t.add(p, int(member[x.opp]), x.pts[m.basis])
		}
	}
	// Common denominator so that averages stay integers.
	if m.average {
		for _, ms := range t.met {
			for _, e := range ms {
				if e.cnt > 1 {
					t.den = lcm(t.den, e.cnt)
				}
			}
		}
	}
	t.win = int64(s.win(m.basis)) * t.den
	return t
}

// ede is the extended direct encounter of C.07 13.3.1: direct encounter on
// the primary score, then on the secondary score for the entrants still
// tied, restarting with the primary score on every smaller subset.
func ede(primary, secondary *miniTable, set []int) [][]int {
	var out [][]int
	for _, part := range primary.rank(set) {
		if len(part) == 1 {
			out = append(out, part)
			continue
		}
		for _, sub := range secondary.rank(part) {
			if len(sub) > 1 && len(sub) < len(part) {
				out = append(out, ede(primary, secondary, sub)...)
			} else {
				out = append(out, sub)
			}
		}
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

// meeting is what one member scored against another member (summed over
// their games).
type meeting struct {
	q   int
	sum arbiter.Points
	cnt int64
}

// miniTable is the separate standings of a tied group (C.07 6.1), kept
// sparse: each member lists only the members it met, so a large tied
// group of a big Swiss costs O(members × rounds), not O(members²).
type miniTable struct {
	met     [][]meeting
	in      []bool // membership of the set being ranked
	den     int64
	average bool
	win     int64 // most a missing game can add, in score units
}

func (t *miniTable) add(p, q int, pts arbiter.Points) {
	for k := range t.met[p] {
		if t.met[p][k].q == q {
			t.met[p][k].sum += pts
			t.met[p][k].cnt++
			return
		}
	}
	t.met[p] = append(t.met[p], meeting{q: q, sum: pts, cnt: 1})
}

func (t *miniTable) mark(set []int, v bool) {
	for _, p := range set {
		t.in[p] = v
	}
}

// score is p's sum against the members of the marked set (in hundredths ×
// den) and the number of them p met.
func (t *miniTable) score(p int) (int64, int) {
	var s int64
	n := 0
	for _, e := range t.met[p] {
		if !t.in[e.q] || e.q == p {
			continue
		}
		n++
		if t.average {
			s += int64(e.sum) * t.den / e.cnt
		} else {
			s += int64(e.sum)
		}
	}
	return s, n
}

// rank applies C.07 Art. 6.2 / 6.3 to set and returns its ordered partition.
func (t *miniTable) rank(set []int) [][]int {
	if len(set) <= 1 {
		return [][]int{set}
	}
	t.mark(set, true)
	sc := make(map[int]int64, len(set))
	complete := true
	for _, p := range set {
		v, n := t.score(p)
		sc[p] = v
		if n < len(set)-1 {
			complete = false
		}
	}
	t.mark(set, false)
	if complete { // 6.2: the separate standings rank everyone; reapply to smaller ties
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
	// whatever the outcome of the missing games (its own missing games
	// lost, every other's won); then the next; and so on.
	rest := slices.Clone(set)
	var out [][]int
	for len(rest) > 1 {
		t.mark(rest, true)
		low := make([]int64, len(rest))  // score with every missing game lost
		high := make([]int64, len(rest)) // score with every missing game won
		for k, p := range rest {
			v, n := t.score(p)
			low[k], high[k] = v, v+int64(len(rest)-1-n)*t.win
		}
		t.mark(rest, false)
		// The best and second best high bounds give max over q != p.
		first, second := -1, -1
		for k := range rest {
			switch {
			case first < 0 || high[k] > high[first]:
				first, second = k, first
			case second < 0 || high[k] > high[second]:
				second = k
			}
		}
		top := -1
		for k := range rest {
			other := first
			if k == first {
				other = second
			}
			if low[k] > high[other] {
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
