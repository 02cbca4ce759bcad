package odds

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"arbiter"
	"arbiter/format"
	"arbiter/ranking"
)

// plan is the input checked and arranged for the runs; workers only read it.
type plan struct {
	f        *format.Format
	ev       arbiter.Event
	opt      Options
	ents     []arbiter.Entrant // admitted entrants in seed order
	allIDs   []string          // their IDs
	idx      map[string]int    // entrant ID -> index in ents
	removed  []bool
	teamSize int
	rates    map[string]DrawRate
	kinds    map[kindKey]*matchKind
	cur      int // the stage being played
	// played holds the current stage's rounds so far (matches by board);
	// earlier stages' rounds are in done.
	played [][]arbiter.Match
	done   [][][]arbiter.Match // by stage, round
	// predicted is the current stage's next round, paired once by the
	// engine when everything before it is final (nil otherwise).
	predicted []arbiter.Match
	// fixed results: by match ID, and by entrant pair (home, away).
	fixedIn    []Fixed
	fixedMatch map[string]string
	fixedPair  map[[2]string]string
	forbidden  map[int][][]string
	bands      []bandPlan
	// doneOrder ranks the stages already over (see rank.go).
	doneOrder [][]string
	doneRank  []ranking.Stage
	// memo keeps the pairing of the first round each run pairs, by a
	// digest of the engine's input (run.swissBoards).
	memo sync.Map
}

// predictedRound is the current stage's round paired once for every run,
// as a list of zero or one round.
func (p *plan) predictedRound() [][]arbiter.Match {
	if p.predicted == nil {
		return nil
	}
	return [][]arbiter.Match{p.predicted}
}

// entrant returns the admitted entrant with the ID, or nil.
func (p *plan) entrant(id string) *arbiter.Entrant {
	i, ok := p.idx[id]
	if !ok {
		return nil
	}
	return &p.ents[i]
}

func (p *plan) rating(id string) int {
	if e := p.entrant(id); e != nil {
		return e.Rating
	}
	return 0
}

// prepare checks the input and builds the plan.
func prepare(in *Input, opt Options) (*plan, error) {
	if in.Format == nil {
		return nil, arbiter.FieldError("format", "odds.input", "no format")
	}
	ev := in.Event
	switch {
	case ev.Status == arbiter.EventRegistration || len(ev.Stages) == 0:
		return nil, arbiter.RuleError("odds.event", "event %s has no stages before registration closes", ev.Slug)
	case len(ev.Stages) != len(in.Format.Stages):
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "event %s has %d stages, its format %d", ev.Slug, len(ev.Stages), len(in.Format.Stages))
	case ev.Stage < 0 || ev.Stage >= len(ev.Stages):
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "event %s is in stage %d of %d", ev.Slug, ev.Stage+1, len(ev.Stages))
	}
	switch {
	case opt.Sims == 0:
		opt.Sims = DefaultSims
	case opt.Sims < 1 || opt.Sims > MaxSims:
		return nil, arbiter.FieldError("sims", "odds.sims", "between 1 and %d runs, got %d", MaxSims, opt.Sims)
	}
	for tc, r := range opt.DrawRates {
		if r < 0 || r > 0.9 {
			return nil, arbiter.FieldError("draw_rates."+tc, "odds.draw_rate", "a draw rate is between 0 and 0.9, got %g", r)
		}
	}
	p := &plan{f: in.Format, ev: ev, opt: opt, idx: map[string]int{}, cur: ev.Stage, forbidden: map[int][][]string{}}
	p.ents = slices.Clone(in.Entrants)
	slices.SortStableFunc(p.ents, bySeed)
	for i, e := range p.ents {
		if _, dup := p.idx[e.ID]; dup {
			return nil, arbiter.FieldError("entrants", "odds.input", "entrant %s is listed twice", e.ID)
		}
		p.idx[e.ID] = i
		p.allIDs = append(p.allIDs, e.ID)
		p.removed = append(p.removed, e.Status != arbiter.EntrantApproved)
	}
	p.teamSize = 1
	if ts := p.f.TeamSize(ev.Entrants); ts != nil {
		p.teamSize = *ts
	}
	p.rates = drawRates(p.f, in.Sheets, opt.DrawRates)
	p.buildKinds()
	for _, fb := range in.Forbidden {
		p.forbidden[fb.Stage] = append(p.forbidden[fb.Stage], fb.Entrants)
	}

	// Matches by stage and round, boards in order.
	p.done = make([][][]arbiter.Match, len(ev.Stages))
	for _, m := range in.Matches {
		if m.Stage < 0 || m.Stage >= len(ev.Stages) || m.Round < 1 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "match %s is in no round of the event", m.ID)
		}
		rs := p.done[m.Stage]
		for len(rs) < m.Round {
			rs = append(rs, nil)
		}
		rs[m.Round-1] = append(rs[m.Round-1], m)
		p.done[m.Stage] = rs
	}
	for _, rs := range p.done {
		for _, r := range rs {
			slices.SortFunc(r, func(a, b arbiter.Match) int { return a.Board - b.Board })
		}
	}
	p.played = p.done[p.cur]
	for i, r := range p.played {
		if len(r) == 0 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "stage %s has no match in round %d", ev.Stages[p.cur].Name, i+1)
		}
	}
	if err := p.fix(in.Fixed); err != nil {
		return nil, err
	}
	return p, nil
}

// bySeed is the app's seed order: seed ascending, unseeded last, then ID.
func bySeed(a, b arbiter.Entrant) int {
	switch {
	case a.Seed == b.Seed:
		return strings.Compare(a.ID, b.ID)
	case a.Seed == 0:
		return 1
	case b.Seed == 0:
		return -1
	}
	return a.Seed - b.Seed
}

// fix checks the results given by hand.
func (p *plan) fix(fixed []Fixed) error {
	p.fixedMatch, p.fixedPair = map[string]string{}, map[[2]string]string{}
	open := map[string]*arbiter.Match{}
	for _, r := range p.played {
		for i := range r {
			if r[i].Status != arbiter.MatchFinal && !r[i].IsBye() {
				open[r[i].ID] = &r[i]
			}
		}
	}
	ko := p.ev.Stages[p.cur].Kind == format.Knockout
	p.fixedIn = nil
	for i, fx := range fixed {
		field := fmt.Sprintf("fixed[%d]", i)
		// A winner named by ID.
		home, away := fx.Home, fx.Away
		if m, ok := open[fx.Match]; ok && fx.Match != "" {
			home, away = m.Home, m.Away
		}
		switch {
		case fx.Result != "" && fx.Result == home:
			fx.Result = HomeWins
		case fx.Result != "" && fx.Result == away:
			fx.Result = AwayWins
		}
		p.fixedIn = append(p.fixedIn, fx)
		switch fx.Result {
		case HomeWins, AwayWins:
		case Drawn:
			if ko {
				return arbiter.FieldError(field+".result", "odds.fixed", "a knockout match has a winner: give home or away")
			}
		default:
			return arbiter.FieldError(field+".result", "odds.fixed", "want home, away, draw or the winner, got %q", fx.Result)
		}
		if fx.Match != "" {
			m, ok := open[fx.Match]
			if !ok {
				return arbiter.FieldError(field+".match", "odds.fixed", "%q is not a match of the current round still to be played", fx.Match)
			}
			if fx.Home != "" && (fx.Home != m.Home || fx.Away != m.Away) {
				return arbiter.FieldError(field+".home", "odds.fixed", "match %s is %s v %s", m.ID, m.Home, m.Away)
			}
			p.fixedMatch[fx.Match] = fx.Result
			continue
		}
		for _, id := range []string{fx.Home, fx.Away} {
			if e := p.entrant(id); e == nil {
				return arbiter.FieldError(field, "odds.fixed", "%q is not an entrant of the event", id)
			}
		}
		if fx.Home == fx.Away {
			return arbiter.FieldError(field, "odds.fixed", "an entrant does not play itself")
		}
		p.fixedPair[[2]string{fx.Home, fx.Away}] = fx.Result
		p.fixedPair[[2]string{fx.Away, fx.Home}] = swap(fx.Result)
	}
	return nil
}

func swap(result string) string {
	switch result {
	case HomeWins:
		return AwayWins
	case AwayWins:
		return HomeWins
	}
	return result
}

// fixedFor is the result fixed by hand for a match of the current stage
// ("" when none).
func (p *plan) fixedFor(si int, m *arbiter.Match) string {
	if si != p.cur || m.IsBye() {
		return ""
	}
	if r, ok := p.fixedMatch[m.ID]; ok && m.ID != "" {
		return r
	}
	return p.fixedPair[[2]string{m.Home, m.Away}]
}

// stageIDs are a stage's entrants in seed order: every admitted entrant
// for the first stage, the seeds the previous stage produced after.
func (p *plan) stageIDs(si int, seeds []string) []string {
	if si == 0 {
		return p.allIDs // callers only read
	}
	return seeds
}

func matchID(stage, number, board int) string {
	return "s" + itoa(stage+1) + "r" + itoa(number) + "b" + itoa(board)
}
