package app

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
)

// rkccNamed is an RKCC sheet naming every set's players, home winning
// every game: 720-0 in set points (R10), 3 sets to 0.
func rkccNamed(h, a int) string {
	return fmt.Sprintf(`{"sets": [
		{"tc": "3+2", "home_player": "cap%[1]d", "away_player": "cap%[2]d", "results": "%[3]s"},
		{"tc": "1.5+1", "home_player": "a%[1]d", "away_player": "a%[2]d", "results": "%[4]s"},
		{"tc": "0.75+0", "home_player": "b%[1]d", "away_player": "b%[2]d", "results": "%[5]s"}]}`,
		h, a, strings.TrimSpace(strings.Repeat("1 ", 6)), strings.TrimSpace(strings.Repeat("1 ", 10)), strings.TrimSpace(strings.Repeat("1 ", 16)))
}

func rkccEvent(t *testing.T, s *Service, c *clock, slug string, doc []byte) []arbiter.Match {
	t.Helper()
	ne := NewEvent{Slug: slug, Preset: "rkcc-team-three-tc", Start: utc(2025, 1, 6, 0, 0), AllowPast: true}
	if doc != nil {
		ne.Preset, ne.Format = "", doc
	}
	must(s.CreateEvent(ctx, td, ne))
	// The captains register before Saturday 06:00 (R8); the rest of the
	// set-up runs at the test's time.
	saved := c.t
	if !saved.Before(utc(2025, 1, 4, 6, 0)) {
		c.t = utc(2025, 1, 3, 12, 0)
	}
	for i := 1; i <= 8; i++ {
		capt := fmt.Sprintf("cap%d", i)
		e := must(s.Register(ctx, arbiter.Actor{Name: capt, Role: arbiter.RoleCaptain}, slug, arbiter.Entrant{
			Name: fmt.Sprintf("Team %d", i), Captain: capt, Rating: 2000 - i,
			Members: []string{capt, fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}}))
		must(s.Approve(ctx, td, slug, e.ID, 0))
	}
	c.t = saved
	must(s.CloseRegistration(ctx, td, slug))
	ms := pairOK(s.PairRound(ctx, td, slug))
	must(s.PublishRound(ctx, td, slug))
	return ms
}

// TestWrongTimeControl: R6 — in rounds 1-2 a set played in the wrong time
// control counts normally once per player; a second time (or after round
// 2) it becomes a full-points draw: 120-120 of the set's 240 (R10), so
// 3-0 in sets and 720-0 become 2 sets to 0 and 600-120, still a win.
func TestWrongTimeControl(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		ms := rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 8, 12, 0)
		cap1 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		b1 := ms[0] // team-1 v team-5 (R4 round 1)
		_, _, err := s.WrongTimeControl(ctx, td, "rk", b1.ID, "3+2", "cap5's report")
		wantErr(t, err, arbiter.ERULE, "R6") // nothing reported yet
		must(s.ReportResult(ctx, cap1, "rk", b1.ID, ResultInput{Sheet: []byte(rkccNamed(1, 5))}))
		_, _, err = s.WrongTimeControl(ctx, cap1, "rk", b1.ID, "3+2", "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, _, err = s.WrongTimeControl(ctx, td, "rk", b1.ID, "3+2", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		_, _, err = s.WrongTimeControl(ctx, td, "rk", b1.ID, "5+0", "x")
		wantErr(t, err, arbiter.EINVALID, "R6")

		m, grace := must2(s.WrongTimeControl(ctx, td, "rk", b1.ID, "3+2", "played 3+0 by mistake"))
		if !grace || m.Result.Home.Points != arbiter.P(720) {
			t.Fatalf("first time in round 1: grace %v, %+v", grace, m.Result)
		}
		// cap1 and cap5 have used their grace: the same set again is a draw.
		m, grace = must2(s.WrongTimeControl(ctx, td, "rk", b1.ID, "3+2", "the replay was 3+0 too"))
		if grace || m.Status != arbiter.MatchFinal || m.Decision != "wrong_time_control" || m.Result.Home.Points != arbiter.P(600) ||
			m.Result.Away.Points != arbiter.P(120) || m.Result.Home.SetsWon != 2 || m.Result.Home.MatchPoints != arbiter.P(1) {
			t.Fatalf("second time: grace %v, %+v %+v", grace, m, m.Result)
		}
		// Other players keep their own grace.
		_, grace = must2(s.WrongTimeControl(ctx, td, "rk", b1.ID, "1.5+1", "1+1 played"))
		if !grace {
			t.Fatal("a1 and a5 had their grace")
		}

		// A format whose grace covers no round: the first mistake is a draw.
		f := must(format.Preset("rkcc-team-three-tc"))
		f.Name, f.WrongTimeControl.GraceRounds = "strict-cup", 0
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		ms = rkccEvent(t, s, c, "strict", doc.Bytes())
		must(s.ReportResult(ctx, cap1, "strict", ms[0].ID, ResultInput{Sheet: []byte(rkccNamed(1, 5))}))
		m, grace = must2(s.WrongTimeControl(ctx, td, "strict", ms[0].ID, "0.75+0", "0.5+0 played"))
		// The 0.75+0 set is 16 games x 15 = 240: 120 each.
		if grace || m.Result.Home.Points != arbiter.P(600) || m.Result.Away.Points != arbiter.P(120) {
			t.Fatalf("no grace: %v %+v", grace, m.Result)
		}
	})
}

// TestWrongTimeControlMarked: R6 applied automatically to the sets a
// report marks as played in the wrong time control, once the result
// stands: on the opponent's confirmation (round 1: the grace, the result
// unchanged), on a TD's entry and at the deadline (a format without grace
// rounds: a full-points draw of the marked set, 600-120).
func TestWrongTimeControlMarked(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		ms := rkccEvent(t, s, c, "rk", nil)
		c.t = utc(2025, 1, 8, 12, 0)
		cap1 := arbiter.Actor{Name: "cap1", Role: arbiter.RoleCaptain}
		_, err := s.ReportResult(ctx, cap1, "rk", ms[0].ID, ResultInput{Sheet: []byte(rkccNamed(1, 5)), WrongTimeControl: []string{"5+0"}})
		wantErr(t, err, arbiter.EINVALID, "app.result")
		must(s.ReportResult(ctx, cap1, "rk", ms[0].ID, ResultInput{Sheet: []byte(rkccNamed(1, 5)), WrongTimeControl: []string{"3+2"}}))
		m := must(s.ConfirmResult(ctx, arbiter.Actor{Name: "cap5", Role: arbiter.RoleCaptain}, "rk", ms[0].ID, 0))
		if m.Decision != "confirmed" || m.Result.Home.Points != arbiter.P(720) {
			t.Fatalf("round 1 with grace: %s %+v", m.Decision, m.Result)
		}
		// cap1 and cap5 used their grace: a TD's corrected entry marking
		// the set again makes it a full-points draw.
		m = must(s.OverrideResult(ctx, td, "rk", ms[0].ID, ResultInput{Sheet: []byte(rkccNamed(1, 5)), WrongTimeControl: []string{"3+2"}}, "corrected", 0))
		if m.Decision != "wrong_time_control" || m.Result.Home.Points != arbiter.P(600) || m.Result.Away.Points != arbiter.P(120) {
			t.Fatalf("second time: %s %+v", m.Decision, m.Result)
		}

		f := must(format.Preset("rkcc-team-three-tc"))
		f.Name, f.WrongTimeControl.GraceRounds = "strict-cup", 0
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		ms = rkccEvent(t, s, c, "strict", doc.Bytes())
		c.t = utc(2025, 1, 8, 12, 0)
		must(s.ReportResult(ctx, cap1, "strict", ms[0].ID, ResultInput{Sheet: []byte(rkccNamed(1, 5)), WrongTimeControl: []string{"1.5+1"}}))
		c.t = utc(2025, 1, 13, 0, 0) // after Sunday 23:59 (R4)
		must(s.CloseRound(ctx, td, "strict"))
		m = must(s.Matches(ctx, "strict", "s1r1"))[0]
		if m.Decision != "wrong_time_control" || m.Result.Home.Points != arbiter.P(600) || m.Result.Home.SetsWon != 2 {
			t.Fatalf("at the deadline: %s %+v", m.Decision, m.Result)
		}
	})
}
