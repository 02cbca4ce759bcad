package app

import (
	"context"
	"fmt"
	"strings"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
	"arbiter/score"
	"arbiter/sqlstore"
)

const kindLineup = "lineup"

// Lineups is one team's lineups over an event (RKCC R7-R9), as stored.
type Lineups struct {
	Entrant string          `json:"entrant"`
	Book    lineup.RKCCBook `json:"book"`

	Version int64 `json:"-"`
}

// SubmitLineup records a team's lineup (the player of each set, in the
// format's set order) for round seq (1-based over the event). It follows
// package lineup's RKCC rules: due before the round start, replaced freely
// until then; afterwards only the team's one-time correction within 24 h
// (R7.1, never in round 1). The team's captain or a TD submits. Only the
// RKCC preset's set lineups are supported.
func (s *Service) SubmitLineup(ctx context.Context, a arbiter.Actor, slug, entrantID string, seq int, sets []string) (Lineups, error) {
	return s.lineup(ctx, a, slug, entrantID, seq, sets, nil)
}

// WildCard plays the Swiss winner's wild card in a knockout round (R9):
// one swap of two players of the round's lineup within 24 h of the
// pairings, once per knockout round. The captain or a TD plays it.
func (s *Service) WildCard(ctx context.Context, a arbiter.Actor, slug, entrantID string, seq int, x, y string) (Lineups, error) {
	return s.lineup(ctx, a, slug, entrantID, seq, nil, &[2]string{x, y})
}

func (s *Service) lineup(ctx context.Context, a arbiter.Actor, slug, entrantID string, seq int, sets []string, wild *[2]string) (Lineups, error) {
	var out Lineups
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireActor(a); err != nil {
			return err
		}
		if st.f.Lineups != format.LineupSets {
			return arbiter.RuleError("format.lineups", "format %s has no per-set lineups (R7-R9: \"lineups\": \"sets\")", st.f.Name)
		}
		if st.ev.Status != arbiter.EventRunning {
			return arbiter.RuleError("R7", "event %s is %s: lineups are for the rounds of a running event", slug, st.ev.Status)
		}
		e, err := docEntrant.get(ctx, tx, st, strings.ToLower(entrantID))
		if err != nil {
			return err
		}
		td, err := isTD(ctx, tx, st, a)
		if err != nil {
			return err
		}
		if !td && !(a.Role == arbiter.RoleCaptain && e.Captain == normUser(a.Name) && e.Status == arbiter.EntrantApproved) {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "only the captain of %s or a TD submits its lineup", e.ID)
		}
		if seq < 1 || seq > len(st.ev.Calendar) {
			return arbiter.FieldError("round", "R7", "no round %d (the event has %d)", seq, len(st.ev.Calendar))
		}
		w := st.ev.Calendar[seq-1]
		rd := lineup.Round{Seq: seq, Start: w.Start, Knockout: st.ev.Stages[w.Stage].Kind == format.Knockout}
		if r, err := docRound.get(ctx, tx, st, roundID(w.Stage, w.Number)); err == nil {
			rd.Pairings = r.PublishedAt
		}
		out, err = docLineup.get(ctx, tx, st, e.ID)
		create := arbiter.ErrorCode(err) == arbiter.ENOTFOUND
		if err != nil && !create {
			return err
		}
		if create {
			out = Lineups{Entrant: e.ID, Book: lineup.NewRKCCBook(setRules(st.f))}
		}
		var book lineup.RKCCBook
		if wild != nil {
			// R9: the Swiss winner is the knockout stage's first seed.
			holder := false
			for _, stg := range st.ev.Stages {
				if stg.Kind == format.Knockout && len(stg.Seeds) > 0 {
					holder = stg.Seeds[0] == e.ID
				}
			}
			book, err = out.Book.WildCard(rd, normUser(wild[0]), normUser(wild[1]), e.Users(), holder, s.now())
		} else {
			for i := range sets {
				sets[i] = normUser(sets[i])
			}
			book, err = out.Book.Submit(rd, lineup.Lineup{Sets: sets}, e.Users(), s.now())
		}
		if err != nil {
			return err
		}
		out.Book = book
		action := "lineup.submit"
		if wild != nil {
			action = "lineup.wild_card"
		}
		ch := change(a, action, "", false)
		if create {
			out.Version, err = docLineup.create(ctx, tx, ch, st, e.ID, out)
		} else {
			out.Version, err = docLineup.update(ctx, tx, ch, st, e.ID, out.Version, out)
		}
		return err
	})
	return out, err
}

// Lineup returns the lineup a team plays in round seq: its own, or the
// latest earlier one (R7), and the round it was submitted for. The viewer
// u sees it if they are a TD of the event or the team's captain or member,
// anyone else only from the round's start, its deadline (R7: nobody picks
// a lineup knowing the other side's); before then it is EFORBIDDEN.
func (s *Service) Lineup(ctx context.Context, u *arbiter.User, slug, entrantID string, seq int) (lineup.Lineup, int, error) {
	var out lineup.Lineup
	var from int
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		id := strings.ToLower(entrantID)
		if w := st.windowBySeq(seq); !LineupVisible(v.roles, id, w.Start, s.now()) {
			when := "its start"
			if !w.Start.IsZero() {
				when = w.Start.Format("Monday 2006-01-02 15:04 UTC")
			}
			return &arbiter.Error{Code: arbiter.EFORBIDDEN, Rule: "R7", Message: fmt.Sprintf(
				"the lineup of %s for round %d is shown to its own team and the TDs only until the round starts, %s (R7)", entrantID, seq, when)}
		}
		var err error
		out, from, err = lineupOf(ctx, q, st, id, seq)
		return err
	})
	return out, from, err
}

// lineupOf is the lineup team id plays in round seq, with no disclosure
// check.
func lineupOf(ctx context.Context, q sqlstore.Queryer, st *state, id string, seq int) (lineup.Lineup, int, error) {
	l, err := docLineup.get(ctx, q, st, id)
	if err != nil {
		return lineup.Lineup{}, 0, err
	}
	return l.Book.Effective(seq)
}

// checkLineups refuses a team_sets sheet naming a set player who is not
// the one the team's effective lineup names (R7). Teams without any
// lineup, and sets whose players the sheet leaves out, are not checked.
func checkLineups(ctx context.Context, q sqlstore.Queryer, st *state, m *arbiter.Match, sh *score.Sheet) error {
	if len(sh.Sets) == 0 {
		return nil
	}
	seq := 0
	for _, w := range st.ev.Calendar {
		if w.Stage == m.Stage && w.Number == m.Round {
			seq = w.Seq
		}
	}
	mf := st.f.Stages[m.Stage].MatchFor(m.Format)
	index := map[string]int{}
	for i, p := range mf.Parts {
		index[p.TC.String()] = i
	}
	for _, side := range arbiter.Sides {
		id := m.Entrant(side)
		l, err := docLineup.get(ctx, q, st, id)
		if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
			continue
		}
		if err != nil {
			return err
		}
		eff, _, err := l.Book.Effective(seq)
		if err != nil {
			continue // no lineup up to this round
		}
		for _, set := range sh.Sets {
			name := set.HomePlayer
			if side == arbiter.Away {
				name = set.AwayPlayer
			}
			i, ok := index[set.TC]
			if name == "" || !ok || i >= len(eff.Sets) {
				continue
			}
			if normUser(name) != eff.Sets[i] {
				return arbiter.FieldError("sets", "R7", "%s's lineup has %s in the %s set, the sheet says %s", id, eff.Sets[i], set.TC, name)
			}
		}
	}
	return nil
}
