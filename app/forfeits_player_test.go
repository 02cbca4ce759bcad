package app

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/lineup"
)

// forfeitSheet is teamSheet (home wins board 1, boards 2-4 drawn but the
// last game) with the first game of the given boards (2 to 4) forfeited by
// team-01 on side "home" or "away": "-" is a game home lost by forfeit,
// "+" one away lost by forfeit (docs/match-sheet.md).
func forfeitSheet(side string, boards ...int) string {
	lines := strings.Split(teamSheet, "\n")
	tok := "-"
	if side == "away" {
		tok = "+"
	}
	for _, b := range boards { // line b holds board b (2 to 4)
		lines[b] = strings.Replace(lines[b], `"results": "=`, `"results": "`+tok, 1)
	}
	return strings.Join(lines, "\n")
}

// TestA7PerPlayer: A7 "If a player forfeits twice, they are disqualified"
// counts a player's forfeits, not a team's. Team 01's boards are cap01,
// a01, b01, c01 (ranked by rating). Round 1: a01 (board 2) and b01
// (board 3) each forfeit a game: the team has two forfeits, but no player
// has two, so no note. Round 2: a01 forfeits a game again: a01 has
// forfeited twice (in s1r1 and s1r2), b01 still once, so exactly one note,
// naming a01 of team-01 and A7.
func TestA7PerPlayer(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 10, false)
		ev := must(s.CloseRegistration(ctx, td, "atc"))
		must(s.RankBoards(ctx, td, "atc", "team-01", []lineup.Member{{Name: "cap01", Rating: 2100}, {Name: "a01", Rating: 2050},
			{Name: "b01", Rating: 2000}, {Name: "c01", Rating: 1950}}, nil))
		play := func(round int, sheets map[string]string) arbiter.Round {
			t.Helper()
			ms := pairOK(s.PairRound(ctx, td, "atc"))
			must(s.PublishRound(ctx, td, "atc"))
			c.t = ev.Calendar[round-1].Start.Add(72 * 3600e9)
			for _, m := range ms {
				sh := teamSheet
				switch {
				case m.Home == "team-01":
					sh = sheets["home"]
				case m.Away == "team-01":
					sh = sheets["away"]
				}
				must(s.OverrideResult(ctx, td, "atc", m.ID, ResultInput{Sheet: []byte(sh)}, "from the Lichess games", 0))
			}
			c.t = ev.Calendar[round-1].End
			return must(s.CloseRound(ctx, td, "atc"))
		}
		rd := play(1, map[string]string{"home": forfeitSheet("home", 2, 3), "away": forfeitSheet("away", 2, 3)})
		if len(rd.Notes) != 0 {
			t.Fatalf("round 1 (two forfeits of one team, one each of two players): notes %q", rd.Notes)
		}
		rd = play(2, map[string]string{"home": forfeitSheet("home", 2), "away": forfeitSheet("away", 2)})
		if len(rd.Notes) != 1 || !strings.HasPrefix(rd.Notes[0], "a01 of team-01 forfeited s1r1b") ||
			!strings.Contains(rd.Notes[0], ", s1r2b") || !strings.Contains(rd.Notes[0], "A7 disqualifies the player") {
			t.Fatalf("round 2 notes %q", rd.Notes)
		}
	})
}
