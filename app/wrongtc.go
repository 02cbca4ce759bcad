package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arbiter"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindTCGrace = "tc_grace"

// TCGrace records the one-time grace a player used for playing in the
// wrong time control (R6); its ID is the player.
type TCGrace struct {
	Player string    `json:"player"`
	Match  string    `json:"match"`
	Set    string    `json:"set"`
	At     time.Time `json:"at"`

	Version int64 `json:"-"`
}

// WrongTimeControl applies R6 to the set (or part) tc of a reported
// match that was played in the wrong time control: within the format's
// first grace rounds of the event, when neither player of the set used
// their one-time grace yet, the set counts normally and both players'
// grace is spent; otherwise the set becomes a full-points draw (half the
// set's points each) and the match result is re-scored and final. TD
// only; audited with the reason. It reports whether the grace applied.
func (s *Service) WrongTimeControl(ctx context.Context, a arbiter.Actor, slug, matchID, tc, reason string) (arbiter.Match, bool, error) {
	var m arbiter.Match
	grace := false
	if err := requireReason(reason, "a wrong time control ruling"); err != nil {
		return m, false, err
	}
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "rule on a wrong time control"); err != nil {
			return err
		}
		if m, err = docMatch.get(ctx, tx, st, matchID); err != nil {
			return err
		}
		if err := requireNotOwnMatch(ctx, tx, st, a, &m, "rule on its time control"); err != nil {
			return err
		}
		m, grace, err = s.ruleWrongTC(ctx, tx, st, a, m, tc, reason)
		return err
	})
	return m, grace, err
}

// ruleWrongTC applies R6 to the set tc of m's current report (see
// WrongTimeControl); the caller checked who acts.
func (s *Service) ruleWrongTC(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match, tc, reason string) (arbiter.Match, bool, error) {
	rule := st.f.WrongTimeControl
	if rule == nil {
		return m, false, arbiter.RuleError("format.wrong_time_control", "format %s has no wrong time control rule", st.f.Name)
	}
	clause := orField(rule.Clause, "format.wrong_time_control")
	if m.Report == "" {
		return m, false, arbiter.RuleError(clause, "match %s has no reported result to rule on", m.ID)
	}
	rep, err := docReport.get(ctx, tx, st, m.Report)
	if err != nil {
		return m, false, err
	}
	sh := rep.Sheet
	if sh == nil {
		return m, false, arbiter.RuleError(clause, "match %s has no match sheet to rule on", m.ID)
	}
	parts := sh.Sets
	if len(parts) == 0 {
		parts = sh.Parts
	}
	idx := -1
	var tcs []string
	for i, p := range parts {
		tcs = append(tcs, p.TC)
		if p.TC == strings.TrimSpace(tc) {
			idx = i
		}
	}
	if idx < 0 {
		return m, false, arbiter.FieldError("set", clause, "match %s's sheet has no set %q (sets: %s)", m.ID, tc, strings.Join(tcs, ", "))
	}
	p := &parts[idx]
	if p.Forfeit != "" {
		return m, false, arbiter.RuleError(clause, "the %s set of match %s was not played (forfeit %s)", p.TC, m.ID, p.Forfeit)
	}
	players := []string{normUser(p.HomePlayer), normUser(p.AwayPlayer)}
	if players[0] == "" || players[1] == "" {
		return m, false, arbiter.FieldError("set", clause, "the sheet does not name the players of the %s set; the grace is per player", p.TC)
	}
	seq := 0
	for _, w := range st.ev.Calendar {
		if w.Stage == m.Stage && w.Number == m.Round {
			seq = w.Seq
		}
	}
	used := false
	for _, pl := range players {
		_, err := docTCGrace.get(ctx, tx, st, pl)
		switch {
		case err == nil:
			used = true
		case arbiter.ErrorCode(err) != arbiter.ENOTFOUND:
			return m, false, err
		}
	}
	why := fmt.Sprintf("%s: %s set of %s played in the wrong time control: %s", clause, p.TC, m.ID, reason)
	if seq <= rule.GraceRounds && !used {
		ch := change(a, "result.wrong_tc_grace", why, false)
		for _, pl := range players {
			g := TCGrace{Player: pl, Match: m.ID, Set: p.TC, At: s.now()}
			if _, err := docTCGrace.create(ctx, tx, ch, st, pl, g); err != nil {
				return m, false, err
			}
		}
		return m, true, nil
	}
	*p = score.PartSheet{TC: p.TC, HomePlayer: p.HomePlayer, AwayPlayer: p.AwayPlayer, Forfeit: score.ForfeitFullDraw}
	sc, err := st.scoreSheet(&m, sh, "", nil)
	if err != nil {
		return m, false, err
	}
	m, err = s.setResult(ctx, tx, st, a, m, sc, "wrong_time_control", why, 0)
	return m, false, err
}

// ruleMarkedSets applies R6 to every set the final report marked as
// played in the wrong time control (ResultInput.WrongTimeControl), once
// the result stands (confirmed, TD-confirmed, accepted at the deadline or
// entered by a TD).
func (s *Service) ruleMarkedSets(ctx context.Context, tx *sqlstore.Tx, st *state, a arbiter.Actor, m arbiter.Match) (arbiter.Match, error) {
	if m.Report == "" {
		return m, nil
	}
	rep, err := docReport.get(ctx, tx, st, m.Report)
	if err != nil {
		return m, err
	}
	for _, tc := range rep.WrongTC {
		if m, _, err = s.ruleWrongTC(ctx, tx, st, a, m, tc, "marked on the report"); err != nil {
			return m, err
		}
	}
	return m, nil
}
