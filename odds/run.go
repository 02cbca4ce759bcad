package odds

import (
	"math/rand/v2"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing"
	"arbiter/pairing/berger"
	"arbiter/pairing/knockout"
	"arbiter/pairing/teamswiss"
	"arbiter/ranking"
	"arbiter/score"
	"arbiter/standings"
)

// run is one simulated rest of the event. A worker reuses it run after
// run; the plan's matches are shared and never written.
type run struct {
	p   *plan
	sc  *scorer
	rng *rand.Rand
	// stages are the event's stages with the seeds and pools this run
	// gave the later ones.
	stages []arbiter.Stage
	rounds [][][]arbiter.Match // by stage, round
	// first is the result of each entrant's first simulated match (0 none).
	first []int8
	// order is each stage's ranking, best first, and pools each pool
	// stage's pool rankings (see rank.go).
	order [][]string
	pools [][][]string
	// rank holds each ranked stage as the final ranking reads it.
	rank []ranking.Stage
	// bufs are the match slices of the rounds this run played, reused
	// by the next run of the worker (nbuf in use so far).
	bufs [][]arbiter.Match
	nbuf int
	// tables are the Berger tables made so far, by players and cycles.
	tables map[[2]int][]berger.Round
}

// Results of the first simulated match, in run.first.
const (
	firstWin int8 = iota + 1
	firstDraw
	firstLoss
)

func newRun(p *plan) *run {
	return &run{p: p, sc: newScorer(p), first: make([]int8, len(p.ents))}
}

// simulate plays the rest of the event with rng.
func (r *run) simulate(rng *rand.Rand) error {
	p := r.p
	r.rng = rng
	r.stages = slices.Clone(p.ev.Stages)
	r.rounds = make([][][]arbiter.Match, len(r.stages))
	copy(r.rounds, p.done[:p.cur])
	clear(r.first)
	r.nbuf = 0
	r.order = make([][]string, len(r.stages))
	copy(r.order, p.doneOrder)
	r.pools = make([][][]string, len(r.stages))
	r.rank = make([]ranking.Stage, len(r.stages))
	copy(r.rank, p.doneRank)
	for s := p.cur; s < len(r.stages); s++ {
		if err := r.playStage(s); err != nil {
			return err
		}
		if err := r.rankStage(s); err != nil {
			return err
		}
		if s+1 < len(r.stages) {
			if err := r.advance(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// playStage plays stage s to its end: the open matches of the rounds
// paired so far (current stage), then every further round as the app
// pairs it.
func (r *run) playStage(s int) error {
	p := r.p
	ids := p.stageIDs(s, r.stages[s].Seeds)
	var rounds [][]arbiter.Match
	if s == p.cur {
		rounds = make([][]arbiter.Match, len(p.played))
		for i, rd := range p.played {
			if !r.needsPlay(s, rd) {
				rounds[i] = rd
				continue
			}
			c := append(r.matches(len(rd)), rd...)
			if err := r.resolve(s, c); err != nil {
				return err
			}
			rounds[i] = c
		}
	}
	for len(rounds) < r.stages[s].Rounds {
		var next []arbiter.Match
		if s == p.cur && len(rounds) == len(p.played) && p.predicted != nil {
			next = append(r.matches(len(p.predicted)), p.predicted...)
		} else {
			var err error
			if next, err = r.pair(s, ids, rounds); err != nil {
				return err
			}
		}
		if err := r.resolve(s, next); err != nil {
			return err
		}
		rounds = append(rounds, next)
	}
	r.rounds[s] = rounds
	return nil
}

// needsPlay reports whether a round has a match without a result the
// run can use: not final, or a knockout tie left to the TDs.
func (r *run) needsPlay(s int, rd []arbiter.Match) bool {
	for i := range rd {
		m := &rd[i]
		if m.IsBye() {
			continue
		}
		if m.Status != arbiter.MatchFinal || r.stages[s].Kind == format.Knockout && m.Bracket != "" && (m.Result == nil || m.Result.Result == score.TieUnresolved) {
			return true
		}
	}
	return false
}

// resolve gives every match of a round still without a usable result one.
func (r *run) resolve(s int, rd []arbiter.Match) error {
	ko := r.stages[s].Kind == format.Knockout
	for i := range rd {
		m := &rd[i]
		if m.IsBye() {
			continue
		}
		if m.Status == arbiter.MatchFinal {
			if ko && m.Bracket != "" && (m.Result == nil || m.Result.Result == score.TieUnresolved) {
				// A tie (or a double forfeit) left to the TDs: they
				// name a winner; the run tosses a coin.
				o := arbiter.Outcome{Result: score.HomeWin, Decision: "played"}
				if m.Result != nil {
					o = *m.Result
					o.Result = score.HomeWin
				}
				if r.rng.IntN(2) == 1 {
					o.Result = score.AwayWin
				}
				m.Result = &o
			}
			continue
		}
		o, err := r.sc.play(s, m, r.p.fixedFor(s, m), r.rng)
		if err != nil {
			return err
		}
		m.Result, m.Status, m.Decision = o, arbiter.MatchFinal, "simulated"
		mp := r.p.f.Stages[s].MatchFor(m.Format).MatchPoints
		res := resultOf(o, mp)
		r.noteFirst(m.Home, res)
		r.noteFirst(m.Away, swap(res))
	}
	return nil
}

func (r *run) noteFirst(id, res string) {
	i, ok := r.p.idx[id]
	if !ok || r.first[i] != 0 {
		return
	}
	switch res {
	case HomeWins:
		r.first[i] = firstWin
	case Drawn:
		r.first[i] = firstDraw
	default:
		r.first[i] = firstLoss
	}
}

// pair pairs the next round of stage s as the app's PairRound does: the
// stage's engine, then a removed entrant's match forfeited to the
// opponent (disregarded in a round robin), and the bye.
func (r *run) pair(s int, ids []string, rounds [][]arbiter.Match) ([]arbiter.Match, error) {
	p := r.p
	st := r.stages[s]
	fs := &p.f.Stages[s]
	number := len(rounds) + 1
	cycles := max(1, fs.Cycles)
	mp := fs.Match.MatchPoints
	var out []arbiter.Match
	switch st.Kind {
	case format.Swiss:
		boards, err := r.swissBoards(s, ids, rounds)
		if err != nil {
			return nil, err
		}
		out = r.matches(len(boards))
		for _, b := range boards {
			out = append(out, arbiter.Match{Home: b[0], Away: b[1]})
		}
	case format.RoundRobin, format.Pool:
		// The Berger table of each pool's size is made once per worker
		// (it depends only on the size and the cycles) and only this
		// round's matches are written, as berger.ScheduleMatches writes
		// every round's (berger.AppendMatches for both).
		pools := st.Pools
		if st.Kind == format.RoundRobin {
			pools = []arbiter.Pool{{Seeds: ids}}
		}
		n := 0
		for _, pool := range pools {
			n += len(pool.Seeds)/2 + 1
		}
		out = r.matches(n)
		for _, pool := range pools {
			sched, err := r.berger(len(pool.Seeds), cycles)
			if err != nil {
				return nil, err
			}
			if number > len(sched) {
				return nil, arbiter.RuleError("app.round", "the round robin has %d rounds", len(sched))
			}
			out = berger.AppendMatches(out, sched[number-1], pool.Seeds, pool.Name)
		}
	case format.Knockout:
		ms, err := knockout.RoundMatches(ids, fs.ThirdPlace, rounds, number, st.MovedUp)
		if err != nil {
			return nil, err
		}
		out = ms
	default:
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "unknown stage kind %q", st.Kind)
	}
	rr := st.Kind == format.RoundRobin || st.Kind == format.Pool
	for i := range out {
		m := &out[i]
		m.ID, m.Stage, m.Round, m.Board, m.Status = matchID(s, number, i+1), s, number, i+1, arbiter.MatchScheduled
		gone := r.gone(m.Home) || r.gone(m.Away)
		switch {
		case gone && rr:
			// W17 candidates: a removed player's games are disregarded.
			m.Status, m.Decision = arbiter.MatchFinal, "disregarded"
		case gone && !m.IsBye():
			// A removed entrant's pairing goes to the opponent (A8, W17).
			f := score.ForfeitHome
			if r.gone(m.Home) {
				f = score.ForfeitAway
			}
			ms, err := score.Score(p.f, fs.Name, &score.Sheet{Home: m.Home, Away: m.Away, Match: m.Format, Forfeit: f}, score.Options{Entrants: p.ev.Entrants})
			if err != nil {
				return nil, err
			}
			o := ms.Outcome()
			m.Status, m.Result, m.Decision = arbiter.MatchFinal, &o, "opponent_removed"
		case m.IsBye():
			bye := score.ByeOutcome(mp)
			m.Status, m.Decision, m.Result = arbiter.MatchFinal, "bye", &bye
		}
	}
	return out, nil
}

// matches is an empty slice with room for n matches, for a round of
// this run: the worker's runs reuse them (the rounds of a run are read
// only until the next run starts).
func (r *run) matches(n int) []arbiter.Match {
	if r.nbuf == len(r.bufs) {
		r.bufs = append(r.bufs, nil)
	}
	b := r.bufs[r.nbuf]
	if cap(b) < n {
		b = make([]arbiter.Match, 0, n)
	} else {
		b = b[:cap(b)]
		clear(b)
		b = b[:0]
	}
	r.bufs[r.nbuf] = b
	r.nbuf++
	return b
}

// berger is berger.Schedule(n, cycles), made once per worker.
func (r *run) berger(n, cycles int) ([]berger.Round, error) {
	key := [2]int{n, cycles}
	if t, ok := r.tables[key]; ok {
		return t, nil
	}
	t, err := berger.Schedule(n, cycles)
	if err != nil {
		return nil, err
	}
	if r.tables == nil {
		r.tables = map[[2]int][]berger.Round{}
	}
	r.tables[key] = t
	return t, nil
}

func (r *run) gone(id string) bool {
	i, ok := r.p.idx[id]
	return ok && r.p.removed[i]
}

func (p *plan) dutchColour() pairing.Colour {
	if p.ev.InitialColour == "black" {
		return pairing.Black
	}
	return pairing.White
}

func (p *plan) teamColour() string {
	if p.ev.InitialColour == "black" {
		return teamswiss.Black
	}
	return teamswiss.White
}

// entrantsOf are the admitted entrants with the IDs, in that order.
func (p *plan) entrantsOf(ids []string) []arbiter.Entrant {
	if len(ids) == len(p.ents) && len(ids) > 0 && &ids[0] == &p.allIDs[0] {
		return p.ents // the first stage: every admitted entrant (callers only read)
	}
	out := make([]arbiter.Entrant, 0, len(ids))
	for _, id := range ids {
		if e := p.entrant(id); e != nil {
			out = append(out, *e)
		}
	}
	return out
}

// advance fills stage s+1 from stage s as the app's AdvanceStage does:
// the top N of the standings without the removed entrants (from pools:
// each pool's top, seeded across pools), then the pools by the format's
// placement pattern. Ties the tiebreaks leave are the TDs' to decide by
// lot: rankStage drew the lots.
func (r *run) advance(s int) error {
	p := r.p
	cur, next := r.stages[s], &r.stages[s+1]
	fnext := &p.f.Stages[s+1]
	var ranked []string
	if cur.Kind == format.Pool {
		var perPool [][]string
		adv := 0
		for i := range cur.Pools {
			adv = p.f.Stages[s].Pools[i].Advance
			perPool = append(perPool, r.top(r.pools[s][i], adv))
		}
		var err error
		if ranked, err = knockout.CrossPoolSeeds(perPool, adv); err != nil {
			return err
		}
	} else {
		ranked = r.top(r.order[s], cur.Advance)
	}
	next.Seeds = ranked
	next.Pools = nil
	if fnext.Kind == format.Pool {
		pattern := make([][]int, len(fnext.Pools))
		for i, pd := range fnext.Pools {
			pattern[i] = pd.Places
		}
		pools, err := knockout.Pools(ranked, pattern)
		if err != nil {
			return err
		}
		for i, ps := range pools {
			next.Pools = append(next.Pools, arbiter.Pool{Name: fnext.Pools[i].Name, Seeds: ps})
		}
	}
	return nil
}

// top is the first n of a ranking without the removed entrants.
func (r *run) top(order []string, n int) []string {
	out := make([]string, 0, n)
	for _, id := range order {
		if len(out) == n {
			break
		}
		if !r.gone(id) {
			out = append(out, id)
		}
	}
	return out
}

// lots lists a table's entrants best first, each group the tiebreaks
// leave tied shuffled.
func lots(t standings.Table, rng *rand.Rand) []string {
	ids := make([]string, len(t.Rows))
	for i, row := range t.Rows {
		ids[i] = row.ID
	}
	for lo := 0; lo < len(t.Rows); {
		hi := lo + 1
		for hi < len(t.Rows) && t.Rows[hi].Rank == t.Rows[lo].Rank {
			hi++
		}
		if hi-lo > 1 && rng != nil {
			g := ids[lo:hi]
			rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		}
		lo = hi
	}
	return ids
}

// stageTable ranks stage s (one pool, or "") as the app does, from the
// given rounds.
func stageTable(p *plan, stages []arbiter.Stage, s int, ids []string, rounds [][]arbiter.Match, pool string) (standings.Table, error) {
	return standings.EventStage(stages, s, p.entrantsOf(ids), rounds, pool, p.f.Stages[s].Match.Scoring(p.teamSize))
}
