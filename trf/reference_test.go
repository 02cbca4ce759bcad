package trf

import (
	"slices"
	"testing"

	"arbiter"
	"arbiter/internal/testshared"
)

func ref(t *testing.T, name string) *File {
	t.Helper()
	return parseFile(t, testshared.Path(t, "reference", "trf", name))
}

// Values read off the reference files by eye (see reference/trf/README.md).
func TestReferenceFiles(t *testing.T) {
	t.Run("tec grandmommy's cup", func(t *testing.T) {
		f := ref(t, "tec_grandmommys_cup_trf26.trf")
		var n310, n013 int
		var ranks []int
		for _, tm := range f.Teams {
			switch tm.Record {
			case "310":
				n310++
				ranks = append(ranks, tm.Rank)
			case "013":
				n013++
			}
		}
		slices.Sort(ranks)
		if n310 != 50 || n013 != 50 || len(ranks) != 50 || ranks[0] != 1 || ranks[49] != 50 {
			t.Errorf("310 teams %d, 013 teams %d, ranks %v", n310, n013, ranks)
		}
		india := f.Teams[0]
		if india.Name != "India" || india.Nickname != "IND" || india.Strength != "2486" || india.MatchPoints != arbiter.P(15) ||
			india.GamePoints != arbiter.P(28) || india.Rank != 11 || !slices.Equal(india.Members, []int{1, 5, 15, 28, 44}) {
			t.Errorf("team 1 = %+v", india)
		}
		if f.Version != 2026 || f.TotalRounds != 14 || f.InitialColour != 'b' || f.BoardColours != "WBWB" ||
			f.TournamentCode != "FIDE_TEAM_BAKU" || f.TeamPoints != DefaultTeamPointSystem() ||
			!slices.Equal(f.TieBreaks, []string{"EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"}) ||
			!slices.Equal(f.DeputyArbiters, []string{"The First Deputy Arbiter", "The Second Deputy Arbiter"}) {
			t.Errorf("header: version %d rounds %d colour %q 352 %q 192 %q 362 %+v 202 %v 112 %v", f.Version, f.TotalRounds,
				f.InitialColour, f.BoardColours, f.TournamentCode, f.TeamPoints, f.TieBreaks, f.DeputyArbiters)
		}
		if len(f.Players) != 249 || len(f.AccelerationRanges) != 4 || len(f.Byes) == 0 || len(f.ForbiddenPairs) != 3 || len(f.TeamForfeits) == 0 {
			t.Errorf("players %d 250 %d 240 %d 260 %d 330 %d", len(f.Players), len(f.AccelerationRanges), len(f.Byes), len(f.ForbiddenPairs), len(f.TeamForfeits))
		}
		if len(f.RoundDates) < 6 || f.RoundDates[0] != "24/12/01" {
			t.Errorf("132 = %v", f.RoundDates)
		}
	})
	t.Run("eschlkam team swiss", func(t *testing.T) {
		f := ref(t, "cr_team_swiss_eschlkam.trf")
		if len(f.TeamByes) != 1 || f.TeamByes[0].MatchPoints != arbiter.P(2) || f.TeamByes[0].GamePoints != arbiter.P(4) ||
			!slices.Equal(f.TeamByes[0].Teams, []int{11, 9, 6, 10, 8, 7, 5}) {
			t.Errorf("320 = %+v", f.TeamByes)
		}
		if len(f.Teams) != 11 || len(f.Players) != 51 || f.Teams[3].Name != "SC Furth im Wald" || len(f.Teams[3].Members) != 5 {
			t.Errorf("teams %d players %d team 4 %+v", len(f.Teams), len(f.Players), f.Teams[3])
		}
		if p := f.Player(3); p == nil || p.Name != "Bauer, Andreas" || p.Title != "" || p.Birth != "1967" {
			t.Errorf("player 3 = %+v", p)
		}
	})
	t.Run("sharly team in progress", func(t *testing.T) {
		f := ref(t, "sharly_team_typea_trf26.trf")
		if f.PointSystem.PAB != arbiter.P(5) || f.TeamPoints.Win != arbiter.P(3) || f.InitialColour != 'w' || f.TotalRounds != 3 {
			t.Errorf("162 %+v 362 %+v 152 %q 142 %d", f.PointSystem, f.TeamPoints, f.InitialColour, f.TotalRounds)
		}
		n := f.NextRound()
		if n.Played != 1 || n.Round != 2 || len(n.Paired) == 0 {
			t.Errorf("NextRound = %+v, want round 2 already paired", n)
		}
		if len(f.BoardOrders) != 8 || !slices.Equal(f.BoardOrders[5].Players, []int{10, 7, 0, 0}) {
			t.Errorf("300 = %+v", f.BoardOrders)
		}
	})
	t.Run("lichess blank opponents", func(t *testing.T) {
		f := ref(t, "lichess_swiss_2021_03.trf")
		p := f.Player(5)
		if p == nil || p.Name != "nowosibirsk" || p.Round(1) != (Round{0, '-', 'U'}) || p.Points != arbiter.P(6) || p.Rank != 0 {
			t.Errorf("player 5 = %+v", p)
		}
		if f.InitialColour != 'b' || f.TotalRounds != 9 {
			t.Errorf("XXC %q XXR %d", f.InitialColour, f.TotalRounds)
		}
	})
	t.Run("karl mala 2005 trimmed rounds", func(t *testing.T) {
		f := ref(t, "karl_mala_gedenkturnier_2005.trf")
		p := f.Player(13)
		if len(f.Players) != 284 || p == nil || len(p.Rounds) != 1 || p.Rounds[0] != (Round{153, '-', '-'}) || p.Title != "f" || p.Birth != "1934.06.20" {
			t.Errorf("players %d, player 13 = %+v", len(f.Players), p)
		}
		if f.Federation != "" || f.StartDate != "28. 07. 2005" || f.NextRound().Played != 7 {
			t.Errorf("032 %q 042 %q played %d", f.Federation, f.StartDate, f.NextRound().Played)
		}
	})
	t.Run("swiss with many unplayed rounds", func(t *testing.T) {
		f := ref(t, "swiss_with_many_unplayed_rounds.trf")
		p := f.Player(3)
		want := []Round{{10, 'b', '+'}, {7, 'b', '1'}, {1, 'w', '='}, {9, 'b', '='}, {0, '-', 'H'}, {0, '-', 'Z'}, {0, '-', 'H'}}
		if p == nil || !slices.Equal(p.Rounds, want) || p.Sex != "f" || f.NumPlayers != "15 (12)" {
			t.Errorf("player 3 = %+v, 062 %q", p, f.NumPlayers)
		}
		if f.Player(1).Title != "FM" {
			t.Errorf("player 1 title %q", f.Player(1).Title)
		}
		// The column rulers ("1234567890...", "DDD SSSS ...") are kept verbatim.
		if u := unknownTexts(f); len(u) != 3 {
			t.Errorf("unknown records %q", u)
		}
	})
}
