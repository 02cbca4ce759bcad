package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindBoards = "boards"

// BoardTeam is an antichess team's board lineup record (A12-A16), as
// stored: package lineup's Team and the TDs' board order.
type BoardTeam struct {
	Entrant string      `json:"entrant"`
	Team    lineup.Team `json:"team"`
	// TDOrder is the TDs' board order (A12: by rating); the captain's
	// final list may differ only by interchanges the TDs allowed.
	TDOrder []string `json:"td_order"`

	Version int64 `json:"-"`
}

// boardsEvent loads what every board-lineup action needs: the event (with
// "lineups": "boards"), the team and its record (ENOTFOUND before the TDs
// ranked it), and whether the actor is a TD or else the team's captain.
func boardsEvent(ctx context.Context, tx *sqlstore.Tx, slug, entrantID string, a arbiter.Actor) (*state, arbiter.Entrant, bool, error) {
	var e arbiter.Entrant
	st, err := load(ctx, tx, slug)
	if err != nil {
		return nil, e, false, err
	}
	if err := requireActor(a); err != nil {
		return nil, e, false, err
	}
	if st.f.Lineups != format.LineupBoards {
		return nil, e, false, arbiter.RuleError("format.lineups", "format %s has no board lineups (A12-A16: \"lineups\": \"boards\")", st.f.Name)
	}
	if st.ev.Status != arbiter.EventRunning {
		return nil, e, false, arbiter.RuleError("app.event", "event %s is %s: board lineups are for a running event", slug, st.ev.Status)
	}
	if e, err = docEntrant.get(ctx, tx, st, strings.ToLower(entrantID)); err != nil {
		return nil, e, false, err
	}
	if e.Kind != arbiter.EntrantTeam || e.Status != arbiter.EntrantApproved {
		return nil, e, false, arbiter.RuleError("app.lineup", "%s is not a team in the event", e.ID)
	}
	td, err := isTD(ctx, tx, st, a)
	if err != nil {
		return nil, e, false, err
	}
	if !td && !(a.Role == arbiter.RoleCaptain && e.Captain == normUser(a.Name)) {
		return nil, e, false, arbiter.Errorf(arbiter.EFORBIDDEN, "only the captain of %s or a TD may change its lineup", e.ID)
	}
	return st, e, td, nil
}

// nextRound is the event-wide Seq of the next round to pair and whether
// it lies in a knockout stage; 0 when every round is paired.
func nextRound(ctx context.Context, q sqlstore.Queryer, st *state) (int, bool, error) {
	rs, err := docRound.list(ctx, q, st)
	if err != nil {
		return 0, false, err
	}
	seq := len(rs) + 1
	if seq > len(st.ev.Calendar) {
		return 0, false, nil
	}
	w := st.ev.Calendar[seq-1]
	return seq, st.ev.Stages[w.Stage].Kind == format.Knockout, nil
}

func saveBoards(ctx context.Context, tx *sqlstore.Tx, st *state, ch sqlstore.Change, bt *BoardTeam, e *arbiter.Entrant, create bool) error {
	var err error
	if create {
		bt.Version, err = docBoards.create(ctx, tx, ch, st, bt.Entrant, *bt)
	} else {
		bt.Version, err = docBoards.update(ctx, tx, ch, st, bt.Entrant, bt.Version, *bt)
	}
	if err != nil {
		return err
	}
	e.Boards = slices.Clone(bt.Team.Boards)
	e.Version, err = docEntrant.update(ctx, tx, ch, st, e.ID, e.Version, *e)
	return err
}

func getBoards(ctx context.Context, q sqlstore.Queryer, st *state, id string) (BoardTeam, error) {
	bt, err := docBoards.get(ctx, q, st, id)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return bt, arbiter.Errorf(arbiter.ENOTFOUND, "the TDs have not ranked %s's boards yet (A12)", id)
	}
	return bt, err
}

// RankBoards is the TDs' board order of a team (A12): the members with
// their ratings (and A13/A16 flags) ranked by rating, the top ones on the
// boards (A9: 4, or 3 with fewer than 10 teams), the rest substitutes
// (A14); comparable lists the pairs the TDs allow to trade places (A12
// interchanges, A14 substitutions). The registered captain leads from
// round 1 unless a change is recorded. TD only; may be given again.
func (s *Service) RankBoards(ctx context.Context, a arbiter.Actor, slug, entrantID string, members []lineup.Member, comparable lineup.Comparable) (BoardTeam, error) {
	var bt BoardTeam
	// A11: the last board of the new order (and anyone off the boards).
	if err := s.boardsTeamRules(ctx, a, slug, entrantID, func(st *state, _ *BoardTeam) []string {
		ms := slices.Clone(members)
		var names []string
		for i := range ms {
			ms[i].Name = normUser(ms[i].Name)
			names = append(names, ms[i].Name)
		}
		order := lineup.RankByRating(ms)
		return lastBoards(order[:min(len(order), boardRules(st).Boards)], names)
	}); err != nil {
		return bt, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, e, td, err := boardsEvent(ctx, tx, slug, entrantID, a)
		if err != nil {
			return err
		}
		if !td {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "only a TD ranks a team's boards (A12)")
		}
		var names []string
		for i := range members {
			members[i].Name = normUser(members[i].Name)
			names = append(names, members[i].Name)
		}
		users := e.Users()
		if len(names) != len(users) || slices.ContainsFunc(users, func(u string) bool { return !slices.Contains(names, u) }) {
			return arbiter.FieldError("members", "A12", "give every member of %s with a rating: %s", e.ID, strings.Join(users, ", "))
		}
		old, err := getBoards(ctx, tx, st, e.ID)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return err
		}
		rules := boardRules(st)
		order := lineup.RankByRating(members)
		if len(order) < rules.Boards {
			return arbiter.FieldError("members", "A9", "%s has %d members for %d boards", e.ID, len(order), rules.Boards)
		}
		t := old.Team
		t.Members, t.Boards, t.Comparable = members, order[:rules.Boards], comparable
		if len(t.Captains) == 0 {
			t.Captains = []lineup.CaptainTerm{{Name: e.Captain, From: 1}}
		}
		if err := rules.Validate(t); err != nil {
			return err
		}
		bt = BoardTeam{Entrant: e.ID, Team: t, TDOrder: slices.Clone(t.Boards), Version: old.Version}
		return saveBoards(ctx, tx, st, change(a, "lineup.rank", "A12", false), &bt, &e, create)
	})
	return bt, err
}

// SubmitBoards is the captain's final board list (A12): the TDs' order
// with only the interchanges they allowed, before the next pairings. The
// captain or a TD submits.
func (s *Service) SubmitBoards(ctx context.Context, a arbiter.Actor, slug, entrantID string, boards []string) (BoardTeam, error) {
	var bt BoardTeam
	if err := s.boardsTeamRules(ctx, a, slug, entrantID, func(_ *state, old *BoardTeam) []string {
		var final, names []string
		for _, b := range boards {
			final = append(final, normUser(b))
		}
		for _, m := range old.Team.Members {
			names = append(names, m.Name)
		}
		return lastBoards(final, names)
	}); err != nil {
		return bt, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, e, _, err := boardsEvent(ctx, tx, slug, entrantID, a)
		if err != nil {
			return err
		}
		if bt, err = getBoards(ctx, tx, st, e.ID); err != nil {
			return err
		}
		if seq, _, err := nextRound(ctx, tx, st); err != nil {
			return err
		} else if seq == 0 {
			return arbiter.RuleError("A12", "every round is paired")
		}
		final := make([]string, len(boards))
		for i, b := range boards {
			final[i] = normUser(b)
		}
		if err := lineup.CheckOrder(bt.TDOrder, final, bt.Team.Comparable); err != nil {
			return err
		}
		bt.Team.Boards = final
		return saveBoards(ctx, tx, st, change(a, "lineup.boards", "A12", false), &bt, &e, false)
	})
	return bt, err
}

// SubstituteBoard lets a member off the boards (the optional fifth
// member) replace a comparable player on their board for the next round
// (A14), announced before its pairings; in the knockout only after the
// team won its match (A14.1) and never the captain (A15). The captain or a
// TD announces it.
func (s *Service) SubstituteBoard(ctx context.Context, a arbiter.Actor, slug, entrantID, in, out string) (BoardTeam, error) {
	var bt BoardTeam
	if err := s.boardsTeamRules(ctx, a, slug, entrantID, func(_ *state, old *BoardTeam) []string {
		boards := slices.Clone(old.Team.Boards)
		if i := slices.Index(boards, normUser(out)); i >= 0 {
			boards[i] = normUser(in)
		}
		var names []string
		for _, m := range old.Team.Members {
			names = append(names, m.Name)
		}
		return lastBoards(boards, names)
	}); err != nil {
		return bt, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, e, _, err := boardsEvent(ctx, tx, slug, entrantID, a)
		if err != nil {
			return err
		}
		if bt, err = getBoards(ctx, tx, st, e.ID); err != nil {
			return err
		}
		seq, ko, err := nextRound(ctx, tx, st)
		if err != nil {
			return err
		}
		if seq == 0 {
			return arbiter.RuleError("A14", "every round is paired")
		}
		now := s.now()
		sc := lineup.SubContext{Round: seq, NextPairings: now.Add(time.Nanosecond), Knockout: ko, MatchFinished: true, MatchWon: true}
		if ko && seq > 1 && st.ev.Stages[st.ev.Calendar[seq-2].Stage].Kind == format.Knockout {
			// A14.1: the team's match of the current knockout round.
			sc.MatchFinished, sc.MatchWon = false, false
			ms, err := docMatch.list(ctx, tx, st)
			if err != nil {
				return err
			}
			prev := st.ev.Calendar[seq-2]
			for _, m := range ms {
				if m.Stage != prev.Stage || m.Round != prev.Number || (m.Home != e.ID && m.Away != e.ID) || m.Format == "third_place" {
					continue
				}
				sc.MatchFinished = m.Status == arbiter.MatchFinal
				sc.MatchWon = m.Result != nil && (m.Result.Result == "home_win" && m.Home == e.ID || m.Result.Result == "away_win" && m.Away == e.ID)
			}
		}
		rules := boardRules(st)
		t, err := rules.Substitute(bt.Team, normUser(in), normUser(out), sc, now)
		if err != nil {
			return err
		}
		i := slices.Index(bt.TDOrder, normUser(out))
		if i >= 0 {
			bt.TDOrder[i] = normUser(in)
		}
		bt.Team = t
		return saveBoards(ctx, tx, st, change(a, "lineup.substitute", "A14: "+normUser(in)+" for "+normUser(out), false), &bt, &e, false)
	})
	return bt, err
}

// ChangeCaptain records a new captain for a team from the next round to
// pair on (A13): the team's own change (its captain acting), once per
// event; or a TD's replacement (A16, with a reason), which does not use
// the team's change. Neither a TD of the event nor a comm-banned member
// may be captain (A13, A16). The entrant's captain changes when that round
// is paired.
func (s *Service) ChangeCaptain(ctx context.Context, a arbiter.Actor, slug, entrantID, name, reason string) (BoardTeam, error) {
	var bt BoardTeam
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, e, td, err := boardsEvent(ctx, tx, slug, entrantID, a)
		if err != nil {
			return err
		}
		if td {
			if err := requireReason(reason, "a TD's captain replacement (A16)"); err != nil {
				return err
			}
		}
		if bt, err = getBoards(ctx, tx, st, e.ID); err != nil {
			return err
		}
		seq, _, err := nextRound(ctx, tx, st)
		if err != nil {
			return err
		}
		if seq == 0 {
			return arbiter.RuleError("A13", "every round is paired: a captain change has no future round")
		}
		rules := boardRules(st)
		t, err := rules.ChangeCaptain(bt.Team, normUser(name), seq-1, td)
		if err != nil {
			return err
		}
		bt.Team = t
		ch := change(a, "entrant.captain_change", "A13: "+normUser(name)+" from round "+strconv.Itoa(seq)+": "+reason, td)
		if seq == 1 {
			e.Captain = t.CaptainAt(1)
		}
		return saveBoards(ctx, tx, st, ch, &bt, &e, false)
	})
	return bt, err
}

// applyCaptains makes each board-lineup team's captain the one whose term
// covers round seq (A13: changes take effect for future rounds).
func applyCaptains(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, seq int) error {
	if st.f.Lineups != format.LineupBoards {
		return nil
	}
	bts, err := docBoards.list(ctx, tx, st)
	if err != nil {
		return err
	}
	for _, bt := range bts {
		c := bt.Team.CaptainAt(seq)
		e, err := docEntrant.get(ctx, tx, st, bt.Entrant)
		if err != nil {
			return err
		}
		if c == "" || c == e.Captain || e.Status != arbiter.EntrantApproved {
			continue
		}
		e.Captain = c
		if _, err := docEntrant.update(ctx, tx, change(a, "entrant.captain_term", "A13: captain from round "+strconv.Itoa(seq), false), st, e.ID, e.Version, e); err != nil {
			return err
		}
	}
	return nil
}

// pairedBoards is a team's board list for the round being paired (A12,
// A14: changes are announced before the pairings), nil when the TDs have
// not ranked its boards.
func pairedBoards(ctx context.Context, q sqlstore.Queryer, st *state, id string) ([]string, error) {
	bt, err := getBoards(ctx, q, st, id)
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return slices.Clone(bt.Team.Boards), nil
}

// checkBoardPlayers refuses a sheet naming a board player other than the
// team's player on that board for the match's round (the board list as
// paired): A12 when the player is on the team's list but on another board,
// A14 when they are not on the list (an unannounced substitution). A
// reopened match is replayed by the team's replacement (A15), whom the
// paired list does not know, so it is not checked.
func checkBoardPlayers(m *arbiter.Match, sh *score.Sheet) error {
	if m.Decision == "reopened" {
		return nil
	}
	for i, b := range sh.Boards {
		for _, side := range []struct {
			field, name, team string
			list              []string
		}{{"home_player", b.HomePlayer, m.Home, m.HomeBoards}, {"away_player", b.AwayPlayer, m.Away, m.AwayBoards}} {
			if side.name == "" || len(side.list) == 0 || b.Board < 1 || b.Board > len(side.list) {
				continue
			}
			got, want := normUser(side.name), side.list[b.Board-1]
			if got == want {
				continue
			}
			rule := "A14"
			if slices.Contains(side.list, got) {
				rule = "A12"
			}
			return arbiter.FieldError(fmt.Sprintf("boards[%d].%s", i, side.field), rule,
				"board %d of %s in match %s is %s's (board list %s: A12 board order, A14 substitutions), the sheet says %s",
				b.Board, side.team, m.ID, want, strings.Join(side.list, ", "), side.name)
		}
	}
	return nil
}

// boardsTeamRules runs A11's team check on the board list a lineup action
// would make (board4 gives its board-4 candidates from the event and the
// team's record, empty before the TDs' ranking) and refuses it when the
// check fails (requireTeamRules). An actor the action refuses anyway, or
// a team that is not one, is left to the action's own checks.
func (s *Service) boardsTeamRules(ctx context.Context, a arbiter.Actor, slug, entrantID string, board4 func(st *state, old *BoardTeam) []string) error {
	st, err := load(ctx, s.DB, slug)
	if err != nil || !teamRulesApply(st.f) || st.ev.Status != arbiter.EventRunning {
		return nil
	}
	old, err := getBoards(ctx, s.DB, st, normUser(entrantID))
	if err != nil && arbiter.ErrorCode(err) != arbiter.ENOTFOUND {
		return err
	}
	// Only for who may act: the team's captain or a TD (the action refuses
	// anyone else, and Lichess is not asked for them).
	e, err := docEntrant.get(ctx, s.DB, st, normUser(entrantID))
	if err != nil || requireActor(a) != nil {
		return nil
	}
	td, err := isTD(ctx, s.DB, st, a)
	if err != nil {
		return err
	}
	if !td && !(a.Role == arbiter.RoleCaptain && e.Captain == normUser(a.Name)) {
		return nil
	}
	cands := board4(st, &old)
	if len(cands) == 0 {
		return nil
	}
	return s.requireTeamRules(ctx, slug, entrantID, TeamRulesRequest{Board4: cands})
}
