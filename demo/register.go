package demo

import (
	"context"
	"slices"
	"time"

	"arbiter"
	"arbiter/format"
)

// register enters the entrants (players register themselves, captains
// their teams), one more who is rejected, and approves the others.
func (r *runner) register(ctx context.Context) error {
	slug := r.opts.Slug
	nm := newNames(r.rng)
	r.actors = map[string]arbiter.Actor{}
	size := 1
	if ts := r.f.TeamSize(r.opts.Entrants); ts != nil {
		size = *ts
	}
	subs := r.f.Team != nil && (r.f.Team.Substitutes == nil || *r.f.Team.Substitutes > 0)
	var ids []string
	for i := range r.opts.Entrants + 1 {
		r.at(r.opts.Start.Add(-7*24*time.Hour + time.Duration(i)*17*time.Minute))
		var e arbiter.Entrant
		var who arbiter.Actor
		if r.f.Entrant == format.Individual {
			name := nm.user()
			e = arbiter.Entrant{Player: name, Rating: rating(r.rng)}
			who = arbiter.Actor{Name: name, Role: arbiter.RolePlayer}
		} else {
			members := make([]string, size)
			sum := 0
			for k := range members {
				members[k] = nm.user()
				sum += rating(r.rng)
			}
			e = arbiter.Entrant{Name: nm.team(), Captain: members[0], Members: members, Boards: slices.Clone(members), Rating: sum / size}
			if subs && i%2 == 0 { // every other team has a substitute
				e.Substitute = nm.user()
			}
			who = arbiter.Actor{Name: members[0], Role: arbiter.RoleCaptain}
		}
		got, err := r.svc.Register(ctx, who, slug, e)
		if err != nil {
			return err
		}
		ids = append(ids, got.ID)
		r.actors[got.ID] = who
		players := got.Members
		if got.Kind == arbiter.EntrantPlayer {
			players = []string{got.Player}
		}
		r.sums[got.ID] = side{id: got.ID, rating: got.Rating, players: players}
		if got.Substitute != "" {
			s := r.sums[got.ID]
			s.bench = []string{got.Substitute}
			r.sums[got.ID] = s
		}
	}
	r.at(r.opts.Start.Add(-2 * 24 * time.Hour))
	for i, id := range ids {
		if i == len(ids)-1 {
			if _, err := r.svc.Reject(ctx, TD, slug, id, "registered after the list was full (demo)", 0); err != nil {
				return err
			}
			continue
		}
		if _, err := r.svc.Approve(ctx, TD, slug, id, 0); err != nil {
			return err
		}
	}
	return nil
}
