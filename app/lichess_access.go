package app

import (
	"context"

	"arbiter"
	"arbiter/lichess"
)

// The organiser's Lichess token as checked at start (issue 14 §6): what
// Arbiter may do on Lichess for the events of this server, shown on each
// TD console with a message for every feature a missing scope turns off.

// LichessAccess is what the TD console shows of the organiser's token and
// the event's use of Lichess.
type LichessAccess struct {
	// Token: an organiser's token was given (serve --lichess-token-file,
	// $LICHESS_TOKEN).
	Token bool `json:"token"`
	// User owns the token; Scopes are those it grants.
	User   string   `json:"user,omitempty"`
	Scopes []string `json:"scopes"`
	// Unchecked says why the scopes are unknown (Lichess out of reach at
	// start): every scoped feature is then shown off.
	Unchecked string `json:"unchecked,omitempty"`
	// Features are what Arbiter does with the token, each on or off with
	// the message saying what its missing scope disables.
	Features []lichess.FeatureStatus `json:"features"`
	// CreatesGames and ImportsResults: what the event's format asks of
	// Lichess (format "lichess").
	CreatesGames   bool `json:"creates_games"`
	ImportsResults bool `json:"imports_results"`
}

// SetOrganiser records the organiser's token as serve checked it (nil:
// no token).
func (s *Service) SetOrganiser(o *lichess.Organiser) { s.organiser = o }

// LichessAccessOf is the organiser's token and the event's use of
// Lichess, for the TD console. TD only.
func (s *Service) LichessAccessOf(ctx context.Context, a arbiter.Actor, slug string) (LichessAccess, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return LichessAccess{}, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see the organiser's Lichess token"); err != nil {
		return LichessAccess{}, err
	}
	o := s.organiser
	out := LichessAccess{Token: o != nil, Scopes: []string{}, Features: o.Features(),
		CreatesGames: st.f.CreatesGames(), ImportsResults: st.f.ImportsResults()}
	if o != nil {
		out.User, out.Unchecked = o.UserID, o.Unchecked
		out.Scopes = append(out.Scopes, o.Scopes...)
	}
	return out, nil
}
