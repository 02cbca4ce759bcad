package app

import (
	"context"

	"arbiter"
	"arbiter/negotiation"
	"arbiter/sanction"
	"arbiter/score"
	"arbiter/sqlstore"
)

// sheetForfeits counts the forfeits each side suffered inside a match that
// was not forfeited as a whole: a forfeited board or part counts once, a
// forfeited game ("-" lost by home, "+" lost by away, "--" both) once. A
// forfeit draw ("=F", full_draw) is nobody's forfeit.
func sheetForfeits(sh *score.Sheet) (home, away int) {
	count := func(kind string) {
		switch kind {
		case score.ForfeitHome: // the points to home: away forfeited
			away++
		case score.ForfeitAway:
			home++
		case score.ForfeitDouble:
			home++
			away++
		}
	}
	parts := func(ps []score.PartSheet) {
		for _, p := range ps {
			count(p.Forfeit)
			for _, tok := range p.Results {
				switch tok {
				case "+":
					away++
				case "-":
					home++
				case "--":
					home++
					away++
				}
			}
		}
	}
	parts(sh.Parts)
	parts(sh.Sets)
	for _, b := range sh.Boards {
		count(b.Forfeit)
		parts(b.Parts)
	}
	return home, away
}

// matchForfeits lists each entrant's forfeits in the event's final matches
// (A7, W16): a match lost by forfeit or double-forfeited, forfeited boards,
// parts and games inside a played match (from the standing report's sheet),
// and W14's "both failed to make three offers: draw, and both count a
// forfeited game". Pairings awarded because of a sanction do not count.
func matchForfeits(ctx context.Context, q sqlstore.Queryer, st *state) (map[string][]sanction.Forfeit, error) {
	ms, err := docMatch.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	negs, err := docNegotiation.list(ctx, q, st)
	if err != nil {
		return nil, err
	}
	bothMissed := map[string]bool{}
	for _, n := range negs {
		if n.State.Outcome == negotiation.DrawBothForfeited {
			bothMissed[n.Match] = true
		}
	}
	out := map[string][]sanction.Forfeit{}
	add := func(id string, n int, m arbiter.Match) {
		for range n {
			out[id] = append(out[id], sanction.Forfeit{MatchID: m.ID})
		}
	}
	for _, m := range ms {
		if m.Status != arbiter.MatchFinal || m.Result == nil || m.IsBye() || m.Decision == "sanction" || m.Decision == "opponent_removed" || m.Decision == "disregarded" {
			continue
		}
		if bothMissed[m.ID] {
			add(m.Home, 1, m)
			add(m.Away, 1, m)
			continue
		}
		switch m.Result.Forfeit {
		case score.ForfeitDouble:
			add(m.Home, 1, m)
			add(m.Away, 1, m)
			continue
		case score.ForfeitHome:
			add(m.Away, 1, m)
			continue
		case score.ForfeitAway:
			add(m.Home, 1, m)
			continue
		case score.ForfeitFullDraw:
			continue
		}
		if m.Report == "" {
			continue
		}
		r, err := docReport.get(ctx, q, st, m.Report)
		if err != nil {
			return nil, err
		}
		if r.Sheet == nil {
			continue
		}
		h, a := sheetForfeits(r.Sheet)
		add(m.Home, h, m)
		add(m.Away, a, m)
	}
	return out, nil
}
