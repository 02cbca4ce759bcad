package app

import (
	"slices"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// TestReplacementAntichess: A15 — a disqualified member's replacement must
// be eligible, willing, at least 100 rating points below the replaced
// player and in no other team (A11); a disqualified player replaces nobody;
// a team put out (captain DQ) names none; each removed member is replaced
// once; the change is in the audit log.
func TestReplacementAntichess(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 9, 0, 0)
		must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-01", Player: "b01", Kind: "disqualification", Reason: "public accusations (A6)"}))
		must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-06", Player: "cap06", Kind: "disqualification", Reason: "A6"}))

		ok := ReplacementRequest{Entrant: "team-01", Replaced: "b01", Player: "newbie", Rating: 2100, ReplacedRating: 2200,
			Eligible: true, Willing: true, Reason: "captain's request of 2025-01-09"}
		for _, c := range []struct {
			name       string
			edit       func(r *ReplacementRequest)
			code, rule string
		}{
			{"no reason", func(r *ReplacementRequest) { r.Reason = "" }, arbiter.EINVALID, "app.reason"},
			{"not removed", func(r *ReplacementRequest) { r.Replaced = "a01" }, arbiter.EINVALID, "app.replacement"},
			{"other team", func(r *ReplacementRequest) { r.Player = "a02" }, arbiter.ERULE, "A11"},
			{"disqualified", func(r *ReplacementRequest) { r.Player = "cap06" }, arbiter.ERULE, "A15"},
			{"99 points below", func(r *ReplacementRequest) { r.Rating = 2101 }, arbiter.ERULE, "A15"},
			{"not eligible", func(r *ReplacementRequest) { r.Eligible = false }, arbiter.ERULE, "A15"},
			{"not willing", func(r *ReplacementRequest) { r.Willing = false }, arbiter.ERULE, "A15"},
			{"team out", func(r *ReplacementRequest) { r.Entrant, r.Replaced = "team-06", "cap06" }, arbiter.ERULE, "A15"},
		} {
			r := ok
			c.edit(&r)
			_, err := s.NameReplacement(ctx, td, "atc", r)
			if arbiter.ErrorCode(err) != c.code {
				t.Fatalf("%s: %v, want %s", c.name, err, c.code)
			}
			wantErr(t, err, c.code, c.rule)
		}
		_, err := s.NameReplacement(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", ok)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		e := must(s.NameReplacement(ctx, td, "atc", ok)) // exactly 100 below
		if !slices.Contains(e.Members, "newbie") || slices.Contains(e.Members, "b01") {
			t.Fatalf("members %v", e.Members)
		}
		ok.Player = "other"
		_, err = s.NameReplacement(ctx, td, "atc", ok)
		wantErr(t, err, arbiter.ECONFLICT, "")
		log := must(s.Audit(ctx, td, "atc", sqlstore.AuditFilter{}))
		found := false
		for _, l := range log {
			found = found || l.Action == "entrant.replacement" && l.Reason == "b01 -> newbie: captain's request of 2025-01-09"
		}
		if !found {
			t.Fatal("no audit entry for the replacement")
		}
	})
}
