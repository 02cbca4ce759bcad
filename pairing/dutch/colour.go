package dutch

import (
	"sort"

	"arbiter/pairing"
)

// lastDifference walks both played-colour histories backwards and returns the
// colours of the most recent round in which they differed (C.04.3 5.2.3).
func lastDifference(a, b *player) (pairing.Colour, pairing.Colour) {
	i, j := len(a.games)-1, len(b.games)-1
	skip := func(gs []pairing.Game, k int) int {
		for k >= 0 && !gs[k].Played {
			k--
		}
		return k
	}
	i, j = skip(a.games, i), skip(b.games, j)
	for i >= 0 && j >= 0 && a.games[i].Colour == b.games[j].Colour {
		i, j = skip(a.games, i-1), skip(b.games, j-1)
	}
	ca, cb := pairing.NoColour, pairing.NoColour
	if i >= 0 {
		ca = a.games[i].Colour
	}
	if j >= 0 {
		cb = b.games[j].Colour
	}
	return ca, cb
}

// neutralColour applies 5.2.1-5.2.3 and returns p's colour, or NoColour when
// those rules do not decide.
func neutralColour(p, o *player) pairing.Colour {
	switch {
	case compatiblePrefs(p.pref, o.pref):
		if p.pref != pairing.NoColour {
			return p.pref
		}
		return o.pref.Invert()
	case p.absolutePref() && (p.imbalance > o.imbalance || !o.absolutePref()):
		return p.pref
	case o.absolutePref() && (o.imbalance > p.imbalance || !p.absolutePref()):
		return o.pref.Invert()
	case p.strong && !o.strong:
		return p.pref
	case o.strong && !p.strong:
		return o.pref.Invert()
	}
	cp, co := lastDifference(p, o)
	if cp != pairing.NoColour && co != pairing.NoColour {
		return co
	}
	return pairing.NoColour
}

// ranksBelow reports whether p is ranked below o (accelerated score, then rank).
func (e *engine) ranksBelow(p, o *player) bool {
	sp, so := e.accScore(p, 0), e.accScore(o, 0)
	if sp != so {
		return sp < so
	}
	return p.rank > o.rank
}

// colourFor returns p's colour against o: 5.2.1-5.2.3, then the higher
// ranked player's preference (5.2.4), then the initial colour by rank parity
// (5.2.5).
func (e *engine) colourFor(p, o *player) pairing.Colour {
	if c := neutralColour(p, o); c != pairing.NoColour {
		return c
	}
	init := e.t.InitialColour
	if p.pref == pairing.NoColour {
		if e.ranksBelow(p, o) {
			if o.rank&1 == 1 {
				return init
			}
			return init.Invert()
		}
		if p.rank&1 == 1 {
			return init.Invert()
		}
		return init
	}
	if e.ranksBelow(p, o) {
		return o.pref.Invert()
	}
	return p.pref
}

// sortBoards orders boards for publication: by the unaccelerated score of the
// higher player, then of the lower player (both descending), then by the
// higher player's rank; the bye last.
func (e *engine) sortBoards(pairs []pairing.Pair) {
	type key struct {
		bye            bool
		hiScore, loScr int64
		hiRank         int
	}
	keys := make([]key, len(pairs))
	for i, pr := range pairs {
		if pr.Black < 0 {
			keys[i] = key{bye: true, hiRank: e.byIdx[pr.White].rank}
			continue
		}
		a, b := e.byIdx[pr.White], e.byIdx[pr.Black]
		// Higher by unaccelerated score, then rank.
		if a.score < b.score || (a.score == b.score && a.rank > b.rank) {
			a, b = b, a
		}
		keys[i] = key{hiScore: int64(a.score), loScr: int64(b.score), hiRank: a.rank}
	}
	idx := make([]int, len(pairs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := keys[idx[x]], keys[idx[y]]
		if a.bye != b.bye {
			return !a.bye
		}
		if a.hiScore != b.hiScore {
			return a.hiScore > b.hiScore
		}
		if a.loScr != b.loScr {
			return a.loScr > b.loScr
		}
		return a.hiRank < b.hiRank
	})
	out := make([]pairing.Pair, len(pairs))
	for i, k := range idx {
		out[i] = pairs[k]
	}
	copy(pairs, out)
}
