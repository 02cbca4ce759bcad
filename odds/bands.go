package odds

import (
	"fmt"
	"strings"

	"arbiter/format"
	"arbiter/pairing/knockout"
)

// Kinds of band.
const (
	bandStage = iota // among the seeds of stage `stage`
	bandRound        // plays round `round` of knockout stage `stage` (not the third-place match)
	bandTitle        // first of the final ranking
)

type bandPlan struct {
	Band
	kind, stage, round int
}

// buildBands lists the bands from the current stage on: each stage's
// qualifying places, each knockout round after the first, the title.
func (p *plan) buildBands() {
	stages := p.ev.Stages
	last := len(stages) - 1
	for s := p.cur; s <= last; s++ {
		st := stages[s]
		if st.Kind == format.Knockout {
			for k := 2; k <= st.Rounds; k++ {
				places := 1 << (st.Rounds - k + 1)
				name := knockout.RoundName(places / 2)
				p.bands = append(p.bands, bandPlan{Band{ID: strings.ToLower(name), Name: name, Places: places}, bandRound, s, k})
			}
		}
		if s < last {
			next := stages[s+1]
			name := fmt.Sprintf("Top %d (%s)", st.Advance, next.Name)
			if st.Kind == format.Pool && len(p.f.Stages[s].Pools) > 0 {
				name = fmt.Sprintf("Top %d of each pool (%s)", p.f.Stages[s].Pools[0].Advance, next.Name)
			}
			p.bands = append(p.bands, bandPlan{Band{ID: next.Name, Name: name, Places: st.Advance}, bandStage, s + 1, 0})
		}
	}
	if stages[last].Kind != format.Pool {
		p.bands = append(p.bands, bandPlan{Band{ID: "title", Name: "Title", Places: 1}, bandTitle, last, 0})
	}
}

// reached marks, for each entrant (plan index), the bands the run reached
// as bits of out.
func (r *run) reached(out []uint64) {
	clear(out)
	for b, bp := range r.p.bands {
		bit := uint64(1) << b
		mark := func(id string) {
			if i, ok := r.p.idx[id]; ok {
				out[i] |= bit
			}
		}
		switch bp.kind {
		case bandStage:
			for _, id := range r.stages[bp.stage].Seeds {
				mark(id)
			}
		case bandRound:
			if bp.round-1 < len(r.rounds[bp.stage]) {
				for _, m := range r.rounds[bp.stage][bp.round-1] {
					if m.Format != "third_place" {
						mark(m.Home)
						mark(m.Away)
					}
				}
			}
		case bandTitle:
			if o := r.order[bp.stage]; len(o) > 0 {
				mark(o[0])
			}
		}
	}
}
