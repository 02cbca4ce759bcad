package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing"
	"arbiter/pairing/berger"
	"arbiter/pairing/dutch"
	"arbiter/pairing/knockout"
	"arbiter/score"
	"arbiter/sqlstore"
)

func roundID(stage, number int) string { return fmt.Sprintf("s%dr%d", stage+1, number) }

func matchID(stage, number, board int) string {
	return roundID(stage, number) + "b" + strconv.Itoa(board)
}

// stageRounds returns the stage's rounds in order.
func stageRounds(ctx context.Context, q sqlstore.Queryer, st *state, stage int) ([]arbiter.Round, error) {
	all, err := list[arbiter.Round](ctx, q, st, kindRound)
	if err != nil {
		return nil, err
	}
	var out []arbiter.Round
	for _, r := range all {
		if r.Stage == stage {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b arbiter.Round) int { return a.Number - b.Number })
	return out, nil
}

// approvedBySeed lists the entrants admitted to the event (approved, or
// approved and later removed by a sanction) in seed order.
func approvedBySeed(ctx context.Context, q sqlstore.Queryer, st *state) ([]arbiter.Entrant, error) {
	all, err := list[arbiter.Entrant](ctx, q, st, kindEntrant)
	if err != nil {
		return nil, err
	}
	var out []arbiter.Entrant
	for _, e := range all {
		// Removed entrants keep their seed and history; the pairing
		// engines skip them.
		if e.Status == arbiter.EntrantApproved || e.Status == arbiter.EntrantRemoved {
			out = append(out, e)
		}
	}
	sortBySeed(out)
	return out, nil
}

func (st *state) window(stage, number int) (arbiter.RoundWindow, bool) {
	for _, w := range st.ev.Calendar {
		if w.Stage == stage && w.Number == number {
			return w, true
		}
	}
	return arbiter.RoundWindow{}, false
}

// PairRound pairs the next round of the current stage with the stage's
// engine (Swiss: FIDE Dutch, for teams through package teamswiss; round robin: Berger tables; knockout: the
// seeded bracket's first round) and stores it for the TDs' review; nothing
// is public until PublishRound. The previous round must be closed. TD only.
func (s *Service) PairRound(ctx context.Context, a arbiter.Actor, slug string) (arbiter.Round, []arbiter.Match, error) {
	var rd arbiter.Round
	var matches []arbiter.Match
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "pair a round"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("app.event", "event %s is %s: rounds are paired while it is running", slug, st.ev.Status)
		}
		si := st.ev.Stage
		stage := st.ev.Stages[si]
		rounds, err := stageRounds(ctx, tx, st, si)
		if err != nil {
			return err
		}
		number := len(rounds) + 1
		if len(rounds) > 0 && rounds[len(rounds)-1].Status != arbiter.RoundClosed {
			last := rounds[len(rounds)-1]
			return arbiter.RuleError("app.round", "round %d of %s is %s: close it before pairing the next", last.Number, stage.Name, last.Status)
		}
		if len(rounds) > 0 {
			var open []string
			for _, id := range rounds[len(rounds)-1].Matches {
				m, err := get[arbiter.Match](ctx, tx, st, kindMatch, id)
				if err != nil {
					return err
				}
				if m.Status != arbiter.MatchFinal {
					open = append(open, m.ID)
				}
			}
			if len(open) > 0 {
				return arbiter.RuleError("app.round", "decide the disputed results first (override): %s", strings.Join(open, ", "))
			}
		}
		if number > stage.Rounds {
			return arbiter.RuleError("app.round", "stage %s has only %d rounds, all paired", stage.Name, stage.Rounds)
		}
		w, ok := st.window(si, number)
		if !ok {
			return arbiter.Errorf(arbiter.EINTERNAL, "no calendar window for %s round %d", stage.Name, number)
		}
		// A13: a captain change takes effect with the next round.
		if err := applyCaptains(ctx, tx, st, a, w.Seq); err != nil {
			return err
		}
		entrants, err := stageEntrants(ctx, tx, st, si)
		if err != nil {
			return err
		}
		removed := map[string]bool{}
		for _, e := range entrants {
			removed[e.ID] = e.Status == arbiter.EntrantRemoved
		}
		var pairs []arbiter.Match // Home, Away ("" for a bye), Pool, Bracket, Format
		var method string
		cycles := max(1, st.f.Stages[si].Cycles)
		switch stage.Kind {
		case format.Swiss:
			var ps [][2]string
			method = "dutch"
			if st.f.Entrant == format.Team {
				// Teams: match points, then the secondary score inside a
				// scoregroup; colour = board 1 / game 1 (package teamswiss).
				ps, err = teamSwissPairs(ctx, tx, st, stage, rounds, entrants)
				method = "teamswiss"
			} else {
				ps, err = swissPairs(ctx, tx, st, stage, rounds, entrants)
			}
			for _, p := range ps {
				pairs = append(pairs, arbiter.Match{Home: p[0], Away: p[1]})
			}
		case format.RoundRobin:
			method = "berger"
			pairs, err = bergerPairs(entrantIDs(entrants), cycles, number, "")
		case format.Pool:
			method = "berger"
			for _, pool := range stage.Pools {
				var ps []arbiter.Match
				if ps, err = bergerPairs(pool.Seeds, cycles, number, pool.Name); err != nil {
					break
				}
				pairs = append(pairs, ps...)
			}
		case format.Knockout:
			method = "bracket"
			pairs, err = knockoutPairs(ctx, tx, st, si, rounds, number, entrants)
		default:
			return arbiter.Errorf(arbiter.EINTERNAL, "unknown stage kind %q", stage.Kind)
		}
		if err != nil {
			return err
		}
		now := s.now()
		rd = arbiter.Round{ID: roundID(si, number), Stage: si, Number: number, Status: arbiter.RoundPaired,
			Start: w.Start, End: w.End, Method: method, PairedAt: now}
		ch := change(a, "round.pair", "", false)
		matches = nil
		for i, m := range pairs {
			m.ID, m.Stage, m.Round, m.Board, m.Status = matchID(si, number, i+1), si, number, i+1, arbiter.MatchScheduled
			gone := removed[m.Home] || removed[m.Away]
			switch {
			case gone && (stage.Kind == format.RoundRobin || stage.Kind == format.Pool):
				// W17 candidates: a removed player's games are disregarded.
				m.Status, m.Decision = arbiter.MatchFinal, "disregarded"
			case gone && !m.IsBye():
				// A removed entrant's pairing goes to the opponent (A8, W17).
				f := score.ForfeitHome
				if removed[m.Home] {
					f = score.ForfeitAway
				}
				sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
				if err != nil {
					return err
				}
				m.Status, m.Result, m.Decision = arbiter.MatchFinal, &sc.outcome, "opponent_removed"
			case m.IsBye():
				byeMatch(st, &m)
			}
			if st.f.Entrant == format.Team && !m.IsBye() {
				// A20 needs the round's captains (A13: as paired).
				if m.HomeCaptain, m.AwayCaptain, err = roundCaptains(ctx, tx, st, m.Home, m.Away); err != nil {
					return err
				}
			}
			if st.f.Lineups == format.LineupBoards && !m.IsBye() {
				if m.HomeBoards, err = pairedBoards(ctx, tx, st, m.Home); err != nil {
					return err
				}
				if m.AwayBoards, err = pairedBoards(ctx, tx, st, m.Away); err != nil {
					return err
				}
			}
			if m.Version, err = sqlstore.Create(ctx, tx, ch, st.row.ID, kindMatch, m.ID, m); err != nil {
				return err
			}
			rd.Matches = append(rd.Matches, m.ID)
			matches = append(matches, m)
		}
		rd.Version, err = sqlstore.Create(ctx, tx, ch, st.row.ID, kindRound, rd.ID, rd)
		return err
	})
	return rd, matches, err
}

func stageMatch(f *format.Format, si int) *format.Match { return &f.Stages[si].Match }

// roundCaptains are two teams' captains for the round being paired.
func roundCaptains(ctx context.Context, q sqlstore.Queryer, st *state, home, away string) (string, string, error) {
	h, err := get[arbiter.Entrant](ctx, q, st, kindEntrant, home)
	if err != nil {
		return "", "", err
	}
	a, err := get[arbiter.Entrant](ctx, q, st, kindEntrant, away)
	return h.Captain, a.Captain, err
}

// stageEntrants lists a stage's entrants in seed order: every approved
// entrant for the first stage, the seeds the previous stage produced after.
func stageEntrants(ctx context.Context, q sqlstore.Queryer, st *state, si int) ([]arbiter.Entrant, error) {
	if si == 0 {
		return approvedBySeed(ctx, q, st)
	}
	var out []arbiter.Entrant
	for _, id := range st.ev.Stages[si].Seeds {
		e, err := get[arbiter.Entrant](ctx, q, st, kindEntrant, id)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func entrantIDs(es []arbiter.Entrant) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// bergerPairs is round number of the Berger schedule for the seeds in order.
func bergerPairs(seeds []string, cycles, number int, pool string) ([]arbiter.Match, error) {
	sched, err := berger.Schedule(len(seeds), cycles)
	if err != nil {
		return nil, err
	}
	if number > len(sched) {
		return nil, arbiter.RuleError("app.round", "the round robin has %d rounds", len(sched))
	}
	r := sched[number-1]
	var out []arbiter.Match
	for _, p := range r.Pairs {
		out = append(out, arbiter.Match{Home: seeds[p.White-1], Away: seeds[p.Black-1], Pool: pool})
	}
	if r.Bye > 0 {
		out = append(out, arbiter.Match{Home: seeds[r.Bye-1], Pool: pool})
	}
	return out, nil
}

// knockoutPairs rebuilds the stage's bracket from the winners of its
// earlier rounds and returns the matches of round number. A match whose
// winner is not known (a tie left to the TDs) stops the pairing.
func knockoutPairs(ctx context.Context, q sqlstore.Queryer, st *state, si int, rounds []arbiter.Round, number int, entrants []arbiter.Entrant) ([]arbiter.Match, error) {
	b, err := knockout.New(len(entrants), knockout.Options{ThirdPlace: st.f.Stages[si].ThirdPlace})
	if err != nil {
		return nil, err
	}
	seed := map[string]int{}
	for i, e := range entrants {
		seed[e.ID] = i + 1
	}
	for _, rd := range rounds {
		for _, id := range rd.Matches {
			m, err := get[arbiter.Match](ctx, q, st, kindMatch, id)
			if err != nil {
				return nil, err
			}
			if m.IsBye() || m.Bracket == "" {
				continue
			}
			var w string
			switch {
			case m.Result != nil && m.Result.Result == "home_win":
				w = m.Home
			case m.Result != nil && m.Result.Result == "away_win":
				w = m.Away
			default:
				return nil, arbiter.RuleError("app.knockout", "knockout match %s has no winner: a TD sets the result with the tie procedure (a match sheet with \"tie\")", m.ID)
			}
			if err := b.SetWinner(m.Bracket, seed[w]); err != nil {
				return nil, err
			}
		}
	}
	if number > len(b.Rounds) {
		return nil, arbiter.RuleError("app.round", "the bracket has %d rounds", len(b.Rounds))
	}
	var out []arbiter.Match
	last := number == len(b.Rounds)
	for _, km := range b.Rounds[number-1].Matches {
		if km.Walkover {
			continue // a bye: the seed already stands in the next round
		}
		if km.HomeSeed == 0 || km.AwaySeed == 0 {
			return nil, arbiter.Errorf(arbiter.EINTERNAL, "bracket match %s is not ready", km.ID)
		}
		m := arbiter.Match{Home: entrants[km.HomeSeed-1].ID, Away: entrants[km.AwaySeed-1].ID, Bracket: km.ID}
		up := st.ev.Stages[si].MovedUp
		switch {
		case km.ThirdPlace:
			m.Format = "third_place"
			// W17: a semifinal loser who moved up to the final leaves the
			// third-place match to the other, who is third (a bye).
			for _, l := range up {
				switch l {
				case m.Home:
					m.Home, m.Away = m.Away, ""
				case m.Away:
					m.Away = ""
				}
			}
		case last:
			m.Format = "final"
		}
		if l, ok := up[m.Home]; ok && m.Format != "third_place" {
			m.Home = l
		}
		if l, ok := up[m.Away]; ok && m.Format != "third_place" {
			m.Away = l
		}
		out = append(out, m)
	}
	return out, nil
}

// swissPairs pairs a Swiss round with the Dutch engine from the results of
// the stage's earlier rounds. Entrants are indexed by seed (pairing number).
// The top seed's round-1 colour is the event's lot (Event.InitialColour).
func swissPairs(ctx context.Context, q sqlstore.Queryer, st *state, stage arbiter.Stage, rounds []arbiter.Round, entrants []arbiter.Entrant) ([][2]string, error) {
	t, index, err := swissTournament(ctx, q, st, stage, rounds, entrants)
	if err != nil {
		return nil, err
	}
	ps, err := dutch.Pair(t)
	if errors.Is(err, dutch.ErrNoPairing) {
		return nil, arbiter.Errorf(arbiter.ENOPAIRING, "the Dutch system finds no valid pairing for round %d", len(rounds)+1)
	}
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, p := range ps {
		if p.Black < 0 {
			out = append(out, [2]string{entrants[p.White].ID, ""})
			continue
		}
		out = append(out, [2]string{entrants[p.White].ID, entrants[p.Black].ID})
	}
	orderBoards(out, t, index)
	return out, nil
}

// swissTournament is the Swiss stage before the round after rounds, as the
// Dutch engine sees it: entrants indexed by seed (pairing number), their
// histories, and the TDs' forbidden pairings. index maps entrant IDs to
// the engine's indexes.
func swissTournament(ctx context.Context, q sqlstore.Queryer, st *state, stage arbiter.Stage, rounds []arbiter.Round, entrants []arbiter.Entrant) (*pairing.Tournament, map[string]int, error) {
	mp := stageMatch(st.f, st.ev.Stage).MatchPoints
	t := &pairing.Tournament{PlayedRounds: len(rounds), TotalRounds: stage.Rounds, InitialColour: dutchColour(st.ev),
		Points: pairing.PointSystem{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, ForfeitLoss: mp.Loss, PairingBye: mp.Win}}
	index := map[string]int{}
	for i, e := range entrants {
		index[e.ID] = i
		t.Players = append(t.Players, pairing.Player{ID: i + 1, Games: make([]pairing.Game, len(rounds)), Absent: e.Status != arbiter.EntrantApproved})
	}
	for ri, r := range rounds {
		for i := range t.Players { // absent unless paired
			t.Players[i].Games[ri] = pairing.Game{Opponent: -1}
		}
		for _, id := range r.Matches {
			m, err := get[arbiter.Match](ctx, q, st, kindMatch, id)
			if err != nil {
				return nil, nil, err
			}
			h, okh := index[m.Home]
			if !okh {
				continue
			}
			if m.IsBye() {
				t.Players[h].Games[ri] = pairing.Game{Opponent: -1, Outcome: pairing.Win, Paired: true}
				continue
			}
			aw, oka := index[m.Away]
			if !oka {
				continue
			}
			ho, ao, played := outcomes(m.Result, mp)
			t.Players[h].Games[ri] = pairing.Game{Opponent: aw, Colour: pairing.White, Outcome: ho, Played: played, Paired: true}
			t.Players[aw].Games[ri] = pairing.Game{Opponent: h, Colour: pairing.Black, Outcome: ao, Played: played, Paired: true}
			if !played {
				t.Players[h].Games[ri].Colour, t.Players[aw].Games[ri].Colour = pairing.NoColour, pairing.NoColour
			}
		}
	}
	for i := range t.Players {
		for _, g := range t.Players[i].Games {
			t.Players[i].Score += t.Points.For(g)
		}
	}
	groups, err := forbiddenGroups(ctx, q, st, st.ev.Stage, index)
	if err != nil {
		return nil, nil, err
	}
	for _, g := range groups {
		t.Forbidden = append(t.Forbidden, pairing.ForbiddenGroup{Players: g})
	}
	return t, index, nil
}

// orderBoards puts the boards in order of the higher score, then the
// better seed (C.04.2 D), the bye last.
func orderBoards(out [][2]string, t *pairing.Tournament, index map[string]int) {
	slices.SortStableFunc(out, func(a, b [2]string) int {
		if (a[1] == "") != (b[1] == "") {
			if a[1] == "" {
				return 1
			}
			return -1
		}
		sa := max(t.Players[index[a[0]]].Score, scoreOf(t, index, a[1]))
		sb := max(t.Players[index[b[0]]].Score, scoreOf(t, index, b[1]))
		if sa != sb {
			return int(sb - sa)
		}
		return min(index[a[0]], indexOr(index, a[1])) - min(index[b[0]], indexOr(index, b[1]))
	})
}

func scoreOf(t *pairing.Tournament, index map[string]int, id string) arbiter.Points {
	if id == "" {
		return 0
	}
	return t.Players[index[id]].Score
}

func indexOr(index map[string]int, id string) int {
	if id == "" {
		return 1 << 30
	}
	return index[id]
}

// outcomes turns a final match result into each side's outcome for the
// pairing engine; played is false for forfeits and unfinished matches.
func outcomes(o *arbiter.Outcome, mp format.MatchPoints) (home, away pairing.Outcome, played bool) {
	if o == nil {
		return pairing.Loss, pairing.Loss, false
	}
	class := func(p arbiter.Points) pairing.Outcome {
		switch {
		case p == mp.Win && p != mp.Draw:
			return pairing.Win
		case p == mp.Draw:
			return pairing.Draw
		}
		return pairing.Loss
	}
	return class(o.Home.MatchPoints), class(o.Away.MatchPoints), o.Decision == "played" || o.Decision == ""
}

// PublishRound makes the paired round public; results may then be
// reported. TD only.
func (s *Service) PublishRound(ctx context.Context, a arbiter.Actor, slug string) (arbiter.Round, error) {
	var rd arbiter.Round
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "publish a round"); err != nil {
			return err
		}
		rounds, err := stageRounds(ctx, tx, st, st.ev.Stage)
		if err != nil {
			return err
		}
		if len(rounds) == 0 || rounds[len(rounds)-1].Status != arbiter.RoundPaired {
			return arbiter.RuleError("app.round", "no paired round waits for publication")
		}
		rd = rounds[len(rounds)-1]
		rd.Status, rd.PublishedAt = arbiter.RoundPublished, s.now()
		rd.Version, err = sqlstore.Update(ctx, tx, change(a, "round.publish", "", false), st.row.ID, kindRound, rd.ID, rd.Version, rd)
		return err
	})
	return rd, err
}

// Rounds lists the event's rounds, stage by stage.
func (s *Service) Rounds(ctx context.Context, slug string) ([]arbiter.Round, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	rs, err := list[arbiter.Round](ctx, s.DB, st, kindRound)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(rs, func(a, b arbiter.Round) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		return a.Number - b.Number
	})
	return rs, nil
}

// Matches lists the matches of one round ("s1r2"), or of every round
// when roundID is empty, by round and board.
func (s *Service) Matches(ctx context.Context, slug, round string) ([]arbiter.Match, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	ms, err := list[arbiter.Match](ctx, s.DB, st, kindMatch)
	if err != nil {
		return nil, err
	}
	out := ms[:0]
	for _, m := range ms {
		if round == "" || roundID(m.Stage, m.Round) == round {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b arbiter.Match) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Board - b.Board
	})
	return out, nil
}

// DiscardRound throws away a paired round that is not published yet, so
// that the TDs can pair it again after their review (e.g. after a late
// withdrawal). TD only; the deletions are audited with the reason.
func (s *Service) DiscardRound(ctx context.Context, a arbiter.Actor, slug, reason string) (arbiter.Round, error) {
	var rd arbiter.Round
	if err := requireReason(reason, "discarding pairings"); err != nil {
		return rd, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "discard pairings"); err != nil {
			return err
		}
		rounds, err := stageRounds(ctx, tx, st, st.ev.Stage)
		if err != nil {
			return err
		}
		if len(rounds) == 0 || rounds[len(rounds)-1].Status != arbiter.RoundPaired {
			return arbiter.RuleError("app.round", "only a paired round that is not published yet can be discarded")
		}
		rd = rounds[len(rounds)-1]
		ch := change(a, "round.discard", reason, true)
		for _, id := range rd.Matches {
			m, err := get[arbiter.Match](ctx, tx, st, kindMatch, id)
			if err != nil {
				return err
			}
			if err := sqlstore.Delete(ctx, tx, ch, st.row.ID, kindMatch, id, m.Version); err != nil {
				return err
			}
		}
		if err := discardEdits(ctx, tx, st, rd, ch); err != nil {
			return err
		}
		return sqlstore.Delete(ctx, tx, ch, st.row.ID, kindRound, rd.ID, rd.Version)
	})
	return rd, err
}
