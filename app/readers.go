package app

import (
	"context"

	"arbiter"
)

// The readers below serve the pages: what a match's time negotiation,
// an event's officials and a team's board order are right now.

// NegotiationOf returns the match's time negotiation, or nil before the
// first offer.
func (s *Service) NegotiationOf(ctx context.Context, slug, matchID string) (*Negotiation, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return optional(get[Negotiation](ctx, s.DB, st, kindNegotiation, matchID))
}

// BoardsOf returns the team's ranked board order (A12), or nil before the
// TDs rank it.
func (s *Service) BoardsOf(ctx context.Context, slug, entrantID string) (*BoardTeam, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return optional(get[BoardTeam](ctx, s.DB, st, kindBoards, entrantID))
}

// Officials returns the users who hold an office in the event (its TDs).
func (s *Service) Officials(ctx context.Context, slug string) ([]arbiter.Official, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return list[arbiter.Official](ctx, s.DB, st, kindOfficial)
}

// optional turns "not found" into nil.
func optional[T any](v T, err error) (*T, error) {
	if arbiter.ErrorCode(err) == arbiter.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}
