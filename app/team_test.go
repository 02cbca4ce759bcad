package app

import (
	"strings"
	"testing"

	"arbiter"
)

// A18/A19 example of package score's tests: board 1 won 144-0, boards 2-4
// 68-76 each: 348-228, a home win.
const teamSheet = `{"boards": [
	{"board": 1, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}]},
	{"board": 2, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]},
	{"board": 3, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]},
	{"board": 4, "parts": [{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}]}]}`

func TestTeamEventRound(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		ev := must(s.CloseRegistration(ctx, td, "atc"))
		// A10/A22: 10 teams play 7 Swiss rounds, then a knockout of 4 (2 rounds).
		if ev.Stages[0].Rounds != 7 || ev.Stages[0].Advance != 4 || ev.Stages[1].Rounds != 2 || len(ev.Calendar) != 9 {
			t.Fatalf("stages %+v, %d rounds", ev.Stages, len(ev.Calendar))
		}
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		if ms[0].Home != "team-01" || ms[0].Away != "team-06" {
			t.Fatalf("board 1 is %s-%s, want team-01-team-06", ms[0].Home, ms[0].Away)
		}
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 10, 12, 0)
		// In team events captains report; a member may not.
		_, err := s.ReportResult(ctx, player("a01"), "atc", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ReportResult(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", ms[0].ID, ResultInput{Summary: "6-4"})
		wantErr(t, err, arbiter.EINVALID, "app.summary")
		m := must(s.ReportResult(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)}))
		if m.Result.Home.Points != arbiter.P(348) || m.Result.Away.Points != arbiter.P(228) || m.Result.Home.MatchPoints != arbiter.P(1) {
			t.Fatalf("scored %+v", m.Result)
		}
		_, err = s.ConfirmResult(ctx, player("a06"), "atc", ms[0].ID, 0)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		must(s.ConfirmResult(ctx, arbiter.Actor{Name: "cap06", Role: arbiter.RoleCaptain}, "atc", ms[0].ID, 0))

		// A4: round 1 is due Monday 2025-01-13 23:59 UTC. The other four
		// matches are unplayed and nobody offered a time: A5 gives no
		// automatic result (both players of every board are at fault), so
		// they are held for the TDs, board by board.
		c.t = utc(2025, 1, 14, 0, 0)
		rd := must(s.CloseRound(ctx, td, "atc"))
		ms = must(s.Matches(ctx, "atc", "s1r1"))
		for _, m := range ms[1:] {
			if m.Status != arbiter.MatchHeld || m.Result != nil ||
				!strings.Contains(m.Note, "board 1: neither "+m.Home+" nor "+m.Away+" offered 3 times by Thursday 2025-01-09 23:59 UTC (A5: both at fault); the TDs decide") {
				t.Fatalf("%s: %s %+v %q", m.ID, m.Status, m.Result, m.Note)
			}
		}
		if len(rd.Notes) != 4 || !strings.HasPrefix(rd.Notes[0], ms[1].ID+" is held for the TDs: board 1:") {
			t.Fatalf("round notes %q", rd.Notes)
		}
		// The TDs find no fault on any board of s1r1b2: A5's 0-0 draw, board
		// by board, and the match with it (a 0-0 drawn match, half a match
		// point each). The other three they rule as double forfeits.
		for b := 1; b <= 4; b++ {
			_, m, err := s.Negotiate(ctx, td, "atc", ms[1].ID, NegotiationStep{Kind: NegRuleFault, Board: b, Reason: "both teams were unreachable"})
			if err != nil {
				t.Fatal(err)
			}
			if final := m.Status == arbiter.MatchFinal; final != (b == 4) {
				t.Fatalf("after board %d: %s", b, m.Status)
			}
		}
		for _, m := range ms[2:] {
			must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Summary: "forfeit:double"}, "no offers from either team", 0))
		}
		ms = must(s.Matches(ctx, "atc", "s1r1"))
		for _, m := range ms[1:] {
			if m.Status != arbiter.MatchFinal || m.Result.Home.MatchPoints != arbiter.P(0.5) || m.Result.Away.MatchPoints != arbiter.P(0.5) ||
				m.Result.Home.Points != 0 {
				t.Fatalf("%s: %s %+v", m.ID, m.Decision, m.Result)
			}
		}
		// The preset has no fixed appeal window: the TDs take the appeal
		// (antichess §1) until the next round is published.
		ap := must(s.Appeal(ctx, arbiter.Actor{Name: "cap02", Role: arbiter.RoleCaptain}, "atc", ms[1].ID, "we played"))
		if ap.Status != arbiter.AppealPending {
			t.Fatalf("appeal %+v", ap)
		}

		tab := must(s.Standings(ctx, "atc", 0))
		if tab.Rows[0].ID != "team-01" || tab.Rows[0].Score != arbiter.P(1) || tab.Rows[9].ID != "team-06" || tab.Rows[9].Score != 0 {
			t.Fatalf("standings %+v", tab.Rows)
		}
		for _, r := range tab.Rows[1:9] {
			if r.Score != arbiter.P(0.5) {
				t.Fatalf("%s has %s, want 0.5 (double forfeit as a draw)", r.ID, r.Score)
			}
		}
	})
}

// TestBringForward: A4 lets the TD advance a round's deadline once all its
// matches are finished; later rounds move by the same amount.
func TestBringForward(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 0, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		ms := pairOK(s.PairRound(ctx, td, "atc"))
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 10, 12, 0)
		friday := utc(2025, 1, 11, 0, 0) // Friday 23:59 UTC
		_, err := s.BringForward(ctx, td, "atc", friday)
		wantErr(t, err, arbiter.ERULE, "A4") // matches still to play
		for _, m := range ms {
			must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Summary: "forfeit:home"}, "away team did not show up", 0))
		}
		_, err = s.BringForward(ctx, player("a01"), "atc", friday)
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		rd := must(s.BringForward(ctx, td, "atc", friday))
		if !rd.End.Equal(friday) {
			t.Fatalf("round end %v", rd.End)
		}
		ev := must(s.Event(ctx, "atc"))
		// Round 2 was Tuesday 2025-01-14 .. Monday 2025-01-20 23:59: three days earlier now.
		if w := ev.Calendar[1]; !w.Start.Equal(utc(2025, 1, 11, 0, 0)) || !w.End.Equal(utc(2025, 1, 18, 0, 0)) {
			t.Fatalf("round 2 window %+v", w)
		}
		c.t = friday
		must(s.CloseRound(ctx, td, "atc"))
		rd2 := pairOK(s.PairRound(ctx, td, "atc"))
		if len(rd2) != 5 {
			t.Fatalf("round 2: %d matches", len(rd2))
		}
		r2 := must(s.Rounds(ctx, "atc"))[1]
		if !r2.End.Equal(utc(2025, 1, 18, 0, 0)) {
			t.Fatalf("round 2 stored end %v", r2.End)
		}

		// The ACWC has no such rule (W13).
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0), AllowPast: true}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistrationWith(ctx, td, "wc", CloseOptions{AllowPast: true}))
		pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		_, err = s.BringForward(ctx, td, "wc", utc(2023, 3, 25, 0, 0))
		wantErr(t, err, arbiter.ERULE, "W13")
	})
}
