package score

import (
	"errors"
	"strings"
	"testing"

	"arbiter"
	"arbiter/format"
	"arbiter/standings"
)

func preset(t testing.TB, name string) *format.Format {
	t.Helper()
	f, err := format.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func scoreJSON(t *testing.T, presetName, stage, sheet string) (*MatchScore, error) {
	t.Helper()
	sh, err := LoadSheet(strings.NewReader(sheet))
	if err != nil {
		return nil, err
	}
	return Score(preset(t, presetName), stage, sh, Options{})
}

func mustScore(t *testing.T, presetName, stage, sheet string) *MatchScore {
	t.Helper()
	ms, err := scoreJSON(t, presetName, stage, sheet)
	if err != nil {
		t.Fatalf("score: %v", err)
	}
	return ms
}

func pts(f float64) arbiter.Points { return arbiter.P(f) }

func wantErr(t *testing.T, err error, field, rule string) {
	t.Helper()
	var e *arbiter.Error
	if !errors.As(err, &e) || e.Field != field || e.Rule != rule || e.Code != arbiter.EINVALID {
		t.Errorf("got error %v, want field %q rule %q", err, field, rule)
	}
}

// R3, R10: set points = game score x TC factor.
func TestRKCCSetPoints(t *testing.T) {
	ms := mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "Rooks", "away": "Knights", "sets": [
		{"tc": "3+2", "home_player": "A", "away_player": "X", "results": "1 1 1 1 0 0"},
		{"tc": "1,5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
		{"tc": "¾+0", "results": "1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 ="}]}`)
	// 4-2 x 40 = 160-80; 5-5 x 24 = 120-120; 8.5-7.5 x 15 = 127.5-112.5.
	want := [][2]arbiter.Points{{pts(160), pts(80)}, {pts(120), pts(120)}, {pts(127.5), pts(112.5)}}
	for i, s := range ms.Sets {
		if s.Home != want[i][0] || s.Away != want[i][1] {
			t.Errorf("set %d (%s): %v-%v, want %v-%v", i, s.TC, s.Home, s.Away, want[i][0], want[i][1])
		}
	}
	if ms.Sets[2].HomeGames != pts(8.5) || ms.Sets[0].HomePlayer != "A" {
		t.Errorf("set 3 game score %v", ms.Sets[2].HomeGames)
	}
	// 160+120+127.5 = 407.5; 80+120+112.5 = 312.5; sets 2-0 with one drawn set.
	if ms.HomePoints != pts(407.5) || ms.AwayPoints != pts(312.5) || ms.HomeSets != 2 || ms.AwaySets != 0 {
		t.Errorf("totals %v-%v sets %d-%d", ms.HomePoints, ms.AwayPoints, ms.HomeSets, ms.AwaySets)
	}
	if ms.Result != HomeWin || ms.Winner != "Rooks" || ms.DecidedBy != "sets" {
		t.Errorf("result %s %s %s", ms.Result, ms.Winner, ms.DecidedBy)
	}
	// R13: 1 / 0.5 / 0; the secondary score is the set points (R12).
	want2 := standings.Result{
		A:        standings.Side{ID: "Rooks", MatchPoints: pts(1), Secondary: pts(407.5), SetsWon: 2, GamesWon: 17},
		B:        standings.Side{ID: "Knights", MatchPoints: 0, Secondary: pts(312.5), SetsWon: 0, GamesWon: 14},
		Decision: standings.Played,
	}
	if ms.Standings != want2 {
		t.Errorf("standings %+v, want %+v", ms.Standings, want2)
	}
	if ms.MaxPoints != pts(720) || ms.WinThreshold != pts(2) || ms.ThresholdUnit != "sets" {
		t.Errorf("max %v threshold %v %s", ms.MaxPoints, ms.WinThreshold, ms.ThresholdUnit)
	}
}

// R11: a 1-1 match in sets (one set drawn) is decided by set points.
func TestRKCCSetPointsBreakTie(t *testing.T) {
	ms := mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "results": "1 1 1 1 0 0"},
		{"tc": "1.5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
		{"tc": "0.75+0", "results": ["1","1","1","1","1","1","1","0","0","0","0","0","0","0","0","0"]}]}`)
	// 160-80, 120-120, 7 x 15 = 105 - 9 x 15 = 135: 385-335, sets 1-1.
	if ms.HomePoints != pts(385) || ms.AwayPoints != pts(335) || ms.HomeSets != 1 || ms.AwaySets != 1 {
		t.Fatalf("totals %v-%v sets %d-%d", ms.HomePoints, ms.AwayPoints, ms.HomeSets, ms.AwaySets)
	}
	if ms.Result != HomeWin || ms.DecidedBy != "set_points" {
		t.Errorf("result %s by %s", ms.Result, ms.DecidedBy)
	}
	// All equal: 1-1 in sets and 360-360 (3+2 4-2 / 2-4, others 5-5 and 8-8) is a drawn match.
	ms = mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "results": "1 1 1 1 0 0"},
		{"tc": "1.5+1", "results": "0 0 0 0 0 0 0 1 1 1"},
		{"tc": "0.75+0", "results": "1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0"}]}`)
	// 160-80; 3-7 x 24 = 72-168; 8-8 x 15 = 120-120: 352-368 -> away on set points.
	if ms.HomePoints != pts(352) || ms.AwayPoints != pts(368) || ms.Result != AwayWin || ms.DecidedBy != "set_points" {
		t.Errorf("got %v-%v %s %s", ms.HomePoints, ms.AwayPoints, ms.Result, ms.DecidedBy)
	}
}

// R15: double forfeit 0-0, full draw 120-120, full forfeit 240-0 per set.
func TestRKCCForfeits(t *testing.T) {
	ms := mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "forfeit": "home"}`)
	if ms.HomePoints != pts(720) || ms.AwayPoints != 0 || ms.HomeSets != 3 || ms.Standings.Decision != standings.ForfeitWin || ms.Standings.A.MatchPoints != pts(1) {
		t.Errorf("full forfeit: %+v", ms)
	}
	for _, s := range ms.Sets {
		if s.Home != pts(240) || s.Away != 0 {
			t.Errorf("full forfeit set %s: %v-%v, want 240-0", s.TC, s.Home, s.Away)
		}
	}
	ms = mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "forfeit": "full_draw"}`)
	if ms.HomePoints != pts(360) || ms.AwayPoints != pts(360) || ms.Sets[1].Home != pts(120) || ms.Result != Draw || ms.Standings.Decision != standings.FullDraw || ms.Standings.B.MatchPoints != pts(0.5) {
		t.Errorf("full draw: %+v", ms)
	}
	ms = mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "forfeit": "double"}`)
	if ms.HomePoints != 0 || ms.AwayPoints != 0 || ms.Result != DoubleLoss || ms.Standings.Decision != standings.DoubleForfeit || ms.Standings.A.MatchPoints != 0 || ms.Standings.B.MatchPoints != 0 {
		t.Errorf("double forfeit: %+v", ms)
	}
	// Set-level: R6 wrong time control -> that set is a full-points draw (120-120).
	ms = mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "forfeit": "full_draw"},
		{"tc": "1.5+1", "forfeit": "away"},
		{"tc": "0.75+0", "results": "1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0"}]}`)
	// 120-120, 0-240, 9-7 x 15 = 135-105: 255-465, sets 1-1 -> away on set points.
	if ms.HomePoints != pts(255) || ms.AwayPoints != pts(465) || ms.HomeSets != 1 || ms.AwaySets != 1 || ms.Result != AwayWin || ms.Standings.Decision != standings.Played {
		t.Errorf("set forfeits: %v-%v sets %d-%d %s", ms.HomePoints, ms.AwayPoints, ms.HomeSets, ms.AwaySets, ms.Result)
	}
	// Game-level forfeits count as the game's points.
	ms = mustScore(t, "rkcc-team-three-tc", "swiss", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "results": "+ + + -- =F -"},
		{"tc": "1.5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
		{"tc": "0.75+0", "results": "1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0"}]}`)
	// 3+2: 3 x 40 + 0 + 20 + 0 = 140 - 0 + 0 + 20 + 40 = 60.
	if ms.Sets[0].Home != pts(140) || ms.Sets[0].Away != pts(60) || ms.Standings.A.GamesWon != 13 {
		t.Errorf("game forfeits: %+v games won %d", ms.Sets[0], ms.Standings.A.GamesWon)
	}
}

// A18, A19: four boards of 3 parts x 48 = 576; the team total is the sum
// of the boards, so a team can lose three boards and win the match.
func TestAntichessBoards(t *testing.T) {
	draws := `{"tc": "0+2", "results": "= = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = 0"}`
	ms := mustScore(t, "antichess-team-cup", "swiss", `{"home": "H", "away": "A", "boards": [
		{"board": 1, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}]},
		{"board": 2, "parts": [`+draws+`]},
		{"board": 3, "parts": [`+draws+`]},
		{"board": 4, "parts": [`+draws+`]}]}`)
	// board 1: 48+48+48 = 144-0; boards 2-4: 24+24+(5 x 4) = 68 - 24+24+(5 x 4 + 8) = 76.
	if ms.Boards[0].Home != pts(144) || ms.Boards[1].Home != pts(68) || ms.Boards[1].Away != pts(76) {
		t.Errorf("boards %+v", ms.Boards)
	}
	if ms.HomePoints != pts(348) || ms.AwayPoints != pts(228) || ms.Result != HomeWin || ms.DecidedBy != "points" {
		t.Errorf("totals %v-%v %s", ms.HomePoints, ms.AwayPoints, ms.Result)
	}
	// 289 reached on board 4's 1+2 part? 144 + 68 + 68 = 280 after board 3, then
	// board 4: 0+2 24 -> 304 on its 3rd draw (280 + 3 x 3 = 289).
	if !ms.Decided || ms.DecidedAt != "boards[3].parts[0].results[2]" || !ms.DecidedEarly || ms.GamesAfterDecision != 15 {
		t.Errorf("decided %v at %s early %v after %d", ms.Decided, ms.DecidedAt, ms.DecidedEarly, ms.GamesAfterDecision)
	}
	if ms.Standings.A.Secondary != pts(348) || ms.Standings.B.Secondary != pts(228) || ms.Standings.A.MatchPoints != pts(1) {
		t.Errorf("standings %+v", ms.Standings)
	}
}

// A9/A18: 3-board teams play for 432 points and 217 decides; 216 does not.
func TestAntichessThreeBoardThreshold(t *testing.T) {
	ms := mustScore(t, "antichess-team-cup", "swiss", `{"home": "H", "away": "A", "boards": [
		{"board": 1, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 1 1"}, {"tc": "1+2", "results": "1 1 1 1 1 1"}]},
		{"board": 2, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}, {"tc": "2+5", "results": "1 1 = 0"}, {"tc": "1+2", "results": "0 0 0 0 0 0"}]},
		{"board": 3, "parts": [{"tc": "0+2", "results": "0 0 0 0 0 0 0 0"}, {"tc": "2+5", "results": "0 0 0 0"}, {"tc": "1+2", "results": "0 0 0 0 0 0"}]}]}`)
	if ms.MaxPoints != pts(432) || ms.WinThreshold != pts(217) {
		t.Errorf("max %v threshold %v, want 432 / 217", ms.MaxPoints, ms.WinThreshold)
	}
	// 144 + 48 + 12 + 12 = 216 (not yet) + 6 = 222 at board 2's 2+5 third game.
	if ms.DecidedAt != "boards[1].parts[1].results[2]" {
		t.Errorf("decided at %q", ms.DecidedAt)
	}
	// board 2: 48 + 30 + 0 = 78 - 0 + 18 + 48 = 66; board 3: 0-144.
	if ms.HomePoints != pts(222) || ms.AwayPoints != pts(210) {
		t.Errorf("totals %v-%v, want 222-210", ms.HomePoints, ms.AwayPoints)
	}
	_, err := Score(preset(t, "antichess-team-cup"), "swiss", &Sheet{Home: "H", Away: "A", Boards: make([]BoardSheet, 3)}, Options{Entrants: 12})
	wantErr(t, err, "boards", "score.boards") // 12 teams play on 4 boards (A9)
}

func wins(n int) string   { return strings.TrimSpace(strings.Repeat("1 ", n)) }
func drawsN(n int) string { return strings.TrimSpace(strings.Repeat("= ", n)) }

func allDrawBoard(b int, tcs ...string) string {
	games := map[string]int{"0+2": 8, "2+5": 4, "5+0": 4, "1+2": 6, "0.5+1": 8}
	var parts []string
	for _, tc := range tcs {
		parts = append(parts, `{"tc": "`+tc+`", "results": "`+drawsN(games[tc])+`"}`)
	}
	return `{"board": ` + string(rune('0'+b)) + `, "parts": [` + strings.Join(parts, ", ") + `]}`
}

// A18 knockout: 4 parts, 768 points, 385 decides; A20 ties.
func TestAntichessKnockoutTie(t *testing.T) {
	ko := []string{"0+2", "2+5", "5+0", "1+2"}
	boards := []string{}
	for b := 1; b <= 4; b++ {
		boards = append(boards, allDrawBoard(b, ko...))
	}
	all := `"boards": [` + strings.Join(boards, ",") + `]`
	// All drawn: 384-384. Captains met on board 2, drawn: no advantage
	// point; 4 games 3+0 end 2-2 -> armageddon; home bid 150 < 165 plays
	// White; a draw is a win for Black (A3): away wins.
	ms := mustScore(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`,
		"tie": {"captains_board": 2, "games": "1 0 = =", "armageddon": {"home_bid": 150, "away_bid": 165, "result": "="}}}`)
	if ms.MaxPoints != pts(768) || ms.WinThreshold != pts(385) || ms.HomePoints != pts(384) || ms.AwayPoints != pts(384) {
		t.Fatalf("max %v thr %v totals %v-%v", ms.MaxPoints, ms.WinThreshold, ms.HomePoints, ms.AwayPoints)
	}
	if ms.Decided || ms.Tie.AdvantagePoint != "" || ms.Tie.Games.Home != pts(2) || ms.Tie.Armageddon.White != "home" || ms.Result != AwayWin || ms.DecidedBy != "armageddon" {
		t.Errorf("tie: %+v %+v %s %s", ms.Tie, ms.Tie.Armageddon, ms.Result, ms.DecidedBy)
	}
	if ms.Standings.B.MatchPoints != pts(1) || ms.Standings.A.MatchPoints != 0 {
		t.Errorf("standings %+v", ms.Standings)
	}
	// Captains met on board 1, which home won 27-21 (board 2 went the other
	// way, totals still 384-384): home gets the advantage point; games 1.5-2.5
	// plus 1 = 2.5-2.5 -> armageddon; equal bids, White by coin flip.
	boards[0] = `{"board": 1, "parts": [{"tc": "0+2", "results": "1 = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "5+0", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = ="}]}`
	boards[1] = `{"board": 2, "parts": [{"tc": "0+2", "results": "0 = = = = = = ="}, {"tc": "2+5", "results": "= = = ="}, {"tc": "5+0", "results": "= = = ="}, {"tc": "1+2", "results": "= = = = = ="}]}`
	all = `"boards": [` + strings.Join(boards, ",") + `]`
	ms = mustScore(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`,
		"tie": {"captains_board": 1, "games": "0 0 1 =", "armageddon": {"home_bid": 120, "away_bid": 120, "white": "away", "result": "1"}}}`)
	if ms.Boards[0].Parts[0].Home != pts(27) || ms.Boards[0].Home != pts(99) || ms.Boards[0].Away != pts(93) || ms.Tie.AdvantagePoint != "home" || ms.Tie.Games.Home != pts(2.5) || ms.Tie.Games.Away != pts(2.5) || ms.Result != HomeWin {
		t.Errorf("advantage tie: %+v %+v %s", ms.Tie, ms.Tie.Games, ms.Result)
	}
	// With the advantage point, 2-2 in games is 3-2: home wins without armageddon.
	ms = mustScore(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`, "tie": {"captains_board": 1, "games": "1 1 0 0"}}`)
	if ms.Result != HomeWin || ms.DecidedBy != "tiebreak_games" || ms.Tie.Games.Home != pts(3) {
		t.Errorf("games: %+v %s", ms.Tie, ms.Result)
	}
	// Armageddon given though the games decided: error.
	_, err := scoreJSON(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`, "tie": {"captains_board": 1, "games": "1 1 0 0", "armageddon": {"home_bid": 1, "away_bid": 2, "result": "1"}}}`)
	wantErr(t, err, "tie.armageddon", "score.tie")
	// Tied without tie data.
	_, err = scoreJSON(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`}`)
	wantErr(t, err, "tie.games", "score.tie")
	// Lowest bid plays White.
	_, err = scoreJSON(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", `+all+`, "tie": {"games": "1 0 1 0", "armageddon": {"home_bid": 100, "away_bid": 90, "white": "home", "result": "1"}}}`)
	wantErr(t, err, "tie.armageddon.white", "score.armageddon")
}

// A18 final and bronze: 5 parts, 960, 481 decides.
func TestAntichessFinal(t *testing.T) {
	fp := []string{"0+2", "2+5", "0.5+1", "5+0", "1+2"}
	win := func(b int) string {
		return `{"board": ` + string(rune('0'+b)) + `, "parts": [{"tc": "0+2", "results": "` + wins(8) + `"}, {"tc": "2+5", "results": "` + wins(4) +
			`"}, {"tc": "0.5+1", "results": "` + wins(8) + `"}, {"tc": "5+0", "results": "` + wins(4) + `"}, {"tc": "1+2", "results": "` + wins(6) + `"}]}`
	}
	for _, which := range []string{"final", "third_place"} {
		ms := mustScore(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", "match": "`+which+`", "boards": [`+win(1)+","+win(2)+","+win(3)+","+allDrawBoard(4, fp...)+`]}`)
		// three boards x 240 = 720; board 4 all drawn 120-120; 480 after two boards, 486 >= 481 on board 3's first game.
		if ms.MaxPoints != pts(960) || ms.WinThreshold != pts(481) || ms.HomePoints != pts(840) || ms.AwayPoints != pts(120) || ms.DecidedAt != "boards[2].parts[0].results[0]" {
			t.Errorf("%s: max %v thr %v totals %v-%v at %s", which, ms.MaxPoints, ms.WinThreshold, ms.HomePoints, ms.AwayPoints, ms.DecidedAt)
		}
	}
	// The regular knockout match has no 0.5+1 part.
	_, err := scoreJSON(t, "antichess-team-cup", "knockout", `{"home": "H", "away": "A", "boards": [`+win(1)+","+win(2)+","+win(3)+","+win(4)+`]}`)
	wantErr(t, err, "boards[0].parts[2].tc", "score.unknown_part")
}

// W4: the Swiss match ends as soon as a player has more than 5; 5-5 is a draw.
func TestACWCSwiss(t *testing.T) {
	// 1, 2, 2.5, 2.5, 3.5, 4.5, 5.5: decided at the 7th game; an 8th is an error.
	_, err := scoreJSON(t, "acwc-2023", "qualification", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 = 0 1 1 1 ="}]}`)
	wantErr(t, err, "parts[0].results[7]", "score.after_decided")
	ms := mustScore(t, "acwc-2023", "qualification", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 = 0 1 1 1"}]}`)
	if ms.HomePoints != pts(5.5) || ms.AwayPoints != pts(1.5) || !ms.DecidedEarly || ms.DecidedAt != "parts[0].results[6]" || ms.Result != HomeWin {
		t.Errorf("early end: %+v", ms)
	}
	if ms.Standings.A.MatchPoints != pts(1) || ms.Standings.A.Secondary != pts(5.5) || ms.Standings.B.Secondary != pts(1.5) || ms.Standings.A.GamesWon != 5 {
		t.Errorf("standings %+v", ms.Standings)
	}
	ms = mustScore(t, "acwc-2023", "qualification", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 0 = = 0 1 = = 1 0"}]}`)
	if ms.Result != Draw || ms.HomePoints != pts(5) || ms.Decided || ms.Standings.A.MatchPoints != pts(0.5) {
		t.Errorf("5-5: %+v", ms)
	}
	_, err = scoreJSON(t, "acwc-2023", "qualification", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 0 1"}]}`)
	wantErr(t, err, "parts[0].results", "score.games")
	// 5.5 decided exactly at the 10th game is not early.
	ms = mustScore(t, "acwc-2023", "qualification", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 = 1"}]}`)
	if ms.DecidedEarly || ms.DecidedAt != "parts[0].results[9]" || ms.Result != HomeWin {
		t.Errorf("last game: %+v", ms)
	}
}

// W8: candidates play all 10 games even once decided.
func TestACWCCandidates(t *testing.T) {
	ms := mustScore(t, "acwc-2023", "candidates", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 1 0 0 0 0"}]}`)
	if ms.HomePoints != pts(6) || ms.AwayPoints != pts(4) || !ms.DecidedEarly || ms.DecidedAt != "parts[0].results[5]" || ms.GamesAfterDecision != 4 {
		t.Errorf("%+v", ms)
	}
	_, err := scoreJSON(t, "acwc-2023", "candidates", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 1"}]}`)
	wantErr(t, err, "parts[0].results", "score.games")
}

// W10, W11, W12: semis -> armageddon; final -> 4 games; third place -> 2 games.
func TestACWCKnockoutTies(t *testing.T) {
	ms := mustScore(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0"}],
		"tie": {"armageddon": {"home_bid": 200, "away_bid": 170, "result": "="}}}`)
	// away bid lower -> away White; draw -> Black (home) wins.
	if ms.Result != HomeWin || ms.Tie.Armageddon.White != "away" || ms.DecidedBy != "armageddon" {
		t.Errorf("semi: %+v", ms.Tie.Armageddon)
	}
	_, err := scoreJSON(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0"}],
		"tie": {"games": "1 1", "armageddon": {"home_bid": 200, "away_bid": 170, "result": "="}}}`)
	wantErr(t, err, "tie.games", "score.tie")
	six := `"parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0 = ="}]`
	ms = mustScore(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "final", `+six+`, "tie": {"games": "0 1 = 0"}}`)
	if ms.Result != AwayWin || ms.Tie.Games.Of != 4 || ms.Tie.Games.Away != pts(2.5) {
		t.Errorf("final: %+v", ms.Tie.Games)
	}
	// The third-place match has 2 tiebreak games: 1-1 goes to armageddon; a 4-game list is an error.
	_, err = scoreJSON(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "third_place", `+six+`, "tie": {"games": "0 1 = 0"}}`)
	wantErr(t, err, "tie.games[2]", "score.tie")
	ms = mustScore(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "third_place", `+six+`, "tie": {"games": "1 0", "armageddon": {"home_bid": 100, "away_bid": 100, "white": "home", "result": "0"}}}`)
	if ms.Result != AwayWin || ms.Tie.Armageddon.White != "home" {
		t.Errorf("third place: %+v", ms.Tie)
	}
	// Equal bids need the rock-paper-scissors winner.
	_, err = scoreJSON(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "third_place", `+six+`, "tie": {"games": "1 0", "armageddon": {"home_bid": 100, "away_bid": 100, "result": "0"}}}`)
	wantErr(t, err, "tie.armageddon.white", "score.armageddon")
	// Decided in the first 2 tiebreak games of 4: the rest need not be played.
	ms = mustScore(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "final", `+six+`, "tie": {"games": "1 1 1"}}`)
	if ms.Result != HomeWin {
		t.Errorf("final early: %+v", ms.Tie)
	}
	_, err = scoreJSON(t, "acwc-2023", "knockout", `{"home": "p1", "away": "p2", "match": "final", `+six+`, "tie": {"games": "1 1"}}`)
	wantErr(t, err, "tie.games", "score.tie")
}

func TestSheetErrors(t *testing.T) {
	for _, c := range []struct{ preset, stage, sheet, field, rule string }{
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "3+0", "results": "1"}]}`, "parts[0].tc", "score.unknown_part"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 x"}]}`, "parts[0].results[1]", "score.result"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 = = ="}]}`, "parts[0].results[10]", "score.games"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1"}, {"tc": "1+2", "results": "1"}]}`, "parts[1].tc", "score.duplicate_part"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0"}], "tie": {"games": "1"}}`, "tie", "score.tie"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "boards": [{"board": 1}]}`, "boards", "score.kind"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "a", "forfeit": "home"}`, "away", "score.entrants"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "forfeit": "win"}`, "forfeit", "score.forfeit"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1", "forfeit": "home"}]}`, "parts[0].forfeit", "score.forfeit"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "match": "final", "forfeit": "home"}`, "match", "score.match"},
		{"acwc-2023", "nope", `{"home": "a", "away": "b", "forfeit": "home"}`, "stage", "score.stage"},
		{"acwc-2023", "knockout", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 1"}], "tie": {"games": "1"}}`, "tie", "score.tie"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": 5}]}`, "parts[0].results", "sheet.results"},
		{"acwc-2023", "qualification", `{"home": "a", "away": "b", "part": []}`, "part", "sheet.unknown_field"},
		{"antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1}, {"board": 2}]}`, "boards", "score.boards"},
		{"antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}, {"board": 1, "forfeit": "home"}, {"board": 3, "forfeit": "home"}]}`, "boards[1].board", "score.boards"},
		{"antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}, {"board": 2, "forfeit": "home"}, {"board": 3, "parts": [{"tc": "0+2", "results": "1"}]}]}`, "boards[2].parts[0].results", "score.games"},
		{"antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}, {"board": 2, "forfeit": "home"}, {"board": 3, "parts": [{"tc": "0+2", "results": "1 1 1 1 1 1 1 1"}]}]}`, "boards[2].parts", "score.games"},
		{"antichess-team-cup", "swiss", `{"home": "a", "away": "b", "forfeit": "home"}`, "entrants", "score.boards"},
		{"rkcc-team-three-tc", "swiss", `{"home": "a", "away": "b", "sets": [{"tc": "3+2", "results": "1 1 1 1 1 1"}]}`, "sets", "score.games"},
	} {
		_, err := scoreJSON(t, c.preset, c.stage, c.sheet)
		wantErr(t, err, c.field, c.rule)
	}
}

// R11 gives no procedure past set points: a knockout tie there is left to the TDs.
func TestRKCCKnockoutUnresolvedTie(t *testing.T) {
	ms := mustScore(t, "rkcc-team-three-tc", "knockout", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "results": "1 0 1 0 = ="},
		{"tc": "1.5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
		{"tc": "0.75+0", "results": "1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0"}]}`)
	if ms.HomePoints != pts(360) || ms.AwayPoints != pts(360) || ms.Result != TieUnresolved || ms.Winner != "" || len(ms.Notes) == 0 {
		t.Errorf("%+v", ms)
	}
	_, err := scoreJSON(t, "rkcc-team-three-tc", "knockout", `{"home": "H", "away": "A", "sets": [
		{"tc": "3+2", "results": "1 0 1 0 = ="},
		{"tc": "1.5+1", "results": "1 0 1 0 1 0 1 0 1 0"},
		{"tc": "0.75+0", "results": "1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0"}], "tie": {"games": "1"}}`)
	wantErr(t, err, "tie.games", "score.tie")
}

func TestKnockoutDoubleForfeitLeftToTDs(t *testing.T) {
	ms := mustScore(t, "acwc-2023", "knockout", `{"home": "a", "away": "b", "forfeit": "double"}`)
	if ms.Result != DoubleLoss || ms.Winner != "" || len(ms.Notes) == 0 {
		t.Errorf("%+v", ms)
	}
	ms = mustScore(t, "acwc-2023", "knockout", `{"home": "a", "away": "b", "forfeit": "away"}`)
	if ms.Result != AwayWin || ms.AwayPoints != pts(10) || ms.Standings.Decision != standings.ForfeitLoss || ms.Standings.B.MatchPoints != pts(1) {
		t.Errorf("%+v", ms)
	}
	if _, err := Score(preset(t, "acwc-2023"), "knockout", nil, Options{}); err == nil {
		t.Error("nil sheet: want error")
	}
}
