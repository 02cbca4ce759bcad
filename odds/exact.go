package odds

import (
	"slices"

	"arbiter"
	"arbiter/format"
)

// The exact check decides who is certain to reach a band and who cannot,
// whatever the rest of the event brings, without looking at the samples.
//
// For the band that closes the current stage (its qualifying places) it
// reasons on match points over every result the remaining matches can
// have when they are played (wins, draws, losses, a forfeit by one side;
// not double forfeits, which only TD decisions and no-shows produce), and
// counts an entrant level on match points as possibly ahead: the
// tiebreaks are not predicted. A stage whose every result is in is read
// from its standings instead, ties at the cut left open (the TDs decide).
//
//   - Known matches (the round paired, a round robin's schedule) keep
//     their pairs. When nothing else remains and they are few, every
//     combination of their results is enumerated; when each entrant has at
//     most one of them, a dynamic programme over the pairs is as exact.
//   - Rounds not yet paired are relaxed: their points form a pool any
//     entrant may draw from (at most a win per round), which allows every
//     pairing the engine could make and more, so a verdict under the
//     relaxation also holds for the real pairings.
//
// An entrant is clinched when, losing every match left, fewer others than
// the band has places can finish level or ahead; eliminated when, winning
// every match left, at least that many others must finish strictly
// ahead. Eliminated from the current stage's band means eliminated from
// every later band. Knockout bands follow the bracket: a loss eliminates,
// reaching a round clinches it.

// enumerateMax bounds the known matches enumerated one combination at a
// time (3^10 combinations).
const enumerateMax = 10

// exact returns, for each entrant and band, "", Clinched or Eliminated.
// extra are results fixed for the check only (by match ID); only, when
// not nil, limits the work to those entrants (the others get "").
//
// The rounds known are those paired; with predicted, also the round the
// engine will pair next as it stands (for a what-if "if paired as now").
func (p *plan) exact(extra map[string]string, only []bool, predicted bool) [][]string {
	known := p.played
	if predicted {
		known = append(slices.Clone(p.played), p.predictedRound()...)
	}
	out := make([][]string, len(p.ents))
	for i := range out {
		out[i] = make([]string, len(p.bands))
	}
	if len(p.bands) == 0 {
		return out
	}
	inStage := map[string]bool{}
	for _, id := range p.stageIDs(p.cur, p.ev.Stages[p.cur].Seeds) {
		inStage[id] = true
	}
	for i, e := range p.ents {
		if p.removed[i] || !inStage[e.ID] {
			for b := range out[i] {
				out[i][b] = Eliminated
			}
		}
	}
	st := p.ev.Stages[p.cur]
	if st.Kind == format.Knockout {
		p.exactKnockout(out, extra, known)
		return out
	}
	// The first band closes the current stage.
	first := make([]string, len(p.ents))
	if st.Kind == format.Pool {
		for i, pool := range st.Pools {
			g := p.group(pool.Seeds, pool.Name, p.f.Stages[p.cur].Pools[i].Advance, extra, known)
			g.decide(first, only)
		}
	} else {
		k := p.bands[0].Places
		g := p.group(p.stageIDs(p.cur, st.Seeds), "", k, extra, known)
		g.decide(first, only)
	}
	for i := range out {
		if out[i][0] != "" {
			continue
		}
		out[i][0] = first[i]
		if first[i] == Eliminated {
			for b := range out[i] {
				out[i][b] = Eliminated
			}
		}
	}
	return out
}

// exactKnockout decides the bands of a knockout being played from its
// bracket: a loss eliminates, reaching a round (or winning the final)
// clinches it.
func (p *plan) exactKnockout(out [][]string, extra map[string]string, known [][]arbiter.Match) {
	reached := map[string]int{} // the furthest round an entrant is known to play
	lost := map[string]int{}    // the round an entrant lost in
	champion := ""
	ids := p.stageIDs(p.cur, p.ev.Stages[p.cur].Seeds)
	inRound1 := map[string]bool{}
	for _, rd := range known {
		for i := range rd {
			m := &rd[i]
			if m.Format == "third_place" {
				continue
			}
			if m.Round == 1 {
				inRound1[m.Home], inRound1[m.Away] = true, true
			}
			for _, id := range []string{m.Home, m.Away} {
				reached[id] = max(reached[id], m.Round)
			}
			res := ""
			switch {
			case m.Status == arbiter.MatchFinal && m.Result != nil && m.Result.Result == "home_win":
				res = HomeWins
			case m.Status == arbiter.MatchFinal && m.Result != nil && m.Result.Result == "away_win":
				res = AwayWins
			case m.Status != arbiter.MatchFinal:
				res = extra[m.ID]
				if res == "" {
					res = p.fixedFor(p.cur, m)
				}
			}
			w, l := m.Home, m.Away
			switch res {
			case HomeWins:
			case AwayWins:
				w, l = l, w
			default:
				continue
			}
			if m.IsBye() {
				continue
			}
			reached[w] = max(reached[w], m.Round+1)
			lost[l] = m.Round
			if m.Format == "final" {
				champion = w
			}
		}
	}
	if len(known) > 0 {
		for _, id := range ids {
			if !inRound1[id] {
				reached[id] = max(reached[id], 2) // a bye in the first round
			}
		}
	}
	for b, bp := range p.bands {
		for _, id := range ids {
			i := p.idx[id]
			if out[i][b] != "" {
				continue
			}
			switch bp.kind {
			case bandRound:
				switch {
				case reached[id] >= bp.round:
					out[i][b] = Clinched
				case lost[id] > 0 && lost[id] < bp.round:
					out[i][b] = Eliminated
				}
			case bandTitle:
				switch {
				case champion == id:
					out[i][b] = Clinched
				case lost[id] > 0 || champion != "":
					out[i][b] = Eliminated
				}
			}
		}
	}
}
