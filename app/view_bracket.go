package app

import (
	"context"

	"arbiter"
	"arbiter/format"
	"arbiter/sqlstore"
)

// BracketView is what an event's knockout brackets show to one user,
// read in one transaction: the event and its stages' seeds, the
// entrants, and the matches of the bracket's positions in the rounds the
// user sees (Roles.SeesRound: a knockout round under the TDs' review is
// theirs until published). Positions not paired yet are worked out from
// the seeds and the results (pairing/knockout).
type BracketView struct {
	Event    arbiter.Event
	Format   *format.Format
	Entrants []arbiter.Entrant // by seed
	Roles    Roles
	// Matches are the knockout matches (those with a bracket position)
	// of the rounds the user sees, by stage, round and board.
	Matches []arbiter.Match
	// Rounds are the event's paired rounds this user sees, by stage and
	// number (the pages' navigation).
	Rounds []arbiter.Round
}

// BracketView reads the event's brackets for user u (nil: a visitor).
func (s *Service) BracketView(ctx context.Context, u *arbiter.User, slug string) (*BracketView, error) {
	var out *BracketView
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		d := &BracketView{Event: st.ev, Format: st.f, Roles: v.roles}
		rs, err := docRound.list(ctx, q, st)
		if err != nil {
			return err
		}
		sortRounds(rs)
		seen := map[string]bool{}
		for _, rd := range rs {
			if v.roles.SeesRound(rd) {
				d.Rounds = append(d.Rounds, rd)
				seen[rd.ID] = true
			}
		}
		if d.Entrants, err = docEntrant.list(ctx, q, st); err != nil {
			return err
		}
		sortBySeed(d.Entrants)
		if len(seen) > 0 {
			ms, err := docMatch.list(ctx, q, st)
			if err != nil {
				return err
			}
			for _, m := range ms {
				if m.Bracket != "" && seen[roundID(m.Stage, m.Round)] {
					d.Matches = append(d.Matches, m)
				}
			}
			sortMatches(d.Matches)
		}
		out = d
		return nil
	})
	return out, err
}
