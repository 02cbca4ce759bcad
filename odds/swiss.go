package odds

import (
	"errors"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing"
	"arbiter/pairing/dutch"
	"arbiter/pairing/teamswiss"
)

// swissBoards pairs the next Swiss round of stage s with the Dutch engine
// (teams through package teamswiss) as the app does. The first round a
// run pairs depends only on the few results drawn before it, so its
// pairing is kept for the other runs under a digest of the engine's whole
// input: the same input always gives the same pairing.
func (r *run) swissBoards(s int, ids []string, rounds [][]arbiter.Match) ([][2]string, error) {
	p := r.p
	st := r.stages[s]
	fs := &p.f.Stages[s]
	mp := fs.Match.MatchPoints
	number := len(rounds) + 1
	memo := s == p.cur && len(rounds) == len(p.played)+len(p.predictedRound())
	absent := make([]bool, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		absent[i] = p.removed[p.idx[id]]
		index[id] = i
	}
	if p.f.Entrant == format.Team {
		ev := teamswiss.FromMatches(ids, absent, rounds, teamswiss.Points{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, Bye: mp.Win},
			teamswiss.SecondaryDifference(fs.Tiebreaks), st.Rounds, p.teamColour())
		for _, g := range p.forbidden[s] {
			if in := inStage(g, index); in != nil {
				ev.Forbidden = append(ev.Forbidden, teamswiss.ForbiddenGroup{Teams: in})
			}
		}
		var key [32]byte
		if memo {
			key = teamDigest(ev)
			if b, ok := p.memo.Load(key); ok {
				return b.([][2]string), nil
			}
		}
		pr, err := teamswiss.Pair(ev)
		if err != nil {
			return nil, err
		}
		var boards [][2]string
		for _, b := range pr.Boards {
			boards = append(boards, [2]string{b.Home, b.Away})
		}
		if pr.Bye != "" {
			boards = append(boards, [2]string{pr.Bye, ""})
		}
		if memo {
			p.memo.Store(key, boards)
		}
		return boards, nil
	}
	t := pairing.FromMatches(ids, absent, rounds, mp.Win, mp.Draw, mp.Loss, st.Rounds, p.dutchColour())
	for _, g := range p.forbidden[s] {
		var fg pairing.ForbiddenGroup
		for _, id := range inStage(g, index) {
			fg.Players = append(fg.Players, index[id])
		}
		if fg.Players != nil {
			t.Forbidden = append(t.Forbidden, fg)
		}
	}
	var key [32]byte
	if memo {
		key = dutchDigest(t)
		if b, ok := p.memo.Load(key); ok {
			return b.([][2]string), nil
		}
	}
	ps, err := dutch.Pair(t)
	if errors.Is(err, dutch.ErrNoPairing) {
		return nil, arbiter.Errorf(arbiter.ENOPAIRING, "the Dutch system finds no valid pairing for round %d", number)
	}
	if err != nil {
		return nil, err
	}
	boards := pairing.Boards(t, ids, ps)
	if memo {
		p.memo.Store(key, boards)
	}
	return boards, nil
}

// inStage keeps the entrants of a forbidden group who play the stage.
func inStage(g []string, index map[string]int) []string {
	var out []string
	for _, id := range g {
		if _, ok := index[id]; ok {
			out = append(out, id)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}
