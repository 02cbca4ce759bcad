package app

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// closeAudit returns the reason of the event's registration.close entry.
func closeAudit(t *testing.T, s *Service, slug string) string {
	t.Helper()
	for _, e := range must(s.Audit(ctx, td, slug, sqlstore.AuditFilter{})) {
		if e.Action == "registration.close" {
			return e.Reason
		}
	}
	t.Fatal("no registration.close audit entry")
	return ""
}

// TestInitialColourByLot: closing registration draws the top seed's
// round-1 colour by lot (C.04.3 5.2.5). The lot for "atc" closed at
// 2025-01-05 12:00 UTC is sha256("atc\n2025-01-05T12:00:00Z") (computed
// with printf | sha256sum) = 35da69..., first byte 0x35 odd: black. So
// the team Swiss round 1 (1-6, 7-2, 3-8, 9-4, 5-10 with White for the top
// seed) is played with every board's colours the other way round.
func TestInitialColourByLot(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		c.t = utc(2025, 1, 5, 12, 0)
		ev := must(s.CloseRegistrationWith(ctx, td, "atc", CloseOptions{}))
		const digest = "35da698275a2090069810078f7b03639ea01df308a1945c05fb215db2e2a565b"
		if ev.InitialColour != "black" || !strings.Contains(ev.InitialColourLot, `sha256("atc\n2025-01-05T12:00:00Z")=`+digest) {
			t.Fatalf("initial colour %q, lot %q", ev.InitialColour, ev.InitialColourLot)
		}
		if r := closeAudit(t, s, "atc"); !strings.Contains(r, "initial colour black by lot") || !strings.Contains(r, digest) {
			t.Fatalf("audit reason %q", r)
		}
		_, ms, err := s.PairRound(ctx, td, "atc")
		must(ms, err)
		want := []string{"team-06-team-01", "team-02-team-07", "team-08-team-03", "team-04-team-09", "team-10-team-05"}
		if got := matchKeys(ms); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("round 1 %v, want %v", got, want)
		}
	})
}

// TestInitialColourByTDs: the TDs may give the colour themselves (e.g. a lot
// drawn in public) with a reason, which is audited; the Dutch engine then
// gives the top seed that colour: C.04.3 round 1 1-6, 7-2, 3-8, 9-4, 5-10
// becomes 6-1, 2-7, 8-3, 4-9, 10-5 with Black for p01.
func TestInitialColourByTDs(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "acwc", 10) {
			must(s.Approve(ctx, td, "acwc", n, 0))
		}
		c.t = utc(2023, 3, 20, 12, 0)
		_, err := s.CloseRegistrationWith(ctx, td, "acwc", CloseOptions{InitialColour: "black"})
		wantErr(t, err, arbiter.EINVALID, "C.04.3 5.2.5")
		_, err = s.CloseRegistrationWith(ctx, td, "acwc", CloseOptions{InitialColour: "green", Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "C.04.3 5.2.5")
		_, err = s.CloseRegistrationWith(ctx, player("p01"), "acwc", CloseOptions{InitialColour: "white", Reason: "I like White"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		ev := must(s.CloseRegistrationWith(ctx, td, "acwc", CloseOptions{InitialColour: "Black", Reason: "lot drawn at the opening stream"}))
		if ev.InitialColour != "black" || ev.InitialColourLot != "TDs" {
			t.Fatalf("initial colour %q, lot %q", ev.InitialColour, ev.InitialColourLot)
		}
		if r := closeAudit(t, s, "acwc"); r != "initial colour black chosen by the TDs: lot drawn at the opening stream" {
			t.Fatalf("audit reason %q", r)
		}
		_, ms, err := s.PairRound(ctx, td, "acwc")
		want := []string{"p06-p01", "p02-p07", "p08-p03", "p04-p09", "p10-p05"}
		if got := matchKeys(must(ms, err)); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("round 1 %v, want %v", got, want)
		}
	})
}
