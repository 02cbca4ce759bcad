package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"arbiter"
)

// TestStandingsAfterCompletedRound: the standings stand after the last
// completed round. Publishing round 2, and a result confirmed in it while
// it runs, change no value; once it is closed the table is "after round
// 2", and the table after round 1 can still be asked for.
//
// By hand (acwc-swiss, 10 players seeded p01..p10, C.04.3 round 1: 1-6,
// 7-2, 3-8, 9-4, 5-10, the higher seed winning each 6-4): after round 1
// p01..p05 have 1 point and p06..p10 none; the cumulative score (sum of
// the running scores) equals the score after one round; no two of the
// tied winners met (wins against tied opponents 0); median-Buchholz cuts
// the only opponent's score, so it is 0 for everyone.
func TestStandingsAfterCompletedRound(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "sw", Format: []byte(acwcSwiss), Start: utc(2023, 3, 21, 10, 0)}))
		for _, n := range registerPlayers(t, s, "sw", 10) {
			must(s.Approve(ctx, td, "sw", n, 0))
		}
		must(s.CloseRegistration(ctx, td, "sw"))
		before := must(s.StandingsAfter(ctx, "sw", 0, "", 0))
		if before.After != 0 || before.Completed != 0 {
			t.Fatalf("before round 1: after %d, completed %d", before.After, before.Completed)
		}
		playRound(t, s, c, "sw")
		r1 := must(s.StandingsAfter(ctx, "sw", 0, "", 0))
		if r1.After != 1 || r1.Completed != 1 {
			t.Fatalf("after round 1: after %d, completed %d", r1.After, r1.Completed)
		}
		for _, row := range r1.Rows {
			want := arbiter.Points(0)
			if row.ID <= "p05" {
				want = arbiter.P(1)
			}
			if row.Score != want || len(row.Values) != 3 || row.Values[0] != want || row.Values[1] != 0 || row.Values[2] != 0 {
				t.Fatalf("after round 1, %s: score %s, values %v; want %s, [%s 0 0]", row.ID, row.Score, row.Values, want, want)
			}
		}

		// Round 2 is paired and published: nothing is played yet.
		ms := pairOK(s.PairRound(ctx, td, "sw"))
		must(s.PublishRound(ctx, td, "sw"))
		if got := must(s.StandingsAfter(ctx, "sw", 0, "", 0)); !cmp.Equal(got, r1) {
			t.Fatalf("publishing round 2 changed the standings:\n%s", cmp.Diff(r1, got))
		}
		// A result confirmed while the round runs does not count yet.
		rd := must(s.Rounds(ctx, "sw"))[1]
		c.t = rd.Start.Add(3600e9)
		must(s.ReportResult(ctx, player(ms[0].Home), "sw", ms[0].ID, ResultInput{Summary: "6-4"}))
		must(s.ConfirmResult(ctx, player(ms[0].Away), "sw", ms[0].ID, 0))
		if got := must(s.Standings(ctx, "sw", 0)); !cmp.Equal(got, r1.Table) {
			t.Fatalf("a result in the open round changed the standings:\n%s", cmp.Diff(r1.Table, got))
		}
		_, err := s.StandingsAfter(ctx, "sw", 0, "", 2)
		wantErr(t, err, arbiter.ERULE, "app.standings") // round 2 not completed
		_, err = s.StandingsAfter(ctx, "sw", 0, "", 6)
		wantErr(t, err, arbiter.EINVALID, "app.standings") // W5: 10 players, 5 rounds

		c.t = rd.End
		must(s.CloseRound(ctx, td, "sw"))
		r2 := must(s.StandingsAfter(ctx, "sw", 0, "", 0))
		if r2.After != 2 || r2.Completed != 2 || cmp.Equal(r2.Table, r1.Table) {
			t.Fatalf("after round 2: after %d, completed %d", r2.After, r2.Completed)
		}
		if back := must(s.StandingsAfter(ctx, "sw", 0, "", 1)); !cmp.Equal(back.Table, r1.Table) || back.After != 1 || back.Completed != 2 {
			t.Fatalf("the table after round 1, asked after round 2:\n%s", cmp.Diff(r1.Table, back.Table))
		}
	})
}
