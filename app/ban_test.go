package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
)

// TestBansAcrossEvents: a ban recorded in one RKCC event (R17) refuses the
// player in the later events of the series it covers — for good, until a
// date, or for a number of events — and nowhere else: not in another
// series, not after it ends, not once lifted. Refusals name the ban.
func TestBansAcrossEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		c.t = utc(2025, 1, 1, 12, 0)
		rkcc := func(slug string, start time.Time) {
			must(s.CreateEvent(ctx, td, NewEvent{Slug: slug, Preset: "rkcc-team-three-tc", Start: start}))
		}
		rkcc("rk25", utc(2025, 1, 6, 0, 0))
		rkcc("rk25b", utc(2025, 3, 3, 0, 0))
		rkcc("rk25c", utc(2025, 6, 2, 0, 0))
		rkcc("rk26", utc(2026, 1, 5, 0, 0))
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 3, 4, 0, 0)}))
		team := func(n string, members ...string) arbiter.Entrant {
			return arbiter.Entrant{Name: "Team " + n, Captain: members[0], Members: members}
		}
		register := func(slug, n string, members ...string) error {
			_, err := s.Register(ctx, arbiter.Actor{Name: members[0], Role: arbiter.RoleCaptain}, slug, team(n, members...))
			return err
		}

		// Refusals: not a TD, no reason, no player, no term or two terms, a date past.
		_, err := s.Ban(ctx, player("x"), "rk25", BanRequest{Player: "cheat1", Permanent: true, Reason: "R14"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Ban(ctx, td, "rk25", BanRequest{Player: "cheat1", Permanent: true})
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.Ban(ctx, td, "rk25", BanRequest{Permanent: true, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "R17")
		_, err = s.Ban(ctx, td, "rk25", BanRequest{Player: "cheat1", Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "R17")
		_, err = s.Ban(ctx, td, "rk25", BanRequest{Player: "cheat1", Permanent: true, Events: 2, Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "R17")
		_, err = s.Ban(ctx, td, "rk25", BanRequest{Player: "cheat1", Until: utc(2024, 1, 1, 0, 0), Reason: "x"})
		wantErr(t, err, arbiter.EINVALID, "R17")

		must(s.Ban(ctx, td, "rk25", BanRequest{Player: "Forever1", Permanent: true, Reason: "engine use (R14)"}))
		must(s.Ban(ctx, td, "rk25", BanRequest{Player: "until1", Until: utc(2025, 6, 1, 0, 0), Reason: "abuse in chat"}))
		b3 := must(s.Ban(ctx, td, "rk25", BanRequest{Player: "two1", Events: 2, Reason: "no-shows"}))
		if b3.ID != "b3" || b3.Series != "rkcc-team-three-tc" || b3.Event != "rk25" {
			t.Fatalf("ban %+v", b3)
		}

		for _, c := range []struct {
			slug, player string
			banned       bool
		}{
			{"rk25", "forever1", true},
			{"rk26", "forever1", true},
			{"atc", "forever1", false}, // another series
			{"rk25b", "until1", true},  // starts before 1 June 2025
			{"rk25c", "until1", false}, // starts after
			{"rk25", "two1", true},     // 1st event from the ban's day
			{"rk25b", "two1", true},    // 2nd
			{"rk25c", "two1", false},   // 3rd: served
		} {
			n := c.slug + c.player
			err := register(c.slug, n, "cap"+n, c.player, "b"+n)
			if !c.banned {
				if err != nil {
					t.Errorf("%s in %s: %v", c.player, c.slug, err)
				}
				continue
			}
			wantErr(t, err, arbiter.ERULE, "R17")
			if err != nil && !strings.Contains(err.Error(), "recorded in rk25") {
				t.Errorf("%s in %s: the refusal does not name the ban: %v", c.player, c.slug, err)
			}
		}

		// Lifted by a TD of the event it was recorded in, with a reason.
		_, err = s.LiftBan(ctx, td, "rk25", "b1", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		must(s.LiftBan(ctx, td, "rk25", "b1", "appeal upheld"))
		_, err = s.LiftBan(ctx, td, "rk25", "b1", "again")
		wantErr(t, err, arbiter.ECONFLICT, "")
		if err := register("rk26", "late", "caplate", "forever1", "blate"); err != nil {
			t.Errorf("after the ban was lifted: %v", err)
		}
		bans := must(s.Bans(ctx, arbiter.NamedUser(td.Name), "rk25"))
		if len(bans) != 3 || !bans[0].Lifted || bans[0].LiftedReason != "appeal upheld" {
			t.Fatalf("bans %+v", bans)
		}
	})
}
