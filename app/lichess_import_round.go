package app

import (
	"context"

	"arbiter"
)

// RoundImport is one match of a round imported from Lichess at a TD's
// request: the import, or why the match could not be imported.
type RoundImport struct {
	Match  string         `json:"match"`
	Import *LichessImport `json:"import,omitempty"`
	Error  string         `json:"error,omitempty"`
}

// ImportRound imports every match of a round (its ID, such as s1r2)
// from Lichess now, one after the other, as ImportMatch does each (the
// CLI's "event lichess-import SLUG ROUND"). A match that cannot be
// imported (its lineup missing, the round not started) says why and the
// others go on; byes have no games and are left out. Lichess out of
// reach stops the round with what was done. TD only.
func (s *Service) ImportRound(ctx context.Context, a arbiter.Actor, slug, roundID string) ([]RoundImport, error) {
	st, err := load(ctx, s.DB, slug)
	if err != nil {
		return nil, err
	}
	if err := requireTD(ctx, s.DB, st, a, "import a round's games from Lichess"); err != nil {
		return nil, err
	}
	ms, err := s.Matches(ctx, slug, roundID)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, arbiter.Errorf(arbiter.ENOTFOUND, "event %s has no round %s with matches (rounds are named like s1r2)", slug, roundID)
	}
	var out []RoundImport
	for _, m := range ms {
		if m.IsBye() {
			continue
		}
		im, err := s.ImportMatch(ctx, a, slug, m.ID)
		switch arbiter.ErrorCode(err) {
		case "":
			out = append(out, RoundImport{Match: m.ID, Import: &im})
		case arbiter.ERULE, arbiter.EINVALID, arbiter.ECONFLICT:
			out = append(out, RoundImport{Match: m.ID, Error: arbiter.ErrorMessage(err)})
		default:
			return out, err
		}
	}
	return out, nil
}
