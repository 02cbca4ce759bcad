package app

import (
	"strings"
	"testing"

	"arbiter"
)

// TestRegistrationClosesR8: RKCC registration closes on the Saturday
// 06:00 UTC before the Monday start (R8, 42 hours before). A captain is
// refused from that minute on, naming the time; a TD may still enter a
// late team (audited as the TD's registration). The antichess cup sets no
// such time: a captain registers until the TDs close registration.
func TestRegistrationClosesR8(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0)}))
		team := func(n string) arbiter.Entrant {
			return arbiter.Entrant{Name: "Team " + n, Captain: "cap" + n, Members: []string{"cap" + n, "a" + n, "b" + n}}
		}
		capt := func(n string) arbiter.Actor { return arbiter.Actor{Name: "cap" + n, Role: arbiter.RoleCaptain} }

		c.t = utc(2025, 1, 4, 5, 59) // Saturday 05:59: still open
		must(s.Register(ctx, capt("1"), "rk", team("1")))
		c.t = utc(2025, 1, 4, 6, 0) // Saturday 06:00: closed
		_, err := s.Register(ctx, capt("2"), "rk", team("2"))
		wantErr(t, err, arbiter.ERULE, "R8")
		if !strings.Contains(err.Error(), "Saturday 2025-01-04 06:00 UTC") {
			t.Errorf("the refusal does not name the closing time: %v", err)
		}
		e := must(s.Register(ctx, td, "rk", team("2")))
		if e.RegisteredBy != normUser(td.Name) {
			t.Errorf("late team registered by %q", e.RegisteredBy)
		}

		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		c.t = utc(2025, 1, 6, 23, 0) // an hour before its start
		must(s.Register(ctx, capt("3"), "atc", arbiter.Entrant{Name: "Team 3", Captain: "cap3", Members: []string{"cap3", "a3", "b3", "c3"}}))
	})
}
