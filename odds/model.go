package odds

import (
	"math"
	"slices"

	"arbiter/format"
	"arbiter/score"
)

// The game model. A game between ratings rh and ra is won by home with
// the Elo expectation E = 1 / (1 + 10^((ra-rh)/400)) less half the draws;
// draws have the chance d * 4E(1-E), d being the draw rate of equal
// opponents for the time control, so that they fade as the gap grows and
// the three chances stay between 0 and 1.

// Default draw rates of equal opponents by variant, before the event's own
// games say otherwise: antichess is rarely drawn.
var defaultDrawRate = map[string]float64{
	"":          0.12,
	"standard":  0.12,
	"antichess": 0.04,
}

// priorGames is the weight of the default, in games: the event's own rate
// takes over once it has seen a few times as many.
const priorGames = 40

// unrated is the rating of an entrant without one.
const unrated = 1500

// drawRates estimates the draw rate per time control of the format's
// parts: (draws + prior x default) / (games + prior) over the event's
// sheets, unless overridden.
func drawRates(f *format.Format, sheets map[string]*score.Sheet, override map[string]float64) map[string]DrawRate {
	def, ok := defaultDrawRate[f.Variant]
	if !ok {
		def = defaultDrawRate[""]
	}
	out := map[string]DrawRate{}
	addTC := func(tc format.TimeControl) {
		k := tc.String()
		if _, ok := out[k]; !ok {
			out[k] = DrawRate{TC: k}
		}
	}
	for _, st := range f.Stages {
		for _, m := range []*format.Match{&st.Match, st.Final, st.ThirdPlaceMatch} {
			if m == nil {
				continue
			}
			for _, p := range m.Parts {
				addTC(p.TC)
			}
			for _, t := range m.Tie {
				if t.TC != nil {
					addTC(*t.TC)
				}
			}
		}
	}
	ids := make([]string, 0, len(sheets))
	for id := range sheets {
		ids = append(ids, id)
	}
	slices.Sort(ids) // a fixed order: the sums are integers anyway
	for _, id := range ids {
		for tc, c := range score.CountGames(sheets[id]) {
			k := tc
			if t, err := format.ParseTimeControl(tc); err == nil {
				k = t.String()
			}
			r, ok := out[k]
			if !ok {
				continue
			}
			r.Games += c.Games
			r.Draws += c.Draws
			out[k] = r
		}
	}
	for k, r := range out {
		r.Rate = (float64(r.Draws) + priorGames*def) / (float64(r.Games) + priorGames)
		if v, ok := override[k]; ok {
			r.Rate = v
		}
		out[k] = r
	}
	return out
}

// gameOdds are the chances of one game from home's side.
type gameOdds struct {
	win, draw float64 // loss = 1 - win - draw
}

// expectation is the Elo expectation of rating rh against ra.
func expectation(rh, ra int) float64 {
	if rh <= 0 {
		rh = unrated
	}
	if ra <= 0 {
		ra = unrated
	}
	return 1 / (1 + math.Pow(10, float64(ra-rh)/400))
}

func oddsOf(rh, ra int, drawRate float64) gameOdds {
	e := expectation(rh, ra)
	d := drawRate * 4 * e * (1 - e)
	return gameOdds{win: e - d/2, draw: d}
}

// game results from home's side, as sheet tokens.
const (
	tokWin  = "1"
	tokDraw = "="
	tokLoss = "0"
)

// sample draws one game with u uniform in [0, 1).
func (g gameOdds) sample(u float64) string {
	switch {
	case u < g.win:
		return tokWin
	case u < g.win+g.draw:
		return tokDraw
	}
	return tokLoss
}
