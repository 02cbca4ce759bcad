package app

import (
	"fmt"
	"testing"

	"arbiter"
	"arbiter/lineup"
)

// rankFour ranks each team's boards as capNN, aNN, bNN, cNN (A12): the
// bNN player is on board 3.
func rankFour(t *testing.T, s *Service, slug string, teams ...int) {
	t.Helper()
	for _, i := range teams {
		n := fmt.Sprintf("%02d", i)
		must(s.RankBoards(ctx, td, slug, "team-"+n, []lineup.Member{{Name: "cap" + n, Rating: 2000}, {Name: "a" + n, Rating: 1900},
			{Name: "b" + n, Rating: 1800}, {Name: "c" + n, Rating: 1700}}, nil))
	}
}

// TestReopenA8: a member's Lichess ban, per player (A8: "their completed
// matches are reopened", else "adjudicated in favour of their
// opponents"). The sheet (teamSheet): board 1 home 144-0, boards 2 to 4
// home 68-76 each, 348-228 a home win.
//   - b01 (team-01, board 3) proves the ban was not for cheating: board 3
//     of s1r1b1 is reopened, the match waits for it; the TD enters the
//     replay of board 3 alone (team-06 wins it 144-0), the other boards
//     stand: 144+68+0+68 = 280 against 0+76+144+76 = 296, an away win.
//   - b07 (team-07, board 3 of s1r1b2 against team-02) is banned for
//     cheating: board 3 goes to team-02 (0-144): the same 280-296, and
//     the match result turns to team-02. The team's other boards stand.
func TestReopenA8(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		must(s.CloseRegistration(ctx, td, "atc"))
		rankFour(t, s, "atc", 1, 2, 6, 7)
		ms := pairOK(s.PairRound(ctx, td, "atc")) // board 1: team-01 v team-06, board 2: team-07 v team-02
		must(s.PublishRound(ctx, td, "atc"))
		c.t = utc(2025, 1, 9, 0, 0)
		must(s.OverrideResult(ctx, td, "atc", ms[0].ID, ResultInput{Sheet: []byte(teamSheet)}, "from Lichess", 0)) // home win 348-228
		must(s.OverrideResult(ctx, td, "atc", ms[1].ID, ResultInput{Sheet: []byte(teamSheet)}, "from Lichess", 0))

		x, changed := must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-01", Player: "b01", Kind: "lichess_ban", NotForCheating: true,
			Reason: "Lichess ban for a chat offence, not cheating"}))
		if x.Rule != "A8" || len(changed) != 1 || changed[0].ID != ms[0].ID {
			t.Fatalf("sanction %+v, changed %+v", x, changed)
		}
		m := must(s.Matches(ctx, "atc", "s1r1"))[0]
		if m.Status != arbiter.MatchScheduled || m.Result != nil || m.Decision != "reopened" || len(m.Rulings) != 1 || m.Rulings[0].Board != 3 || m.Rulings[0].Forfeit != "reopened" {
			t.Fatalf("reopened match %+v", m)
		}
		// The replay of board 3, entered by a TD; the sheet's other boards
		// (here all drawn) do not count: theirs stand.
		replay := `{"boards": [{"board": 3, "parts": [{"tc": "0+2", "results": "0 0 0 0 0 0 0 0"}, {"tc": "2+5", "results": "0 0 0 0"}, {"tc": "1+2", "results": "0 0 0 0 0 0"}]}]}`
		m = must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Sheet: []byte(replay)}, "board 3 replayed by the replacement", 0))
		if m.Status != arbiter.MatchFinal || m.Result.Result != "away_win" || m.Result.Home.Points != arbiter.P(280) || m.Result.Away.Points != arbiter.P(296) || len(m.Rulings) != 0 {
			t.Fatalf("replay %+v, rulings %+v", m.Result, m.Rulings)
		}

		// Team 07's member is banned for cheating: board 3 to team-02.
		_, changed = must2(s.Sanction(ctx, td, "atc", SanctionRequest{Entrant: "team-07", Player: "b07", Kind: "lichess_ban", Reason: "cheating ban"}))
		if len(changed) != 1 || changed[0].Result.Result != "away_win" || changed[0].Decision != "sanction" ||
			changed[0].Result.Home.Points != arbiter.P(280) || changed[0].Result.Away.Points != arbiter.P(296) {
			t.Fatalf("adjudicated %+v", changed)
		}
		if p := changed[0].Result.Parts; len(p) != 4 || p[2].Home != 0 || p[2].Away != arbiter.P(144) || p[1].Home != arbiter.P(68) || p[0].Home != arbiter.P(144) {
			t.Fatalf("boards after the ban %+v", p)
		}
	})
}
