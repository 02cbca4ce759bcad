package score

import "testing"

// R10/R11 by hand: a set is won with more than half its 240 set points —
// 3.5 of 6 games of 3+2 (x40 = 140), 5.5 of 10 of 1.5+1 (x24 = 132), 8.5 of
// 16 of 0.75+0 (x15 = 127.5) — and the match by sets won, whatever the set
// points say. The match is decided at the game that clinches the second set.
func TestRKCCSetsDecideBeforeSetPoints(t *testing.T) {
	for _, c := range []struct {
		name               string
		sets               string
		home, away         float64
		homeSets, awaySets int
		result             string
		decidedAt          string
		after              int
	}{
		{
			// 3+2 3.5-2.5 = 140-100, clinched at its 4th game; 1.5+1
			// 5.5-4.5 = 132-108, clinched at its 6th game: 2 sets, decided
			// with 4 + 16 games to come; 0.75+0 lost 0-16 = 0-240. Home
			// wins 2-1 in sets with 272-448 set points.
			"sets beat set points",
			`{"tc": "3+2", "results": "1 1 1 = 0 0"}, {"tc": "1.5+1", "results": "1 1 1 1 1 = 0 0 0 0"}, {"tc": "0.75+0", "results": "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"}`,
			272, 448, 2, 1, HomeWin, "sets[1].results[5]", 20,
		},
		{
			// Exactly half is not a set won: 3+2 3-3 = 120-120, 1.5+1
			// 5-5 = 120-120; 0.75+0 8.5-7.5 = 127.5-112.5 clinched at the
			// 16th game, but one set is no majority: 1-0 in sets, home
			// wins by sets, never "decided" (2 sets needed).
			"drawn sets",
			`{"tc": "3+2", "results": "1 1 1 0 0 0"}, {"tc": "1.5+1", "results": "= = = = = = = = = ="}, {"tc": "0.75+0", "results": "1 1 1 1 1 1 1 1 = 0 0 0 0 0 0 0"}`,
			367.5, 352.5, 1, 0, HomeWin, "", 0,
		},
		{
			// Game forfeits score like games (R15 per game): 3+2 "+ + + +
			// -- -" = 160-40 (the double forfeit gives nobody anything);
			// 1.5+1 full-draw forfeit 120-120; 0.75+0 away by forfeit
			// 0-240. Sets 1-1, set points 280-400: away wins on set points.
			"set points break a tie in sets",
			`{"tc": "3+2", "results": "+ + + + -- -"}, {"tc": "1.5+1", "forfeit": "full_draw"}, {"tc": "0.75+0", "forfeit": "away"}`,
			280, 400, 1, 1, AwayWin, "", 0,
		},
	} {
		ms := mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "sets": [`+c.sets+`]}`)
		if ms.HomePoints != pts(c.home) || ms.AwayPoints != pts(c.away) || ms.HomeSets != c.homeSets || ms.AwaySets != c.awaySets || ms.Result != c.result {
			t.Errorf("%s: %v-%v, sets %d-%d, %s; want %v-%v, %d-%d, %s", c.name, ms.HomePoints, ms.AwayPoints, ms.HomeSets, ms.AwaySets, ms.Result, c.home, c.away, c.homeSets, c.awaySets, c.result)
		}
		if ms.DecidedAt != c.decidedAt || ms.Decided != (c.decidedAt != "") || ms.GamesAfterDecision != c.after {
			t.Errorf("%s: decided %v at %q with %d games after; want %q, %d", c.name, ms.Decided, ms.DecidedAt, ms.GamesAfterDecision, c.decidedAt, c.after)
		}
		if ms.Standings.A.SetsWon != c.homeSets || ms.Standings.B.SetsWon != c.awaySets || ms.Standings.A.Secondary != pts(c.home) {
			t.Errorf("%s: standings %+v", c.name, ms.Standings)
		}
	}
}
