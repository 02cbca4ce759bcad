package app

import (
	"fmt"
	"strings"
	"testing"

	"arbiter"
)

// antichessSheet is a four-board A18 match sheet where every game of every
// board has result r ("1" home wins, "0" away wins): 576-0 either way.
func antichessSheet(r string) string {
	var b []string
	for i := 1; i <= 4; i++ {
		b = append(b, fmt.Sprintf(`{"board": %d, "parts": [{"tc": "0+2", "results": "%s"}, {"tc": "2+5", "results": "%s"}, {"tc": "1+2", "results": "%s"}]}`,
			i, strings.TrimSpace(strings.Repeat(r+" ", 8)), strings.TrimSpace(strings.Repeat(r+" ", 4)), strings.TrimSpace(strings.Repeat(r+" ", 6))))
	}
	return `{"boards": [` + strings.Join(b, ", ") + `]}`
}

// TestTeamSwissSecondaryOrder: a team Swiss round is paired by match points,
// then the A21 points difference inside the scoregroup (package teamswiss),
// not by seed. Derivation by hand (FIDE Dutch on teams, colour = board 1):
// round 1 pairs 1-6, 7-2, 3-8, 9-4, 5-10; the higher seeds win, team-01 by
// 348-228 (+120), the others 576-0. The five winners rank 2, 3, 4, 5, 1 (by
// points difference), so team-01 is the bracket's last and floats down;
// colours (2 and 4 had Black, 3 and 5 White) give 2-5 and 4-3 with no
// colour violation. Among the losers team-01 (had White, wants Black) may
// not meet team-06 again; team-08 (had Black) is the first that fits: 8-1.
// Then 6 (Black) v 9 (White) and 10 (Black) v 7 (White). With seed order
// team-01 would have stayed on top of the winners' bracket instead.
func TestTeamSwissSecondaryOrder(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		rd, ms, err := s.PairRound(ctx, td, "atc")
		must(ms, err)
		if rd.Method != "teamswiss" {
			t.Fatalf("method %q, want teamswiss", rd.Method)
		}
		want1 := []string{"team-01-team-06", "team-07-team-02", "team-03-team-08", "team-09-team-04", "team-05-team-10"}
		if got := matchKeys(ms); strings.Join(got, " ") != strings.Join(want1, " ") {
			t.Fatalf("round 1 %v, want %v", got, want1)
		}
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 10, 12, 0)
		for i, m := range ms {
			sheet := antichessSheet("1")
			switch {
			case i == 0:
				sheet = teamSheet
			case m.Away == "team-02" || m.Away == "team-04":
				sheet = antichessSheet("0")
			}
			must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Sheet: []byte(sheet)}, "entered by the TD", 0))
		}
		c.t = utc(2025, 1, 14, 0, 0)
		must(s.CloseRound(ctx, td, "atc"))
		ms2 := pairOK(s.PairRound(ctx, td, "atc"))
		got := matchKeys(ms2)
		want := []string{"team-02-team-05", "team-04-team-03", "team-08-team-01", "team-06-team-09", "team-10-team-07"}
		if !sameSet(got, want) {
			t.Fatalf("round 2 %v, want %v", got, want)
		}
	})
}

func matchKeys(ms []arbiter.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Home+"-"+m.Away)
	}
	return out
}
