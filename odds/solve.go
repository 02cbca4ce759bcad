package odds

import (
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"arbiter"
	"arbiter/ranking"
)

// Run simulates the rest of the event opt.Sims times and returns every
// entrant's chances. Run i draws its randomness from a generator seeded
// with (opt.Seed, i), and the tallies are integer counts, so the answer
// does not depend on how many workers share the runs.
func Run(in *Input, opt Options) (*Result, error) {
	p, err := prepare(in, opt)
	if err != nil {
		return nil, err
	}
	if err := p.before(); err != nil {
		return nil, err
	}
	t, err := p.simulateAll()
	if err != nil {
		return nil, err
	}
	return p.answer(t), nil
}

// simulateAll runs every simulation on the workers and sums their tallies.
func (p *plan) simulateAll() (*tally, error) {
	opt := p.opt
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, opt.Sims)
	var next atomic.Int64
	var failed atomic.Bool
	tallies := make([]*tally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			t := newTally(p)
			r := newRun(p)
			for !failed.Load() {
				i := next.Add(1) - 1
				if i >= int64(opt.Sims) {
					break
				}
				if err := r.simulate(rand.New(rand.NewPCG(opt.Seed, uint64(i)))); err != nil {
					errs[w] = err
					failed.Store(true)
					return
				}
				t.add(r)
			}
			tallies[w] = t
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	t := newTally(p)
	for _, o := range tallies {
		t.merge(o)
	}
	return t, nil
}

// before prepares what every run shares: the rankings of the stages
// already over, the bands, and the current stage's next round when the
// engine can pair it now (everything before it is final), which is the
// same in every run.
func (p *plan) before() error {
	p.doneOrder = make([][]string, len(p.ev.Stages))
	p.doneRank = make([]ranking.Stage, len(p.ev.Stages))
	for s := 0; s < p.cur; s++ {
		order, _, rs, err := stageOrder(p, p.ev.Stages, s, p.stageIDs(s, p.ev.Stages[s].Seeds), p.done[s], nil)
		if err != nil {
			return err
		}
		p.doneOrder[s], p.doneRank[s] = order, rs
	}
	p.buildBands()
	r := newRun(p)
	r.stages = slices.Clone(p.ev.Stages)
	for _, rd := range p.played {
		if r.needsPlay(p.cur, rd) {
			return nil
		}
	}
	if len(p.played) >= p.ev.Stages[p.cur].Rounds {
		return nil
	}
	next, err := r.pair(p.cur, p.stageIDs(p.cur, p.ev.Stages[p.cur].Seeds), p.played)
	if err != nil {
		return err
	}
	p.predicted = next
	return nil
}

// tally counts what the runs gave each entrant.
type tally struct {
	runs  int64
	bands [][]int64 // [entrant][band]
	place []int64   // sum of final places
	// cond[entrant][result of the first simulated match - 1]
	cond [][3]condTally
	// scratch
	mask   []uint64
	places []int32
}

type condTally struct {
	runs  int64
	bands []int64
	place int64
}

func newTally(p *plan) *tally {
	n := len(p.ents)
	t := &tally{bands: make([][]int64, n), place: make([]int64, n), cond: make([][3]condTally, n),
		mask: make([]uint64, n), places: make([]int32, n)}
	for i := range n {
		t.bands[i] = make([]int64, len(p.bands))
		for k := range 3 {
			t.cond[i][k].bands = make([]int64, len(p.bands))
		}
	}
	return t
}

func (t *tally) add(r *run) {
	t.runs++
	r.reached(t.mask)
	r.places(t.places)
	for i := range t.bands {
		c := (*condTally)(nil)
		if f := r.first[i]; f > 0 {
			c = &t.cond[i][f-1]
			c.runs++
			c.place += int64(t.places[i])
		}
		t.place[i] += int64(t.places[i])
		for b := range t.bands[i] {
			if t.mask[i]&(1<<b) != 0 {
				t.bands[i][b]++
				if c != nil {
					c.bands[b]++
				}
			}
		}
	}
}

func (t *tally) merge(o *tally) {
	if o == nil {
		return
	}
	t.runs += o.runs
	for i := range t.bands {
		t.place[i] += o.place[i]
		for b := range t.bands[i] {
			t.bands[i][b] += o.bands[i][b]
		}
		for k := range 3 {
			c, oc := &t.cond[i][k], &o.cond[i][k]
			c.runs += oc.runs
			c.place += oc.place
			for b := range c.bands {
				c.bands[b] += oc.bands[b]
			}
		}
	}
}

// answer turns the tallies into chances. A chance the exact check
// decided is exactly 1 or 0. The others are the runs' frequencies with
// one more imaginary run in which the places left are shared evenly among
// the entrants still in contention, so that no undecided chance reads 0
// or 1 and each band's chances still add up to its places.
func (p *plan) answer(t *tally) *Result {
	res := &Result{Sims: int(t.runs), Seed: p.opt.Seed, Stage: p.ev.Stages[p.cur].Name}
	exact := p.exact(nil, nil, false)
	prior := make([]float64, len(p.bands))
	for b, bp := range p.bands {
		left, open := float64(bp.Places), 0
		for i := range p.ents {
			switch exact[i][b] {
			case Clinched:
				left--
			case "":
				open++
			}
		}
		if open > 0 {
			prior[b] = min(1, max(0, left/float64(open)))
		}
	}
	// weight is the imaginary run's weight: 1 for the chances over all
	// runs; for the chances after one result of the next match, the share
	// of the runs that result had, so that a rare result's few runs are
	// not pulled towards the prior more than the whole.
	chances := func(ex []string, counts []int64, runs int64, weight float64) []Chance {
		out := make([]Chance, len(p.bands))
		for b := range out {
			switch ex[b] {
			case Clinched:
				out[b] = Chance{P: 1, Exact: Clinched}
			case Eliminated:
				out[b] = Chance{P: 0, Exact: Eliminated}
			default:
				out[b] = Chance{P: (float64(counts[b]) + weight*prior[b]) / (float64(runs) + weight)}
			}
		}
		return out
	}
	// Bands every entrant's exact check settles are left out.
	keep := make([]bool, len(p.bands))
	for b := range p.bands {
		for i := range p.ents {
			if exact[i][b] == "" {
				keep[b] = true
			}
		}
	}
	for b, bp := range p.bands {
		if keep[b] {
			res.Bands = append(res.Bands, bp.Band)
		}
	}
	pick := func(cs []Chance) []Chance {
		var out []Chance
		for b, c := range cs {
			if keep[b] {
				out = append(out, c)
			}
		}
		return out
	}
	for _, k := range slices.Sorted(maps.Keys(p.rates)) {
		res.DrawRates = append(res.DrawRates, p.rates[k])
	}
	res.Fixed = p.fixedIn
	nexts := p.nextMatches()
	for i, e := range p.ents {
		o := Odds{Entrant: e.ID, Name: e.Name, Rating: e.Rating}
		all := chances(exact[i], t.bands[i], t.runs, 1)
		o.Bands = pick(all)
		if len(o.Bands) > 0 {
			o.Qualify = o.Bands[0].P
		}
		if t.runs > 0 {
			o.ExpectedPlace = float64(t.place[i]) / float64(t.runs)
		}
		if nx := nexts[i]; nx != nil {
			for k, name := range []string{Win, Draw, Loss} {
				c := &t.cond[i][k]
				if c.runs == 0 {
					continue
				}
				ex := exact[i]
				if id := p.nextMatchID(i, nx); id != "" {
					ex = p.exactIf(i, id, name, nx.Predicted)
				}
				ir := IfResult{Result: name, Chance: float64(c.runs) / float64(t.runs), Runs: int(c.runs),
					Bands: pick(chances(ex, c.bands, c.runs, float64(c.runs)/float64(t.runs))), ExpectedPlace: float64(c.place) / float64(c.runs)}
				if len(ir.Bands) > 0 {
					ir.Qualify = ir.Bands[0].P
				}
				nx.If = append(nx.If, ir)
			}
			if len(nx.If) > 0 {
				o.Next = nx
			}
		}
		res.Entrants = append(res.Entrants, o)
	}
	return res
}

// nextMatchID is the ID of entrant i's next match: the paired one, or
// the one the engine pairs next (its ID as that round's would be).
func (p *plan) nextMatchID(i int, nx *Next) string {
	if nx.Match != "" || !nx.Predicted {
		return nx.Match
	}
	id := p.ents[i].ID
	for _, m := range p.predicted {
		if m.Home == id && m.Away == nx.Opponent || m.Away == id && m.Home == nx.Opponent {
			return m.ID
		}
	}
	return ""
}

// exactIf is the exact check of entrant i after its open match m ends
// with result (Win, Draw, Loss from i's side).
func (p *plan) exactIf(i int, match, result string, predicted bool) []string {
	var m *arbiter.Match
	for _, rd := range append(slices.Clone(p.played), p.predictedRound()...) {
		for k := range rd {
			if rd[k].ID == match {
				m = &rd[k]
			}
		}
	}
	if m == nil {
		return make([]string, len(p.bands))
	}
	res := map[string]string{Win: HomeWins, Draw: Drawn, Loss: AwayWins}[result]
	if m.Away == p.ents[i].ID {
		res = swap(res)
	}
	only := make([]bool, len(p.ents))
	only[i] = true
	return p.exact(map[string]string{match: res}, only, predicted)[i]
}

// nextMatches names each entrant's next match: its open match of the
// round being played, else its match of the round the engine pairs next,
// else (the opponent depends on results to come) only that it has one.
func (p *plan) nextMatches() []*Next {
	out := make([]*Next, len(p.ents))
	stage := p.ev.Stages[p.cur].Name
	set := func(id, opp string, n *Next) {
		if i, ok := p.idx[id]; ok && out[i] == nil {
			c := *n
			c.Opponent = opp
			out[i] = &c
		}
	}
	for _, rd := range p.played {
		for _, m := range rd {
			if m.Status != arbiter.MatchFinal && !m.IsBye() {
				n := &Next{Match: m.ID, Stage: stage, Round: m.Round}
				set(m.Home, m.Away, n)
				set(m.Away, m.Home, n)
			}
		}
	}
	for _, m := range p.predicted {
		if m.Status != arbiter.MatchFinal && !m.IsBye() {
			n := &Next{Predicted: true, Stage: stage, Round: m.Round}
			set(m.Home, m.Away, n)
			set(m.Away, m.Home, n)
		}
	}
	for i := range out {
		if out[i] == nil && !p.removed[i] {
			out[i] = &Next{}
		}
	}
	return out
}
