package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/lineup"
	"arbiter/negotiation"
	"arbiter/sqlstore"
)

// TestUnplayedAtDeadlineW14: at the ACWC round deadline (round 1 from
// Sunday 2023-03-19 12:00, offers due Friday 2023-03-24 23:59, deadline
// Monday 2023-03-27 23:59) each unplayed match takes W14's outcome, not
// R5's double forfeit:
//   - board 1, neither player offered: "the match will count as a draw
//     and both players will count as having forfeited a game": 5-5, half
//     a match point each;
//   - board 2, the home player offered 3 times in time, the away player
//     none: the away player is at fault ("must accept a time chosen by the
//     opponent"); the home player is not punished as if both had failed:
//     the match is held for the TDs, the fault shown;
//   - board 3, both offered, no agreement, the TDs found nobody at fault
//     after the weekend: "ruled as a draw" at once, before the deadline;
//   - board 4, a time agreed but no result: held (a no-show is the TDs').
//
// W14's own clause is cited, never R5.
func TestUnplayedAtDeadlineW14(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "wc", Preset: "acwc-2023", Start: utc(2023, 3, 19, 12, 0)}))
		for _, n := range registerPlayers(t, s, "wc", 12) {
			must(s.Approve(ctx, td, "wc", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "wc"))
		ms := pairOK(s.PairRound(ctx, td, "wc"))
		must(s.PublishRound(ctx, td, "wc"))
		c.t = utc(2023, 3, 20, 10, 0)
		offers := []time.Time{utc(2023, 3, 21, 18, 0), utc(2023, 3, 22, 18, 0), utc(2023, 3, 23, 18, 0)}
		later := []time.Time{utc(2023, 3, 21, 21, 0), utc(2023, 3, 22, 21, 0), utc(2023, 3, 23, 21, 0)}
		propose := func(m arbiter.Match, who string, ts []time.Time) {
			must2(s.Negotiate(ctx, player(who), "wc", m.ID, NegotiationStep{Kind: NegPropose, Times: ts}))
		}
		propose(ms[1], ms[1].Home, offers)
		propose(ms[2], ms[2].Home, offers)
		propose(ms[2], ms[2].Away, later)
		propose(ms[3], ms[3].Home, offers)
		must2(s.Negotiate(ctx, player(ms[3].Away), "wc", ms[3].ID, NegotiationStep{Kind: NegAccept, At: offers[0]}))
		for _, m := range ms[4:] {
			must(s.OverrideResult(ctx, td, "wc", m.ID, ResultInput{Summary: "6-4"}, "entered from the Lichess games", 0))
		}
		c.t = utc(2023, 3, 25, 1, 0) // the weekend
		_, m := must2(s.Negotiate(ctx, td, "wc", ms[2].ID, NegotiationStep{Kind: NegRuleFault, Reason: "both offered in good faith"}))
		if m.Status != arbiter.MatchFinal || m.Result.Forfeit != "full_draw" || m.Result.Home.MatchPoints != arbiter.P(0.5) {
			t.Fatalf("board 3 after the no-fault ruling: %s %+v", m.Status, m.Result)
		}

		c.t = utc(2023, 3, 28, 0, 0)
		rd := must(s.CloseRound(ctx, td, "wc"))
		got := must(s.Matches(ctx, "wc", "s1r1"))
		if m := got[0]; m.Status != arbiter.MatchFinal || m.Decision != "negotiation" || m.Result.Forfeit != "full_draw" ||
			m.Result.Home.Points != arbiter.P(5) || m.Result.Away.Points != arbiter.P(5) || m.Result.Away.MatchPoints != arbiter.P(0.5) {
			t.Fatalf("board 1 (no offers): %s %s %+v", m.Status, m.Decision, m.Result)
		}
		if neg := must(s.NegotiationOf(ctx, "wc", got[0].ID)); neg == nil || neg.State.Outcome != negotiation.DrawBothForfeited {
			t.Fatalf("board 1's negotiation %+v: want W14's draw, both forfeited a game (W16 counts it)", neg)
		}
		want := fmt.Sprintf("match %s: %s offered 3 times by Friday 2023-03-24 23:59 UTC, %s did not: %s is at fault (W14: must accept the opponent's time); the TDs decide",
			ms[1].ID, ms[1].Home, ms[1].Away, ms[1].Away)
		if m := got[1]; m.Status != arbiter.MatchHeld || m.Result != nil || m.Note != want {
			t.Fatalf("board 2 (one side at fault): %s %+v\n%q\nwant\n%q", m.Status, m.Result, m.Note, want)
		}
		if m := got[3]; m.Status != arbiter.MatchHeld || !strings.Contains(m.Note, "a time was agreed (Tuesday 2023-03-21 18:00 UTC) but no result came") {
			t.Fatalf("board 4 (agreed, unplayed): %s %q", m.Status, m.Note)
		}
		if len(rd.Notes) != 2 || !strings.HasPrefix(rd.Notes[0], ms[1].ID+" is held for the TDs: ") || !strings.HasPrefix(rd.Notes[1], ms[3].ID+" is held") {
			t.Fatalf("round notes %q", rd.Notes)
		}
		for _, e := range must(s.Audit(ctx, td, "wc", sqlstore.AuditFilter{})) {
			if strings.Contains(e.Reason, "R5") {
				t.Fatalf("R5 cited in the ACWC: %+v", e)
			}
		}
		// The held matches are the TDs' before round 2 is paired.
		_, _, err := s.PairRound(ctx, td, "wc")
		wantErr(t, err, arbiter.ERULE, "app.round")
		must(s.OverrideResult(ctx, td, "wc", got[1].ID, ResultInput{Summary: "forfeit:home"}, "W14: the away player at fault never took a time", 0))
		must(s.OverrideResult(ctx, td, "wc", got[3].ID, ResultInput{Summary: "forfeit:home"}, "W15: the away player did not show", 0))
		pairOK(s.PairRound(ctx, td, "wc"))
	})
}

// TestUnplayedAtDeadlineR5: in the RKCC, which has no time offers, an
// unplayed match is R5's double forfeit, and the audit entry says R5.
func TestUnplayedAtDeadlineR5(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 13, 0, 0)
		must(s.CloseRound(ctx, td, "rk"))
		m := must(s.Matches(ctx, "rk", "s1r1"))[0]
		if m.Decision != "double_forfeit" || m.Result.Home.MatchPoints != 0 || m.Result.Away.MatchPoints != 0 {
			t.Fatalf("R5: %s %+v", m.Decision, m.Result)
		}
		found := false
		for _, e := range must(s.Audit(ctx, td, "rk", sqlstore.AuditFilter{})) {
			found = found || e.Action == "result.double_forfeit" && strings.HasPrefix(e.Reason, "R5: unplayed at the round deadline Sunday 2025-01-12 23:59 UTC")
		}
		if !found {
			t.Fatal("no R5 double forfeit in the audit log")
		}
	})
}

// TestBoardNegotiationA5: in the antichess cup each player offers times to
// their board opponent (A5: "each player is required to offer at least 3
// separate times"), or their captain does for them (A16); fault rulings
// are per board and each board keeps its own agreed time. Round 1 runs
// from Tuesday 2025-01-07 (offers due Thursday 2025-01-09 23:59, the
// weekend from Saturday 2025-01-11, deadline Monday 2025-01-13 23:59).
// Board lists (A12): team-01 cap01, a01, b01, c01; team-06 cap06, a06,
// b06, c06.
//   - board 1 (cap01 v cap06): cap01 offers 3 times in time, cap06 none:
//     cap06 is at fault, held for the TDs;
//   - board 2 (a01 v a06): a01 offers, a06's captain accepts for him: the
//     board's time is agreed; no result by the deadline: held;
//   - board 3 (b01 v b06): both offer, none agreed; after the weekend the
//     TDs find nobody at fault: A5's 0-0 draw of that board alone;
//   - board 4 (c01 v c06): nobody offers: both at fault, held.
//
// After the deadline the TDs rule board 4 no fault (0-0) and enter the
// played boards; the rulings of boards 3 and 4 stand whatever the sheet
// says there.
func TestBoardNegotiationA5(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		for _, n := range []string{"01", "06"} {
			must(s.RankBoards(ctx, td, "atc", "team-"+n, []lineup.Member{{Name: "cap" + n, Rating: 2000}, {Name: "a" + n, Rating: 1900},
				{Name: "b" + n, Rating: 1800}, {Name: "c" + n, Rating: 1700}}, nil))
		}
		m := pairOK(s.PairRound(ctx, td, "atc"))[0]
		if m.Home != "team-01" || m.Away != "team-06" {
			t.Fatalf("board 1 is %s-%s", m.Home, m.Away)
		}
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 7, 10, 0)
		offers := []time.Time{utc(2025, 1, 8, 18, 0), utc(2025, 1, 9, 18, 0), utc(2025, 1, 10, 18, 0)}
		other := []time.Time{utc(2025, 1, 8, 8, 0), utc(2025, 1, 9, 8, 0), utc(2025, 1, 10, 8, 0)}
		capt := func(n string) arbiter.Actor { return arbiter.Actor{Name: "cap" + n, Role: arbiter.RoleCaptain} }
		step := func(a arbiter.Actor, k string, b int, ts []time.Time) (Negotiation, arbiter.Match, error) {
			st := NegotiationStep{Kind: k, Board: b, Times: ts}
			if k == NegAccept {
				st.Times, st.At = nil, ts[0]
			}
			return s.Negotiate(ctx, a, "atc", m.ID, st)
		}
		_, _, err := step(capt("01"), NegPropose, 0, offers)
		wantErr(t, err, arbiter.EINVALID, "A5") // which board?
		_, _, err = step(player("b01"), NegPropose, 1, offers)
		wantErr(t, err, arbiter.EFORBIDDEN, "") // not b01's board
		must2(step(player("cap01"), NegPropose, 1, offers))
		must2(step(player("a01"), NegPropose, 2, offers))
		_, got := must2(step(capt("06"), NegAccept, 2, offers[1:]))
		if len(got.BoardTimes) != 4 || !got.BoardTimes[1].Equal(offers[1]) || !got.BoardTimes[0].IsZero() {
			t.Fatalf("board times %v", got.BoardTimes)
		}
		must2(step(player("b01"), NegPropose, 3, offers))
		must2(step(player("b06"), NegPropose, 3, other))
		c.t = utc(2025, 1, 11, 1, 0)
		_, got = must2(s.Negotiate(ctx, td, "atc", m.ID, NegotiationStep{Kind: NegRuleFault, Board: 3, Reason: "no common time; nobody to blame"}))
		if got.Status != arbiter.MatchScheduled || len(got.Rulings) != 1 || got.Rulings[0].Board != 3 || got.Rulings[0].Forfeit != "double" || got.Rulings[0].Clause != "A5" {
			t.Fatalf("after board 3's ruling: %s %+v", got.Status, got.Rulings)
		}
		_, _, err = step(player("b01"), NegPropose, 3, offers)
		wantErr(t, err, arbiter.ERULE, "A5") // board 3 is decided

		c.t = utc(2025, 1, 14, 0, 0)
		rd := must(s.CloseRound(ctx, td, "atc"))
		got = must(s.Matches(ctx, "atc", "s1r1"))[0]
		for _, want := range []string{
			"board 1 (cap01 v cap06): cap01 offered 3 times by Thursday 2025-01-09 23:59 UTC, cap06 did not: cap06 is at fault (A5: must accept the opponent's time); the TDs decide",
			"board 2 (a01 v a06): a time was agreed (Thursday 2025-01-09 18:00 UTC) but no result came",
			"board 4 (c01 v c06): neither c01 nor c06 offered 3 times by Thursday 2025-01-09 23:59 UTC (A5: both at fault); the TDs decide",
		} {
			if !strings.Contains(got.Note, want) {
				t.Fatalf("held note %q lacks %q", got.Note, want)
			}
		}
		if got.Status != arbiter.MatchHeld || strings.Contains(got.Note, "board 3") || !strings.HasPrefix(rd.Notes[0], m.ID+" is held for the TDs") {
			t.Fatalf("after the deadline: %s %q; round notes %q", got.Status, got.Note, rd.Notes)
		}
		must2(s.Negotiate(ctx, td, "atc", m.ID, NegotiationStep{Kind: NegRuleFault, Board: 4, Reason: "neither could be reached"}))
		// The TDs enter what was played: boards 1 and 2 went to team-01
		// 144-0 each; whatever the sheet says of boards 3 and 4, their
		// rulings stand (0-0 each): 288-0.
		won := `{"board": %d, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}]}`
		sheet := fmt.Sprintf(`{"boards": [%s, %s, %s, %s]}`, fmt.Sprintf(won, 1), fmt.Sprintf(won, 2), fmt.Sprintf(won, 3), fmt.Sprintf(won, 4))
		got = must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Sheet: []byte(sheet)}, "boards 1 and 2 played late with the TDs' leave", 0))
		if got.Status != arbiter.MatchFinal || got.Result.Home.Points != arbiter.P(288) || got.Result.Away.Points != 0 || got.Result.Result != "away_win" && got.Result.Result != "home_win" {
			t.Fatalf("final: %s %+v", got.Status, got.Result)
		}
	})
}
