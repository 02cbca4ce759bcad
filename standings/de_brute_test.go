package standings

import (
	"math/rand/v2"
	"slices"
	"testing"

	"arbiter"
	"github.com/google/go-cmp/cmp"
)

// bruteDE ranks a tied set by C.07 Art. 6 with the 6.3 condition checked by
// enumerating every outcome (1-0, ½-½, 0-1) of the missing games, as an
// independent check of the bounds used by miniTable.rank.
func bruteDE(set []int, pts map[[2]int]arbiter.Points) [][]int {
	if len(set) <= 1 {
		return [][]int{set}
	}
	var missing [][2]int
	for a := 0; a < len(set); a++ {
		for b := a + 1; b < len(set); b++ {
			if _, ok := pts[[2]int{set[a], set[b]}]; !ok {
				missing = append(missing, [2]int{set[a], set[b]})
			}
		}
	}
	score := func(p int, set []int, extra map[[2]int]arbiter.Points) arbiter.Points {
		var s arbiter.Points
		for _, q := range set {
			if v, ok := pts[[2]int{p, q}]; ok && q != p {
				s += v
			} else if v, ok := extra[[2]int{p, q}]; ok {
				s += v
			}
		}
		return s
	}
	if len(missing) == 0 {
		sc := map[int]arbiter.Points{}
		for _, p := range set {
			sc[p] = score(p, set, nil)
		}
		sorted := slices.Clone(set)
		slices.SortStableFunc(sorted, func(a, b int) int { return int(sc[b] - sc[a]) })
		var out [][]int
		for lo := 0; lo < len(sorted); {
			hi := lo + 1
			for hi < len(sorted) && sc[sorted[hi]] == sc[sorted[lo]] {
				hi++
			}
			if sub := sorted[lo:hi]; len(sub) > 1 && len(sub) < len(set) {
				out = append(out, bruteDE(sub, pts)...)
			} else {
				out = append(out, sub)
			}
			lo = hi
		}
		return out
	}
	// aloneOnTop reports whether p leads rest strictly for every outcome.
	aloneOnTop := func(p int, rest []int) bool {
		var miss [][2]int
		for _, m := range missing {
			if slices.Contains(rest, m[0]) && slices.Contains(rest, m[1]) {
				miss = append(miss, m)
			}
		}
		total := 1
		for range miss {
			total *= 3
		}
		for c := 0; c < total; c++ {
			extra := map[[2]int]arbiter.Points{}
			x := c
			for _, m := range miss {
				a := arbiter.Points(x%3) * 50
				x /= 3
				extra[m] = a
				extra[[2]int{m[1], m[0]}] = 100 - a
			}
			sp := score(p, rest, extra)
			for _, q := range rest {
				if q != p && score(q, rest, extra) >= sp {
					return false
				}
			}
		}
		return true
	}
	rest := slices.Clone(set)
	var out [][]int
	for len(rest) > 1 {
		top := -1
		for k, p := range rest {
			if aloneOnTop(p, rest) {
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
		return append(out, bruteDE(rest, pts)...)
	}
	return append(out, rest)
}

func TestDirectEncounterAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 3))
	split63 := 0 // incomplete groups that Art. 6.3 separated at least partly
	for trial := 0; trial < 1000; trial++ {
		g := 2 + rng.IntN(4)
		tbl := &miniTable{average: true, den: 1, win: 100, met: make([][]meeting, g), in: make([]bool, g)}
		pts := map[[2]int]arbiter.Points{}
		for a := 0; a < g; a++ {
			for b := a + 1; b < g; b++ {
				if rng.IntN(10) < 7 {
					r := arbiter.Points(rng.IntN(3)) * 50
					tbl.add(a, b, r)
					tbl.add(b, a, 100-r)
					pts[[2]int{a, b}], pts[[2]int{b, a}] = r, 100-r
				}
			}
		}
		all := make([]int, g)
		for p := range all {
			all[p] = p
		}
		got, want := tbl.rank(all), bruteDE(all, pts)
		// Compare the partitions as ordered lists of sets.
		norm := func(ps [][]int) [][]int {
			out := make([][]int, len(ps))
			for k, p := range ps {
				out[k] = slices.Sorted(slices.Values(p))
			}
			return out
		}
		if len(got) > 1 && len(pts) < g*(g-1) {
			split63++
		}
		if d := cmp.Diff(norm(want), norm(got)); d != "" {
			t.Fatalf("trial %d, results %v: (-enumeration +rank)\n%s", trial, pts, d)
		}
	}
	if split63 < 30 {
		t.Fatalf("only %d incomplete groups were separated: the cases do not exercise Art. 6.3", split63)
	}
}
