package odds

import (
	"slices"

	"arbiter"
)

// The check of a stage's places on match points (see exact.go): the
// relaxation for rounds not paired yet, a dynamic programme over the
// known pairs.

// conserved reports whether every played match gives the same total of
// match points (win + loss = two draws), which the pool relaxation needs.
func (g *group) conserved() bool {
	return g.mp.Win+g.mp.Loss == 2*g.mp.Draw && g.mp.Win >= g.mp.Draw && g.mp.Draw >= g.mp.Loss
}

// base is each member's match points before the open matches and the
// free rounds, each open match and free round giving the loss's points
// (the rest, win minus loss, is what the check distributes), and how many
// of the multi matches and free rounds each plays (its share of the pool).
func (g *group) base() (sc []arbiter.Points, pool []int, active int) {
	sc = slices.Clone(g.score)
	pool = make([]int, len(g.ids))
	for x := range g.ids {
		if g.active[x] {
			active++
			sc[x] += arbiter.Points(g.free) * g.mp.Loss
			pool[x] = g.free
		}
	}
	for _, o := range append(slices.Clone(g.pairs), g.multi...) {
		sc[o[0]] += g.mp.Loss
		sc[o[1]] += g.mp.Loss
	}
	for _, o := range g.multi {
		pool[o[0]]++
		pool[o[1]]++
	}
	return sc, pool, active
}

// clinched: x loses every match left; can g.places others finish level
// with x or ahead?
func (g *group) clinched(x int) bool {
	e := g.mp.Win - g.mp.Loss
	sc, pool, active := g.base()
	if !g.conserved() {
		t := sc[x]
		n := 0
		for y := range g.ids {
			if y != x && g.active[y] && sc[y]+arbiter.Points(g.matches(y))*e >= t {
				n++
			}
		}
		return n < g.places
	}
	// x's opponents in known matches win them.
	for _, o := range append(slices.Clone(g.pairs), g.multi...) {
		switch x {
		case o[0]:
			sc[o[1]] += e
		case o[1]:
			sc[o[0]] += e
		}
	}
	t := sc[x]
	// The pool: every free round's points but x's (x loses), every multi
	// match not x's.
	total := arbiter.Points(g.free*((active+1)/2)) * e
	for _, o := range g.multi {
		if o[0] != x && o[1] != x {
			total += e
		}
	}
	capOf := func(y int) arbiter.Points {
		c := arbiter.Points(pool[y]) * e
		for _, o := range g.multi {
			if o[0] == x && o[1] == y || o[1] == x && o[0] == y {
				c -= e // already won above
			}
		}
		return c
	}
	// need is what y must draw from the pool to reach t after a gain of
	// a in its known match; -1 when it cannot.
	need := func(y int, a arbiter.Points) arbiter.Points {
		n := max(0, t-sc[y]-a)
		if n > capOf(y) {
			return -1
		}
		return n
	}
	dp := []arbiter.Points{0} // dp[c]: the least pool spent to raise c others
	inPair := make([]bool, len(g.ids))
	for _, o := range g.pairs {
		inPair[o[0]], inPair[o[1]] = true, true
		if o[0] == x || o[1] == x {
			continue
		}
		dp = mergeBest(dp, pairOptions(o, e, g.active, need))
	}
	for y := range g.ids {
		if y == x || !g.active[y] || inPair[y] && !pairedWith(g.pairs, y, x) {
			continue
		}
		opt := []arbiter.Points{0, -1}
		if n := need(y, 0); n >= 0 {
			opt[1] = n
		}
		dp = mergeBest(dp, opt)
	}
	raised := 0
	for c, v := range dp {
		if v >= 0 && v <= total {
			raised = c
		}
	}
	return raised < g.places
}

// eliminated: x wins every match left; must g.places others finish
// strictly ahead of x?
func (g *group) eliminated(x int) bool {
	e := g.mp.Win - g.mp.Loss
	sc, _, active := g.base()
	others := 0
	for y := range g.ids {
		if y != x && g.active[y] {
			others++
		}
	}
	if !g.conserved() {
		sc[x] += arbiter.Points(g.matches(x)) * e
		n := 0
		for y := range g.ids {
			if y != x && g.active[y] && sc[y] > sc[x] {
				n++
			}
		}
		return n >= g.places
	}
	sc[x] += arbiter.Points(g.free) * e // a win or the bye every free round
	for _, o := range append(slices.Clone(g.pairs), g.multi...) {
		if o[0] == x || o[1] == x {
			sc[x] += e // x wins; the opponent keeps the loss's points
		}
	}
	t := sc[x]
	// The pool the others must share: the free rounds' points but x's,
	// the multi matches not x's.
	total := arbiter.Points(g.free*((active+1)/2-1)) * e
	capOf := func(y int) arbiter.Points { return arbiter.Points(g.free) * e }
	multiOf := make([]int, len(g.ids))
	for _, o := range g.multi {
		if o[0] != x && o[1] != x {
			total += e
			multiOf[o[0]]++
			multiOf[o[1]]++
		}
	}
	var budget arbiter.Points = -total
	for y := range g.ids {
		if y != x && g.active[y] {
			budget += capOf(y) + arbiter.Points(multiOf[y])*e
		}
	}
	if budget < 0 {
		return false // cannot happen for a consistent state; claim nothing
	}
	// cost is the pool capacity y loses by staying at or below t after a
	// gain of a in its known match; -1 when it cannot stay there.
	cost := func(y int, a arbiter.Points) arbiter.Points {
		room := t - sc[y] - a
		if room < 0 {
			return -1
		}
		c := capOf(y) + arbiter.Points(multiOf[y])*e
		return c - min(room, c)
	}
	dp := []arbiter.Points{0} // dp[c]: the least capacity lost keeping c others down
	inPair := make([]bool, len(g.ids))
	for _, o := range g.pairs {
		inPair[o[0]], inPair[o[1]] = true, true
		if o[0] == x || o[1] == x {
			continue
		}
		dp = mergeBest(dp, pairOptions(o, e, g.active, cost))
	}
	for y := range g.ids {
		if y == x || !g.active[y] || inPair[y] && !pairedWith(g.pairs, y, x) {
			continue
		}
		opt := []arbiter.Points{0, -1}
		if c := cost(y, 0); c >= 0 {
			opt[1] = c
		}
		dp = mergeBest(dp, opt)
	}
	kept := 0
	for c, v := range dp {
		if v >= 0 && v <= budget {
			kept = c
		}
	}
	return others-kept >= g.places
}

// matches counts y's open known matches and free rounds.
func (g *group) matches(y int) int {
	n := g.free
	for _, o := range append(slices.Clone(g.pairs), g.multi...) {
		if o[0] == y || o[1] == y {
			n++
		}
	}
	return n
}

func pairedWith(pairs [][2]int, y, x int) bool {
	for _, o := range pairs {
		if o[0] == y && o[1] == x || o[1] == y && o[0] == x {
			return true
		}
	}
	return false
}

// pairOptions are a known match's best costs for 0, 1 and 2 of its sides
// counted (raised, or kept down), over the three ways its points split;
// -1 marks the impossible. cost(y, a) is y's cost after a gain of a.
func pairOptions(o [2]int, e arbiter.Points, active []bool, cost func(int, arbiter.Points) arbiter.Points) []arbiter.Points {
	best := []arbiter.Points{0, -1, -1}
	better := func(c int, v arbiter.Points) {
		if best[c] < 0 || v < best[c] {
			best[c] = v
		}
	}
	for _, split := range [][2]arbiter.Points{{e, 0}, {e / 2, e / 2}, {0, e}} {
		ca, cb := arbiter.Points(-1), arbiter.Points(-1)
		if active[o[0]] {
			ca = cost(o[0], split[0])
		}
		if active[o[1]] {
			cb = cost(o[1], split[1])
		}
		if ca >= 0 {
			better(1, ca)
		}
		if cb >= 0 {
			better(1, cb)
		}
		if ca >= 0 && cb >= 0 {
			better(2, ca+cb)
		}
	}
	return best
}

// mergeBest combines two "least cost for c" tables (-1: impossible).
func mergeBest(a, b []arbiter.Points) []arbiter.Points {
	out := make([]arbiter.Points, len(a)+len(b)-1)
	for i := range out {
		out[i] = -1
	}
	for i, x := range a {
		if x < 0 {
			continue
		}
		for j, y := range b {
			if y < 0 {
				continue
			}
			if v := x + y; out[i+j] < 0 || v < out[i+j] {
				out[i+j] = v
			}
		}
	}
	return out
}
