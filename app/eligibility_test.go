package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter"
	"arbiter/eligibility"
	"arbiter/lichess"
	"arbiter/sqlstore"
)

// fakeAccounts is an AccountSource over fixed profiles and the creation
// times of each user's rated antichess games. A user with no profile is
// a Lichess 404; err, when set, is answered for every call, countErr for
// game counts only. It records the counts it was asked.
type fakeAccounts struct {
	mu       sync.Mutex
	users    map[string]*lichess.User
	games    map[string][]time.Time
	err      error
	countErr error
	asked    []string
}

func (f *fakeAccounts) User(_ context.Context, name string) (*lichess.User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	u, ok := f.users[strings.ToLower(name)]
	if !ok {
		return nil, &arbiter.Error{Code: arbiter.ENOTFOUND, Message: "lichess: Not found."}
	}
	return u, nil
}

func (f *fakeAccounts) CountGames(_ context.Context, name string, q lichess.GamesQuery) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, fmt.Sprintf("%s %s rated=%s %s %s max=%d", name, q.PerfType, boolPtr(q.Rated), q.Since.Format(time.RFC3339Nano), q.Until.Format(time.RFC3339Nano), q.Max))
	if f.err != nil {
		return 0, f.err
	}
	if f.countErr != nil {
		return 0, f.countErr
	}
	n := 0
	for _, g := range f.games[strings.ToLower(name)] {
		if !g.Before(q.Since) && !g.After(q.Until) && (q.Max == 0 || n < q.Max) {
			n++
		}
	}
	return n, nil
}

func boolPtr(b *bool) string {
	switch {
	case b == nil:
		return "any"
	case *b:
		return "true"
	}
	return "false"
}

// account is a Lichess profile with an antichess perf (none when games is 0).
func account(name, title string, created time.Time, games, rating, rd int, prov bool) *lichess.User {
	u := &lichess.User{ID: strings.ToLower(name), Username: name, Title: title, CreatedAt: created, Perfs: map[string]lichess.Perf{}}
	if games > 0 {
		u.Perfs[lichess.PerfAntichess] = lichess.Perf{Games: games, Rating: rating, RD: rd, Provisional: prov}
	}
	return u
}

// every returns n times from start, step apart.
func every(start time.Time, step time.Duration, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = start.Add(time.Duration(i) * step)
	}
	return out
}

// checksOf renders a report as "user status: rule=status ..." and the
// details of the checks that are not manual.
func checksOf(r eligibility.Report) string {
	var s []string
	for _, c := range r.Checks {
		s = append(s, c.Rule+"="+string(c.Status))
	}
	return r.Username + " " + string(r.Status) + ": " + strings.Join(s, " ")
}

func detailOf(r eligibility.Report, rule string) string {
	for _, c := range r.Checks {
		if c.Rule == rule {
			return c.Detail
		}
	}
	return "<no " + rule + ">"
}

// TestCheckEligibilityTeam: an Antichess Team Cup team registered on
// 2024-12-20 12:00 and checked two days later (A2). cap01 passes every
// automatic check (1497 games before registering: the profile's 1500 less
// the 3 played since; 110 in the 3 months before); a01 is a BOT; b01's
// account is under 6 months old at registration; c01 is not on Lichess;
// the substitute s01's provisional rating is unknown before the initial
// pairings. The manual checks stay unknown. Refused without a Lichess
// client and for a captain. The check is stored on the entrant, audited,
// and a second run replaces it; the entrant's status is untouched (the
// TD decides).
func TestCheckEligibilityTeam(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		reg := utc(2024, 12, 20, 12, 0)
		c.t = reg
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		e := must(s.Register(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", arbiter.Entrant{Name: "Team 01", Captain: "cap01",
			Members: []string{"cap01", "a01", "b01", "c01"}, Substitute: "s01", Rating: 2000}))
		old := 2020
		games := append(every(utc(2024, 10, 1, 0, 0), 12*time.Hour, 110), every(utc(2024, 12, 21, 10, 0), time.Hour, 3)...)
		src := &fakeAccounts{users: map[string]*lichess.User{
			"cap01": account("Cap01", "", utc(old, 1, 1, 0, 0), 1500, 2100, 50, false),
			"a01":   account("A01", lichess.TitleBot, utc(old, 1, 1, 0, 0), 1500, 2100, 50, false),
			"b01":   account("B01", "", utc(2024, 10, 1, 0, 0), 1200, 2000, 50, false),
			"s01":   account("S01", "", utc(old, 1, 1, 0, 0), 1200, 1900, 120, true),
		}, games: map[string][]time.Time{"cap01": games, "a01": games, "b01": games, "s01": games}}

		// No Lichess client: refused with the reason; nothing stored.
		_, err := s.CheckEligibility(ctx, td, "atc", e.ID)
		wantErr(t, err, arbiter.ERULE, "app.lichess")
		s.SetAccountSource(src)
		// Only a TD may check; the captain is refused before Lichess is asked.
		_, err = s.CheckEligibility(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", e.ID)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.CheckEligibility(ctx, td, "atc", "no-such-team")
		wantErr(t, err, arbiter.ENOTFOUND, "")
		if len(src.asked) != 0 {
			t.Fatalf("refused checks asked %q", src.asked)
		}

		c.t = utc(2024, 12, 22, 12, 0)
		v := must(s.CheckEligibility(ctx, td, "atc", e.ID))
		var got []string
		for _, r := range v.Reports {
			got = append(got, checksOf(r))
		}
		manual := "A2.cheat=unknown A2.closed=pass A2.tos=pass A2.ban=unknown A2.accounts=unknown"
		want := []string{
			"Cap01 unknown: A2.age=pass A2.games=pass A2.recent=pass " + manual + " A2.bot=pass A2.provisional=pass",
			"A01 fail: A2.age=pass A2.games=pass A2.recent=pass " + manual + " A2.bot=fail A2.provisional=pass",
			"B01 fail: A2.age=fail A2.games=pass A2.recent=pass " + manual + " A2.bot=pass A2.provisional=pass",
			"c01 fail: account=fail",
			"S01 unknown: A2.age=pass A2.games=pass A2.recent=pass " + manual + " A2.bot=pass A2.provisional=unknown",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("reports:\n got %q\nwant %q", got, want)
		}
		cap01, b01, c01, s01 := v.Reports[0], v.Reports[2], v.Reports[3], v.Reports[4]
		if !slices.Equal(c01.Checks, []eligibility.Check{{Rule: "account", Clause: "A2", Text: "a Lichess account", Status: eligibility.Fail, Detail: "no such Lichess account"}}) {
			t.Fatalf("c01 %+v", c01)
		}
		for rule, want := range map[string]string{
			"A2.games":  "1497 rated antichess games so far (needs 1000)",
			"A2.recent": "at least 100 rated antichess games in the 3 months since 2024-09-20 (needs 100)",
			"A2.age":    "created 2020-01-01, 6 months before 2024-12-20",
		} {
			if d := detailOf(cap01, rule); d != want {
				t.Errorf("cap01 %s: %q, want %q", rule, d, want)
			}
		}
		if d := detailOf(b01, "A2.age"); d != "created 2024-10-01: 6 months old only from 2025-04-01" {
			t.Errorf("b01 A2.age: %q", d)
		}
		if d := detailOf(s01, "A2.provisional"); d != "provisional (1900?, RD 120) now; must be established by 2025-01-07" {
			t.Errorf("s01 A2.provisional: %q", d)
		}
		if v.Entrant != "team-01" || v.Ruleset != "antichess-team-cup" || v.By != "arbitertd" || !v.At.Equal(c.t) || !v.Judged.Equal(reg) ||
			v.Status != eligibility.Fail || v.Version != 1 || !cap01.At.Equal(reg) {
			t.Fatalf("check %+v", v)
		}
		if want := "fail: A01 fails A2.bot; B01 fails A2.age; c01 fails account (13 checks for the TD to confirm)"; v.Summary() != want {
			t.Fatalf("summary %q, want %q", v.Summary(), want)
		}
		// Two counts per open account: since registration, cut at 501
		// (1500 - 1000 + 1: that many would leave fewer than 1000 before),
		// whose 3 leave 1497 of the profile's 1500 before registering; and
		// the 3 months before, cut at the 100 needed.
		rated := func(user string, since, until time.Time, max int) string {
			return fmt.Sprintf("%s antichess rated=true %s %s max=%d", user, since.Format(time.RFC3339Nano), until.Add(-time.Millisecond).Format(time.RFC3339Nano), max)
		}
		if want := []string{rated("Cap01", reg, c.t, 501), rated("Cap01", utc(2024, 9, 20, 12, 0), reg, 100)}; !slices.Equal(src.asked[:2], want) || len(src.asked) != 8 {
			t.Fatalf("asked %q", src.asked)
		}

		// Stored, audited; the entrant is still pending.
		stored := must(s.Eligibility(ctx, "atc", "Team-01"))
		if stored == nil || stored.Version != 1 || stored.Status != eligibility.Fail || len(stored.Reports) != 5 || checksOf(stored.Reports[1]) != want[1] {
			t.Fatalf("stored %+v", stored)
		}
		if ens := must(s.Entrants(ctx, "atc")); len(ens) != 1 || ens[0].Status != arbiter.EntrantPending {
			t.Fatalf("entrants %+v", ens)
		}

		// a01 is no longer a BOT: a second check replaces the first.
		src.users["a01"] = account("A01", "", utc(old, 1, 1, 0, 0), 1500, 2100, 50, false)
		c.t = utc(2024, 12, 23, 12, 0)
		v = must(s.CheckEligibility(ctx, td, "atc", e.ID))
		if v.Version != 2 || v.Status != eligibility.Fail || len(v.Reports) != 5 || v.Reports[1].Status != eligibility.Unknown {
			t.Fatalf("second check %+v", v)
		}
		if want := "fail: B01 fails A2.age; c01 fails account (13 checks for the TD to confirm)"; v.Summary() != want {
			t.Fatalf("summary %q", v.Summary())
		}
		all := must(s.Eligibilities(ctx, arbiter.NamedUser(td.Name), "atc"))
		if len(all) != 1 || all["team-01"].Version != 2 {
			t.Fatalf("eligibilities %+v", all)
		}
		var log []string
		for _, a := range must(s.Audit(ctx, td, "atc", sqlstore.AuditFilter{Kind: "eligibility"})) {
			log = append(log, a.Action+" "+a.RecordID+" by "+a.Actor.Name+": "+a.Reason)
		}
		if want := []string{
			"entrant.eligibility team-01 by arbitertd: team-01: fail: A01 fails A2.bot; B01 fails A2.age; c01 fails account (13 checks for the TD to confirm)",
			"entrant.eligibility team-01 by arbitertd: team-01: fail: B01 fails A2.age; c01 fails account (13 checks for the TD to confirm)",
		}; !slices.Equal(log, want) {
			t.Fatalf("audit %q", log)
		}
	})
}

// TestCheckEligibilityACWC: W1 for individual ACWC entrants registered
// on 2023-03-12 09:00: an account from 2021 with 1200 games, 30 of them
// since 2023-03-12, has 1170 before it; capped counts settle W1.games
// for busier accounts. Lichess failing (the profile or a
// count) is EUNAVAILABLE and keeps the last check; a format without
// eligibility rules is refused (app.eligibility).
func TestCheckEligibilityACWC(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)}))
		e := must(s.Register(ctx, player("Veteran"), "wc", arbiter.Entrant{Player: "Veteran", Rating: 2000}))
		active := must(s.Register(ctx, player("Active"), "wc", arbiter.Entrant{Player: "Active", Rating: 2000}))
		recent := must(s.Register(ctx, player("Recent"), "wc", arbiter.Entrant{Player: "Recent", Rating: 2000}))
		src := &fakeAccounts{users: map[string]*lichess.User{
			"veteran": account("Veteran", "", utc(2021, 5, 1, 0, 0), 1200, 2000, 50, false),
			"active":  account("Active", "", utc(2021, 5, 1, 0, 0), 2700, 2000, 50, false),
			"recent":  account("Recent", "", utc(2021, 5, 1, 0, 0), 1100, 2000, 50, false),
		}, games: map[string][]time.Time{
			"veteran": every(utc(2023, 3, 12, 0, 0), time.Hour, 30),
			"active":  append(every(utc(2023, 1, 1, 0, 0), time.Hour, 1200), every(utc(2023, 3, 12, 0, 0), time.Minute, 1500)...),
			"recent":  every(utc(2023, 3, 12, 0, 0), time.Minute, 150),
		}}
		s.SetAccountSource(src)
		c.t = utc(2023, 3, 14, 12, 0)
		v := must(s.CheckEligibility(ctx, td, "wc", e.ID))
		if len(v.Reports) != 1 || checksOf(v.Reports[0]) != "Veteran unknown: W1.created=pass W1.games=pass W1.closed=pass W1.marks=pass W1.past-marks=unknown W1.cheat=unknown W1.accounts=unknown W1.bot=pass" ||
			detailOf(v.Reports[0], "W1.games") != "1170 rated antichess games before 2023-03-12 (needs 1000)" ||
			v.Ruleset != "acwc-2023" || !v.Judged.Equal(utc(2023, 3, 12, 9, 0)) || v.Status != eligibility.Unknown {
			t.Fatalf("check %+v", v)
		}
		if want := []string{"Veteran antichess rated=true 2023-03-12T00:00:00Z 2023-03-14T11:59:59.999Z max=201"}; !slices.Equal(src.asked, want) {
			t.Fatalf("asked %q", src.asked)
		}
		if v.Summary() != "unknown (3 checks for the TD to confirm)" {
			t.Fatalf("summary %q", v.Summary())
		}

		// Counts stop once the rule is settled. Active (2700 games): 1000
		// or more since the date leave it open, so the games before it are
		// counted, up to 1000. Recent (1100 games): 101 since the date
		// leave at most 999 before it.
		src.asked = nil
		v = must(s.CheckEligibility(ctx, td, "wc", active.ID))
		if v.Reports[0].Checks[1].Status != eligibility.Pass || detailOf(v.Reports[0], "W1.games") != "at least 1000 rated antichess games before 2023-03-12 (needs 1000)" {
			t.Fatalf("active %+v", v.Reports[0])
		}
		v = must(s.CheckEligibility(ctx, td, "wc", recent.ID))
		if v.Status != eligibility.Fail || v.Reports[0].Checks[1].Status != eligibility.Fail ||
			detailOf(v.Reports[0], "W1.games") != "at most 999 rated antichess games before 2023-03-12 (needs 1000)" {
			t.Fatalf("recent %+v", v.Reports[0])
		}
		if want := []string{
			"Active antichess rated=true 2023-03-12T00:00:00Z 2023-03-14T11:59:59.999Z max=1000",
			"Active antichess rated=true 0001-01-01T00:00:00Z 2023-03-11T23:59:59.999Z max=1000",
			"Recent antichess rated=true 2023-03-12T00:00:00Z 2023-03-14T11:59:59.999Z max=101",
		}; !slices.Equal(src.asked, want) {
			t.Fatalf("asked %q", src.asked)
		}

		// Lichess down: unavailable, "try again later"; the last check stays.
		src.err = errors.New("lichess: GET /api/user/veteran: HTTP 500: boom")
		_, err := s.CheckEligibility(ctx, td, "wc", e.ID)
		wantErr(t, err, arbiter.EUNAVAILABLE, "")
		if msg := arbiter.ErrorMessage(err); msg != "fetching the Lichess account veteran failed; try again later" {
			t.Fatalf("message %q", msg)
		}
		src.err, src.countErr = nil, errors.New("stream cut")
		_, err = s.CheckEligibility(ctx, td, "wc", e.ID)
		wantErr(t, err, arbiter.EUNAVAILABLE, "")
		if got := must(s.Eligibility(ctx, "wc", e.ID)); got == nil || got.Version != 1 {
			t.Fatalf("stored after failures %+v", got)
		}

		// A format without eligibility rules.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "sw", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 0, 0)}))
		e = must(s.Register(ctx, player("Veteran"), "sw", arbiter.Entrant{Player: "Veteran", Rating: 2000}))
		_, err = s.CheckEligibility(ctx, td, "sw", e.ID)
		wantErr(t, err, arbiter.ERULE, "app.eligibility")
		if got := must(s.Eligibility(ctx, "sw", e.ID)); got != nil {
			t.Fatalf("stored %+v", got)
		}
	})
}
