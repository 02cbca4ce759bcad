package standings

import (
	"cmp"
	"slices"
	"strings"

	"arbiter"
)

// Compute ranks the entrants by the primary score (Σ match points) and then
// by each tiebreak in order, each applied only to the subgroups still tied
// (C.07 Art. 4.2, 2026). Every tiebreak value is reported as a column.
//
// The order is a total order that does not depend on the order of the
// input: entrants still tied after the last tiebreak share their rank
// (Row.Shared; C.07 4.2 leaves them to drawing of lots or to the
// regulations) and are listed by seed (TPN, ascending; unseeded last) and
// then by id.
func Compute(in Input, tiebreaks []Tiebreak, opts Options) (Table, error) {
	s, err := prepare(&in, opts)
	if err != nil {
		return Table{}, err
	}
	for k, tb := range tiebreaks {
		if _, ok := specs[tb.ID]; !ok {
			return Table{}, arbiter.FieldError("tiebreaks", "tiebreak-id", "tiebreaks[%d]: unknown tiebreak id %q", k, tb.ID)
		}
		if tb.ID == TDValue && tb.Param == "" {
			return Table{}, arbiter.FieldError("tiebreaks", "tiebreak-id", "tiebreaks[%d]: td_value needs a key", k)
		}
	}

	// order holds entrant indices; bounds[k] marks the start of a tied group.
	order := make([]int, s.n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(s.score[0][b], s.score[0][a]) })
	start := make([]bool, s.n+1) // start[k]: order[k] begins a new group
	start[s.n] = true
	for k := range order {
		start[k] = k == 0 || s.score[0][order[k]] != s.score[0][order[k-1]]
	}

	cols := make([][]val, len(tiebreaks))
	member := make([]int32, s.n) // scratch for group tiebreaks
	for i := range member {
		member[i] = -1
	}
	for t, tb := range tiebreaks {
		global := s.global(tb)
		if global != nil {
			cols[t] = global
		} else {
			cols[t] = make([]val, s.n)
			for i := range cols[t] {
				cols[t][i].d = 1
			}
		}
		for lo := 0; lo < s.n; {
			hi := lo + 1
			for !start[hi] {
				hi++
			}
			if hi-lo > 1 {
				grp := order[lo:hi]
				if global != nil {
					slices.SortStableFunc(grp, func(a, b int) int { return global[b].cmp(global[a]) })
					for k := lo + 1; k < hi; k++ {
						if global[order[k]].cmp(global[order[k-1]]) != 0 {
							start[k] = true
						}
					}
				} else {
					parts := s.group(tb, grp, cols[t], member)
					k := lo
					for _, p := range parts {
						start[k] = true
						copy(order[k:], p)
						k += len(p)
					}
				}
			}
			lo = hi
		}
	}

	tbl := Table{Tiebreaks: append([]Tiebreak(nil), tiebreaks...), Rows: make([]Row, s.n)}
	cells := make([]arbiter.Points, s.n*len(tiebreaks)) // one backing array for every row's values
	for lo := 0; lo < s.n; {
		hi := lo + 1
		for !start[hi] {
			hi++
		}
		grp := order[lo:hi]
		slices.SortFunc(grp, s.fallback)
		for k := lo; k < hi; k++ {
			i := order[k]
			e := in.Entrants[i]
			row := Row{Rank: lo + 1, Shared: hi-lo > 1, ID: e.ID, Name: e.Name, Score: s.score[0][i], Values: cells[k*len(tiebreaks) : (k+1)*len(tiebreaks) : (k+1)*len(tiebreaks)]}
			for t := range tiebreaks {
				row.Values[t] = cols[t][i].points()
			}
			tbl.Rows[k] = row
		}
		lo = hi
	}
	return tbl, nil
}

// fallback is the documented final order of entrants no tiebreak separates:
// seed ascending (unseeded last), then id.
func (s *state) fallback(a, b int) int {
	ea, eb := s.in.Entrants[a], s.in.Entrants[b]
	sa, sb := ea.Seed, eb.Seed
	if sa == 0 {
		sa = int(^uint(0) >> 1)
	}
	if sb == 0 {
		sb = int(^uint(0) >> 1)
	}
	if c := cmp.Compare(sa, sb); c != 0 {
		return c
	}
	return strings.Compare(ea.ID, eb.ID)
}

func basis(tb Tiebreak) int {
	if tb.Param == BasisSecondary {
		return bSecondary
	}
	return bPrimary
}

// global returns the value of a tiebreak that does not depend on the tied
// group, for every entrant; nil for group tiebreaks (direct encounter and
// the mutual scores).
func (s *state) global(tb Tiebreak) []val {
	b := basis(tb)
	switch tb.ID {
	case MatchPoints:
		return s.perEntrant(func(i int, _ []rd) val { return pv(s.score[bPrimary][i]) })
	case SetPoints, PointsScored, OverallGameScore:
		return s.perEntrant(func(i int, _ []rd) val { return pv(s.score[bSecondary][i]) })
	case PointsDifference:
		return s.perEntrant(func(_ int, rs []rd) val {
			var d arbiter.Points
			for _, x := range rs {
				d += x.pts[bSecondary] - x.against[bSecondary]
			}
			return pv(d)
		})
	case MatchWins, Wins:
		if tb.ID == MatchWins {
			b = bPrimary
		}
		w := s.win(b)
		return s.perEntrant(func(_ int, rs []rd) val {
			c := 0
			for _, x := range rs {
				if x.pts[b] >= w {
					c++
				}
			}
			return count(c)
		})
	case SetWins:
		return s.perEntrant(func(_ int, rs []rd) val {
			c := 0
			for _, x := range rs {
				c += int(x.sets)
			}
			return count(c)
		})
	case Won:
		return s.perEntrant(func(_ int, rs []rd) val {
			c := 0
			for _, x := range rs {
				if x.kind == kPlayed {
					c += int(x.games)
				}
			}
			return count(c)
		})
	case GamesBlack, GamesWonBlack:
		return s.perEntrant(func(_ int, rs []rd) val {
			c := 0
			for _, x := range rs {
				if x.kind == kPlayed && x.black && (tb.ID == GamesBlack || x.pts[bPrimary] >= s.sc.Win) {
					c++
				}
			}
			return count(c)
		})
	case ElectedToPlay:
		return s.perEntrant(func(_ int, rs []rd) val {
			c := len(rs)
			for _, x := range rs {
				if x.kind.vur() {
					c--
				}
			}
			return count(c)
		})
	case Progressive, Cumulative:
		return s.progressive(b, tb.CutLow)
	case Buchholz:
		return s.buchholz(b, b, tb.CutLow, tb.CutHigh, false)
	case MedianBuchholz:
		return s.buchholz(b, b, 1, 1, false)
	case SonnebornBerger:
		bo, bs := b, b
		switch tb.Param {
		case BasisMixedMG:
			bo, bs = bPrimary, bSecondary
		case BasisMixedGM:
			bo, bs = bSecondary, bPrimary
		}
		return s.buchholz(bo, bs, tb.CutLow, tb.CutHigh, true)
	case ForeBuchholz:
		return s.fore().buchholz(b, b, tb.CutLow, tb.CutHigh, false)
	case AOB:
		return s.aob(b)
	case Koya:
		return s.koya()
	case ARO:
		return s.perEntrant(func(i int, _ []rd) val { a, _ := s.aro(i, tb.CutLow); return count(a) })
	case SSSC:
		// C.07 13.4: secondary score + BH(primary) / FN with FN =
		// floor(N × win / most secondary points of one match).
		fn := int64(s.total) * int64(s.sc.Win) / int64(s.sc.SecondaryWin)
		if fn < 1 {
			fn = 1
		}
		bh := s.buchholz(bPrimary, bPrimary, 0, 0, false)
		return s.perEntrant(func(i int, _ []rd) val {
			return val{n: int64(s.score[bSecondary][i])*100*fn + bh[i].n, d: fn}
		})
	case TPR:
		return s.perEntrant(func(i int, _ []rd) val { return count(s.tpr(i)) })
	case APRO:
		// C.07 10.4: mean TPR of the opponents played over the board,
		// rounded to the nearest whole number, 0.5 up.
		tpr := make([]int, s.n)
		for i := range tpr {
			tpr[i] = s.tpr(i)
		}
		return s.perEntrant(func(_ int, rs []rd) val {
			sum, c := 0, 0
			for _, x := range rs {
				if x.kind == kPlayed && s.in.Entrants[x.opp].Rating > 0 {
					sum += tpr[x.opp]
					c++
				}
			}
			if c == 0 {
				return count(0)
			}
			return count((2*sum + c) / (2 * c))
		})
	case Standard:
		// C.07 7.7: 1 for a round with more points than the scheduled
		// opponent (or, unpaired, more than a draw), ½ for as many.
		return s.perEntrant(func(_ int, rs []rd) val {
			var halves int64
			for _, x := range rs {
				other := s.sc.Draw
				if x.opp >= 0 {
					other = x.against[bPrimary]
				}
				switch {
				case x.pts[bPrimary] > other:
					halves += 2
				case x.pts[bPrimary] == other:
					halves++
				}
			}
			return val{n: halves * 5000, d: 1}
		})
	case TDValue:
		return s.perEntrant(func(i int, _ []rd) val {
			vals := s.in.Entrants[i].Values
			v, ok := vals[tb.Param]
			if !ok { // ids are lowercase; keys may have been entered in any case
				best := ""
				for k, x := range vals {
					if strings.EqualFold(k, tb.Param) && (!ok || k < best) {
						v, ok, best = x, true, k // the smallest key wins: deterministic
					}
				}
			}
			if !ok {
				return val{missing: true, d: 1}
			}
			return pv(v)
		})
	}
	return nil
}

// koya sums the points scored against opponents who reached at least half
// of the maximum possible score (C.07 9.2). The maximum is Win times the
// largest number of rounds any entrant had a scheduled opponent, so the
// bye round of an odd round robin is left out.
func (s *state) koya() []val {
	games := 0
	for _, rs := range s.rounds {
		c := 0
		for _, x := range rs {
			if x.kind.hasOpponent() && x.opp >= 0 {
				c++
			}
		}
		games = max(games, c)
	}
	threshold := s.sc.Win * arbiter.Points(games) // compared with 2 × score
	return s.perEntrant(func(_ int, rs []rd) val {
		var sum arbiter.Points
		for _, x := range rs {
			if s.counts(x) && 2*s.score[bPrimary][x.opp] >= threshold {
				sum += x.pts[bPrimary]
			}
		}
		return pv(sum)
	})
}
