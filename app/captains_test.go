package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/lineup"
)

// tiedKO is a tied antichess knockout sheet (docs/match-sheet.md's A20
// example): board 1 home 99-93 (0+2: a win and seven draws, 27-21; the
// other parts drawn), board 2 away 99-93, boards 3 and 4 drawn 96-96: 384
// each. tie is the sheet's "tie" object.
func tiedKO(tie string) string {
	draws := func(n int) string { return strings.TrimSpace(strings.Repeat("= ", n)) }
	board := func(b int, first string) string {
		return fmt.Sprintf(`{"board": %d, "parts": [{"tc": "0+2", "results": "%s"}, {"tc": "2+5", "results": "%s"}, {"tc": "5+0", "results": "%s"}, {"tc": "1+2", "results": "%s"}]}`,
			b, strings.TrimSpace(first+" "+draws(7)), draws(4), draws(4), draws(6))
	}
	return fmt.Sprintf(`{"boards": [%s, %s, %s, %s], "tie": %s}`, board(1, "1"), board(2, "0"), board(3, "="), board(4, "="), tie)
}

// TestCaptainsAdvantageFromData: A20's advantage point goes to the winner
// of the board on which the two captains faced each other, as Arbiter
// knows it from each team's captain and board list, not from the report.
//
// The knockout of four (A10) pairs team-01 v team-04 and team-02 v
// team-03. Captains cap01, cap04 and cap02 are their teams' best players
// (board 1); team-03's a03 is rated above cap03, who plays board 2.
//   - Semifinal 1, the captains met on board 1, which home won 99-93: home
//     has the advantage point. A claim that they met on board 2 is
//     refused. The 3+0 games 0 0 1 = are 1.5-2.5, with the point 2.5-2.5:
//     armageddon (A20). Home bid 150 s against 165 s and plays White; the
//     draw is Black's (A3): away wins.
//   - Semifinal 2, the captains played boards 1 and 2: no advantage point.
//     A claim that they met on board 1 is refused. The 3+0 games 1 0 1 0
//     are 2-2: armageddon; away bid 100 s, plays White, loses: home wins.
func TestCaptainsAdvantageFromData(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		f := must(format.Preset("antichess-team-cup"))
		four := 4
		f.Name, f.MinEntrants, f.Team.Size = "ko-cup", 4, format.Count{Fixed: &four}
		f.Stages = f.Stages[1:]
		var doc bytes.Buffer
		if err := format.Write(&doc, f); err != nil {
			t.Fatal(err)
		}
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "ko", Format: doc.Bytes(), Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "ko", 4, 10, true)
		must(s.CloseRegistration(ctx, td, "ko"))
		for i := 1; i <= 4; i++ {
			n := fmt.Sprintf("%02d", i)
			aRating := 1900
			if i == 3 {
				aRating = 2100 // a03 on board 1, cap03 on board 2
			}
			must(s.RankBoards(ctx, td, "ko", "team-"+n, []lineup.Member{{Name: "cap" + n, Rating: 2000}, {Name: "a" + n, Rating: aRating},
				{Name: "b" + n, Rating: 1800}, {Name: "c" + n, Rating: 1700}, {Name: "s" + n, Rating: 1600}}, nil))
		}
		semis := pairOK(s.PairRound(ctx, td, "ko"))
		if semis[0].Home != "team-01" || semis[0].Away != "team-04" || semis[1].Home != "team-02" || semis[1].Away != "team-03" {
			t.Fatalf("semifinals %s-%s, %s-%s", semis[0].Home, semis[0].Away, semis[1].Home, semis[1].Away)
		}
		if semis[1].AwayBoards[1] != "cap03" || semis[0].HomeCaptain != "cap01" || semis[1].AwayCaptain != "cap03" {
			t.Fatalf("team-03's boards %v, captains %s/%s", semis[1].AwayBoards, semis[0].HomeCaptain, semis[1].AwayCaptain)
		}
		must(s.PublishRound(ctx, td, "ko"))
		c.t = utc(2025, 1, 9, 0, 0)
		cap := func(n string) arbiter.Actor { return arbiter.Actor{Name: "cap" + n, Role: arbiter.RoleCaptain} }

		arm := `"armageddon": {"home_bid": 150, "away_bid": 165, "result": "="}`
		_, err := s.ReportResult(ctx, cap("01"), "ko", semis[0].ID, ResultInput{Sheet: []byte(tiedKO(`{"captains_board": 2, "games": "0 0 1 =", ` + arm + `}`))})
		wantErr(t, err, arbiter.EINVALID, "A20")
		if !strings.Contains(err.Error(), "they met on board 1 (the captains: cap01 played board 1, cap04 played board 1)") {
			t.Fatalf("refusal %v", err)
		}
		m := must(s.ReportResult(ctx, cap("01"), "ko", semis[0].ID, ResultInput{Sheet: []byte(tiedKO(`{"games": "0 0 1 =", ` + arm + `}`))}))
		if m.Result.Result != "away_win" || m.Result.DecidedBy != "armageddon" {
			t.Fatalf("semifinal 1: %+v", m.Result)
		}
		rep := must(s.Reports(ctx, arbiter.NamedUser(td.Name), "ko", semis[0].ID))[0]
		var stored struct {
			Tie struct {
				CaptainsBoard int `json:"captains_board"`
			} `json:"tie"`
		}
		data, _ := json.Marshal(rep.Sheet)
		if err := json.Unmarshal(data, &stored); err != nil || stored.Tie.CaptainsBoard != 1 {
			t.Fatalf("stored sheet lacks the derived captains' board: %s", data)
		}

		_, err = s.ReportResult(ctx, cap("02"), "ko", semis[1].ID, ResultInput{Sheet: []byte(tiedKO(`{"captains_board": 1, "games": "1 0 1 0", "armageddon": {"home_bid": 120, "away_bid": 100, "result": "1"}}`))})
		wantErr(t, err, arbiter.EINVALID, "A20")
		if !strings.Contains(err.Error(), "they did not meet (the captains: cap02 played board 1, cap03 played board 2)") {
			t.Fatalf("refusal %v", err)
		}
		_, err = s.ReportResult(ctx, cap("02"), "ko", semis[1].ID, ResultInput{Sheet: []byte(tiedKO(`{"games": "1 0 1 0"}`))})
		wantErr(t, err, arbiter.EINVALID, "score.tie") // 2-2: the armageddon decides
		m = must(s.ReportResult(ctx, cap("02"), "ko", semis[1].ID, ResultInput{Sheet: []byte(tiedKO(`{"games": "1 0 1 0", "armageddon": {"home_bid": 120, "away_bid": 100, "result": "1"}}`))}))
		if m.Result.Result != "home_win" || m.Result.DecidedBy != "armageddon" {
			t.Fatalf("semifinal 2: %+v", m.Result)
		}
	})
}
