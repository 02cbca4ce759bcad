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
	all, err := docRound.list(ctx, q, st)
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
	all, err := docEntrant.list(ctx, q, st)
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
	// Ratings from Lichess are refreshed before round 1 (ratings.go):
	// outside the transaction, and never stopping the pairing.
	if err := s.ratingsBeforeRoundOne(ctx, a, slug); err != nil {
		return rd, nil, err
	}
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
				m, err := docMatch.get(ctx, tx, st, id)
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
		if si == 0 && number == 1 && s.ratingsFromLichess(st) {
			// Round 1 numbers the entrants by the ratings just refreshed.
			if err := reseed(ctx, tx, st, a); err != nil {
				return err
			}
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
			if m.Version, err = docMatch.create(ctx, tx, ch, st, m.ID, m); err != nil {
				return err
			}
			rd.Matches = append(rd.Matches, m.ID)
			matches = append(matches, m)
		}
		rd.Version, err = docRound.create(ctx, tx, ch, st, rd.ID, rd)
		return err
	})
	return rd, matches, err
}

func stageMatch(f *format.Format, si int) *format.Match { return &f.Stages[si].Match }

// roundCaptains are two teams' captains for the round being paired.
func roundCaptains(ctx context.Context, q sqlstore.Queryer, st *state, home, away string) (string, string, error) {
	h, err := docEntrant.get(ctx, q, st, home)
	if err != nil {
		return "", "", err
	}
	a, err := docEntrant.get(ctx, q, st, away)
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
		e, err := docEntrant.get(ctx, q, st, id)
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
	return berger.RoundMatches(seeds, cycles, number, pool)
}

// knockoutPairs rebuilds the stage's bracket from the winners of its
// earlier rounds and returns the matches of round number. A match whose
// winner is not known (a tie left to the TDs) stops the pairing.
func knockoutPairs(ctx context.Context, q sqlstore.Queryer, st *state, si int, rounds []arbiter.Round, number int, entrants []arbiter.Entrant) ([]arbiter.Match, error) {
	played, err := roundMatches(ctx, q, st, rounds)
	if err != nil {
		return nil, err
	}
	return knockout.RoundMatches(entrantIDs(entrants), st.f.Stages[si].ThirdPlace, played, number, st.ev.Stages[si].MovedUp)
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
	absent := make([]bool, len(entrants))
	index := map[string]int{}
	for i, e := range entrants {
		index[e.ID] = i
		absent[i] = e.Status != arbiter.EntrantApproved
	}
	matches, err := roundMatches(ctx, q, st, rounds)
	if err != nil {
		return nil, nil, err
	}
	t := pairing.FromMatches(entrantIDs(entrants), absent, matches, mp.Win, mp.Draw, mp.Loss, stage.Rounds, dutchColour(st.ev))
	groups, err := forbiddenGroups(ctx, q, st, st.ev.Stage, index)
	if err != nil {
		return nil, nil, err
	}
	for _, g := range groups {
		t.Forbidden = append(t.Forbidden, pairing.ForbiddenGroup{Players: g})
	}
	return t, index, nil
}

// roundMatches loads the matches of each round, in the round's order.
func roundMatches(ctx context.Context, q sqlstore.Queryer, st *state, rounds []arbiter.Round) ([][]arbiter.Match, error) {
	out := make([][]arbiter.Match, len(rounds))
	for i, rd := range rounds {
		for _, id := range rd.Matches {
			m, err := docMatch.get(ctx, q, st, id)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], m)
		}
	}
	return out, nil
}

// orderBoards puts the boards in order of the higher score, then the
// better seed (C.04.2 D), the bye last.
func orderBoards(out [][2]string, t *pairing.Tournament, index map[string]int) {
	pairing.SortBoards(t, index, out)
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
		rd.Version, err = docRound.update(ctx, tx, change(a, "round.publish", "", false), st, rd.ID, rd.Version, rd)
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
	rs, err := docRound.list(ctx, s.DB, st)
	if err != nil {
		return nil, err
	}
	sortRounds(rs)
	return rs, nil
}

// sortRounds orders rounds by stage, then number.
func sortRounds(rs []arbiter.Round) {
	slices.SortFunc(rs, func(a, b arbiter.Round) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		return a.Number - b.Number
	})
}

// Matches lists the matches of one round ("s1r2"), or of every round
// when roundID is empty, by round and board.
func (s *Service) Matches(ctx context.Context, slug, round string) ([]arbiter.Match, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	ms, err := docMatch.list(ctx, s.DB, st)
	if err != nil {
		return nil, err
	}
	out := ms[:0]
	for _, m := range ms {
		if round == "" || roundID(m.Stage, m.Round) == round {
			out = append(out, m)
		}
	}
	sortMatches(out)
	return out, nil
}

// sortMatches orders matches by stage, round, then board.
func sortMatches(ms []arbiter.Match) {
	slices.SortFunc(ms, func(a, b arbiter.Match) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Board - b.Board
	})
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
			m, err := docMatch.get(ctx, tx, st, id)
			if err != nil {
				return err
			}
			if err := docMatch.remove(ctx, tx, ch, st, id, m.Version); err != nil {
				return err
			}
		}
		if err := discardEdits(ctx, tx, st, rd, ch); err != nil {
			return err
		}
		return docRound.remove(ctx, tx, ch, st, rd.ID, rd.Version)
	})
	return rd, err
}
