package app

import (
	"slices"
	"strings"
	"testing"

	"arbiter"
)

// TestSeparatedPlayers: the TDs name players who must play on different
// teams (A11, "the named strongest players"); a team registering with two
// of them is refused, one is fine; a replacement may not bring a team a
// second one; lifting the list allows it again.
func TestSeparatedPlayers(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 9, 1, false)

		// Refusals: not a TD, no reason, one player, a player twice, and a
		// list that an entered team already breaks (cap01 and a01 are in Team 01).
		_, err := s.Separate(ctx, player("cap01"), "atc", SeparateRequest{Players: []string{"star1", "star2"}, Reason: "A11"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Separate(ctx, td, "atc", SeparateRequest{Players: []string{"star1", "star2"}})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.Separate(ctx, td, "atc", SeparateRequest{Players: []string{"star1"}, Reason: "A11"})
		wantErr(t, err, arbiter.EINVALID, "A11")
		_, err = s.Separate(ctx, td, "atc", SeparateRequest{Players: []string{"star1", "STAR1"}, Reason: "A11"})
		wantErr(t, err, arbiter.EINVALID, "A11")
		_, err = s.Separate(ctx, td, "atc", SeparateRequest{Players: []string{"cap01", "a01", "star1"}, Reason: "A11"})
		wantErr(t, err, arbiter.ERULE, "A11")
		if !strings.Contains(err.Error(), "Team 01") {
			t.Errorf("the refusal does not name the team: %v", err)
		}

		sp := must(s.Separate(ctx, td, "atc", SeparateRequest{Players: []string{"Star1", "star2", "star3", "a02"}, Reason: "the four strongest players (A11)"}))
		if sp.ID != "s1" || !slices.Equal(sp.Players, []string{"star1", "star2", "star3", "a02"}) || sp.By != normUser(td.Name) {
			t.Fatalf("list %+v", sp)
		}

		// A team with two of them is refused, naming both; one is fine.
		capt := arbiter.Actor{Name: "cap10", Role: arbiter.RoleCaptain}
		two := arbiter.Entrant{Name: "Team 10", Captain: "cap10", Members: []string{"cap10", "star1", "x10", "star3"}}
		_, err = s.Register(ctx, capt, "atc", two)
		wantErr(t, err, arbiter.ERULE, "A11")
		if !strings.Contains(err.Error(), "star1 and star3") {
			t.Errorf("the refusal does not name both players: %v", err)
		}
		one := arbiter.Entrant{Name: "Team 10", Captain: "cap10", Members: []string{"cap10", "star1", "x10", "y10"}}
		must(s.Register(ctx, capt, "atc", one))
		must(s.Approve(ctx, td, "atc", "team-10", 0))

		// A replacement (A15) may not bring a second one: star2 to Team 02,
		// which holds a02.
		must(s.CloseRegistration(ctx, td, "atc"))
		pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 9, 0, 0)
		must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-02", Player: "b02", Kind: "disqualification", Reason: "A6"}))
		rq := ReplacementRequest{Entrant: "team-02", Replaced: "b02", Player: "star2", Rating: 1000, ReplacedRating: 2200,
			Eligible: true, Willing: true, Reason: "captain's request"}
		_, err = s.NameReplacement(ctx, td, "atc", rq)
		wantErr(t, err, arbiter.ERULE, "A11")

		// Lifted (TD, reason): the same replacement goes through; the
		// record stays, marked.
		_, err = s.RemoveSeparated(ctx, td, "atc", "s1", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.RemoveSeparated(ctx, player("cap02"), "atc", "s1", "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.RemoveSeparated(ctx, td, "atc", "s9", "x")
		wantErr(t, err, arbiter.ENOTFOUND, "")
		must(s.RemoveSeparated(ctx, td, "atc", "s1", "list withdrawn by the organisers"))
		_, err = s.RemoveSeparated(ctx, td, "atc", "s1", "again")
		wantErr(t, err, arbiter.ECONFLICT, "")
		e := must(s.NameReplacement(ctx, td, "atc", rq))
		if !slices.Contains(e.Members, "star2") {
			t.Fatalf("members %v", e.Members)
		}
		all := must(s.SeparatedPlayers(ctx, "atc"))
		if len(all) != 1 || !all[0].Removed || all[0].RemovedReason != "list withdrawn by the organisers" {
			t.Fatalf("lists %+v", all)
		}
	})
}

// TestSeparatedOnlyInTeamEvents: an individual event has no teams to keep
// players apart in.
func TestSeparatedOnlyInTeamEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 10, 0)}))
		_, err := s.Separate(ctx, td, "wc", SeparateRequest{Players: []string{"p01", "p02"}, Reason: "x"})
		wantErr(t, err, arbiter.ERULE, "A11")
	})
}
