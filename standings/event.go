package standings

import (
	"maps"

	"arbiter"
)

// Stage kinds of arbiter.Stage that are paired in advance (C.07 Art. 15.2:
// forfeits count as games, Art. 16 does not apply).
const (
	kindRoundRobin = "round_robin"
	kindPool       = "pool"
)

// EventStage ranks stage si of an event as stored: stages are the event's
// sized stages, entrants the stage's entrants in seed order (the previous
// stage's ranking, or the initial seeding), rounds the stage's matches
// round by round, pool one pool of a pool stage ("" for any other stage),
// and sc the match format's scoring. Only final results count: a match
// still without one leaves its entrants absent in that round. An entrant's
// place in an earlier stage is its td_value:<stage name> (W9: the
// "qualification result"), higher is better.
func EventStage(stages []arbiter.Stage, si int, entrants []arbiter.Entrant, rounds [][]arbiter.Match, pool string, sc Scoring) (Table, error) {
	if si < 0 || si >= len(stages) {
		return Table{}, arbiter.FieldError("stage", "app.stage", "no stage %d (the event has %d)", si+1, len(stages))
	}
	sg := stages[si]
	if sg.Kind == kindPool {
		var seeds []string
		for _, p := range sg.Pools {
			if p.Name == pool {
				seeds = p.Seeds
			}
		}
		if seeds == nil {
			var names []string
			for _, p := range sg.Pools {
				names = append(names, p.Name)
			}
			return Table{}, arbiter.FieldError("pool", "app.stage", "stage %s has pools %v, got %q", sg.Name, names, pool)
		}
		in := map[string]bool{}
		for _, id := range seeds {
			in[id] = true
		}
		kept := make([]arbiter.Entrant, 0, len(seeds))
		for _, e := range entrants {
			if in[e.ID] {
				kept = append(kept, e)
			}
		}
		entrants = kept
	} else if pool != "" {
		return Table{}, arbiter.FieldError("pool", "app.stage", "stage %s has no pools", sg.Name)
	}
	tbs, err := ParseTiebreaks(sg.Tiebreak)
	if err != nil {
		return Table{}, err
	}
	in := Input{Scoring: sc}
	earlier := map[string]map[string]arbiter.Points{}
	for k := 0; k < si; k++ {
		vals := map[string]arbiter.Points{}
		seeds := stages[k+1].Seeds
		for i, id := range seeds {
			vals[id] = arbiter.Points(len(seeds)-i) * arbiter.Point
		}
		earlier[stages[k].Name] = vals
	}
	in.Entrants = make([]Entrant, 0, len(entrants))
	for i, e := range entrants {
		// The seed within the stage is its order. Compute only reads
		// Values: the entrant's own map is shared unless earlier stages
		// add to it.
		se := Entrant{ID: e.ID, Name: e.Name, Rating: e.Rating, Seed: i + 1, Values: e.Values}
		cloned := false
		for name, vals := range earlier {
			if v, ok := vals[e.ID]; ok {
				if !cloned {
					se.Values, cloned = maps.Clone(e.Values), true
					if se.Values == nil {
						se.Values = map[string]arbiter.Points{}
					}
				}
				se.Values[name] = v
			}
		}
		in.Entrants = append(in.Entrants, se)
	}
	// One slice holds every round's results (a pool's rounds keep only
	// the pool's matches): counted first, allocated once.
	counts := func(m *arbiter.Match) bool {
		return m.Status == arbiter.MatchFinal && m.Result != nil && m.Pool == pool
	}
	n := 0
	for _, rd := range rounds {
		for i := range rd {
			if counts(&rd[i]) {
				n++
			}
		}
	}
	all := make([]Result, 0, n)
	in.Rounds = make([][]Result, 0, len(rounds))
	for _, rd := range rounds {
		start := len(all)
		for i := range rd {
			if m := &rd[i]; counts(m) {
				all = append(all, FromMatch(m))
			}
		}
		in.Rounds = append(in.Rounds, all[start:len(all):len(all)])
	}
	rr := sg.Kind == kindRoundRobin || sg.Kind == kindPool
	return Compute(in, tbs, Options{RoundRobin: rr, TotalRounds: sg.Rounds})
}

// FromMatch is what a match with a result gives the standings; a played
// match gives the home side White (board 1: the match's home is White
// where colours matter).
func FromMatch(m *arbiter.Match) Result {
	r := FromOutcome(m.Home, m.Away, m.Result)
	if !m.IsBye() && r.Played() {
		r.A.Colour, r.B.Colour = White, Black
	}
	return r
}

// FromOutcome is a scored result (arbiter.Outcome, as the score engine
// makes it and a match stores it) as the standings read it: side A is
// home, B away ("" for a bye). It is the one place the two meet.
func FromOutcome(home, away string, o *arbiter.Outcome) Result {
	r := Result{Decision: Decision(o.Decision),
		A: Side{ID: home, MatchPoints: o.Home.MatchPoints, Secondary: o.Home.Points, SetsWon: o.Home.SetsWon, GamesWon: o.Home.GamesWon}}
	if away != "" {
		r.B = Side{ID: away, MatchPoints: o.Away.MatchPoints, Secondary: o.Away.Points, SetsWon: o.Away.SetsWon, GamesWon: o.Away.GamesWon}
	}
	return r
}
