package app

import (
	"slices"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// unordered lists a round's pairs as "a-b" with a < b, sorted.
func unordered(ms []arbiter.Match) []string {
	var out []string
	for _, m := range ms {
		a, b := min(m.Home, m.Away), max(m.Home, m.Away)
		out = append(out, a+"-"+b)
	}
	slices.Sort(out)
	return out
}

// TestForbiddenDutch: round 1 of 8 is 1-5, 6-2, 3-7, 8-4 (C.04.3: S1 1-4
// against S2 5-8). With p01-p05 forbidden, the next transposition of S2
// (6, 5, 7, 8) gives 1-6, 2-5, 3-7, 4-8.
func TestForbiddenDutch(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "fb", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "fb", 8) {
			must(s.Approve(ctx, td, "fb", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "fb"))
		plain := []string{"p01-p05", "p02-p06", "p03-p07", "p04-p08"}
		if got := unordered(pairOK(s.PairRound(ctx, td, "fb"))); !slices.Equal(got, plain) {
			t.Fatalf("round 1 %v, want %v", got, plain)
		}
		must(s.DiscardRound(ctx, td, "fb", "p01 and p05 play for the same club"))

		// Refusals: not a TD, no reason, one entrant, someone not entered.
		_, err := s.Forbid(ctx, player("p01"), "fb", ForbidRequest{Entrants: []string{"p01", "p05"}, Reason: "club"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Forbid(ctx, td, "fb", ForbidRequest{Entrants: []string{"p01", "p05"}})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.Forbid(ctx, td, "fb", ForbidRequest{Entrants: []string{"p01", "P01"}, Reason: "club"})
		wantErr(t, err, arbiter.EINVALID, "app.forbidden")
		_, err = s.Forbid(ctx, td, "fb", ForbidRequest{Entrants: []string{"p01", "zz"}, Reason: "club"})
		wantErr(t, err, arbiter.EINVALID, "app.forbidden")
		_, err = s.Forbid(ctx, td, "fb", ForbidRequest{Stage: 1, Entrants: []string{"p01", "p05"}, Reason: "club"})
		wantErr(t, err, arbiter.EINVALID, "app.forbidden")

		fb := must(s.Forbid(ctx, td, "fb", ForbidRequest{Entrants: []string{"P01", "p05"}, Reason: "same club (Hamburg SK)"}))
		if fb.ID != "f1" || !slices.Equal(fb.Entrants, []string{"p01", "p05"}) {
			t.Fatalf("forbidden %+v", fb)
		}
		want := []string{"p01-p06", "p02-p05", "p03-p07", "p04-p08"}
		if got := unordered(pairOK(s.PairRound(ctx, td, "fb"))); !slices.Equal(got, want) {
			t.Fatalf("round 1 with p01-p05 forbidden %v, want %v", got, want)
		}

		// Lifted: the next pairing may produce 1-5 again; the record stays.
		must(s.DiscardRound(ctx, td, "fb", "the clubs merged"))
		_, err = s.RemoveForbidden(ctx, td, "fb", "f1", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		must(s.RemoveForbidden(ctx, td, "fb", "f1", "p05 changed club"))
		_, err = s.RemoveForbidden(ctx, td, "fb", "f1", "again")
		wantErr(t, err, arbiter.ECONFLICT, "")
		list := must(s.ForbiddenPairings(ctx, "fb"))
		if len(list) != 1 || !list[0].Removed || list[0].RemovedReason != "p05 changed club" || list[0].Reason != "same club (Hamburg SK)" {
			t.Fatalf("listing %+v", list)
		}
		if got := unordered(pairOK(s.PairRound(ctx, td, "fb"))); !slices.Equal(got, plain) {
			t.Fatalf("round 1 after the removal %v, want %v", got, plain)
		}
		n := 0
		for _, e := range must(s.Audit(ctx, td, "fb", sqlstore.AuditFilter{Kind: kindForbidden})) {
			if (e.Action == "pairing.forbid" && e.Reason == "same club (Hamburg SK)") || (e.Action == "pairing.unforbid" && e.Reason == "p05 changed club") {
				n++
			}
		}
		if n != 2 {
			t.Fatalf("%d audit entries for the forbidden pairing, want 2", n)
		}
	})
}

// TestForbiddenTeamSwiss: the antichess cup's round 1 of 10 teams is 1-6,
// 7-2, 3-8, 9-4, 5-10; with team-01 and team-06 forbidden (same
// federation), S2 transposed to 7, 6, 8, 9, 10 gives 1-7, 2-6, 3-8, 4-9, 5-10.
func TestForbiddenTeamSwiss(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		must(s.Forbid(ctx, td, "atc", ForbidRequest{Entrants: []string{"team-01", "team-06"}, Reason: "same federation"}))
		rd, ms, err := s.PairRound(ctx, td, "atc")
		must(ms, err)
		want := []string{"team-01-team-07", "team-02-team-06", "team-03-team-08", "team-04-team-09", "team-05-team-10"}
		if got := unordered(ms); rd.Method != "teamswiss" || !slices.Equal(got, want) {
			t.Fatalf("round 1 (%s) %v, want %v", rd.Method, got, want)
		}
	})
}
