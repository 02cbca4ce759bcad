package app

import (
	"slices"
	"testing"
)

func TestRolesOf(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 3, 10, true)
		for _, want := range []struct {
			user                    string
			td                      bool
			captain, member, player []string
		}{
			{user: td.Name, td: true},
			{user: "CAP01", captain: []string{"team-01"}, member: []string{"team-01"}},
			{user: "b02", member: []string{"team-02"}},
			{user: "s03", member: []string{"team-03"}},
			{user: "nobody"},
			{user: ""},
		} {
			r := must(s.RolesOf(ctx, "atc", want.user))
			if r.TD != want.td || !slices.Equal(r.Captain, want.captain) || !slices.Equal(r.Member, want.member) || !slices.Equal(r.Player, want.player) {
				t.Errorf("%q: %+v", want.user, r)
			}
			if r.Any() != (want.td || len(want.member) > 0) {
				t.Errorf("%q: Any() = %v", want.user, r.Any())
			}
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "acwc", 2)
		if r := must(s.RolesOf(ctx, "acwc", "P02")); !slices.Equal(r.Player, []string{"p02"}) || r.TD || !r.Any() {
			t.Errorf("p02 in acwc: %+v", r)
		}
		if _, err := s.RolesOf(ctx, "nope", "x"); err == nil {
			t.Error("unknown event: no error")
		}
	})
}

func TestReservedSlugRefused(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		_, err := s.CreateEvent(ctx, td, NewEvent{Slug: "new", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)})
		wantErr(t, err, "invalid", "app.event")
	})
}
