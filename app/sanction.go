package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/pairing/knockout"
	"arbiter/sanction"
	"arbiter/score"
	"arbiter/sqlstore"
	"arbiter/standings"
)

const kindSanction = "sanction"

// Sanction reasons accepted by Sanction, by name.
var sanctionReasons = map[string]sanction.Reason{
	"withdrawal":       sanction.Withdrawal,
	"disqualification": sanction.Disqualification,
	"tos_violation":    sanction.TOSViolation,
	"lichess_ban":      sanction.LichessBan,
	"ineligible":       sanction.Ineligible,
	"engine_mark":      sanction.EngineMark,
	"booster_mark":     sanction.BoosterMark,
}

// SanctionRequest asks for a withdrawal or disqualification of an entrant,
// or in a team event of one of its members (Player).
type SanctionRequest struct {
	Entrant string
	Player  string // team events: the member sanctioned
	// Kind is withdrawal, disqualification, tos_violation, lichess_ban,
	// ineligible, engine_mark or booster_mark.
	Kind string
	// NotForCheating: a Lichess-banned player proved the ban was not for
	// cheating (A8).
	NotForCheating bool
	Reason         string
}

// Sanction removes an entrant from the pairings (withdrawal,
// disqualification, ban) and applies what the rulebook says happens to its
// matches (package sanction: R14, A1, A2, A8, A9, W17): results kept,
// awarded or adjudicated to the opponents, full forfeits, or disregarded.
// Every changed match is audited as a TD override with the clause and the
// reason. In team events a member is sanctioned: the team's matches bear
// the effects, the member leaves the team, and the team is out when the
// rulebook says so (A15: the captain, or a second player). In an ACWC
// knockout the players below move up (W17, first knockout round only).
// TD only; the three presets' rulebooks (replacements and reopened
// matches, A8, are not done yet).
func (s *Service) Sanction(ctx context.Context, a arbiter.Actor, slug string, req SanctionRequest) (arbiter.Sanction, []arbiter.Match, error) {
	var out arbiter.Sanction
	var changed []arbiter.Match
	if err := requireReason(req.Reason, "a sanction"); err != nil {
		return out, nil, err
	}
	reason, ok := sanctionReasons[req.Kind]
	if !ok {
		return out, nil, arbiter.FieldError("kind", "app.sanction", "unknown sanction %q (withdrawal, disqualification, tos_violation, lichess_ban, ineligible, engine_mark, booster_mark)", req.Kind)
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		changed = nil // the transaction may run again after a conflict
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "sanction an entrant"); err != nil {
			return err
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("app.event", "event %s is %s: sanctions apply while it runs", slug, st.ev.Status)
		}
		rb, ok := sanctionRulebook(st.f)
		if !ok {
			return arbiter.RuleError("format.sanctions", "format %s names no rulebook whose sanction rules apply (sanctions: rkcc, antichess or acwc)", st.f.Name)
		}
		e, err := docEntrant.get(ctx, tx, st, strings.ToLower(req.Entrant))
		if err != nil {
			return err
		}
		if err := requireNotOwnEntrant(st, a, e, "sanction it"); err != nil {
			return err
		}
		if e.Status != arbiter.EntrantApproved {
			return arbiter.RuleError("app.sanction", "entrant %s is %s", e.ID, e.Status)
		}
		si := st.ev.Stage
		kind := map[string]sanction.StageKind{format.Swiss: sanction.Swiss, format.RoundRobin: sanction.RoundRobin,
			format.Pool: sanction.RoundRobin, format.Knockout: sanction.Knockout}[st.ev.Stages[si].Kind]
		all, err := docMatch.list(ctx, tx, st)
		if err != nil {
			return err
		}
		byID := map[string]arbiter.Match{}
		prior, err := docSanction.list(ctx, tx, st)
		if err != nil {
			return err
		}
		var clauses []string
		c := sanction.Case{Rulebook: rb, Stage: kind, Subject: e.ID, Reason: reason, NotForCheating: req.NotForCheating}
		player := e.Player
		if e.Kind == arbiter.EntrantTeam {
			// A team member is sanctioned; the team's matches bear the effects.
			player = normUser(req.Player)
			if player == "" || !slices.Contains(e.Users(), player) {
				return arbiter.FieldError("player", "app.sanction", "name the member of %s who is sanctioned (members: %s)", e.ID, strings.Join(e.Users(), ", "))
			}
			tc := &sanction.TeamContext{Captain: e.Captain == player}
			for _, p := range prior {
				if p.Entrant == e.ID {
					tc.PriorDQs++
				}
			}
			c.Team = tc
		}
		for _, m := range all {
			if m.IsBye() || m.Home != e.ID && m.Away != e.ID || rb == sanction.ACWC && m.Stage != si {
				continue // W17 speaks of the current stage only
			}
			byID[m.ID] = m
			c.Matches = append(c.Matches, sanction.Match{ID: m.ID, Sides: [2]string{m.Home, m.Away}, Completed: m.Status == arbiter.MatchFinal})
		}
		res, err := sanction.Decide(c)
		if err != nil {
			return err
		}
		if res.MoveUp {
			moved, err := s.moveUp(ctx, tx, st, a, e.ID, fmt.Sprintf("W17: %s of %s: %s", reason, e.ID, req.Reason))
			if err != nil {
				return err
			}
			changed = append(changed, moved...)
			res.Changes = nil // the pairings were redone
			clauses = append(clauses, "W17")
		}
		var notes []string
		for _, chg := range res.Changes {
			if !strings.Contains(strings.Join(clauses, ","), chg.Clause) {
				clauses = append(clauses, chg.Clause)
			}
			m := byID[chg.MatchID]
			why := fmt.Sprintf("%s: %s of %s: %s", chg.Clause, reason, e.ID, req.Reason)
			if e.Kind == arbiter.EntrantTeam && chg.Effect != sanction.Keep {
				// The member's own boards or sets (R14, A2, A8).
				why = fmt.Sprintf("%s: %s of %s (%s): %s", chg.Clause, reason, player, e.ID, req.Reason)
				got, ok, note, err := s.sanctionMember(ctx, tx, st, a, m, chg, e.ID, player, res.TeamOut, why)
				if err != nil {
					return err
				}
				if note != "" {
					notes = append(notes, note)
				}
				if ok {
					changed = append(changed, got)
				}
				continue
			}
			switch chg.Effect {
			case sanction.Keep:
				continue
			case sanction.AdjudicateOpponent, sanction.FullForfeit:
				if m.Result == nil || m.Result.Decision != string(standings.Played) {
					continue // no game was played: no result of the player's to give away (W17: "finished games")
				}
				fallthrough
			case sanction.AwardOpponent:
				f := score.ForfeitHome
				if chg.Beneficiary == m.Away {
					f = score.ForfeitAway
				}
				sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
				if err != nil {
					return err
				}
				if m, err = s.setResult(ctx, tx, st, a, m, sc, "sanction", why, 0); err != nil {
					return err
				}
			case sanction.Reopen:
				// A8: a ban proven not for cheating reopens the completed
				// match; the team's replacement (A15) plays it again and a TD
				// enters the replay's result.
				if m.Report != "" {
					rep, err := docReport.get(ctx, tx, st, m.Report)
					if err != nil {
						return err
					}
					rep.Status = arbiter.ReportSuperseded
					if _, err := docReport.update(ctx, tx, change(a, "result.reopen", why, true), st, rep.ID, rep.Version, rep); err != nil {
						return err
					}
				}
				m.Status, m.Result, m.Report, m.Decision = arbiter.MatchScheduled, nil, "", "reopened"
				if m.Version, err = docMatch.update(ctx, tx, change(a, "result.reopen", why, true), st, m.ID, m.Version, m); err != nil {
					return err
				}
			case sanction.Disregard:
				m.Status, m.Result, m.Decision = arbiter.MatchFinal, nil, "disregarded"
				if m.Version, err = docMatch.update(ctx, tx, change(a, "result.disregard", why, true), st, m.ID, m.Version, m); err != nil {
					return err
				}
			default:
				return arbiter.RuleError(chg.Clause, "%s of match %s is not implemented yet", chg.Effect, m.ID)
			}
			changed = append(changed, m)
		}
		rule := strings.Join(clauses, ",")
		ch := change(a, "entrant.remove", fmt.Sprintf("%s: %s", reason, req.Reason), true)
		if e.Kind == arbiter.EntrantTeam && !res.TeamOut {
			// The member leaves the team (R16: barred from every team);
			// a captain's team names a new one (R14) with SetCaptain.
			ch.Action = "entrant.remove_member"
			e.Members = slices.DeleteFunc(e.Members, func(u string) bool { return u == player })
			e.Boards = slices.DeleteFunc(e.Boards, func(u string) bool { return u == player })
			if e.Substitute == player {
				e.Substitute = ""
			}
			if e.Captain == player {
				e.Captain = ""
			}
		} else {
			e.Status, e.Reason = arbiter.EntrantRemoved, req.Reason
		}
		if _, err := docEntrant.update(ctx, tx, ch, st, e.ID, e.Version, e); err != nil {
			return err
		}
		kindText := req.Kind
		if res.TeamOut {
			kindText += " (team out)"
		}
		out = arbiter.Sanction{ID: fmt.Sprintf("x%d", len(prior)+1), Entrant: e.ID, Player: player, Kind: kindText, Rule: rule,
			Reason: req.Reason, By: normUser(a.Name), At: s.now(), Notes: notes}
		_, err = docSanction.create(ctx, tx, ch, st, out.ID, out)
		return err
	})
	return out, changed, err
}

// Sanctions lists the event's sanctions.
func (s *Service) Sanctions(ctx context.Context, slug string) ([]arbiter.Sanction, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return docSanction.list(ctx, s.DB, st)
}

// SetCaptain names a team's captain among its members (after the captain
// was removed, R14; or a change the TDs approve, A13). TD only.
func (s *Service) SetCaptain(ctx context.Context, a arbiter.Actor, slug, entrantID, user string) (arbiter.Entrant, error) {
	var e arbiter.Entrant
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "name a captain"); err != nil {
			return err
		}
		e, err = docEntrant.get(ctx, tx, st, strings.ToLower(entrantID))
		if err != nil {
			return err
		}
		u := normUser(user)
		if e.Kind != arbiter.EntrantTeam || !slices.Contains(e.Members, u) {
			return arbiter.FieldError("captain", "A11", "the captain is one of the team's members (%s)", strings.Join(e.Members, ", "))
		}
		e.Captain = u
		e.Version, err = docEntrant.update(ctx, tx, change(a, "entrant.captain", "", false), st, e.ID, e.Version, e)
		return err
	})
	return e, err
}

// moveUp applies W17 in a knockout: the removed entrant leaves the stage
// and the entrants ranked below in the previous stage move up one place
// (in their pool, for a cross-pool knockout). Only before any match of the
// knockout's first round is decided: its pairings are then made again
// from the new seeds; later rounds are not supported.
func (s *Service) moveUp(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, gone, why string) ([]arbiter.Match, error) {
	si := st.ev.Stage
	if si == 0 {
		return nil, arbiter.RuleError("W17", "a first-stage knockout has no ranking to move up from")
	}
	rounds, err := stageRounds(ctx, tx, st, si)
	if err != nil {
		return nil, err
	}
	if len(rounds) > 1 || len(rounds) == 1 && decided(ctx, tx, st, rounds[0]) {
		return s.moveUpFinal(ctx, tx, st, a, gone, why, rounds)
	}
	prev := st.ev.Stages[si-1]
	without := func(ids []string) []string {
		return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == gone })
	}
	var seeds []string
	if prev.Kind == format.Pool {
		var perPool [][]string
		adv := st.f.Stages[si-1].Pools[0].Advance
		for _, p := range prev.Pools {
			t, err := stageTable(ctx, tx, st, si-1, p.Name)
			if err != nil {
				return nil, err
			}
			if t, err = withoutRemoved(ctx, tx, st, t); err != nil {
				return nil, err
			}
			var ids []string
			for _, r := range t.Rows {
				ids = append(ids, r.ID)
			}
			perPool = append(perPool, without(ids))
		}
		if seeds, err = knockout.CrossPoolSeeds(perPool, adv); err != nil {
			return nil, err
		}
	} else {
		t, err := stageTable(ctx, tx, st, si-1, "")
		if err != nil {
			return nil, err
		}
		if t, err = withoutRemoved(ctx, tx, st, t); err != nil {
			return nil, err
		}
		var ids []string
		for _, r := range t.Rows {
			ids = append(ids, r.ID)
		}
		ids = without(ids)
		n := len(st.ev.Stages[si].Seeds)
		if len(ids) < n {
			return nil, arbiter.RuleError("W17", "nobody is left to move up")
		}
		seeds = ids[:n]
	}
	st.ev.Stages[si].Seeds = seeds
	ch := change(a, "stage.move_up", why, true)
	if err := st.save(ctx, tx, ch); err != nil {
		return nil, err
	}
	if len(rounds) == 0 {
		return nil, nil // not paired yet: the new seeds will be
	}
	rd := rounds[0]
	entrants, err := stageEntrants(ctx, tx, st, si)
	if err != nil {
		return nil, err
	}
	pairs, err := knockoutPairs(ctx, tx, st, si, nil, 1, entrants)
	if err != nil {
		return nil, err
	}
	var out []arbiter.Match
	for i, id := range rd.Matches {
		m, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return nil, err
		}
		p := pairs[i]
		if m.Home == p.Home && m.Away == p.Away {
			continue
		}
		if m.Status != arbiter.MatchScheduled {
			return nil, arbiter.RuleError("W17", "match %s is already %s; moving up would change it", m.ID, m.Status)
		}
		m.Home, m.Away, m.Bracket, m.Format = p.Home, p.Away, p.Bracket, p.Format
		if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// sanctionRulebook is the sanction policy the format names (its
// "sanctions" field); ok is false when it names none.
func sanctionRulebook(f *format.Format) (sanction.Rulebook, bool) {
	switch f.Sanctions {
	case format.SanctionsRKCC:
		return sanction.RKCC, true
	case format.SanctionsAntichess:
		return sanction.Antichess, true
	case format.SanctionsACWC:
		return sanction.ACWC, true
	}
	return 0, false
}

// decided reports whether every match of the round has a final result.
func decided(ctx context.Context, q sqlstore.Queryer, st *state, rd arbiter.Round) bool {
	for _, id := range rd.Matches {
		m, err := docMatch.get(ctx, q, st, id)
		if err != nil || m.Status != arbiter.MatchFinal {
			return false
		}
	}
	return true
}

// moveUpFinal applies W17 after the knockout's semifinals (a bracket of
// four): a finalist who leaves before the final is played is replaced in
// the final by the semifinal opponent they beat, the player directly below
// them; that player's place in the third-place match goes to the other
// semifinal loser, who is third. A semifinal loser who leaves loses the
// third-place match to the opponent. Larger brackets are refused.
func (s *Service) moveUpFinal(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, gone, why string, rounds []arbiter.Round) ([]arbiter.Match, error) {
	si := st.ev.Stage
	if len(st.ev.Stages[si].Seeds) != 4 {
		return nil, arbiter.RuleError("W17", "moving up after the first knockout round is implemented for the final of four players only")
	}
	ch := change(a, "stage.move_up", why, true)
	var loser string
	for _, id := range rounds[0].Matches {
		m, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return nil, err
		}
		if m.Result == nil || m.Status != arbiter.MatchFinal {
			continue
		}
		switch {
		case m.Home == gone && m.Result.Result == "home_win":
			loser = m.Away
		case m.Away == gone && m.Result.Result == "away_win":
			loser = m.Home
		}
	}
	var out []arbiter.Match
	if len(rounds) == 1 {
		if loser == "" {
			return nil, nil // a semifinal loser: the pairing gives the third-place match away
		}
		if st.ev.Stages[si].MovedUp == nil {
			st.ev.Stages[si].MovedUp = map[string]string{}
		}
		st.ev.Stages[si].MovedUp[gone] = loser
		return nil, st.save(ctx, tx, ch)
	}
	for _, id := range rounds[1].Matches {
		m, err := docMatch.get(ctx, tx, st, id)
		if err != nil {
			return nil, err
		}
		var opp string
		switch {
		case m.Format == "final" && loser != "" && (m.Home == gone || m.Away == gone):
			if m.Status != arbiter.MatchScheduled {
				return nil, arbiter.RuleError("W17", "the final %s is already %s", m.ID, m.Status)
			}
			if m.Home == gone {
				m.Home = loser
			} else {
				m.Away = loser
			}
			if m.Version, err = docMatch.update(ctx, tx, ch, st, m.ID, m.Version, m); err != nil {
				return nil, err
			}
			out = append(out, m)
			continue
		case m.Format == "third_place" && loser != "" && (m.Home == loser || m.Away == loser):
			opp = loser // the moved-up player leaves the third-place match
		case m.Format == "third_place" && (m.Home == gone || m.Away == gone):
			opp = gone
		default:
			continue
		}
		if m.Status == arbiter.MatchFinal {
			return nil, arbiter.RuleError("W17", "the third-place match %s is already decided", m.ID)
		}
		f := score.ForfeitHome
		if m.Home == opp {
			f = score.ForfeitAway
		}
		sc, err := st.score(&m, ResultInput{Summary: "forfeit:" + f})
		if err != nil {
			return nil, err
		}
		if m, err = s.setResult(ctx, tx, st, a, m, sc, "moved_up", why, 0); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
