package app

import (
	"context"

	"arbiter"
	"arbiter/format"
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
	return optional(docNegotiation.get(ctx, s.DB, st, matchID))
}

// BoardNegotiations returns the negotiations of a match whose boards are
// negotiated apart (A5), by board (1-based; nil where none started), for
// the format's number of boards.
func (s *Service) BoardNegotiations(ctx context.Context, slug, matchID string) ([]*Negotiation, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	if !boardNegotiation(st.f) {
		return nil, nil
	}
	out := make([]*Negotiation, teamSize(st.f, st.ev.Entrants))
	for i := range out {
		if out[i], err = optional(docNegotiation.get(ctx, s.DB, st, negotiationID(matchID, i+1))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NegotiatesByBoard tells whether a format's players negotiate their
// times board by board (A5 with board lineups) rather than per match.
func NegotiatesByBoard(f *format.Format) bool { return boardNegotiation(f) }

// BoardsOf returns the team's ranked board order (A12), or nil before the
// TDs rank it.
func (s *Service) BoardsOf(ctx context.Context, slug, entrantID string) (*BoardTeam, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return optional(docBoards.get(ctx, s.DB, st, entrantID))
}

// Officials returns the users who hold an office in the event (its TDs).
func (s *Service) Officials(ctx context.Context, slug string) ([]arbiter.Official, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	return docOfficial.list(ctx, s.DB, st)
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
