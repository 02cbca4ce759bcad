package odds

import "arbiter/format"

// SuggestedSims is a number of runs that about 4 s of CPU time simulate
// for the event as it stands, between 100 and DefaultSims.
func SuggestedSims(in *Input) int {
	return max(100, min(DefaultSims, int(4e6/runCost(in))))
}

// AffordableSims is the most runs about a minute of CPU time simulates
// for the event as it stands (at least DefaultSims): a bound for requests
// from anyone.
func AffordableSims(in *Input) int {
	return max(DefaultSims, int(60e6/runCost(in)))
}

// runCost estimates the CPU time of one run in microseconds: it grows
// with the Swiss pairings left (the Dutch engine's work grows with the
// square of the field) and the games left to draw.
func runCost(in *Input) float64 {
	cost := 10.0 // ranking, tallies
	p, err := prepare(in, Options{Sims: 1})
	if err != nil {
		return cost
	}
	for s := p.cur; s < len(p.ev.Stages); s++ {
		st := p.ev.Stages[s]
		n := st.Entrants
		if s == p.cur {
			n = len(p.stageIDs(s, st.Seeds))
		}
		left := st.Rounds
		if s == p.cur {
			left -= len(p.played)
		}
		if left <= 0 {
			continue
		}
		if st.Kind == format.Swiss {
			cost += float64(left) * 0.5 * float64(n*n) // measured: 40 players 0.8 ms, 200 players 10 ms
		}
		games := 0
		for _, part := range p.f.Stages[s].Match.Parts {
			games += part.Games
		}
		if p.f.Stages[s].Match.Kind == format.TeamBoards {
			games *= p.teamSize
		}
		cost += float64(left*n/2*games) * 1.5 // a game drawn and, often, a sheet scored
	}
	return cost
}
