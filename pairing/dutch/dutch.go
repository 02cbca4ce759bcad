// Package dutch implements the FIDE Dutch Swiss pairing system (C.04.3, rules
// in force from 1 February 2026) so that its pairings agree exactly with the
// reference engine bbpPairings 6 (--dutch).
//
// The round is paired as a sequence of maximum-weight matchings over the
// players still to pair. Every criterion of C.04.3 Art. 2 becomes a field of
// a wide integer edge weight; brackets are processed top-down, and inside a
// bracket the choices the rules leave to the generation order (which MDPs,
// which exchanges, which opponent) are fixed one at a time by re-weighting a
// few edges and re-solving. See docs/pairing.md.
package dutch

import (
	"errors"
	"slices"
	"sort"

	"arbiter"
	"arbiter/pairing"
	"arbiter/pairing/matching"
)

// ErrNoPairing is returned when no pairing satisfies the absolute criteria.
var ErrNoPairing = errors.New("no valid pairing exists")

// Pair computes the pairing of round t.PlayedRounds+1. Boards are returned in
// publication order (score of the higher player, score of the lower player,
// rank of the higher player; the PAB last, as a pair with Black == -1).
func Pair(t *pairing.Tournament) ([]pairing.Pair, error) {
	if pairs, why, err := pairLocal(t); why == "" {
		return pairs, err
	}
	return pairGlobal(t)
}

// pairGlobal pairs with one matching over all remaining players.
func pairGlobal(t *pairing.Tournament) ([]pairing.Pair, error) {
	s := newState(t)
	e := &engine{state: s}
	return e.run()
}

func newState(t *pairing.Tournament) *state {
	s := &state{t: t, played: t.PlayedRounds, byIdx: make([]*player, len(t.Players))}
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Players[order[a]].ID < t.Players[order[b]].ID })
	for rank, i := range order {
		tp := &t.Players[i]
		p := &player{idx: i, id: tp.ID, rank: rank, score: tp.Score, games: tp.Games, acc: tp.Accelerations}
		p.computeColours()
		s.byIdx[i] = p
	}
	return s
}

type engine struct {
	*state
	sorted []*player
	forb   [][]int32  // by Players index: the players each may not meet, ascending
	crow   *compatRow // made from forb by the first bracket that needs it
	lay    layout
	g      *matching.Incremental // globalInit's matching
	gr     graph
	local  bool // bracket-local matching (see local.go)
	thresh arbiter.Points
}

func (e *engine) topScorer(p *player) bool { return e.accScore(p, 0) > e.thresh }

// compatible: C1 (no rematch, forbidden pairs) and C3 (non-topscorers with the
// same absolute colour preference do not meet; topscorers only matter when
// pairing the last round).
func (e *engine) compatible(a, b *player) bool {
	if f := e.forb[a.idx]; len(f) <= 16 {
		for _, x := range f {
			if int(x) == b.idx {
				return false
			}
		}
	} else if _, found := slices.BinarySearch(f, int32(b.idx)); found {
		return false
	}
	return e.coloursCompatible(a, b)
}

// coloursCompatible is compatible's C3 part.
func (e *engine) coloursCompatible(a, b *player) bool {
	if !a.absolutePref() || !b.absolutePref() || a.pref != b.pref {
		return true
	}
	return e.played >= e.t.TotalRounds-1 && (e.topScorer(a) || e.topScorer(b))
}

// compatRow serves compatible(hi, lo) for one lo and many hi (see
// baseTable.compat): the players whose forbidden list holds lo are marked
// once, instead of each hi's list being scanned. The bracket loop asks for
// every pair with the next scoregroup, millions per large bracket
// (compatible was 5% of the CPU of a round of 9999 players).
type compatRow struct {
	by    [][]int32 // by[b]: the players whose forbidden list holds b
	mark  []uint32  // by Players index: == stamp when marked for lo
	stamp uint32
	lo    *player
}

func (e *engine) newCompatRow() *compatRow {
	r := &compatRow{by: make([][]int32, len(e.forb)), mark: make([]uint32, len(e.forb))}
	for a, f := range e.forb {
		for _, b := range f {
			r.by[b] = append(r.by[b], int32(a))
		}
	}
	return r
}

// row makes lo the player whose forbidden partners are marked.
func (r *compatRow) row(lo *player) {
	if r.lo == lo {
		return
	}
	r.lo = lo
	r.stamp++
	for _, a := range r.by[lo.idx] {
		r.mark[a] = r.stamp
	}
}

func (e *engine) isByeCandidate(p *player, byeScore arbiter.Points) bool {
	return e.eligibleForBye(p) && e.accScore(p, 0) <= byeScore
}

func compatiblePrefs(a, b pairing.Colour) bool {
	return a != b || a == pairing.NoColour || b == pairing.NoColour
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// edgeCtx carries the round-wide values the edge weight depends on.
type edgeCtx struct {
	byeScore      arbiter.Points
	singleDFIsBye bool
	unplayedRanks map[int]int
}

// edgeWeight encodes the criteria for pairing higher (earlier in the sorted
// order) with lower. inCur: lower belongs to the bracket being paired; inNext:
// lower belongs to the following scoregroup (look-ahead, C8).
func (e *engine) edgeWeight(hi, lo *player, inCur, inNext bool, c *edgeCtx) weight {
	w := make(weight, e.lay.words)
	e.edgeWeightInto(w, hi, lo, inCur, inNext, c)
	return w
}

// edgeWeightInto is edgeWeight written into w (len(w) == e.lay.words).
func (e *engine) edgeWeightInto(w weight, hi, lo *player, inCur, inNext bool, c *edgeCtx) {
	e.edgeWeightLay(&e.lay, w, hi, lo, inCur, inNext, c)
}

// edgeWeightLay is edgeWeightInto with the field widths of l (e.lay, or a
// bracket's compact layout, see compactor.layout), len(w) == l.words.
func (e *engine) edgeWeightLay(l *layout, w weight, hi, lo *player, inCur, inNext bool, c *edgeCtx) {
	if !e.compatible(hi, lo) {
		clear(w)
		return
	}
	e.fieldsLay(l, w, hi, lo, inCur, inNext, c)
}

// fieldsLay writes the weight of a compatible pair (edgeWeightLay without
// the compatibility test): a function of the two players' attributes
// (weightKey) and the flags.
func (e *engine) fieldsLay(l *layout, w weight, hi, lo *player, inCur, inNext bool, c *edgeCtx) {
	var b builder
	hs, ls := e.accScore(hi, 0), e.accScore(lo, 0)
	// Completion (C4) and PAB eligibility (C2, C5): pairs of players who
	// cannot take the bye are worth more, so the unpaired one can.
	b.addAt(1+b2u(!e.isByeCandidate(hi, c.byeScore))+b2u(!e.isByeCandidate(lo, c.byeScore)), 0)
	// C6: number of pairs in the bracket.
	b.shl(l.sgBits)
	b.addAt(b2u(inCur), 0)
	// C7: scores paired in the bracket.
	b.shl(l.sgShift)
	if inCur {
		b.addAt(1, l.shifts[hs])
	}
	// C8: pairs and scores in the next bracket.
	b.shl(l.sgBits)
	b.addAt(b2u(inNext), 0)
	b.shl(l.sgShift)
	if inNext {
		b.addAt(1, l.shifts[hs])
	}
	// C9: unplayed games of the PAB assignee.
	b.shl(2 * l.sgBits)
	if c.singleDFIsBye {
		if hs == c.byeScore {
			b.addAt(uint64(c.unplayedRanks[hi.playedGame]), 0)
		}
		if ls == c.byeScore {
			b.addAt(uint64(c.unplayedRanks[lo.playedGame]), 0)
		}
	}
	// C10-C13: colours.
	e.colourBits(l, &b, lo, hi, inCur)
	if e.played >= 1 {
		// C14: resident downfloaters who downfloated last round.
		b.shl(l.sgBits)
		if inCur {
			b.addAt(b2u(e.float(lo, 1) == floatDown), 0)
			b.addAt(b2u(hs <= ls && e.float(hi, 1) == floatDown), 0)
		}
		// C15: MDP opponents who upfloated last round.
		b.shl(l.sgBits)
		if inCur {
			b.addAt(b2u(!(hs > ls && e.float(lo, 1) == floatUp)), 0)
		}
	}
	if e.played > 1 {
		// C16, C17: the same two rounds before.
		b.shl(l.sgBits)
		if inCur {
			b.addAt(b2u(e.float(lo, 2) == floatDown), 0)
			b.addAt(b2u(hs <= ls && e.float(hi, 2) == floatDown), 0)
		}
		b.shl(l.sgBits)
		if inCur {
			b.addAt(b2u(!(hs > ls && e.float(lo, 2) == floatUp)), 0)
		}
	}
	if e.played >= 1 {
		// C18, C19: scores of those floaters.
		b.shl(l.sgShift)
		if inCur {
			b.addAt(b2u(e.float(lo, 1) == floatDown), l.shifts[ls])
			b.addAt(b2u(e.float(hi, 1) == floatDown), l.shifts[hs])
		}
		b.shl(l.sgShift)
		if inCur && !(e.float(lo, 1) == floatUp && hs > ls) {
			b.addAt(1, l.shifts[hs])
		}
	}
	if e.played > 1 {
		// C20, C21.
		b.shl(l.sgShift)
		if inCur {
			b.addAt(b2u(e.float(lo, 2) == floatDown), l.shifts[ls])
			b.addAt(b2u(e.float(hi, 2) == floatDown), l.shifts[hs])
		}
		b.shl(l.sgShift)
		if inCur && !(e.float(lo, 2) == floatUp && hs > ls) {
			b.addAt(1, l.shifts[hs])
		}
	}
	// Room for the ordering of exchanges and transpositions.
	b.shl(3*l.sgBits + 1)
	b.into(w)
}

// colourBits appends the four colour fields (C10-C13).
func (e *engine) colourBits(l *layout, b *builder, p, o *player, inCur bool) {
	b.shl(l.sgBits)
	b.addAt(b2u(inCur && (!p.absoluteImbalance() || !o.absoluteImbalance() || p.pref != o.pref)), 0)
	b.shl(l.sgBits)
	ok := !p.absolutePref() || !o.absolutePref() || p.pref != o.pref
	if !ok {
		if p.imbalance == o.imbalance {
			ok = p.repeated == pairing.NoColour || p.repeated != o.repeated
		} else {
			q := p
			if p.imbalance > o.imbalance {
				q = o
			}
			ok = q.repeated != p.pref.Invert()
		}
	}
	b.addAt(b2u(inCur && ok), 0)
	b.shl(l.sgBits)
	b.addAt(b2u(inCur && compatiblePrefs(p.pref, o.pref)), 0)
	b.shl(l.sgBits)
	b.addAt(b2u(inCur && ((!p.strong && !p.absolutePref()) || (!o.strong && !o.absolutePref()) ||
		(p.absolutePref() && o.absolutePref()) || p.pref != o.pref)), 0)
}
