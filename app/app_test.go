package app

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/sqlstore"
	"arbiter/sqlstore/storetest"
)

// clock is a fake clock the tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

// backends runs fn against SQLite always and PostgreSQL when
// ARBITER_TEST_POSTGRES is set (each in a schema of its own).
func backends(t *testing.T, fn func(t *testing.T, s *Service, c *clock)) {
	for _, b := range []struct {
		name string
		open func(testing.TB) *sqlstore.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		t.Run(b.name, func(t *testing.T) {
			c := &clock{t: utc(2023, 3, 12, 9, 0)}
			defer func() {
				if r := recover(); r != nil {
					if f, ok := r.(failure); ok {
						t.Fatalf("%s: unexpected error: %v", f.where, f.err)
					}
					panic(r)
				}
			}()
			fn(t, New(b.open(t), c.now), c)
		})
	}
}

var (
	ctx = context.Background()
	td  = arbiter.Actor{Name: "ArbiterTD", Role: arbiter.RoleTD}
)

func player(name string) arbiter.Actor { return arbiter.Actor{Name: name, Role: arbiter.RolePlayer} }

// failure is what must panics with; backends turns it into t.Fatal.
type failure struct {
	err   error
	where string
}

// must returns v, or fails the test (through backends) on an error.
func must[T any](v T, err error) T {
	if err != nil {
		_, file, line, _ := runtime.Caller(1)
		panic(failure{err, fmt.Sprintf("%s:%d", filepath.Base(file), line)})
	}
	return v
}

// wantErr checks the error's code and, when rule is not empty, its rule.
func wantErr(t *testing.T, err error, code, rule string) {
	t.Helper()
	if arbiter.ErrorCode(err) != code {
		t.Fatalf("got error %v (code %q), want code %q", err, arbiter.ErrorCode(err), code)
	}
	if rule != "" {
		e := err.(*arbiter.Error)
		if e.Rule != rule {
			t.Fatalf("got rule %q (%v), want %q", e.Rule, err, rule)
		}
	}
}

// acwcSwiss is the ACWC qualification as a one-stage format file (W4, W5,
// W7, W13), with the 24 h appeal window of R5 added so that the appeal
// path runs, and at least 8 players.
const acwcSwiss = `{
  "name": "acwc-swiss",
  "title": "ACWC-style Swiss",
  "entrant": "individual",
  "min_entrants": 8,
  "calendar": {
    "rounds_per_week": 1,
    "pairings_by": {"day": "tuesday", "time": "23:59"},
    "deadline": {"day": "monday", "time": "23:59"},
    "appeal_hours": 24
  },
  "clauses": {"unplayed": "R5"},
  "stages": [{
    "name": "qualification",
    "kind": "swiss",
    "pairing": "dutch",
    "rounds": {"log2": {"mul": 1, "add": 2}},
    "tiebreaks": ["cumulative", "wins_vs_tied", "median_buchholz"],
    "match": {
      "kind": "individual",
      "parts": [{"tc": "1+2", "games": 10, "win": 1, "draw": 0.5}],
      "play_all_games": false,
      "match_points": {"win": 1, "draw": 0.5, "loss": 0},
      "double_forfeit": "loss"
    }
  }]
}`

// players p01..p10 with ratings 2500, 2450, ..., 2050: seeds follow.
func registerPlayers(t *testing.T, s *Service, slug string, n int) []string {
	t.Helper()
	var names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("p%02d", i)
		names = append(names, name)
		must(s.Register(ctx, player(name), slug, arbiter.Entrant{Player: name, Rating: 2550 - 50*i}))
	}
	return names
}

// registerTeams registers and approves n teams "Team 01".. (ids team-01..)
// captained by cap01.. with members capNN, aNN, bNN and cNN, a substitute
// sNN when substitutes is set, and rating 2300 - ratingStep*i (no rating
// when ratingStep is 0): seeds follow the team number.
func registerTeams(t *testing.T, s *Service, slug string, n, ratingStep int, substitutes bool) {
	t.Helper()
	for i := 1; i <= n; i++ {
		capt := fmt.Sprintf("cap%02d", i)
		e := arbiter.Entrant{Name: fmt.Sprintf("Team %02d", i), Captain: capt,
			Members: []string{capt, fmt.Sprintf("a%02d", i), fmt.Sprintf("b%02d", i), fmt.Sprintf("c%02d", i)}}
		if ratingStep > 0 {
			e.Rating = 2300 - ratingStep*i
		}
		if substitutes {
			e.Substitute = fmt.Sprintf("s%02d", i)
		}
		e = must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, slug, e))
		must(s.Approve(ctx, td, slug, e.ID, 0))
	}
}

func TestSwissRoundTrip(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		start := utc(2023, 3, 21, 10, 0) // a Tuesday: pairings of round 1
		ev := must(s.CreateEvent(ctx, td, NewEvent{Slug: "acwc", Format: []byte(acwcSwiss), Start: start}))
		if ev.Status != arbiter.EventRegistration || ev.Format != "acwc-swiss" || ev.Preset {
			t.Fatalf("created %+v", ev)
		}
		names := registerPlayers(t, s, "acwc", 11)
		for _, n := range names[:10] {
			must(s.Approve(ctx, td, "acwc", n, 0))
		}
		must(s.Reject(ctx, td, "acwc", "p11", "account younger than the W1 cut-off", 0))

		c.t = utc(2023, 3, 20, 12, 0)
		ev = must(s.CloseRegistration(ctx, td, "acwc"))
		// W5: floor(log2 10) + 2 = 5 rounds.
		if ev.Status != arbiter.EventRunning || ev.Entrants != 10 || len(ev.Stages) != 1 || ev.Stages[0].Rounds != 5 {
			t.Fatalf("closed registration: %+v", ev)
		}
		// W13: round 1's deadline is Monday 2023-03-27 23:59 UTC; each
		// later round a week after.
		if got := ev.Calendar[0]; !got.End.Equal(utc(2023, 3, 28, 0, 0)) || len(ev.Calendar) != 5 ||
			!ev.Calendar[4].End.Equal(utc(2023, 4, 25, 0, 0)) {
			t.Fatalf("calendar %+v", ev.Calendar)
		}
		es := must(s.Entrants(ctx, "acwc"))
		for i, e := range es[:10] {
			if e.Seed != i+1 || e.ID != names[i] {
				t.Fatalf("seed %d is %s (%d)", i+1, e.ID, e.Seed)
			}
		}

		rd, ms, err := s.PairRound(ctx, td, "acwc")
		must(ms, err)
		// C.04.3 round 1: top half against bottom half, the top seed
		// White and colours alternating down the boards.
		want := [][2]string{{"p01", "p06"}, {"p07", "p02"}, {"p03", "p08"}, {"p09", "p04"}, {"p05", "p10"}}
		if rd.ID != "s1r1" || rd.Method != "dutch" || len(ms) != len(want) {
			t.Fatalf("round %+v, %d matches", rd, len(ms))
		}
		for i, m := range ms {
			if m.Home != want[i][0] || m.Away != want[i][1] || m.Board != i+1 {
				t.Fatalf("board %d: %s-%s, want %v", i+1, m.Home, m.Away, want[i])
			}
		}
		// Not published: no reports yet.
		_, err = s.ReportResult(ctx, player("p01"), "acwc", "s1r1b1", ResultInput{Summary: "6-2"})
		wantErr(t, err, arbiter.ERULE, "format.calendar")
		// The TDs may throw the pairings away before publishing and pair again.
		_, err = s.DiscardRound(ctx, td, "acwc", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.DiscardRound(ctx, player("p01"), "acwc", "mine")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(s.DiscardRound(ctx, td, "acwc", "review: re-pair after checking the seeding"))
		if ms := must(s.Matches(ctx, "acwc", "")); len(ms) != 0 {
			t.Fatalf("discarded round left %d matches", len(ms))
		}
		_, again, err := s.PairRound(ctx, td, "acwc")
		must(again, err)
		for i := range again {
			if again[i].Home != want[i][0] || again[i].Away != want[i][1] || again[i].Version != ms[i].Version+2 {
				t.Fatalf("re-paired board %d: %+v (version %d, first pairing %d)", i+1, again[i], again[i].Version, ms[i].Version)
			}
		}
		must(s.PublishRound(ctx, td, "acwc"))
		_, err = s.DiscardRound(ctx, td, "acwc", "too late")
		wantErr(t, err, arbiter.ERULE, "app.round")
		c.t = utc(2023, 3, 23, 20, 0)

		// Board 1: reported and confirmed by the opponent. W4: 6-2 ends at
		// the 8th game (p01 has more than 5).
		m := must(s.ReportResult(ctx, player("p01"), "acwc", "s1r1b1", ResultInput{Summary: "6-2"}))
		if m.Status != arbiter.MatchReported || m.Result.Home.MatchPoints != arbiter.P(1) || m.Result.Home.Points != arbiter.P(6) {
			t.Fatalf("reported %+v / %+v", m, m.Result)
		}
		_, err = s.ConfirmResult(ctx, player("p01"), "acwc", "s1r1b1", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ConfirmResult(ctx, player("p03"), "acwc", "s1r1b1", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		m = must(s.ConfirmResult(ctx, player("p06"), "acwc", "s1r1b1", 0))
		if m.Status != arbiter.MatchFinal || m.Decision != "confirmed" {
			t.Fatalf("confirmed %+v", m)
		}
		// W4: a match is over once a player has more than 5.
		_, err = s.ReportResult(ctx, player("p03"), "acwc", "s1r1b3", ResultInput{Summary: "7-3"})
		if arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Fatalf("7-3 after a decided match: %v", err)
		}

		// Board 2: p02 reports a win, p07 disputes, the TD overrides.
		m = must(s.ReportResult(ctx, player("p02"), "acwc", "s1r1b2", ResultInput{Summary: "3-6"}))
		stale := m.Version
		m = must(s.DisputeResult(ctx, player("p07"), "acwc", "s1r1b2", "I won the last games, see the Lichess games", 0))
		if m.Status != arbiter.MatchDisputed {
			t.Fatalf("disputed %+v", m)
		}
		_, err = s.OverrideResult(ctx, td, "acwc", "s1r1b2", ResultInput{Summary: "5.5-4.5"}, "games checked on Lichess", stale)
		wantErr(t, err, arbiter.ECONFLICT, "")
		_, err = s.OverrideResult(ctx, td, "acwc", "s1r1b2", ResultInput{Summary: "5.5-4.5"}, "", m.Version)
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.OverrideResult(ctx, player("p07"), "acwc", "s1r1b2", ResultInput{Summary: "5.5-4.5"}, "mine", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		m = must(s.OverrideResult(ctx, td, "acwc", "s1r1b2", ResultInput{Summary: "5.5-4.5"}, "games checked on Lichess", m.Version))
		if m.Status != arbiter.MatchFinal || m.Decision != "override" || m.Result.Home.MatchPoints != arbiter.P(1) || m.Result.Away.Points != arbiter.P(4.5) {
			t.Fatalf("override %+v / %+v", m, m.Result)
		}

		// Board 3: a 5-5 draw reported by p08, confirmed by p03.
		must(s.ReportResult(ctx, player("p08"), "acwc", "s1r1b3", ResultInput{Summary: "5-5"}))
		_, err = s.ReportResult(ctx, player("p03"), "acwc", "s1r1b3", ResultInput{Summary: "5-5"})
		wantErr(t, err, arbiter.ERULE, "app.result")
		m = must(s.ConfirmResult(ctx, player("p03"), "acwc", "s1r1b3", 0))
		if m.Result.Result != "draw" || m.Result.Home.MatchPoints != arbiter.P(0.5) {
			t.Fatalf("draw %+v", m.Result)
		}

		// Board 5: p10 reports a 6-4 win as away; nobody confirms.
		must(s.ReportResult(ctx, player("p10"), "acwc", "s1r1b5", ResultInput{Summary: "4-6"}))
		// Board 4 is never played.

		// The round closes at its deadline, not before.
		c.t = utc(2023, 3, 27, 23, 59)
		_, err = s.CloseRound(ctx, td, "acwc")
		wantErr(t, err, arbiter.ERULE, "format.calendar")
		_, err = s.ReportResult(ctx, player("p09"), "acwc", "s1r1b4", ResultInput{Summary: "forfeit:home"})
		if err != nil {
			// Still inside the last minute: allowed. (Reported, then
			// withdrawn by the test through an override below.)
			t.Fatalf("report in the last minute: %v", err)
		}
		must(s.OverrideResult(ctx, td, "acwc", "s1r1b4", ResultInput{Summary: "forfeit:double"}, "report withdrawn: the match was not played", 0))
		c.t = utc(2023, 3, 28, 0, 0)
		_, err = s.ReportResult(ctx, player("p05"), "acwc", "s1r1b5", ResultInput{Summary: "6-4"})
		wantErr(t, err, arbiter.ERULE, "format.calendar") // the round's deadline has passed
		rd = must(s.CloseRound(ctx, arbiter.Actor{Name: "scheduler", Role: arbiter.RoleSystem}, "acwc"))
		if rd.Status != arbiter.RoundClosed || !rd.AppealsUntil.Equal(utc(2023, 3, 29, 0, 0)) {
			t.Fatalf("closed %+v", rd)
		}
		ms = must(s.Matches(ctx, "acwc", "s1r1"))
		wantDecision := []string{"confirmed", "override", "confirmed", "override", "accepted_at_deadline"}
		for i, m := range ms {
			if m.Status != arbiter.MatchFinal || m.Decision != wantDecision[i] {
				t.Fatalf("board %d: %s %s, want final %s", i+1, m.Status, m.Decision, wantDecision[i])
			}
		}
		if r := ms[3].Result; r.Result != "double_loss" || r.Home.MatchPoints != 0 || r.Away.MatchPoints != 0 || r.Decision != "double_forfeit" {
			t.Fatalf("double forfeit %+v", r)
		}

		// Appeals: inside the 24 h window accepted by the TD, after it refused (R5).
		c.t = utc(2023, 3, 28, 23, 59)
		_, err = s.Appeal(ctx, player("p01"), "acwc", "s1r1b4", "not my match")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		ap := must(s.Appeal(ctx, player("p04"), "acwc", "s1r1b4", "p09 did not show up; I waited 10 minutes (W15)"))
		_, err = s.DecideAppeal(ctx, player("p04"), "acwc", ap.ID, true, ResultInput{Summary: "forfeit:away"}, "mine")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		c.t = utc(2023, 3, 30, 10, 0) // the decision may come later; the appeal was in time
		ap = must(s.DecideAppeal(ctx, td, "acwc", ap.ID, true, ResultInput{Summary: "forfeit:away"}, "no-show confirmed by the chat log (W15)"))
		if ap.Status != arbiter.AppealAccepted {
			t.Fatalf("appeal %+v", ap)
		}
		c.t = utc(2023, 3, 29, 0, 0)
		_, err = s.Appeal(ctx, player("p05"), "acwc", "s1r1b5", "I won 6-4")
		wantErr(t, err, arbiter.ERULE, "R5")

		// Standings after round 1 (ACWC W7 tiebreaks): one point for p01
		// (6-2), p07 (override 5.5-4.5), p04 (forfeit on appeal) and p10
		// (6-4); half for p03 and p08; nothing for the others.
		tab := must(s.Standings(ctx, "acwc", 0))
		scores := map[string]arbiter.Points{}
		for i, row := range tab.Rows {
			scores[row.ID] = row.Score
			if i > 0 && row.Score > tab.Rows[i-1].Score {
				t.Fatalf("rows out of order: %+v", tab.Rows)
			}
		}
		wantScores := map[string]arbiter.Points{"p01": arbiter.P(1), "p07": arbiter.P(1), "p04": arbiter.P(1), "p10": arbiter.P(1),
			"p03": arbiter.P(0.5), "p08": arbiter.P(0.5), "p02": 0, "p05": 0, "p06": 0, "p09": 0}
		if len(tab.Rows) != 10 || len(tab.Tiebreaks) != 3 {
			t.Fatalf("table %+v", tab)
		}
		for id, w := range wantScores {
			if scores[id] != w {
				t.Errorf("%s has %s, want %s", id, scores[id], w)
			}
		}

		// Round 2 pairs with the Dutch engine from round 1's results: every
		// player once, no played pairing repeated, 1-pointers on the top boards.
		_, ms2, err := s.PairRound(ctx, td, "acwc")
		must(ms2, err)
		played := map[[2]string]bool{}
		for _, m := range ms {
			if m.Result.Decision == "played" {
				played[[2]string{m.Home, m.Away}], played[[2]string{m.Away, m.Home}] = true, true
			}
		}
		seen := map[string]bool{}
		for _, m := range ms2 {
			if played[[2]string{m.Home, m.Away}] || seen[m.Home] || seen[m.Away] {
				t.Fatalf("round 2 pairing %s-%s repeats a game or a player", m.Home, m.Away)
			}
			seen[m.Home], seen[m.Away] = true, true
		}
		if len(seen) != 10 {
			t.Fatalf("round 2 pairs %d players", len(seen))
		}
		for _, m := range ms2[:2] {
			if scores[m.Home] != arbiter.P(1) || scores[m.Away] != arbiter.P(1) {
				t.Fatalf("top boards of round 2 are not the 1-point group: %+v", ms2)
			}
		}

		// The audit log holds every change with its actor, and the reason
		// of each TD decision; replaying it gives a consistent history.
		log := must(s.Audit(ctx, td, "acwc", sqlstore.AuditFilter{}))
		if _, err := sqlstore.Replay(log); err != nil {
			t.Fatalf("replay: %v", err)
		}
		type key struct{ action, actor, reason string }
		have := map[key]bool{}
		for _, e := range log {
			have[key{e.Action, e.Actor.Name, e.Reason}] = true
			if e.Actor.Name == "" || e.Action == "" {
				t.Fatalf("audit entry without actor or action: %+v", e)
			}
		}
		for _, k := range []key{
			{"event.create", "arbitertd", ""},
			{"entrant.register", "p01", ""},
			{"entrant.approve", "arbitertd", ""},
			{"entrant.reject", "arbitertd", "account younger than the W1 cut-off"},
			{"registration.close", "arbitertd", ""},
			{"round.pair", "arbitertd", ""},
			{"round.publish", "arbitertd", ""},
			{"result.report", "p01", ""},
			{"result.confirm", "p06", ""},
			{"result.dispute", "p07", "I won the last games, see the Lichess games"},
			{"result.override", "arbitertd", "games checked on Lichess"},
			{"result.accept_at_deadline", "scheduler", "reported and not disputed by the round deadline"},
			{"round.close", "scheduler", ""},
			{"appeal.file", "p04", "p09 did not show up; I waited 10 minutes (W15)"},
			{"appeal.accept", "arbitertd", "no-show confirmed by the chat log (W15)"},
			{"result.appeal", "arbitertd", "no-show confirmed by the chat log (W15)"},
		} {
			if !have[k] {
				t.Errorf("audit log lacks %+v", k)
			}
		}
		_, err = s.Audit(ctx, player("p01"), "acwc", sqlstore.AuditFilter{})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
	})
}

func TestDoubleForfeitAtDeadline(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "df", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "df", 8) {
			must(s.Approve(ctx, td, "df", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "df"))
		pairOK(s.PairRound(ctx, td, "df"))
		must(s.PublishRound(ctx, td, "df"))
		c.t = utc(2023, 3, 28, 0, 0)
		must(s.CloseRound(ctx, td, "df"))
		ms := must(s.Matches(ctx, "df", "s1r1"))
		for _, m := range ms {
			if m.Decision != "double_forfeit" || m.Result.Home.MatchPoints != 0 || m.Result.Away.MatchPoints != 0 {
				t.Fatalf("%s: %s %+v", m.ID, m.Decision, m.Result)
			}
		}
		log := must(s.Audit(ctx, td, "df", sqlstore.AuditFilter{Kind: "match"}))
		n := 0
		for _, e := range log {
			if e.Action == "result.double_forfeit" {
				n++
				if !strings.HasPrefix(e.Reason, "R5") {
					t.Fatalf("reason %q", e.Reason)
				}
			}
		}
		if n != 4 {
			t.Fatalf("%d double forfeits logged, want 4", n)
		}
		// An appeal after the window is refused with R5.
		c.t = utc(2023, 3, 29, 0, 0)
		_, err := s.Appeal(ctx, player("p01"), "df", ms[0].ID, "we played")
		wantErr(t, err, arbiter.ERULE, "R5")
	})
}

func pairOK(_ arbiter.Round, ms []arbiter.Match, err error) []arbiter.Match { return must(ms, err) }

func TestPermissionRefusals(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		_, err := s.CreateEvent(ctx, player("p01"), NewEvent{Slug: "x", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.CreateEvent(ctx, arbiter.Actor{Role: arbiter.RoleTD}, NewEvent{Slug: "x", Preset: "acwc-2023", Start: utc(2023, 3, 21, 0, 0)})
		wantErr(t, err, arbiter.EUNAUTHORIZED, "")
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "x", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 0, 0)}))
		other := arbiter.Actor{Name: "othertd", Role: arbiter.RoleTD} // a TD, but not of this event

		_, err = s.Register(ctx, player("p01"), "x", arbiter.Entrant{Player: "p02"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		names := registerPlayers(t, s, "x", 8)
		_, err = s.Register(ctx, player("p01"), "x", arbiter.Entrant{Player: "p01"})
		wantErr(t, err, arbiter.ERULE, "app.register")
		_, err = s.Approve(ctx, player("p01"), "x", "p01", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Approve(ctx, other, "x", "p01", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Reject(ctx, td, "x", "p01", " ", 0)
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.CloseRegistration(ctx, td, "x")
		wantErr(t, err, arbiter.ERULE, "registration") // all still pending

		e := must(s.Approve(ctx, td, "x", "p01", 0))
		_, err = s.Reject(ctx, td, "x", "p01", "late", e.Version-1) // a stale view
		wantErr(t, err, arbiter.ECONFLICT, "")
		_, err = s.Approve(ctx, td, "x", "p01", 0)
		wantErr(t, err, arbiter.ECONFLICT, "")
		for _, n := range names[1:] {
			must(s.Approve(ctx, td, "x", n, 0))
		}
		_, err = s.CloseRegistration(ctx, other, "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(0, s.AddTD(ctx, td, "x", "OtherTD"))
		must(s.CloseRegistration(ctx, other, "x"))
		_, err = s.Register(ctx, player("late"), "x", arbiter.Entrant{Player: "late"})
		wantErr(t, err, arbiter.ERULE, "registration")

		_, _, err = s.PairRound(ctx, player("p01"), "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		pairOK(s.PairRound(ctx, td, "x"))
		_, err = s.PublishRound(ctx, player("p01"), "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(s.PublishRound(ctx, td, "x"))
		c.t = utc(2023, 3, 22, 0, 0)
		// Board 1 is p01-p05 (8 players: 1v5). Others may not report it,
		// nor may a player claim to be a captain.
		_, err = s.ReportResult(ctx, player("p02"), "x", "s1r1b1", ResultInput{Summary: "6-0"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ReportResult(ctx, arbiter.Actor{Name: "p01", Role: arbiter.RoleCaptain}, "x", "s1r1b1", ResultInput{Summary: "6-0"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ReportResult(ctx, td, "x", "s1r1b1", ResultInput{Summary: "6-0"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ReportResult(ctx, player("p01"), "x", "s1r1b1", ResultInput{Summary: "6-0 1-0"})
		wantErr(t, err, arbiter.EINVALID, "app.summary")
		must(s.ReportResult(ctx, player("p01"), "x", "s1r1b1", ResultInput{Summary: "6-0"}))
		_, err = s.DisputeResult(ctx, player("p05"), "x", "s1r1b1", "", 0)
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, err = s.DisputeResult(ctx, player("p01"), "x", "s1r1b1", "changed my mind", 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ConfirmResult(ctx, player("p05"), "x", "s1r1b1", 1) // saw version 1, it is 2 now
		wantErr(t, err, arbiter.ECONFLICT, "")
		// A TD may confirm a report.
		m := must(s.ConfirmResult(ctx, td, "x", "s1r1b1", 0))
		if m.Decision != "td_confirmed" {
			t.Fatalf("decision %q", m.Decision)
		}
		_, err = s.CloseRound(ctx, player("p01"), "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
	})
}

func TestCloseRegistrationSizing(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		// ACWC needs 12 players: W6 sends the top 12 to the candidates.
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 8) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		_, err := s.CloseRegistration(ctx, td, "wc")
		wantErr(t, err, arbiter.ERULE, "W6")

		// The antichess team cup runs only with 10 teams (A9).
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		capt := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		_, err = s.Register(ctx, capt, "atc", arbiter.Entrant{Name: "Team One", Captain: "cap1", Members: []string{"cap1", "bb", "cc", "dd", "ee"}})
		wantErr(t, err, arbiter.EINVALID, "A9")
		_, err = s.Register(ctx, capt, "atc", arbiter.Entrant{Name: "Team One", Captain: "zed", Members: []string{"cap1", "bb", "cc"}})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.Register(ctx, capt, "atc", arbiter.Entrant{Name: "Team One", Captain: "cap1", Members: []string{"xx", "bb", "cc"}})
		wantErr(t, err, arbiter.EINVALID, "A11")
		e := must(s.Register(ctx, capt, "atc", arbiter.Entrant{Name: "Team One", Captain: "Cap1", Members: []string{"CAP1", "bb", "cc"}, Substitute: "ss"}))
		if e.ID != "team-one" || e.Kind != arbiter.EntrantTeam || e.Captain != "cap1" {
			t.Fatalf("team %+v", e)
		}
		_, err = s.Register(ctx, arbiter.Actor{Name: "cap2", Role: arbiter.RoleCaptain}, "atc",
			arbiter.Entrant{Name: "Team Two", Captain: "cap2", Members: []string{"cap2", "bb", "yy"}})
		wantErr(t, err, arbiter.ERULE, "A11") // b already plays for Team One
		must(s.Register(ctx, arbiter.Actor{Name: "cap2", Role: arbiter.RoleCaptain}, "atc",
			arbiter.Entrant{Name: "Team Two", Captain: "cap2", Members: []string{"cap2", "xx", "yy"}}))
		must(s.Approve(ctx, td, "atc", "team-one", 0))
		must(s.Approve(ctx, td, "atc", "team-two", 0))
		_, err = s.CloseRegistration(ctx, td, "atc")
		wantErr(t, err, arbiter.ERULE, "A9")
		if ev := must(s.Event(ctx, "atc")); ev.Status != arbiter.EventRegistration {
			t.Fatalf("refused close changed the event: %+v", ev)
		}

		// RKCC rounds begin on a Monday at 00:00 UTC (R4).
		_, err = s.CreateEvent(ctx, td, NewEvent{Slug: "rk", Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 7, 0, 0)})
		wantErr(t, err, arbiter.EINVALID, "R4")
		_, err = s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)})
		wantErr(t, err, arbiter.ECONFLICT, "")
		_, err = s.CreateEvent(ctx, td, NewEvent{Slug: "nope", Preset: "nope", Start: utc(2023, 3, 19, 12, 0)})
		wantErr(t, err, arbiter.ENOTFOUND, "")
		evs := must(s.ListEvents(ctx))
		var slugs []string
		for _, e := range evs {
			slugs = append(slugs, e.Slug)
		}
		slices.Sort(slugs)
		if !slices.Equal(slugs, []string{"atc", "wc"}) {
			t.Fatalf("events %v", slugs)
		}
	})
}

func TestRoundRobinFirstRound(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := strings.Replace(strings.Replace(acwcSwiss, `"kind": "swiss",
    "pairing": "dutch",
    "rounds": {"log2": {"mul": 1, "add": 2}},`, `"kind": "round_robin",
    "pairing": "berger",
    "cycles": 1,`, 1), `"min_entrants": 8,`, ``, 1)
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "rr", Format: []byte(f), Start: utc(2023, 3, 21, 0, 0)}))
		for _, n := range registerPlayers(t, s, "rr", 6) {
			must(s.Approve(ctx, td, "rr", n, 0))
		}
		ev := must(s.CloseRegistration(ctx, td, "rr"))
		if ev.Stages[0].Rounds != 5 {
			t.Fatalf("6 players play 5 rounds, got %d", ev.Stages[0].Rounds)
		}
		_, ms, err := s.PairRound(ctx, td, "rr")
		if err != nil {
			t.Fatal(err)
		}
		// C.05 Annex 1, 6 players, round 1: 1-6, 2-5, 3-4.
		want := [][2]string{{"p01", "p06"}, {"p02", "p05"}, {"p03", "p04"}}
		for i, m := range ms {
			if m.Home != want[i][0] || m.Away != want[i][1] {
				t.Fatalf("board %d: %s-%s, want %v", i+1, m.Home, m.Away, want[i])
			}
		}
	})
}

// TestConcurrentOverrides: two TDs decide the same match at once from the
// same version: one decision stands, the other is ECONFLICT.
func TestConcurrentOverrides(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "cc", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 0, 0)}))
		must(0, s.AddTD(ctx, td, "cc", "second"))
		for _, n := range registerPlayers(t, s, "cc", 8) {
			must(s.Approve(ctx, td, "cc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "cc"))
		ms := pairOK(s.PairRound(ctx, td, "cc"))
		must(s.PublishRound(ctx, td, "cc"))
		c.t = utc(2023, 3, 22, 0, 0)
		errs := make(chan error, 2)
		for i, a := range []arbiter.Actor{td, {Name: "second", Role: arbiter.RoleTD}} {
			sum := []string{"6-4", "4-6"}[i]
			go func() {
				_, err := s.OverrideResult(ctx, a, "cc", ms[0].ID, ResultInput{Summary: sum}, "from the games", ms[0].Version)
				errs <- err
			}()
		}
		e1, e2 := <-errs, <-errs
		if (e1 == nil) == (e2 == nil) {
			t.Fatalf("want exactly one success: %v / %v", e1, e2)
		}
		if err := cmpOr(e1, e2); arbiter.ErrorCode(err) != arbiter.ECONFLICT {
			t.Fatalf("the loser got %v, want a conflict", err)
		}
	})
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
