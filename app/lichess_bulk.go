package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// Bulk pairing (issue 14 §2, §6). Where the TDs chose it for the event
// (SetBulkPairing, audited), each pair's first game of a match is created
// through a Lichess bulk pairing (POST /api/bulk-pairing with the
// organiser's token, scope challenge:bulk) whose clocks start by
// themselves BulkClockDelay after the agreed start, so nobody waits for
// a player who does not click. Lichess needs each player's own token
// with challenge:write: player sign-in asks for it only from the pages
// of such an event (PlayerLichessScopes), and the token is kept in the
// lichess_grants table (GrantLichess), never in a document, the audit
// log or a log line. A pair whose players did not both grant it, or a
// bulk Lichess refuses, gets an open challenge instead, with a note the
// TD console shows (BulkPairingStatus lists who has not granted it).
// The following games of the match are open challenges, as before: a
// bulk pairing creates one game per pair.

// BulkClockDelay is how long after the agreed start (the game's
// creation) the clocks of a bulk-paired game start by themselves.
const BulkClockDelay = 3 * time.Minute

// bulkPairer is a Lichess client that creates bulk pairings
// (*lichess.Client is one).
type bulkPairer interface {
	CreateBulkPairing(ctx context.Context, r lichess.BulkPairingRequest) (*lichess.BulkPairing, error)
}

// SetBulkPairing turns bulk pairing on or off for the event. TD only;
// audited (event.bulk_pairing).
func (s *Service) SetBulkPairing(ctx context.Context, a arbiter.Actor, slug string, on bool) (arbiter.Event, error) {
	var ev arbiter.Event
	err := s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		st, err := load(ctx, tx, slug)
		if err != nil {
			return err
		}
		if err := requireTD(ctx, tx, st, a, "choose bulk pairing on Lichess"); err != nil {
			return err
		}
		if on && !st.f.CreatesGames() {
			return arbiter.RuleError("format.lichess", "event %s's format does not create its games on Lichess (lichess.games is not open_challenge): there is nothing to pair in bulk", slug)
		}
		st.ev.BulkPairing = on
		err = st.save(ctx, tx, change(a, "event.bulk_pairing", fmt.Sprintf("bulk pairing on Lichess: %v", on), false))
		ev = st.ev
		return err
	})
	return ev, err
}

// PlayerLichessScopes are the scopes a player's sign-in with Lichess asks
// for when started from the event's pages: challenge:write where the TDs
// chose bulk pairing, none otherwise (and for an unknown event).
func (s *Service) PlayerLichessScopes(ctx context.Context, slug string) []string {
	st, err := load(ctx, s.DB, slug)
	if err != nil || !st.ev.BulkPairing {
		return nil
	}
	return []string{lichess.ScopeChallengeWrite}
}

// GrantLichess keeps the token a player's sign-in obtained when it grants
// challenge:write (a bulk pairing needs it); other tokens are not kept.
// The token is never logged nor audited.
func (s *Service) GrantLichess(ctx context.Context, username, token string, scopes []string) error {
	if !slices.Contains(scopes, lichess.ScopeChallengeWrite) || token == "" {
		return nil
	}
	return s.DB.Tx(ctx, func(tx *sqlstore.Tx) error {
		return sqlstore.PutLichessGrant(ctx, tx, sqlstore.LichessGrant{LichessID: username, Token: token, Scopes: scopes})
	})
}

// BulkStatus is what the TD console says of bulk pairing.
type BulkStatus struct {
	On bool `json:"on"`
	// CreatesGames: the format creates the games (bulk pairing can be
	// chosen); Organiser: the organiser's token grants challenge:bulk
	// (false when unknown or missing).
	CreatesGames bool `json:"creates_games"`
	Organiser    bool `json:"organiser"`
	// Missing are the event's players who have not granted
	// challenge:write: their games are open challenges.
	Missing []string `json:"missing"`
	Message string   `json:"message"`
}

// BulkPairingStatus says, for the TD console, whether bulk pairing is on
// and who has not granted challenge:write. TD only.
func (s *Service) BulkPairingStatus(ctx context.Context, a arbiter.Actor, slug string) (BulkStatus, error) {
	var out BulkStatus
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return out, err
	}
	if err := requireTD(ctx, s.DB, st, a, "see bulk pairing"); err != nil {
		return out, err
	}
	out = BulkStatus{On: st.ev.BulkPairing, CreatesGames: st.f.CreatesGames(), Organiser: s.organiser.Has(lichess.ScopeChallengeBulk), Missing: []string{}}
	es, err := s.Entrants(ctx, slug)
	if err != nil {
		return out, err
	}
	for _, e := range es {
		if e.Status != arbiter.EntrantApproved {
			continue
		}
		for _, u := range e.Users() {
			g, found, err := sqlstore.GetLichessGrant(ctx, s.DB, u)
			if err != nil {
				return out, err
			}
			if !found || !slices.Contains(g.Scopes, lichess.ScopeChallengeWrite) {
				out.Missing = append(out.Missing, u)
			}
		}
	}
	switch {
	case !out.On:
		out.Message = "Bulk pairing is off: every game is an open challenge for its two players."
	case len(out.Missing) == 0:
		out.Message = "Bulk pairing is on: every player granted challenge:write, so each match's first game starts its clocks by itself."
	default:
		out.Message = fmt.Sprintf("Bulk pairing is on, but %s not granted challenge:write (sign in with Lichess again from the event's pages): their games are open challenges.",
			countWords(len(out.Missing), "player has", "players have"))
	}
	if out.On && !out.Organiser {
		out.Message += " The organiser's token does not show challenge:bulk: if Lichess refuses the bulk, the games are open challenges."
	}
	return out, nil
}

func countWords(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// createBulkGame creates the pair's first game through a bulk pairing of
// its own, its clocks starting BulkClockDelay later; without both
// players' grants, or when Lichess refuses the bulk, an open challenge
// with a note saying why.
func (s *Service) createBulkGame(ctx context.Context, st *state, m *arbiter.Match, mf *format.Match, rd arbiter.Round, p gamePlan, jobID int64) error {
	part := p.slots[0]
	white, black := p.home, p.away
	if !p.homeWhite(1) {
		white, black = black, white
	}
	g := CreatedGame{Pair: p.pair, Board: p.board, TC: part.TC.String(), Number: 1, Name: gameName(st, m, mf, p, 1),
		White: white, Black: black, HomeWhite: p.homeWhite(1)}
	key := challengeKey(st.ev.Slug, m.ID, p.pair, 1)
	open := func(note string) error {
		g.Note = note
		return s.createChallenge(ctx, st, m, rd, key, g, part.TC, jobID)
	}
	bp, ok := s.lichess.(bulkPairer)
	if !ok {
		return open("open challenge: this server's Lichess client makes no bulk pairings")
	}
	var tokens [2]string
	var missing []string
	for i, u := range []string{white, black} {
		gr, found, err := sqlstore.GetLichessGrant(ctx, s.DB, u)
		if err != nil {
			return err
		}
		if !found || !slices.Contains(gr.Scopes, lichess.ScopeChallengeWrite) {
			missing = append(missing, u)
			continue
		}
		tokens[i] = gr.Token
	}
	if len(missing) > 0 {
		return open("open challenge: " + strings.Join(missing, " and ") + " did not grant challenge:write for bulk pairing")
	}
	clocks := s.now().Add(BulkClockDelay)
	g.Bulk, g.ClocksAt = true, clocks
	err := s.recordGame(ctx, st, m, rd, key, g, jobID, func(time.Time) (string, string, error) {
		res, err := bp.CreateBulkPairing(ctx, lichess.BulkPairingRequest{GameSettings: s.gameSettings(st, part.TC),
			Pairings: []lichess.Pairing{{WhiteToken: tokens[0], BlackToken: tokens[1]}}, StartClocksAt: clocks})
		if err != nil {
			return "", "", lichessFailure(err, "creating %s (%s v %s) in a bulk pairing on Lichess", g.Name, white, black)
		}
		if len(res.Games) != 1 || res.Games[0].ID == "" {
			return "", "", arbiter.Errorf(arbiter.EUNAVAILABLE, "Lichess's bulk pairing %s for %s lists %d games, want 1; trying again later", res.ID, g.Name, len(res.Games))
		}
		return res.Games[0].ID, "https://lichess.org/" + res.Games[0].ID, nil
	})
	if err != nil && !lichess.Retryable(err) && (errors.Is(err, lichess.ErrForbidden) || arbiter.ErrorCode(err) == arbiter.EINVALID) {
		// Refused (the organiser's token lacks challenge:bulk, a player's
		// token was revoked): an open challenge instead, the TD told.
		g.Bulk, g.ClocksAt = false, time.Time{}
		return open("open challenge: Lichess refused the bulk pairing: " + arbiter.ErrorMessage(err))
	}
	return err
}
