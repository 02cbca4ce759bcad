package demo

// What the players and captains do besides playing: time offers,
// armageddon bids, lineups.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/format"
)

// negotiate has the home side offer three start times on three days and
// the away side accept the first (A5, W14, through app.Negotiate), and
// returns the agreed time (zero when none). Formats without time
// negotiation (RKCC: players agree times themselves) are noted once.
func (r *runner) negotiate(ctx context.Context, m arbiter.Match, end time.Time) (time.Time, error) {
	if r.f.Calendar.Negotiation == nil {
		if !r.noNegotiation {
			r.noNegotiation = true
			r.note("time offers: %s has no time negotiation in its rulebook (players agree times themselves)", r.f.Name)
		}
		return time.Time{}, nil
	}
	day := r.now.Truncate(24 * time.Hour).Add(24 * time.Hour)
	times := []time.Time{day.Add(18 * time.Hour), day.Add(24*time.Hour + 20*time.Hour), day.Add(48*time.Hour + 19*time.Hour)}
	if !times[2].Before(end) {
		return time.Time{}, nil // a round too short for three days of offers
	}
	// Board by board where each player negotiates with their opponent
	// (A5); the captains act for their boards (A16).
	for _, b := range r.negotiationBoards() {
		_, _, err := r.svc.Negotiate(ctx, r.actors[m.Home], r.opts.Slug, m.ID, app.NegotiationStep{Kind: app.NegPropose, Board: b, Times: times})
		if err == nil {
			r.at(r.now.Add(30 * time.Minute))
			_, _, err = r.svc.Negotiate(ctx, r.actors[m.Away], r.opts.Slug, m.ID, app.NegotiationStep{Kind: app.NegAccept, Board: b, At: times[0]})
		}
		if arbiter.ErrorCode(err) == arbiter.ERULE {
			r.note("time negotiation of %s refused: %s", m.ID, arbiter.ErrorMessage(err))
			return time.Time{}, nil
		}
		if err != nil {
			return time.Time{}, err
		}
	}
	r.counts.Negotiations++
	return times[0], nil
}

// negotiationBoards are the units a match's time is negotiated in: each
// board (1..size) where the players negotiate board by board (A5 with
// board lineups), else the match as a whole (0).
func (r *runner) negotiationBoards() []int {
	if r.f.Entrant != format.Team || r.f.Lineups != format.LineupBoards {
		return []int{0}
	}
	size := 1
	if ts := r.f.TeamSize(r.ev.Entrants); ts != nil {
		size = *ts
	}
	var out []int
	for b := 1; b <= size; b++ {
		out = append(out, b)
	}
	return out
}

// bid runs the armageddon's sealed-bid auction through the application
// layer (app.BidArmageddon: both sides commit, then reveal), with the bids
// the simulated sheet records.
func (r *runner) bid(ctx context.Context, m arbiter.Match) error {
	b := r.play.bids
	sides := []arbiter.Actor{r.actors[m.Home], r.actors[m.Away]}
	for i, a := range sides {
		c := b.commits[i]
		if _, err := r.svc.BidArmageddon(ctx, a, r.opts.Slug, m.ID, &c, nil); err != nil {
			return fmt.Errorf("armageddon bid of %s in %s: %w", a.Name, m.ID, err)
		}
	}
	for i, a := range sides {
		sec := b.secrets[i]
		if _, err := r.svc.BidArmageddon(ctx, a, r.opts.Slug, m.ID, nil, &sec); err != nil {
			return fmt.Errorf("armageddon reveal of %s in %s: %w", a.Name, m.ID, err)
		}
	}
	return nil
}

// lineups has the captains of stage si submit the lineup of round seq
// (the player of each set, app.SubmitLineup, R7), each team with
// probability 1/every (every team when every is 1); the others keep their
// earlier lineup. Only the RKCC preset has set lineups in app; the other
// presets are noted once.
func (r *runner) lineups(ctx context.Context, si, seq, every int) error {
	if r.f.Name != "rkcc-team-three-tc" {
		if r.f.Entrant == format.Team && !r.noLineups {
			r.noLineups = true
			r.note("lineups: app supports the RKCC set lineups only; %s plays its registered board order (A12)", r.f.Name)
		}
		return nil
	}
	ids := r.ev.Stages[si].Seeds
	if si == 0 {
		es, err := r.svc.Entrants(ctx, r.opts.Slug)
		if err != nil {
			return err
		}
		ids = nil
		for _, e := range es {
			if e.Status == arbiter.EntrantApproved {
				ids = append(ids, e.ID)
			}
		}
	}
	for _, id := range ids {
		if every > 1 && r.rng.IntN(every) != 0 {
			continue
		}
		e := r.sums[id]
		sets := slices.Clone(e.players)
		if len(e.bench) > 0 && r.rng.IntN(2) == 0 {
			sets[r.rng.IntN(len(sets))] = e.bench[0] // R7: a further member plays, one sits out
		}
		r.rng.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
		if _, err := r.svc.SubmitLineup(ctx, r.actors[id], r.opts.Slug, id, seq, sets); err != nil {
			if arbiter.ErrorCode(err) == arbiter.ERULE || arbiter.ErrorCode(err) == arbiter.EINVALID {
				r.note("lineup of %s for round %d refused: %s", id, seq, arbiter.ErrorMessage(err))
				continue
			}
			return err
		}
		r.counts.Lineups++
	}
	return nil
}

// players returns who plays for entrant id in round seq: the effective
// lineup where the team has one, else its registered order.
func (r *runner) players(ctx context.Context, id string, seq int) []string {
	if r.f.Name == "rkcc-team-three-tc" {
		if l, _, err := r.svc.Lineup(ctx, arbiter.NamedUser(TD.Name), r.opts.Slug, id, seq); err == nil {
			return l.Sets
		}
	}
	return r.sums[id].players
}
