package app

import (
	"context"
	"io"
	"time"

	"arbiter"
	"arbiter/armageddon"
	"arbiter/format"
	"arbiter/sqlstore"
)

// Writes by the sides of a match: app works out the role a user acts in
// and the side they act for, so that pages and the CLI only say who is
// asking.

// ActorFor is user u acting on match matchID: as captain of a team of the
// match, as the player of an individual entrant of it; anyone else (or a
// match not found) in the event's ordinary role, captain in a team event
// and player otherwise, which the use cases then refuse. A TD's decisions
// on a match are made as TD, never through this. A nil user gets the role
// with no name (the use cases answer "sign in").
func (s *Service) ActorFor(ctx context.Context, u *arbiter.User, slug, matchID string) (arbiter.Actor, error) {
	var out arbiter.Actor
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		out = u.As(ordinaryRole(st.f))
		m, err := docMatch.get(ctx, q, st, matchID)
		if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
			return nil
		}
		if err != nil {
			return err
		}
		if _, role := v.roles.MatchSide(m); role != "" {
			out.Role = role
		}
		return nil
	})
	return out, err
}

// ordinaryRole is the role a side acts in: captain in a team event,
// player otherwise.
func ordinaryRole(f *format.Format) string {
	if f.Entrant == format.Team {
		return arbiter.RoleCaptain
	}
	return arbiter.RolePlayer
}

// SealBid seals user u's armageddon bid for their side of the match and
// commits it (BidArmageddon): app finds the side and the rules (A3, W12),
// seals with rnd, and returns the secret the bidder keeps for the reveal.
// The bid itself never reaches the store before the reveal.
func (s *Service) SealBid(ctx context.Context, u *arbiter.User, slug, matchID string, bid time.Duration, rnd io.Reader) (Armageddon, armageddon.Commitment, armageddon.Secret, error) {
	var (
		a     arbiter.Actor
		side  string
		rules armageddon.Rules
	)
	err := s.read(ctx, slug, u, func(q sqlstore.Queryer, st *state, v viewer) error {
		m, rd, err := matchInRound(ctx, q, st, matchID)
		if arbiter.ErrorCode(err) == arbiter.ENOTFOUND || err == nil && !v.roles.SeesRound(rd) {
			return arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no published match %q", slug, matchID)
		}
		if err != nil {
			return err
		}
		var role string
		if side, role = v.roles.MatchSide(m); side == "" {
			return arbiter.Errorf(arbiter.EFORBIDDEN, "%s may bid only in their own match", u.As(ordinaryRole(st.f)))
		}
		a = u.As(role)
		var ok bool
		if rules, ok = ArmageddonRules(st.f, &m); !ok {
			return arbiter.RuleError("app.armageddon", "match %s has no armageddon in its tie procedure", m.ID)
		}
		return nil
	})
	if err != nil {
		return Armageddon{}, armageddon.Commitment{}, armageddon.Secret{}, err
	}
	sd := armageddon.SideA
	if side == "away" {
		sd = armageddon.SideB
	}
	cm, sec, err := armageddon.Seal(rules, matchID, sd, bid, rnd)
	if err != nil {
		return Armageddon{}, cm, sec, arbiter.FieldError("bid_seconds", rules.Clause, "%s", arbiter.ErrorMessage(err))
	}
	out, err := s.BidArmageddon(ctx, a, slug, matchID, &cm, nil)
	return out, cm, sec, err
}
