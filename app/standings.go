package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
	"arbiter/standings"
)

// Standings ranks a stage (0-based index) with the stage's tiebreaks from
// the format. Every round paired so far counts with its final results; a
// match still without a final result (reported, disputed, unplayed in an
// open round) is left out, so its entrants count as absent in that round.
func (s *Service) Standings(ctx context.Context, slug string, stage int) (standings.Table, error) {
	var table standings.Table
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if st.ev.Status == arbiter.EventRegistration {
			return arbiter.RuleError("registration", "event %s has no standings before registration closes", slug)
		}
		if stage < 0 || stage >= len(st.ev.Stages) {
			return arbiter.FieldError("stage", "app.stage", "no stage %d (the event has %d)", stage+1, len(st.ev.Stages))
		}
		sg := st.ev.Stages[stage]
		fs := &st.f.Stages[stage]
		tbs, err := standings.ParseTiebreaks(sg.Tiebreak)
		if err != nil {
			return err
		}
		entrants, err := approvedBySeed(ctx, tx, st)
		if err != nil {
			return err
		}
		teamSize := 1
		if ts := st.f.TeamSize(st.ev.Entrants); ts != nil {
			teamSize = *ts
		}
		max := fs.Match.MaxPoints(teamSize)
		mp := fs.Match.MatchPoints
		in := standings.Input{Scoring: standings.Scoring{Win: mp.Win, Draw: mp.Draw, Loss: mp.Loss, SecondaryWin: max, SecondaryDraw: max / 2}}
		for _, e := range entrants {
			in.Entrants = append(in.Entrants, standings.Entrant{ID: e.ID, Name: e.Name, Rating: e.Rating, Seed: e.Seed})
		}
		rounds, err := stageRounds(ctx, tx, st, stage)
		if err != nil {
			return err
		}
		for _, rd := range rounds {
			var results []standings.Result
			for _, id := range rd.Matches {
				m, err := get[arbiter.Match](ctx, tx, st, kindMatch, id)
				if err != nil {
					return err
				}
				if m.Status != arbiter.MatchFinal || m.Result == nil {
					continue
				}
				results = append(results, standingsResult(&m))
			}
			in.Rounds = append(in.Rounds, results)
		}
		rr := sg.Kind == format.RoundRobin || sg.Kind == format.Pool
		table, err = standings.Compute(in, tbs, standings.Options{RoundRobin: rr, TotalRounds: sg.Rounds})
		return err
	})
	return table, err
}

func standingsResult(m *arbiter.Match) standings.Result {
	o := m.Result
	r := standings.Result{Decision: standings.Decision(o.Decision),
		A: standings.Side{ID: m.Home, MatchPoints: o.Home.MatchPoints, Secondary: o.Home.Points, SetsWon: o.Home.SetsWon, GamesWon: o.Home.GamesWon}}
	if !m.IsBye() {
		r.B = standings.Side{ID: m.Away, MatchPoints: o.Away.MatchPoints, Secondary: o.Away.Points, SetsWon: o.Away.SetsWon, GamesWon: o.Away.GamesWon}
		if r.Played() {
			r.A.Colour, r.B.Colour = standings.White, standings.Black
		}
	}
	return r
}

// Audit returns the event's audit log, oldest first; TD only.
func (s *Service) Audit(ctx context.Context, a arbiter.Actor, slug string, f sqlstore.AuditFilter) ([]sqlstore.AuditEntry, error) {
	var out []sqlstore.AuditEntry
	err := s.DB.View(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "read the audit log"); err != nil {
			return err
		}
		out, err = sqlstore.Audit(ctx, tx, st.row.ID, f)
		return err
	})
	return out, err
}
