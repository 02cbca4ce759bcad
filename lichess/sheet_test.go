package lichess

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter"
	"arbiter/format"
	"arbiter/score"
)

var roundStart = time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)

// played makes the games of one pair in one clock, five minutes apart
// from at, the home player White in the first game and colours
// alternating; results are from home's view ("1 0 =").
type played struct {
	ids     *int
	variant string
	rated   bool
}

func (p *played) games(at time.Time, home, away, tc, results string) []Game {
	clock, err := ParseTimeControl(tc)
	if err != nil {
		panic(err)
	}
	var out []Game
	for i, r := range strings.Fields(results) {
		*p.ids++
		g := Game{ID: fmt.Sprintf("g%03d", *p.ids), Rated: p.rated, Variant: p.variant, Status: "resign",
			Clock: &Clock{Initial: clock.Base, Increment: clock.Increment}, CreatedAt: at.Add(time.Duration(i) * 5 * time.Minute),
			White: GamePlayer{UserID: strings.ToLower(home)}, Black: GamePlayer{UserID: strings.ToLower(away)}}
		homeWhite := i%2 == 0
		if !homeWhite {
			g.White, g.Black = g.Black, g.White
		}
		switch r {
		case "1":
			g.Winner = map[bool]string{true: "white", false: "black"}[homeWhite]
		case "0":
			g.Winner = map[bool]string{true: "black", false: "white"}[homeWhite]
		case "=":
			g.Status = StatusDraw
		default: // a status: aborted, started, ...
			g.Status = r
		}
		if g.Variant == VariantAntichess && g.Winner != "" {
			g.Status = StatusVariantEnd
		}
		out = append(out, g)
	}
	return out
}

func preset(t *testing.T, name, stage string) (*format.Format, *format.Match) {
	t.Helper()
	f, err := format.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return f, &f.StageByName(stage).Match
}

func findings(im *Import) []string {
	var out []string
	for _, f := range im.Findings {
		out = append(out, f.Kind+":"+f.Game)
	}
	return out
}

// scoreSheet scores the built sheet with the format, as the app will.
func scoreSheet(t *testing.T, f *format.Format, stage string, sh score.Sheet, entrants int) *score.MatchScore {
	t.Helper()
	ms, err := score.Score(f, stage, &sh, score.Options{Entrants: entrants})
	if err != nil {
		t.Fatalf("the built sheet does not score: %v\n%+v", err, sh)
	}
	return ms
}

// TestSheetACWC: a 10-game 1+2 antichess match that ends once decided
// (W4), among games that must not count.
func TestSheetACWC(t *testing.T) {
	t.Parallel()
	f, m := preset(t, "acwc-2023", "qualification")
	n := 0
	anti := &played{ids: &n, variant: VariantAntichess, rated: true}
	spec := SheetSpec{Home: "Alice", Away: "Bob", Match: m, Variant: VariantAntichess, Rated: true,
		From: roundStart, To: roundStart.Add(7 * 24 * time.Hour), Pairs: [][2]string{{"Alice", "Bob"}}}

	t.Run("ends once decided", func(t *testing.T) {
		// g001-g007: 1 1 = 0 1 1 1 → 5.5-1.5 after seven games (> 5 of 10,
		// W4); g008 comes after the decision. Around them: g009 aborted,
		// g010 casual, g011 in 3+0, g012 standard, g013 Alice v Carol.
		gs := anti.games(roundStart.Add(time.Hour), "Alice", "Bob", "1+2", "1 1 = 0 1 1 1 1")
		gs = append(gs, anti.games(roundStart.Add(30*time.Minute), "Bob", "Alice", "1+2", "aborted")...)
		casual := &played{ids: &n, variant: VariantAntichess}
		gs = append(gs, casual.games(roundStart.Add(35*time.Minute), "Alice", "Bob", "1+2", "1")...)
		gs = append(gs, anti.games(roundStart.Add(40*time.Minute), "Alice", "Bob", "3+0", "0")...)
		std := &played{ids: &n, variant: VariantStandard, rated: true}
		gs = append(gs, std.games(roundStart.Add(45*time.Minute), "Alice", "Bob", "1+2", "1")...)
		gs = append(gs, anti.games(roundStart.Add(50*time.Minute), "Alice", "Carol", "1+2", "1")...)
		gs = append(gs, gs[0]) // the same game from the other player's export
		slices.Reverse(gs)     // exports come newest first
		im, err := BuildSheet(gs, spec)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"aborted_game:g009", "casual_game:g010", "wrong_time_control:g011", "wrong_variant:g012",
			"unexpected_players:g013", "extra_games:g008"}
		if got := findings(im); !slices.Equal(got, want) {
			t.Errorf("findings %v\nwant %v", got, want)
		}
		if !im.Decided || im.Complete() || len(im.Games) != 13 {
			t.Errorf("decided %v complete %v games %d", im.Decided, im.Complete(), len(im.Games))
		}
		if len(im.Sheet.Parts) != 1 || strings.Join(im.Sheet.Parts[0].Results, " ") != "1 1 = 0 1 1 1" || im.Sheet.Parts[0].TC != "1+2" {
			t.Fatalf("sheet %+v", im.Sheet)
		}
		// g002: Alice had Black and won; it is game 2 of the part.
		g2 := im.Games[slices.IndexFunc(im.Games, func(g SheetGame) bool { return g.ID == "g002" })]
		if g2 != (SheetGame{ID: "g002", CreatedAt: roundStart.Add(65 * time.Minute), TC: "1+2", Number: 2, HomeColor: "black",
			Result: "1", Status: StatusVariantEnd, Counted: true}) {
			t.Errorf("g002 %+v", g2)
		}
		ms := scoreSheet(t, f, "qualification", im.Sheet, 0)
		if ms.HomePoints != arbiter.P(5.5) || ms.AwayPoints != arbiter.P(1.5) || ms.Result != score.HomeWin {
			t.Errorf("scored %s-%s %s", ms.HomePoints, ms.AwayPoints, ms.Result)
		}
	})

	t.Run("all ten, level", func(t *testing.T) {
		// 1 0 1 0 1 0 1 0 = = → 5-5: never more than 5, all ten counted.
		im, err := BuildSheet(anti.games(roundStart, "Alice", "Bob", "1+2", "1 0 1 0 1 0 1 0 = ="), spec)
		if err != nil {
			t.Fatal(err)
		}
		if !im.Complete() || im.Decided || len(im.Sheet.Parts[0].Results) != 10 {
			t.Fatalf("findings %v sheet %+v", findings(im), im.Sheet)
		}
		ms := scoreSheet(t, f, "qualification", im.Sheet, 0)
		if ms.HomePoints != arbiter.P(5) || ms.AwayPoints != arbiter.P(5) || ms.Result != score.Draw {
			t.Errorf("scored %s-%s %s", ms.HomePoints, ms.AwayPoints, ms.Result)
		}
	})

	t.Run("under way", func(t *testing.T) {
		// Three games over, the fourth being played: 2.5-0.5, 6 missing.
		gs := anti.games(roundStart, "Alice", "Bob", "1+2", "1 1 = started")
		im, err := BuildSheet(gs, spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := findings(im); !slices.Equal(got, []string{"unfinished_game:" + gs[3].ID, "missing_games:"}) {
			t.Errorf("findings %v", got)
		}
		if im.Findings[1].Message != "Alice v Bob: Lichess shows 3 of the 10 games in 1+2" {
			t.Errorf("message %q", im.Findings[1].Message)
		}
		if strings.Join(im.Sheet.Parts[0].Results, " ") != "1 1 =" {
			t.Errorf("sheet %+v", im.Sheet)
		}
	})
}

// TestSheetAntichessCup: four boards of 8 × 0+2 (6/3), 4 × 2+5 (12/6)
// and 6 × 1+2 (8/4), every game played (A18).
func TestSheetAntichessCup(t *testing.T) {
	t.Parallel()
	f, m := preset(t, "antichess-team-cup", "swiss")
	pairs := [][2]string{{"h1", "a1"}, {"h2", "a2"}, {"h3", "a3"}, {"h4", "a4"}}
	spec := SheetSpec{Home: "Pawnstormers", Away: "Zugzwang", Match: m, Variant: VariantAntichess, Rated: true,
		From: roundStart, To: roundStart.Add(7 * 24 * time.Hour), Pairs: pairs}
	build := func(board4 func(p *played, at time.Time) []Game) ([]Game, *played) {
		n := 0
		p := &played{ids: &n, variant: VariantAntichess, rated: true}
		var gs []Game
		at := roundStart.Add(time.Hour)
		// Board 1: home wins all: 48 + 48 + 48 = 144-0.
		// Board 2: all drawn: 24 + 24 + 24 = 72-72.
		// Board 3: away wins all: 0-144.
		for b, res := range []string{"1", "=", "0"} {
			for _, part := range []struct {
				tc    string
				games int
			}{{"0+2", 8}, {"2+5", 4}, {"1+2", 6}} {
				gs = append(gs, p.games(at, pairs[b][0], pairs[b][1], part.tc, strings.Repeat(res+" ", part.games))...)
				at = at.Add(2 * time.Hour)
			}
		}
		return append(gs, board4(p, at)...), p
	}
	// Board 4 plays 1+2 first (A17): 1 0 1 0 1 0 → 24-24; then 0+2:
	// 1 1 1 1 1 0 0 0 → 30-18; then 2+5: = = 1 1 → 36-12. 90-54.
	board4 := func(p *played, at time.Time) []Game {
		gs := p.games(at, "h4", "a4", "1+2", "1 0 1 0 1 0")
		gs = append(gs, p.games(at.Add(time.Hour), "h4", "a4", "0+2", "1 1 1 1 1 0 0 0")...)
		return append(gs, p.games(at.Add(2*time.Hour), "h4", "a4", "2+5", "= = 1 1")...)
	}

	t.Run("complete", func(t *testing.T) {
		gs, p := build(board4)
		// h2 and a3 (not a pair) play a game: flagged, not counted.
		gs = append(gs, p.games(roundStart.Add(30*time.Minute), "h2", "a3", "0+2", "1")...)
		im, err := BuildSheet(gs, spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := findings(im); !slices.Equal(got, []string{"unexpected_players:g073"}) {
			t.Fatalf("findings %v", got)
		}
		b4 := im.Sheet.Boards[3]
		var order []string
		for _, p := range b4.Parts {
			order = append(order, p.TC+" "+strings.Join(p.Results, ""))
		}
		if b4.Board != 4 || b4.HomePlayer != "h4" || strings.Join(order, ", ") != "1+2 101010, 0+2 11111000, 2+5 ==11" {
			t.Errorf("board 4 %v", order)
		}
		ms := scoreSheet(t, f, "swiss", im.Sheet, 12)
		// 144 + 72 + 0 + 90 = 306; 0 + 72 + 144 + 54 = 270.
		if ms.HomePoints != arbiter.P(306) || ms.AwayPoints != arbiter.P(270) || ms.Result != score.HomeWin {
			t.Errorf("scored %s-%s %s", ms.HomePoints, ms.AwayPoints, ms.Result)
		}
	})

	t.Run("a game in the wrong clock", func(t *testing.T) {
		// Board 4's fifth 0+2 game was played in 0+1: left off, so the
		// part has 7 of its 8 games.
		gs, _ := build(func(p *played, at time.Time) []Game {
			gs := board4(p, at)
			gs[10].Clock = &Clock{Initial: 0, Increment: 1}
			return gs
		})
		im, err := BuildSheet(gs, spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := findings(im); !slices.Equal(got, []string{"wrong_time_control:" + gs[64].ID, "missing_games:"}) {
			t.Fatalf("findings %v", got)
		}
		if fd := im.Findings[1]; fd.Board != 4 || fd.TC != "0+2" || fd.Message != "h4 v a4: Lichess shows 7 of the 8 games in 0+2" {
			t.Errorf("missing %+v", fd)
		}
		var ae *arbiter.Error
		if _, err := score.Score(f, "swiss", &im.Sheet, score.Options{Entrants: 12}); !errors.As(err, &ae) || ae.Rule != "score.games" {
			t.Errorf("an incomplete sheet scores: %v", err)
		}
	})
}

// TestSheetRKCC: three sets of 6 × 3+2 (×40), 10 × 1.5+1 (×24) and
// 16 × 0.75+0 (×15), each with its own players (R7, R10).
func TestSheetRKCC(t *testing.T) {
	t.Parallel()
	f, m := preset(t, "rkcc-team-three-tc", "swiss")
	n := 0
	std := &played{ids: &n, variant: VariantStandard}
	spec := SheetSpec{Home: "Rooks", Away: "Knights", Match: m, Variant: VariantStandard,
		From: roundStart, To: roundStart.Add(7 * 24 * time.Hour),
		Pairs: [][2]string{{"alice", "xavier"}, {"bob", "yann"}, {"carol", "zoe"}}}
	gs := std.games(roundStart.Add(time.Hour), "alice", "xavier", "3+2", "1 1 1 1 0 0")
	gs = append(gs, std.games(roundStart.Add(2*time.Hour), "bob", "yann", "1.5+1", "1 0 1 0 1 0 1 0 1 0")...)
	// Bob and Yann also play a 3+2 game: not their set's clock (R6).
	gs = append(gs, std.games(roundStart.Add(4*time.Hour), "bob", "yann", "3+2", "1")...)
	gs = append(gs, std.games(roundStart.Add(5*time.Hour), "carol", "zoe", "0.75+0", "1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 =")...)
	im, err := BuildSheet(gs, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := findings(im); !slices.Equal(got, []string{"wrong_time_control:g017"}) {
		t.Fatalf("findings %v", got)
	}
	if im.Findings[0].Message != "game g017 was played in 3+2, which is not a clock of this pair's parts" {
		t.Errorf("message %q", im.Findings[0].Message)
	}
	if s := im.Sheet.Sets[1]; s.TC != "1.5+1" || s.HomePlayer != "bob" || s.AwayPlayer != "yann" || len(s.Results) != 10 {
		t.Errorf("set 2 %+v", s)
	}
	// 3+2: 4-2 × 40 = 160-80; 1.5+1: 5-5 × 24 = 120-120; 0.75+0:
	// 8.5-7.5 × 15 = 127.5-112.5. 407.5-312.5, sets 2-0.
	ms := scoreSheet(t, f, "swiss", im.Sheet, 0)
	if ms.HomePoints != arbiter.P(407.5) || ms.AwayPoints != arbiter.P(312.5) || ms.HomeSets != 2 || ms.AwaySets != 0 || ms.Result != score.HomeWin {
		t.Errorf("scored %s-%s sets %d-%d %s", ms.HomePoints, ms.AwayPoints, ms.HomeSets, ms.AwaySets, ms.Result)
	}
}

func TestSheetSpecRefused(t *testing.T) {
	t.Parallel()
	_, m := preset(t, "rkcc-team-three-tc", "swiss")
	for _, tc := range []struct {
		spec  SheetSpec
		field string
	}{
		{SheetSpec{Match: m, Variant: VariantStandard, From: roundStart, To: roundStart.Add(time.Hour), Pairs: [][2]string{{"a", "b"}}}, "pairs"},
		{SheetSpec{Variant: VariantStandard, From: roundStart, To: roundStart.Add(time.Hour)}, "match"},
		{SheetSpec{Match: m, Variant: VariantStandard, From: roundStart, To: roundStart}, "window"},
		{SheetSpec{Match: m, Variant: VariantStandard, From: roundStart, To: roundStart.Add(time.Hour),
			Pairs: [][2]string{{"a", "b"}, {"c", "C"}, {"e", "f"}}}, "pairs[1]"},
	} {
		_, err := BuildSheet(nil, tc.spec)
		var ae *arbiter.Error
		if !errors.As(err, &ae) || ae.Code != arbiter.EINVALID || ae.Field != tc.field {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
	// The count agrees with its noun: RKCC's three sets, ACWC's one pair.
	_, err := BuildSheet(nil, SheetSpec{Match: m, Variant: VariantStandard, From: roundStart, To: roundStart.Add(time.Hour), Pairs: [][2]string{{"a", "b"}}})
	if err == nil || !strings.Contains(err.Error(), "a match of kind team_sets needs 3 pairs of players, got 1") {
		t.Errorf("RKCC with one pair: %v", err)
	}
	_, w := preset(t, "acwc-2023", "qualification")
	_, err = BuildSheet(nil, SheetSpec{Match: w, Variant: VariantAntichess, From: roundStart, To: roundStart.Add(time.Hour), Pairs: [][2]string{{"a", "b"}, {"c", "d"}}})
	if err == nil || !strings.Contains(err.Error(), "a match of kind individual needs 1 pair of players, got 2") {
		t.Errorf("ACWC with two pairs: %v", err)
	}
}
