package standings

import (
	"arbiter"
)

// val is an exact tiebreak value: n/d in units of 1/10000 point (so that a
// product of two scores in hundredths stays an integer), d > 0. missing
// sorts below every present value (a TD value not entered).
type val struct {
	n, d    int64
	missing bool
}

func pv(p arbiter.Points) val { return val{n: int64(p) * 100, d: 1} }
func count(c int) val         { return val{n: int64(c) * 10000, d: 1} }

// cmp returns -1, 0, 1 as a is worse, equal, better than b (higher is better).
func (a val) cmp(b val) int {
	switch {
	case a.missing && b.missing:
		return 0
	case a.missing:
		return -1
	case b.missing:
		return 1
	}
	l, r := a.n*b.d, b.n*a.d
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

// points rounds to hundredths, half up (C.07 prints AOB this way).
func (a val) points() arbiter.Points {
	if a.missing {
		return 0
	}
	d := a.d * 100
	n := a.n
	if n >= 0 {
		return arbiter.Points((2*n + d) / (2 * d))
	}
	return -arbiter.Points((-2*n + d - 1) / (2 * d))
}

// elem is one addend of Buchholz / Sonneborn-Berger for a participant: the
// (adjusted or dummy) opponent score and the points scored in that round.
type elem struct {
	score arbiter.Points
	pts   arbiter.Points
	vur   bool
}

func (e elem) product() int64 { return int64(e.score) * int64(e.pts) }

// elements lists the BH/SB addends of entrant i (C.07 8.1, 9.1 and
// 16.3/16.4): opponent scores on basis b, points scored on basis bs (the
// two differ for the mixed team Sonneborn-Berger, 13.2). buf is reused to
// avoid allocations.
func (s *state) elements(i, b, bs int, buf []elem) []elem {
	buf = buf[:0]
	for _, x := range s.rounds[i] {
		switch {
		case s.counts(x):
			buf = append(buf, elem{score: s.adj[b][x.opp], pts: x.pts[bs]})
		case s.opts.RoundRobin:
			// An unpaired round of a round robin contributes nothing.
		default:
			d := s.score[b][i] // 16.4: the dummy has the participant's own score
			if s.edition == Edition2026 {
				limit := s.draw(b) * arbiter.Points(s.total) // 16.4.2
				if x.kind.forfeitLike() && x.opp >= 0 {
					limit = s.adj[b][x.opp] // 16.4.1
				}
				d = min(d, limit)
			}
			buf = append(buf, elem{score: d, pts: x.pts[bs], vur: x.kind.vur()})
		}
	}
	return buf
}

// cut removes lo least and then hi most significant elements (C.07 Art. 14)
// with the VUR exception of 16.5 on the low cuts. sb selects the
// Sonneborn-Berger key (the product) instead of the opponent score.
func cut(els []elem, lo, hi int, sb bool) []elem {
	key := func(e elem) int64 {
		if sb {
			return e.product()
		}
		return int64(e.score)
	}
	remove := func(k int) { els = append(els[:k], els[k+1:]...) }
	for ; lo > 0 && len(els) > 0; lo-- {
		lsv := 0 // least significant value: lowest opponent score, then lowest key
		for k, e := range els[1:] {
			if e.score < els[lsv].score || e.score == els[lsv].score && key(e) < key(els[lsv]) {
				lsv = k + 1
			}
		}
		victim := lsv
		lv := -1 // lowest contribution coming from a VUR
		for k, e := range els {
			if e.vur && (lv < 0 || key(e) < key(els[lv])) {
				lv = k
			}
		}
		if lv >= 0 && key(els[lv]) >= key(els[lsv]) {
			victim = lv // 16.5.1: cut the VUR unless it is lower than the LSV
		}
		remove(victim)
	}
	for ; hi > 0 && len(els) > 0; hi-- {
		msv := 0
		for k, e := range els[1:] {
			if e.score > els[msv].score || e.score == els[msv].score && key(e) > key(els[msv]) {
				msv = k + 1
			}
		}
		remove(msv)
	}
	return els
}

// buchholz returns BH (or SB when sb, with points scored on basis bs) of
// every entrant with lo low and hi high cuts.
func (s *state) buchholz(b, bs, lo, hi int, sb bool) []val {
	out := make([]val, s.n)
	buf := make([]elem, 0, s.nr)
	for i := range out {
		els := cut(s.elements(i, b, bs, buf), lo, hi, sb)
		var sum int64
		for _, e := range els {
			if sb {
				sum += e.product()
			} else {
				sum += int64(e.score) * 100
			}
		}
		out[i] = val{n: sum, d: 1}
		buf = els[:0]
	}
	return out
}

// fore returns the state in which every paired final-round game (forfeits
// included) is scored as a draw (C.07 8.3 Fore Buchholz).
func (s *state) fore() *state {
	f := *s
	if s.nr == 0 {
		return &f
	}
	f.rounds = make([][]rd, s.n)
	last := s.nr - 1
	for i, rs := range s.rounds {
		cp := append([]rd(nil), rs...)
		if x := cp[last]; x.kind.hasOpponent() && x.opp >= 0 {
			x.kind = kPlayed
			x.pts = [2]arbiter.Points{s.sc.Draw, s.sc.SecondaryDraw}
			x.against = x.pts
			cp[last] = x
		}
		f.rounds[i] = cp
	}
	for b := 0; b < 2; b++ {
		f.score[b] = make([]arbiter.Points, s.n)
		f.adj[b] = make([]arbiter.Points, s.n)
	}
	for i := range f.rounds {
		f.computeScores(i, f.rounds[i])
	}
	return &f
}

// aob is the mean Buchholz of the opponents played over the board (C.07 8.2).
func (s *state) aob(b int) []val {
	bh := s.buchholz(b, b, 0, 0, false)
	out := make([]val, s.n)
	for i, rs := range s.rounds {
		var sum, c int64
		for _, x := range rs {
			if x.kind == kPlayed {
				sum += bh[x.opp].n
				c++
			}
		}
		if c == 0 {
			c = 1
		}
		out[i] = val{n: sum, d: c}
	}
	return out
}

// progressive is the sum of the running scores after each round, without
// the first lo of them (C.07 7.5, PS-C1 = 14.1.1.c).
func (s *state) progressive(b, lo int) []val {
	out := make([]val, s.n)
	for i, rs := range s.rounds {
		var run, sum arbiter.Points
		for r, x := range rs {
			run += x.pts[b]
			if r >= lo {
				sum += run
			}
		}
		out[i] = pv(sum)
	}
	return out
}

// perEntrant evaluates f for every entrant.
func (s *state) perEntrant(f func(i int, rs []rd) val) []val {
	out := make([]val, s.n)
	for i, rs := range s.rounds {
		out[i] = f(i, rs)
	}
	return out
}

// aro is the average rating of the opponents played over the board, rounded
// half up, without the lo lowest (C.07 10.1). Unrated opponents (rating 0)
// are left out.
func (s *state) aro(i, lo int) (int, int) {
	rs := make([]int, 0, s.nr)
	for _, x := range s.rounds[i] {
		if x.kind == kPlayed {
			if r := s.in.Entrants[x.opp].Rating; r > 0 {
				rs = append(rs, r)
			}
		}
	}
	for ; lo > 0 && len(rs) > 0; lo-- {
		m := 0
		for k, r := range rs {
			if r < rs[m] {
				m = k
			}
		}
		rs = append(rs[:m], rs[m+1:]...)
	}
	if len(rs) == 0 {
		return 0, 0
	}
	sum := 0
	for _, r := range rs {
		sum += r
	}
	return (2*sum + len(rs)) / (2 * len(rs)), len(rs)
}

// tpr is ARO + dp(p) with p the fractional OTB score rounded to hundredths
// half up (C.07 10.2, FIDE B.02 table 8.1(a)).
func (s *state) tpr(i int) int {
	aro, _ := s.aro(i, 0)
	var pts, games int64
	for _, x := range s.rounds[i] {
		if x.kind == kPlayed && s.in.Entrants[x.opp].Rating > 0 {
			pts += int64(x.pts[bPrimary])
			games++
		}
	}
	if games == 0 {
		return 0
	}
	win := int64(s.sc.Win)
	p := (200*pts + games*win) / (2 * games * win) // hundredths, half up
	return aro + dp(int(p))
}

// dpTable is FIDE B.02 table 8.1(a): rating difference for a fractional
// score p = 0.50 .. 1.00 (index p*100 - 50); p < 0.5 mirrors with a minus.
var dpTable = [51]int{
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50-.59
	72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60-.69
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70-.79
	240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80-.89
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90-.99
	800, // 1.00
}

func dp(p int) int {
	if p >= 50 {
		return dpTable[p-50]
	}
	return -dpTable[50-p]
}
