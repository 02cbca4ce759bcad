package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter"
	"arbiter/export"
	"arbiter/format"
	"arbiter/sqlstore"
)

// ExportSnapshot gathers what package export writes (forum posts, CSV,
// TRF, calendars, Challonge files) in one read transaction, as viewer (a
// username; "" for anyone) may see it: pairings still under the TDs'
// review only for a TD of the event, and the TDs' notes on entrants
// (rejection reasons, who registered, TD-entered values) only for them.
// baseURL is the web app's address for links ("" for none).
func (s *Service) ExportSnapshot(ctx context.Context, viewer, slug, baseURL string) (*export.Snapshot, error) {
	var snap *export.Snapshot
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		snap = &export.Snapshot{Event: st.ev, Format: st.f, BaseURL: strings.TrimRight(baseURL, "/"), Now: s.now(), Games: map[string][]export.Game{}}
		if u := normUser(viewer); u != "" {
			if snap.TD, err = isTD(ctx, tx, st, arbiter.Actor{Name: u, Role: arbiter.RoleTD}); err != nil {
				return err
			}
		}
		offs, err := docOfficial.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, o := range offs {
			if slices.Contains(o.Roles, arbiter.RoleTD) {
				snap.Officials = append(snap.Officials, o.User)
			}
		}
		if snap.Entrants, err = docEntrant.list(ctx, tx, st); err != nil {
			return err
		}
		sortBySeed(snap.Entrants)
		if !snap.TD {
			for i := range snap.Entrants {
				e := &snap.Entrants[i]
				e.Reason, e.RegisteredBy, e.Values = "", "", nil
			}
		}
		if err := exportRounds(ctx, tx, st, snap); err != nil {
			return err
		}
		if st.ev.Status == arbiter.EventRegistration {
			return nil
		}
		for si := 0; si <= st.ev.Stage && si < len(st.ev.Stages); si++ {
			es, err := stageEntrants(ctx, tx, st, si)
			if err != nil {
				return err
			}
			snap.StageEntrants = append(snap.StageEntrants, entrantIDs(es))
			if err := exportTables(ctx, tx, st, si, snap); err != nil {
				return err
			}
		}
		fbs, err := docForbidden.list(ctx, tx, st)
		if err != nil {
			return err
		}
		for _, fb := range fbs {
			snap.Forbidden = append(snap.Forbidden, export.Forbidden{Stage: fb.Stage, Entrants: fb.Entrants, At: fb.At, RemovedAt: fb.RemovedAt})
		}
		return exportGames(ctx, tx, st, snap)
	})
	return snap, err
}

// exportRounds adds the rounds viewer may see and their matches.
func exportRounds(ctx context.Context, q sqlstore.Queryer, st *state, snap *export.Snapshot) error {
	rounds, err := docRound.list(ctx, q, st)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range rounds {
		if snap.TD || r.Status == arbiter.RoundPublished || r.Status == arbiter.RoundClosed {
			if !snap.TD {
				r.Notes = nil // the TDs' notes on a closed round
			}
			snap.Rounds = append(snap.Rounds, r)
			seen[r.ID] = true
		}
	}
	slices.SortFunc(snap.Rounds, func(a, b arbiter.Round) int {
		if a.Stage != b.Stage {
			return a.Stage - b.Stage
		}
		return a.Number - b.Number
	})
	ms, err := docMatch.list(ctx, q, st)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if seen[roundID(m.Stage, m.Round)] {
			snap.Matches = append(snap.Matches, m)
		}
	}
	slices.SortFunc(snap.Matches, func(a, b arbiter.Match) int {
		switch {
		case a.Stage != b.Stage:
			return a.Stage - b.Stage
		case a.Round != b.Round:
			return a.Round - b.Round
		}
		return a.Board - b.Board
	})
	return nil
}

// exportTables adds the standings of stage si (one per pool); a knockout
// has none.
func exportTables(ctx context.Context, q sqlstore.Queryer, st *state, si int, snap *export.Snapshot) error {
	sg := st.ev.Stages[si]
	switch sg.Kind {
	case format.Knockout:
		return nil
	case format.Pool:
		for _, p := range sg.Pools {
			t, err := stageTable(ctx, q, st, si, p.Name)
			if err != nil {
				return err
			}
			snap.Standings = append(snap.Standings, export.Table{Stage: si, Pool: p.Name, Table: t})
		}
		return nil
	}
	t, err := stageTable(ctx, q, st, si, "")
	if err != nil {
		return err
	}
	snap.Standings = append(snap.Standings, export.Table{Stage: si, Table: t})
	return nil
}

// exportGames adds the Lichess games the TDs' checks found for the
// visible matches (public games: their links only).
func exportGames(ctx context.Context, q sqlstore.Queryer, st *state, snap *export.Snapshot) error {
	vs, err := docVerification.list(ctx, q, st)
	if err != nil {
		return err
	}
	visible := map[string]bool{}
	for _, m := range snap.Matches {
		visible[m.ID] = true
	}
	for _, v := range vs {
		if !visible[v.Match] {
			continue
		}
		for _, c := range v.Checks {
			for i, g := range c.Found {
				label := fmt.Sprintf("%s game %d", c.TC, i+1)
				if c.Board > 0 {
					label = fmt.Sprintf("board %d %s", c.Board, label)
				}
				snap.Games[v.Match] = append(snap.Games[v.Match], export.Game{URL: g.URL, Label: label})
			}
		}
	}
	return nil
}
