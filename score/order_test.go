package score

import "testing"

// A17: "the parts can be played in any order; if the players do not
// agree, the default order is 0+2, 2+5, 1+2". The preset lists the parts
// in the default order, and a sheet in another order scores the same
// points; the sheet order is the playing order, so the match is decided
// where the games in that order pass 288 (A18). TestAntichessBoards' sheet
// with every board played 2+5, 1+2, 0+2: board 1 144-0, boards 2-4 68-76
// each (2+5 four draws 24-24, 1+2 five draws and a loss 20-28, 0+2 eight
// draws 24-24), 348-228. Running home total: 144 after board 1, 212 after
// board 2, 280 after board 3; board 4's 2+5 draws give 286 then 292 > 288:
// decided at boards[3].parts[0].results[1], with 2 + 6 + 8 = 16 games
// after it.
func TestAntichessPartsInAnyOrder(t *testing.T) {
	t.Parallel()
	var order []string
	for _, p := range preset(t, "antichess-team-cup").Stages[0].Match.Parts {
		order = append(order, p.TC.String())
	}
	if len(order) != 3 || order[0] != "0+2" || order[1] != "2+5" || order[2] != "1+2" {
		t.Errorf("preset parts %v, want A17's default order 0+2, 2+5, 1+2", order)
	}
	draws := `{"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}, {"tc": "0+2", "results": "= = = = = = = ="}`
	ms := mustScore(t, "antichess-team-cup", "swiss", `{"home": "H", "away": "A", "boards": [
		{"board": 1, "parts": [{"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}, {"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}]},
		{"board": 2, "parts": [`+draws+`]},
		{"board": 3, "parts": [`+draws+`]},
		{"board": 4, "parts": [`+draws+`]}]}`)
	if ms.Boards[0].Home != pts(144) || ms.Boards[1].Home != pts(68) || ms.Boards[1].Away != pts(76) {
		t.Errorf("boards %+v", ms.Boards)
	}
	if ms.HomePoints != pts(348) || ms.AwayPoints != pts(228) || ms.Result != HomeWin {
		t.Errorf("totals %v-%v %s", ms.HomePoints, ms.AwayPoints, ms.Result)
	}
	if ms.DecidedAt != "boards[3].parts[0].results[1]" || ms.GamesAfterDecision != 16 {
		t.Errorf("decided at %s, %d games after", ms.DecidedAt, ms.GamesAfterDecision)
	}
}
