package demo

// The TD's decisions: appeals, disqualifications, stage transitions.

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
	"arbiter/standings"
)

// appeal has the home side of the double-forfeited match appeal an hour
// after the round end, inside the window (R5) or, where the rulebook
// leaves disputes to the TDs (antichess §1, ACWC §1), before the next
// round is published; the TD accepts it with the result actually played.
func (r *runner) appeal(ctx context.Context, si int, matchID string, end time.Time) error {
	slug := r.opts.Slug
	ms, err := r.svc.Matches(ctx, slug, "")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ms, func(m arbiter.Match) bool { return m.ID == matchID })
	if i < 0 {
		return arbiter.Errorf(arbiter.EINTERNAL, "match %s vanished", matchID)
	}
	m := ms[i]
	r.at(end.Add(time.Hour))
	ap, err := r.svc.Appeal(ctx, r.actors[m.Home], slug, m.ID, "we played the match before the deadline but the result was not entered")
	if arbiter.ErrorCode(err) == arbiter.ERULE {
		r.note("appeal against the double forfeit of %s refused: %s", m.ID, arbiter.ErrorMessage(err))
		return nil
	}
	if err != nil {
		return err
	}
	r.counts.Appeals++
	in, _, err := r.result(ctx, m, si, false)
	if err != nil {
		return err
	}
	r.at(r.now.Add(3 * time.Hour))
	_, err = r.svc.DecideAppeal(ctx, TD, slug, ap.ID, true, in, "the games are on Lichess, played before the deadline (demo appeal)")
	return err
}

// disqualify removes the lowest-ranked entrant of the current stage that
// still plays (app.Sanction: its open match and its results as the
// rulebook says). In team events a member is disqualified: in the
// antichess cup the captain, which puts the team out (A15); in the RKCC a
// non-captain member of a team with a substitute, who then plays in their
// place from this round's corrected lineup (R7.1, R16).
func (r *runner) disqualify(ctx context.Context, si, seq int) error {
	slug := r.opts.Slug
	tab, err := r.svc.Standings(ctx, slug, si)
	if err != nil {
		return err
	}
	es, err := r.svc.Entrants(ctx, slug)
	if err != nil {
		return err
	}
	byID := map[string]arbiter.Entrant{}
	for _, e := range es {
		byID[e.ID] = e
	}
	for k := len(tab.Rows) - 1; k >= 0; k-- {
		e := byID[tab.Rows[k].ID]
		if e.Status != arbiter.EntrantApproved {
			continue
		}
		req := app.SanctionRequest{Entrant: e.ID, Kind: "disqualification", Reason: "abusive behaviour in the chat (demo)"}
		if e.Kind == arbiter.EntrantTeam {
			if r.f.Name == "antichess-team-cup" {
				req.Player = e.Captain
			} else {
				if e.Substitute == "" {
					continue // who would play instead?
				}
				req.Player = e.Members[len(e.Members)-1]
			}
		}
		_, _, err := r.svc.Sanction(ctx, TD, slug, req)
		if c := arbiter.ErrorCode(err); c == arbiter.ERULE || c == arbiter.EINVALID {
			r.note("disqualification of %s refused: %s", e.ID, arbiter.ErrorMessage(err))
			return nil
		}
		if err != nil || e.Kind != arbiter.EntrantTeam {
			return err
		}
		return r.afterMemberDQ(ctx, e.ID, seq)
	}
	r.note("disqualification: no entrant to disqualify (a team needs a substitute to go on)")
	return nil
}

// afterMemberDQ updates who plays for a team that lost a member: the
// remaining members and the substitute, with a new captain if the old one
// left; an RKCC team corrects its lineup for the current round.
func (r *runner) afterMemberDQ(ctx context.Context, id string, seq int) error {
	es, err := r.svc.Entrants(ctx, r.opts.Slug)
	if err != nil {
		return err
	}
	for _, e := range es {
		if e.ID != id || e.Status != arbiter.EntrantApproved {
			continue
		}
		sd := r.sums[id]
		sd.players, sd.bench = slices.Clone(e.Members), nil
		if e.Substitute != "" {
			sd.players = append(sd.players, e.Substitute)
		}
		r.sums[id] = sd
		r.actors[id] = arbiter.Actor{Name: e.Captain, Role: arbiter.RoleCaptain}
		if r.f.Name != "rkcc-team-three-tc" {
			return nil
		}
		sets := slices.Clone(sd.players)
		r.rng.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
		if _, err := r.svc.SubmitLineup(ctx, r.actors[id], r.opts.Slug, id, seq, sets); err != nil {
			if c := arbiter.ErrorCode(err); c != arbiter.ERULE && c != arbiter.EINVALID {
				return err
			}
			r.note("lineup correction of %s after the disqualification refused: %s", id, arbiter.ErrorMessage(err))
			return nil
		}
		r.counts.Lineups++
	}
	return nil
}

// advance ends the stage. Where the tiebreaks leave a tie at the cut (or
// across pools) the TDs give the order by drawing lots (seeded), never
// advancing a removed entrant ahead of one still playing.
func (r *runner) advance(ctx context.Context) error {
	slug := r.opts.Slug
	si := r.ev.Stage
	r.at(r.now.Add(2 * time.Hour))
	ev, err := r.svc.AdvanceStage(ctx, TD, slug, app.AdvanceOptions{})
	if arbiter.ErrorCode(err) == arbiter.ERULE {
		order, oerr := r.tieOrder(ctx, si, r.ev.Stages[si].Advance)
		if oerr != nil {
			return oerr
		}
		ev, err = r.svc.AdvanceStage(ctx, TD, slug, app.AdvanceOptions{TieOrder: order,
			Reason: "drawing of lots among the entrants the tiebreaks leave tied (demo, seeded)"})
		if err == nil {
			r.counts.TieOrders++
		}
	}
	if err != nil {
		return err
	}
	r.ev = ev
	return nil
}

// tieOrder is the TDs' order of the entrants that advance from stage si:
// its top n, or for a pool stage each pool's advancing places, pool after
// pool (as app.AdvanceOptions.TieOrder expects).
func (r *runner) tieOrder(ctx context.Context, si, n int) ([]string, error) {
	es, err := r.svc.Entrants(ctx, r.opts.Slug)
	if err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, e := range es {
		removed[e.ID] = e.Status == arbiter.EntrantRemoved
	}
	if r.ev.Stages[si].Kind != format.Pool {
		tab, err := r.svc.Standings(ctx, r.opts.Slug, si)
		if err != nil {
			return nil, err
		}
		return lots(tab.Rows, removed, n, r.rng)
	}
	var order []string
	for i, p := range r.ev.Stages[si].Pools {
		tab, err := r.svc.PoolStandings(ctx, r.opts.Slug, si, p.Name)
		if err != nil {
			return nil, err
		}
		top, err := lots(tab.Rows, removed, r.f.Stages[si].Pools[i].Advance, r.rng)
		if err != nil {
			return nil, err
		}
		order = append(order, top...)
	}
	return order, nil
}

// lots is the TDs' order of the top n of a ranked table: entrants of
// equal rank in an order drawn by lot, removed ones after those still
// playing; ranks themselves are never changed.
func lots(rows []standings.Row, removed map[string]bool, n int, rng *rand.Rand) ([]string, error) {
	var order []string
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1].Rank == rows[i].Rank {
			j++
		}
		var grp []string
		for _, row := range rows[i : j+1] {
			grp = append(grp, row.ID)
		}
		rng.Shuffle(len(grp), func(a, b int) { grp[a], grp[b] = grp[b], grp[a] })
		slices.SortStableFunc(grp, func(a, b string) int {
			switch {
			case removed[a] == removed[b]:
				return 0
			case removed[a]:
				return 1
			}
			return -1
		})
		order = append(order, grp...)
		i = j + 1
	}
	if len(order) < n {
		return nil, arbiter.Errorf(arbiter.EINTERNAL, "%d ranked, %d advance", len(order), n)
	}
	return order[:n], nil
}
