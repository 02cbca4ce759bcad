package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestAPITokens: a TD makes a read token and a token acting for a team
// (its captain), lists them with their last use and revokes one; anyone
// else is refused; bad requests name the field.
func TestAPITokens(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 2, 10, false)
		capt := arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}
		_, _, err := s.CreateAPIToken(ctx, capt, "atc", NewAPIToken{Name: "bot", Scopes: []string{"read"}})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		for _, c := range []struct {
			req   NewAPIToken
			field string
		}{
			{NewAPIToken{Name: " ", Scopes: []string{"read"}}, "name"},
			{NewAPIToken{Name: "bot", Scopes: []string{"read", "admin"}}, "scopes[1]"},
			{NewAPIToken{Name: "bot", Scopes: []string{"report"}}, "entrant"},
			{NewAPIToken{Name: "bot", Scopes: []string{"offers"}, Entrant: "team-09"}, "entrant"},
		} {
			_, _, err := s.CreateAPIToken(ctx, td, "atc", c.req)
			wantErr(t, err, arbiter.EINVALID, tokenClause)
			if e := err.(*arbiter.Error); e.Field != c.field {
				t.Errorf("%+v: field %q, want %q", c.req, e.Field, c.field)
			}
		}
		readSecret, read := must2(s.CreateAPIToken(ctx, td, "atc", NewAPIToken{Name: "Discord pairings bot"}))
		if strings.Join(read.Scopes, ",") != "read" || read.Entrant != "" || !strings.HasPrefix(readSecret, "arbt_") {
			t.Fatalf("read token %+v %q", read, readSecret)
		}
		actSecret, act := must2(s.CreateAPIToken(ctx, td, "atc", NewAPIToken{Name: "Team 01 bot", Scopes: []string{"offers", "report", "offers"}, Entrant: "Team-01"}))
		if strings.Join(act.Scopes, ",") != "read,report,offers" || act.Entrant != "team-01" {
			t.Fatalf("acting token %+v", act)
		}
		acc := must(s.UseAPIToken(ctx, actSecret))
		if acc.Event != "atc" || acc.As != "cap01" || !acc.Allows(ScopeReport) || acc.Allows("admin") {
			t.Errorf("access %+v", acc)
		}
		if acc := must(s.UseAPIToken(ctx, readSecret)); acc.As != "" || acc.Allows(ScopeOffers) {
			t.Errorf("read access %+v", acc)
		}
		_, err = s.UseAPIToken(ctx, "arbt_forged")
		wantErr(t, err, arbiter.EUNAUTHORIZED, "")
		_, err = s.APITokens(ctx, capt, "atc")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		ts := must(s.APITokens(ctx, td, "atc"))
		byID := map[string]APIToken{}
		for _, tk := range ts {
			byID[tk.ID] = tk
		}
		if len(ts) != 2 || !byID[act.ID].LastUsedAt.Equal(c.t) || byID[read.ID].Name != "Discord pairings bot" {
			t.Errorf("list %+v", ts)
		}
		c.t = c.t.Add(time.Hour)
		rv := must(s.RevokeAPIToken(ctx, td, "atc", act.ID))
		if !rv.RevokedAt.Equal(c.t) || rv.RevokedBy != "arbitertd" {
			t.Errorf("revoked %+v", rv)
		}
		_, err = s.UseAPIToken(ctx, actSecret)
		wantErr(t, err, arbiter.EUNAUTHORIZED, "")
		_, err = s.RevokeAPIToken(ctx, td, "atc", act.ID)
		wantErr(t, err, arbiter.ECONFLICT, "")
	})
}
