package demo

import (
	"context"

	"arbiter"
	"arbiter/format"
)

// summary reads the event back through the application layer.
func (r *runner) summary(ctx context.Context) (Summary, error) {
	slug := r.opts.Slug
	ev, err := r.svc.Event(ctx, slug)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{Slug: slug, Preset: r.opts.Preset, Status: ev.Status, Entrants: ev.Entrants, Stopped: r.stopped,
		Counts: r.counts, Notes: r.notes}
	rounds, err := r.svc.Rounds(ctx, slug)
	if err != nil {
		return s, err
	}
	for si, st := range ev.Stages {
		sr := StageResult{Name: st.Name, Kind: st.Kind, Rounds: st.Rounds, Seeds: st.Seeds, Pools: st.Pools}
		for _, rd := range rounds {
			if rd.Stage == si && rd.Status == arbiter.RoundClosed {
				sr.Played++
			}
		}
		if si <= ev.Stage && st.Kind != format.Knockout {
			if st.Kind == format.Pool {
				for _, p := range st.Pools {
					t, err := r.svc.PoolStandings(ctx, slug, si, p.Name)
					if err != nil {
						return s, err
					}
					sr.Tables = append(sr.Tables, PoolTable{Pool: p.Name, Table: t})
				}
			} else {
				t, err := r.svc.Standings(ctx, slug, si)
				if err != nil {
					return s, err
				}
				sr.Tables = append(sr.Tables, PoolTable{Table: t})
			}
		}
		s.Stages = append(s.Stages, sr)
	}
	ms, err := r.svc.Matches(ctx, slug, "")
	if err != nil {
		return s, err
	}
	for _, m := range ms {
		if m.IsBye() {
			s.Counts.Byes++
			continue
		}
		s.Counts.Matches++
		if o := m.Result; o != nil && o.Decision != "played" {
			s.Counts.Forfeits++
		}
		if m.Result != nil && m.Result.DecidedBy == "armageddon" {
			s.Counts.Armageddons++
		}
		if ev.Stages[m.Stage].Kind == format.Knockout {
			s.Bracket = append(s.Bracket, m)
			if m.Format == "final" && m.Status == arbiter.MatchFinal {
				final := m
				s.Final = &final
			}
		}
	}
	aps, err := r.svc.Appeals(ctx, slug)
	if err != nil {
		return s, err
	}
	s.Counts.Appeals = len(aps)
	xs, err := r.svc.Sanctions(ctx, slug)
	if err != nil {
		return s, err
	}
	s.Counts.Sanctions = len(xs)
	return s, nil
}
