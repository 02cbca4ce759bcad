package teamswiss

import (
	"fmt"
	"sort"

	"arbiter"
	"arbiter/pairing"
)

// model is an Event checked and mapped onto the Dutch engine's input.
type model struct {
	ev     *Event
	played int
	seeds  []int            // by team index
	second []arbiter.Points // secondary totals by team index
	order  []int            // team indexes in pairing order
	t      *pairing.Tournament
}

// build validates ev and maps it onto a pairing.Tournament. Team i is
// Players[i]; Players beyond len(ev.Teams) are absent padding (see ids).
func build(ev *Event) (*model, error) {
	if ev == nil || len(ev.Teams) == 0 {
		return nil, arbiter.FieldError("teams", "teamswiss.teams", "no teams to pair")
	}
	if err := checkPoints(ev.Points); err != nil {
		return nil, err
	}
	m := &model{ev: ev, played: len(ev.Teams[0].Rounds)}
	if ev.TotalRounds < m.played+1 {
		return nil, arbiter.FieldError("total_rounds", "teamswiss.total_rounds",
			"the stage has %s and %d are already paired: there is no round to pair", arbiter.Count(ev.TotalRounds, "round"), m.played)
	}
	initial := pairing.White
	switch ev.InitialColour {
	case White:
	case Black:
		initial = pairing.Black
	default:
		return nil, arbiter.FieldError("initial_colour", "teamswiss.initial_colour",
			"the top seed's round-1 board-1 colour is drawn by lot: want white or black, got %q", ev.InitialColour)
	}
	index := make(map[string]int, len(ev.Teams))
	for i, tm := range ev.Teams {
		f := fmt.Sprintf("teams[%d]", i)
		if tm.ID == "" {
			return nil, arbiter.FieldError(f+".id", "teamswiss.team.id", "a team needs an id")
		}
		if _, dup := index[tm.ID]; dup {
			return nil, arbiter.FieldError(f+".id", "teamswiss.team.id", "team %q is listed twice", tm.ID)
		}
		index[tm.ID] = i
		if len(tm.Rounds) != m.played {
			return nil, arbiter.FieldError(f+".rounds", "teamswiss.team.rounds",
				"team %q has %s, team %q has %d: every team lists every paired round (absent rounds included)",
				tm.ID, arbiter.Count(len(tm.Rounds), "round"), ev.Teams[0].ID, m.played)
		}
	}
	var err error
	if m.seeds, err = seeds(ev.Teams); err != nil {
		return nil, err
	}
	ps := pairing.PointSystem{Win: ev.Points.Win, Draw: ev.Points.Draw, Loss: ev.Points.Loss,
		ZeroBye: ev.Points.Loss, ForfeitLoss: ev.Points.Loss, PairingBye: ev.Points.Bye}
	t := &pairing.Tournament{PlayedRounds: m.played, TotalRounds: ev.TotalRounds,
		InitialColour: initial, Points: ps}
	m.t = t
	m.second = make([]arbiter.Points, len(ev.Teams))
	t.Players = make([]pairing.Player, len(ev.Teams))
	for i, tm := range ev.Teams {
		p := &t.Players[i]
		p.Absent = tm.Withdrawn
		p.Games = make([]pairing.Game, m.played)
		for r, rd := range tm.Rounds {
			g, err := m.game(index, i, r, rd)
			if err != nil {
				return nil, err
			}
			p.Games[r] = g
			p.Score += ps.For(g)
			m.second[i] += rd.Secondary
			if ev.ForfeitBlocksRematch && g.Opponent > i && !g.Played {
				t.Forbidden = append(t.Forbidden, pairing.ForbiddenGroup{Players: []int{i, g.Opponent}})
			}
		}
	}
	if err := m.forbidden(index); err != nil {
		return nil, err
	}
	m.rank()
	return m, nil
}

func checkPoints(p Points) error {
	if p.Loss < 0 || p.Draw <= p.Loss || p.Win <= p.Draw {
		return arbiter.FieldError("points", "teamswiss.points",
			"match points must satisfy win > draw > loss >= 0, got %s / %s / %s", p.Win, p.Draw, p.Loss)
	}
	if p.Bye < p.Loss || p.Bye > p.Win {
		return arbiter.FieldError("points.bye", "teamswiss.points",
			"the bye's match points (%s) must lie between a loss (%s) and a win (%s)", p.Bye, p.Loss, p.Win)
	}
	return nil
}

// seeds returns the starting rank of each team: as given, or by rating
// average (descending, ties in input order) when no team has one.
func seeds(teams []Team) ([]int, error) {
	out := make([]int, len(teams))
	given := 0
	for _, tm := range teams {
		if tm.Seed != 0 {
			given++
		}
	}
	if given == 0 {
		order := make([]int, len(teams))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return teams[order[a]].Rating > teams[order[b]].Rating })
		for rank, i := range order {
			out[i] = rank + 1
		}
		return out, nil
	}
	seen := make([]bool, len(teams)+1)
	for i, tm := range teams {
		f := fmt.Sprintf("teams[%d].seed", i)
		if tm.Seed < 1 || tm.Seed > len(teams) {
			return nil, arbiter.FieldError(f, "teamswiss.team.seed",
				"seeds are 1..%d (every team has one, or none has), got %d for %q", len(teams), tm.Seed, tm.ID)
		}
		if seen[tm.Seed] {
			return nil, arbiter.FieldError(f, "teamswiss.team.seed", "seed %d is given to two teams", tm.Seed)
		}
		seen[tm.Seed] = true
		out[i] = tm.Seed
	}
	return out, nil
}

// game maps team i's round r onto the engine's Game, checking it against the
// opponent's record of the same round.
func (m *model) game(index map[string]int, i, r int, rd Round) (pairing.Game, error) {
	ev := m.ev
	f := fmt.Sprintf("teams[%d].rounds[%d]", i, r)
	bad := func(field, format string, args ...any) (pairing.Game, error) {
		return pairing.Game{}, arbiter.FieldError(f+field, "teamswiss.round", format, args...)
	}
	outcome := func(mp arbiter.Points) (pairing.Outcome, bool) {
		switch mp {
		case ev.Points.Win:
			return pairing.Win, true
		case ev.Points.Draw:
			return pairing.Draw, true
		case ev.Points.Loss:
			return pairing.Loss, true
		}
		return pairing.Loss, false
	}
	me := ev.Teams[i].ID
	switch rd.Result {
	case Bye, Absent:
		if rd.Opponent != "" {
			return bad(".opponent", "a %s has no opponent, got %q", rd.Result, rd.Opponent)
		}
		if rd.Result == Bye {
			if rd.MatchPoints != ev.Points.Bye {
				return bad(".match_points", "the bye is worth %s match points, got %s", ev.Points.Bye, rd.MatchPoints)
			}
			return pairing.Game{Opponent: -1, Outcome: pairing.Win, Paired: true}, nil
		}
		o, ok := outcome(rd.MatchPoints)
		if !ok {
			return bad(".match_points", "match points must be a win, draw or loss (%s / %s / %s), got %s",
				ev.Points.Win, ev.Points.Draw, ev.Points.Loss, rd.MatchPoints)
		}
		return pairing.Game{Opponent: -1, Outcome: o}, nil
	case Played, Forfeit, DoubleForfeit:
	default:
		return bad(".result", "want played, forfeit, double_forfeit, bye or absent, got %q", rd.Result)
	}
	oi, ok := index[rd.Opponent]
	if !ok {
		return bad(".opponent", "no team %q", rd.Opponent)
	}
	if oi == i {
		return bad(".opponent", "team %q cannot meet itself", me)
	}
	ord := ev.Teams[oi].Rounds[r]
	if ord.Opponent != me || ord.Result != rd.Result {
		return bad(".opponent", "team %q's round %d says opponent %q (%s), not %q (%s)",
			rd.Opponent, r+1, ord.Opponent, ord.Result, me, rd.Result)
	}
	mine, ok1 := outcome(rd.MatchPoints)
	theirs, ok2 := outcome(ord.MatchPoints)
	if !ok1 || !ok2 {
		return bad(".match_points", "match points must be a win, draw or loss (%s / %s / %s), got %s v %s",
			ev.Points.Win, ev.Points.Draw, ev.Points.Loss, rd.MatchPoints, ord.MatchPoints)
	}
	g := pairing.Game{Opponent: oi, Outcome: mine, Paired: true}
	switch rd.Result {
	case Played:
		if mine+theirs != pairing.Win {
			return bad(".match_points", "a played match is won/lost or drawn, got %s v %s", rd.MatchPoints, ord.MatchPoints)
		}
		if rd.White == ord.White {
			return bad(".white", "exactly one of %q and %q has White on board 1", me, rd.Opponent)
		}
		g.Played = true
		g.Colour = pairing.Black
		if rd.White {
			g.Colour = pairing.White
		}
	case Forfeit:
		if mine+theirs != pairing.Win || mine == pairing.Draw {
			return bad(".match_points", "a forfeited match is a win for one team and a loss for the other, got %s v %s",
				rd.MatchPoints, ord.MatchPoints)
		}
	case DoubleForfeit:
		if mine != theirs || mine == pairing.Win {
			return bad(".match_points", "a double forfeit scores the same loss (R5) or draw (A5) for both, got %s v %s",
				rd.MatchPoints, ord.MatchPoints)
		}
	}
	return g, nil
}

func (m *model) forbidden(index map[string]int) error {
	for gi, fg := range m.ev.Forbidden {
		f := fmt.Sprintf("forbidden[%d]", gi)
		if len(fg.Teams) < 2 {
			return arbiter.FieldError(f+".teams", "teamswiss.forbidden", "a forbidden group names at least two teams")
		}
		if fg.FirstRound < 0 || fg.LastRound < 0 || (fg.LastRound > 0 && fg.LastRound < fg.FirstRound) {
			return arbiter.FieldError(f, "teamswiss.forbidden", "bad round range %d..%d", fg.FirstRound, fg.LastRound)
		}
		g := pairing.ForbiddenGroup{FirstRound: fg.FirstRound, LastRound: fg.LastRound}
		for k, id := range fg.Teams {
			i, ok := index[id]
			if !ok {
				return arbiter.FieldError(fmt.Sprintf("%s.teams[%d]", f, k), "teamswiss.forbidden", "no team %q", id)
			}
			g.Players = append(g.Players, i)
		}
		m.t.Forbidden = append(m.t.Forbidden, g)
	}
	return nil
}

// rank orders the teams for the round to pair (present teams by match points
// desc, secondary desc, seed asc; then withdrawn teams the same way) and sets
// the engine's pairing numbers. The engine ranks players by pairing number and
// its colour rule 5.2.5 (initial colour by the parity of the higher ranked
// player's rank) must keep reading the original seed's parity, so an absent
// padding player is slipped in wherever a present team's rank would otherwise
// have the wrong parity; absent players take no part in the pairing.
func (m *model) rank() {
	n := len(m.ev.Teams)
	t := m.t
	m.order = make([]int, n)
	for i := range m.order {
		m.order[i] = i
	}
	sort.Slice(m.order, func(a, b int) bool {
		x, y := m.order[a], m.order[b]
		if t.Players[x].Absent != t.Players[y].Absent {
			return !t.Players[x].Absent
		}
		if t.Players[x].Score != t.Players[y].Score {
			return t.Players[x].Score > t.Players[y].Score
		}
		if m.second[x] != m.second[y] {
			return m.second[x] > m.second[y]
		}
		return m.seeds[x] < m.seeds[y]
	})
	next := 0 // 0-based engine rank of the next player
	for _, i := range m.order {
		if !t.Players[i].Absent && next&1 != (m.seeds[i]-1)&1 {
			pad := pairing.Player{ID: next + 1, Absent: true, Games: make([]pairing.Game, m.played)}
			for r := range pad.Games {
				pad.Games[r] = pairing.Game{Opponent: -1}
			}
			t.Players = append(t.Players, pad)
			next++
		}
		t.Players[i].ID = next + 1
		next++
	}
}

// ranked returns the pairing order.
func (m *model) ranked() []Ranked {
	out := make([]Ranked, len(m.order))
	for k, i := range m.order {
		out[k] = Ranked{ID: m.ev.Teams[i].ID, MatchPoints: m.t.Players[i].Score, Secondary: m.second[i],
			Seed: m.seeds[i], TPN: k + 1, Withdrawn: m.t.Players[i].Absent}
	}
	return out
}
