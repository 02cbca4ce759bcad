package app

import (
	"strings"
	"testing"
	"time"

	"arbiter"
)

// Bad input is refused with EINVALID naming the field and the rule, and
// nothing is stored (issue 12: names with control, bidi and zero-width
// characters, member names that are no Lichess usernames, start dates in
// years 0000, 1970 and 9999, negative versions, huge report fields).

func wantField(t *testing.T, err error, field, rule string) {
	t.Helper()
	e, ok := err.(*arbiter.Error)
	if !ok || e.Code != arbiter.EINVALID || e.Field != field || e.Rule != rule {
		t.Fatalf("got %v, want EINVALID on field %q (rule %s)", err, field, rule)
	}
}

func TestCreateEventRefusesBadNamesAndDates(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		start := utc(2025, 1, 7, 0, 0)
		for _, name := range []string{"   ", "Cup\u202Etxt.exe", "Cup\u200b", "Cup\x07", "Cup\nTwo", strings.Repeat("x", 101)} {
			_, err := s.CreateEvent(ctx, td, NewEvent{Slug: "cup", Name: name, Preset: "antichess-team-cup", Start: start})
			wantField(t, err, "name", "text.name")
		}
		for _, y := range []int{0, 1970, 9999} {
			_, err := s.CreateEvent(ctx, td, NewEvent{Slug: "cup", Preset: "antichess-team-cup", Start: time.Date(y, 1, 7, 0, 0, 0, 0, time.UTC)})
			wantField(t, err, "start", "date.window")
		}
		if evs := must(s.ListEvents(ctx)); len(evs) != 0 {
			t.Fatalf("%d events stored after refusals", len(evs))
		}
		// A name with letters of any script is fine.
		ev := must(s.CreateEvent(ctx, td, NewEvent{Slug: "cup", Name: "  Coupe d'Été ", Preset: "antichess-team-cup", Start: start}))
		if ev.Name != "Coupe d'Été" {
			t.Fatalf("name stored as %q", ev.Name)
		}
	})
}

func TestRegisterRefusesBadNames(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		capt := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		team := func(name string, members ...string) arbiter.Entrant {
			return arbiter.Entrant{Name: name, Captain: "cap1", Members: append([]string{"cap1"}, members...)}
		}
		for _, tc := range []struct {
			e           arbiter.Entrant
			field, rule string
		}{
			{team("\u202eenO maeT", "bb", "cc"), "name", "text.name"},
			{team("Team\u200bOne", "bb", "cc"), "name", "text.name"},
			{team("\t \u3000", "bb", "cc"), "name", "text.name"},
			{team("Team One", "has space", "cc"), "members[1]", "lichess.username"},
			{team("Team One", "bb", "_under"), "members[2]", "lichess.username"},
			{team("Team One", "bb", strings.Repeat("c", 31)), "members[2]", "lichess.username"},
			{team("Team One", "bb", "c\u202e"), "members[2]", "lichess.username"},
			{arbiter.Entrant{Name: "Team One", Captain: "cap1", Members: []string{"cap1", "bb", "cc"}, Substitute: "x y"}, "substitute", "lichess.username"},
		} {
			_, err := s.Register(ctx, capt, "atc", tc.e)
			wantField(t, err, tc.field, tc.rule)
		}
		if es := must(s.Entrants(ctx, "atc")); len(es) != 0 {
			t.Fatalf("%d entrants stored after refusals", len(es))
		}
	})
}

func TestNegativeVersionRefused(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "acwc", 1)
		_, err := s.Approve(ctx, td, "acwc", "p01", -1)
		wantField(t, err, "version", "app.version")
		if e := must(s.Entrants(ctx, "acwc")); e[0].Status != arbiter.EntrantPending {
			t.Fatalf("approved with version -1: %+v", e[0])
		}
		_, err = s.ConfirmResult(ctx, td, "acwc", "s1r1b1", -5)
		wantField(t, err, "version", "app.version")
		_, err = s.OverrideResult(ctx, td, "acwc", "s1r1b1", ResultInput{Summary: "6-4"}, "checked", -1)
		wantField(t, err, "version", "app.version")
	})
}

func TestCheatReportBounds(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "acwc", 2)
		for _, tc := range []struct {
			req         CheatReportRequest
			field, rule string
		}{
			{CheatReportRequest{Suspect: strings.Repeat("x", 900_000), Text: "engine"}, "suspect", "lichess.username"},
			{CheatReportRequest{Suspect: "p02 and friends", Text: "engine"}, "suspect", "lichess.username"},
			{CheatReportRequest{Suspect: "p02", Text: strings.Repeat("y", maxCheatReport+1)}, "text", "text.free"},
			{CheatReportRequest{Suspect: "p02", Text: "look at \u202egame 3"}, "text", "text.free"},
		} {
			_, err := s.ReportCheating(ctx, player("p01"), "acwc", tc.req)
			wantField(t, err, tc.field, tc.rule)
		}
		if rs := must(s.CheatReports(ctx, td, "acwc")); len(rs) != 0 {
			t.Fatalf("%d reports stored", len(rs))
		}
	})
}

func TestReasonsBounded(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "acwc", 1)
		_, err := s.Reject(ctx, td, "acwc", "p01", strings.Repeat("r", 1001), 0)
		wantField(t, err, "reason", "text.free")
		_, err = s.Reject(ctx, td, "acwc", "p01", "too young \u202e", 0)
		wantField(t, err, "reason", "text.free")
		if e := must(s.Entrants(ctx, "acwc")); e[0].Status != arbiter.EntrantPending {
			t.Fatalf("rejected anyway: %+v", e[0])
		}
	})
}

// TestOneConfirmedReportPerMatch: TD overrides one after another leave one
// confirmed report on the match, the earlier ones superseded.
func TestOneConfirmedReportPerMatch(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "acwc", 8) {
			must(s.Approve(ctx, td, "acwc", n, 0))
		}
		c.t = utc(2023, 3, 20, 12, 0)
		must(s.CloseRegistration(ctx, td, "acwc"))
		pairOK(s.PairRound(ctx, td, "acwc"))
		must(s.PublishRound(ctx, td, "acwc"))
		c.t = utc(2023, 3, 22, 12, 0)
		must(s.ReportResult(ctx, player("p01"), "acwc", "s1r1b1", ResultInput{Summary: "5-5"}))
		must(s.ConfirmResult(ctx, player("p05"), "acwc", "s1r1b1", 0))
		for _, sum := range []string{"5.5-4.5", "4.5-5.5", "5-5"} {
			must(s.OverrideResult(ctx, td, "acwc", "s1r1b1", ResultInput{Summary: sum}, "games checked on Lichess", 0))
		}
		rs := must(s.Reports(ctx, arbiter.NamedUser(td.Name), "acwc", "s1r1b1"))
		confirmed := 0
		for _, r := range rs {
			if r.Status == arbiter.ReportConfirmed {
				confirmed++
				if r.Summary != "5-5" || r.Role != arbiter.RoleTD {
					t.Errorf("the confirmed report is %s (%s), want the last override 5-5", r.ID, r.Summary)
				}
			} else if r.Status != arbiter.ReportSuperseded {
				t.Errorf("report %s is %s, want superseded", r.ID, r.Status)
			}
		}
		if len(rs) != 4 || confirmed != 1 {
			t.Fatalf("%d reports, %d confirmed; want 4 with 1 confirmed", len(rs), confirmed)
		}
	})
}

// TestTiebreakKeyBounded: a TD-entered tiebreak value's key is a short
// name, not free text.
func TestTiebreakKeyBounded(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		registerPlayers(t, s, "acwc", 1)
		for _, key := range []string{strings.Repeat("k", 41), "previous final", "prev\u202efinal"} {
			_, err := s.SetTiebreakValue(ctx, td, "acwc", "p01", key, arbiter.P(1))
			wantField(t, err, "key", "app.tiebreak")
		}
		e := must(s.SetTiebreakValue(ctx, td, "acwc", "p01", "previous_final", arbiter.P(1)))
		if len(e.Values) != 1 {
			t.Fatalf("values %v", e.Values)
		}
	})
}

// TestEditAndLateEntryRefuseBadNames: a TD's correction of an entrant
// and a late entry meet the registration's checks of names.
func TestEditAndLateEntryRefuseBadNames(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		capt := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		e := must(s.Register(ctx, capt, "atc", arbiter.Entrant{Name: "Team One", Captain: "cap1", Members: []string{"cap1", "bb", "cc"}}))
		bad := "Team\u202eOne"
		_, err := s.EditEntrant(ctx, td, "atc", e.ID, EntrantEdit{Name: &bad, Reason: "typo"})
		wantField(t, err, "name", "text.name")
		_, err = s.EditEntrant(ctx, td, "atc", e.ID, EntrantEdit{Members: []string{"cap1", "bb", "c c"}, Reason: "typo"})
		wantField(t, err, "members[2]", "lichess.username")
		_, err = s.EditEntrant(ctx, td, "atc", e.ID, EntrantEdit{Rating: new(int), Reason: "typo", Version: -2})
		wantField(t, err, "version", "app.version")
		_, err = s.LateEntry(ctx, td, "atc", arbiter.Entrant{Name: "Late\x00Team", Captain: "cap9", Members: []string{"cap9", "x9", "y9"}}, "late")
		wantField(t, err, "name", "text.name")
		if got := must(s.Entrants(ctx, "atc")); len(got) != 1 || got[0].Name != "Team One" {
			t.Fatalf("entrants %+v", got)
		}
	})
}
