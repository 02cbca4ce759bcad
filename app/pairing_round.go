package app

import (
	"context"
	"slices"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing"
	"arbiter/pairing/teamswiss"
	"arbiter/sqlstore"
)

// pairedRound is the current stage's latest round with what reviewing and
// editing its pairings need: its matches by board and, in a Swiss stage,
// the engine's input before the round (the same input PairRound paired it
// from), so that the criteria are judged exactly as the engine judged them.
type pairedRound struct {
	stage    arbiter.Stage
	rd       arbiter.Round
	matches  []arbiter.Match   // by board
	entrants []arbiter.Entrant // the stage's, by seed
	byID     map[string]arbiter.Entrant
	edits    []PairingEdit // the TDs' edits of this pairing of the round, in order

	// Swiss stages only (t == nil otherwise): the Dutch engine's input,
	// index from entrant ID to the engine's index (for teams, also the
	// position in ev.Teams), and the team Swiss input.
	t     *pairing.Tournament
	index map[string]int
	ev    *teamswiss.Event
}

// swiss reports whether the round is a Swiss round the engines check.
func (p *pairedRound) swiss() bool { return p.t != nil }

func (p *pairedRound) team() bool { return p.ev != nil }

// loadPairedRound loads the current stage's latest round; ERULE when the
// stage has none yet.
func loadPairedRound(ctx context.Context, q sqlstore.Queryer, st *state) (*pairedRound, error) {
	si := st.ev.Stage
	if st.ev.Status == arbiter.EventRegistration || si >= len(st.ev.Stages) {
		return nil, arbiter.RuleError("app.round", "event %s has no rounds yet", st.ev.Slug)
	}
	rounds, err := stageRounds(ctx, q, st, si)
	if err != nil {
		return nil, err
	}
	if len(rounds) == 0 {
		return nil, arbiter.RuleError("app.round", "no round of stage %s is paired yet", st.ev.Stages[si].Name)
	}
	p := &pairedRound{stage: st.ev.Stages[si], rd: rounds[len(rounds)-1], byID: map[string]arbiter.Entrant{}}
	before := rounds[:len(rounds)-1]
	for _, id := range p.rd.Matches {
		m, err := docMatch.get(ctx, q, st, id)
		if err != nil {
			return nil, err
		}
		p.matches = append(p.matches, m)
	}
	slices.SortFunc(p.matches, func(a, b arbiter.Match) int { return a.Board - b.Board })
	if p.entrants, err = stageEntrants(ctx, q, st, si); err != nil {
		return nil, err
	}
	for _, e := range p.entrants {
		p.byID[e.ID] = e
	}
	if p.edits, err = roundEdits(ctx, q, st, p.rd); err != nil {
		return nil, err
	}
	if p.stage.Kind != format.Swiss {
		return p, nil
	}
	if st.f.Entrant == format.Team {
		if p.ev, err = teamSwissEvent(ctx, q, st, p.stage, before, p.entrants); err != nil {
			return nil, err
		}
		p.index = map[string]int{}
		for i, tm := range p.ev.Teams {
			p.index[tm.ID] = i
		}
		for _, pr := range p.forbiddenHere() {
			p.ev.Forbidden = append(p.ev.Forbidden, teamswiss.ForbiddenGroup{Teams: []string{pr[0], pr[1]}, FirstRound: p.rd.Number, LastRound: p.rd.Number})
		}
		if p.t, err = teamswiss.Tournament(p.ev); err != nil {
			return nil, err
		}
		return p, nil
	}
	if p.t, p.index, err = swissTournament(ctx, q, st, p.stage, before, p.entrants); err != nil {
		return nil, err
	}
	for _, pr := range p.forbiddenHere() {
		p.t.Forbidden = append(p.t.Forbidden, pairing.ForbiddenGroup{Players: []int{p.index[pr[0]], p.index[pr[1]]},
			FirstRound: p.rd.Number, LastRound: p.rd.Number})
	}
	return p, nil
}

// forbiddenHere lists the pairs the TDs forbade in this round's pairing
// (edits of kind forbid).
func (p *pairedRound) forbiddenHere() [][2]string {
	var out [][2]string
	for _, e := range p.edits {
		if e.Kind == EditForbid {
			out = append(out, [2]string{e.Entrants[0], e.Entrants[1]})
		}
	}
	return out
}

// pairs is the round's pairing as the engine's pairs (Home has White, or
// board 1 White for teams; Black -1 for the bye), in board order.
func (p *pairedRound) pairs() []pairing.Pair {
	out := make([]pairing.Pair, 0, len(p.matches))
	for _, m := range p.matches {
		out = append(out, p.pair(m.Home, m.Away))
	}
	return out
}

func (p *pairedRound) pair(home, away string) pairing.Pair {
	pr := pairing.Pair{White: p.index[home], Black: -1}
	if away != "" {
		pr.Black = p.index[away]
	}
	return pr
}

// matchOf returns the position in p.matches of the entrant's match, or -1.
func (p *pairedRound) matchOf(id string) int {
	return slices.IndexFunc(p.matches, func(m arbiter.Match) bool { return m.Home == id || m.Away == id })
}

// name is an entrant's name for messages.
func (p *pairedRound) name(id string) string {
	if e, ok := p.byID[id]; ok && e.Name != "" {
		return e.Name
	}
	return id
}

// idAt is the entrant ID of an engine index ("" for padding).
func (p *pairedRound) idAt(i int) string {
	if i >= 0 && i < len(p.entrants) {
		return p.entrants[i].ID
	}
	return ""
}
