package lichess

import (
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"arbiter"
	"arbiter/internal/testshared"
)

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TimeControl
		str  string
	}{
		{"3+2", TimeControl{180, 2}, "3+2"},    // RKCC R3 first set, A3-style blitz
		{"1.5+1", TimeControl{90, 1}, "1.5+1"}, // R3: 1 min 30 s + 1
		{"1,5+1", TimeControl{90, 1}, "1.5+1"}, // the rulebook's decimal comma
		{"0.75+0", TimeControl{45, 0}, "0.75+0"},
		{"¾+0", TimeControl{45, 0}, "0.75+0"},  // R3 as written
		{"0+2", TimeControl{0, 2}, "0+2"},      // A17
		{"0.5+1", TimeControl{30, 1}, "0.5+1"}, // A18 final
		{"½+1", TimeControl{30, 1}, "0.5+1"},
		{" 2 + 5 ", TimeControl{120, 5}, "2+5"},
	} {
		got, err := ParseTimeControl(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if got.String() != tc.str {
			t.Errorf("%q: String %q, want %q", tc.in, got.String(), tc.str)
		}
	}
	for _, bad := range []string{"", "3", "3+", "+2", "x+2", "-1+0", "3+-1", "0.01+0", "0+0", "1/2+0", "1e1+0", "3+1.5"} {
		if tc, err := ParseTimeControl(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, tc)
		}
	}
}

func loadGames(t *testing.T, file string) []Game {
	t.Helper()
	f, err := os.Open(testshared.Path(t, "lichess-api", "fixtures", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gs []Game
	for g, err := range decodeNDJSON[Game](f) {
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return gs
}

func gameIDs[T any](gs []T, id func(T) string) []string {
	out := []string{}
	for _, g := range gs {
		out = append(out, id(g))
	}
	return out
}

func partIDs(gs []PartGame) []string { return gameIDs(gs, func(g PartGame) string { return g.ID }) }

func results(gs []PartGame) string {
	s := ""
	for _, g := range gs {
		s += string(g.Result)
	}
	return s
}

func kinds(ds []Discrepancy) []string {
	return gameIDs(ds, func(d Discrepancy) string { return d.Kind + ":" + d.GameID })
}

var (
	synDay  = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tc3p2   = TimeControl{180, 2}
	tc1p2   = TimeControl{60, 2}
	tc0p2   = TimeControl{0, 2}
	synSpec = PartSpec{Player: "PlayerA", Opponent: "PlayerB", Variant: VariantAntichess,
		From: synDay, To: synDay.AddDate(0, 0, 1)}
)

// TestVerifySyntheticMatch uses the hand-made six-game export; expected
// values are the README's: rated 3+2 A 1.5-0.5 B, 1+2 B 1-0, 0+2 B 1-0.
func TestVerifySyntheticMatch(t *testing.T) {
	games := loadGames(t, "synthetic/games_antichess_match.ndjson")
	rep := func(a, b float64) *Score { return &Score{arbiter.P(a), arbiter.P(b)} }
	for _, tc := range []struct {
		name       string
		player     string
		tc         TimeControl
		others     []TimeControl
		expected   int
		reported   *Score
		wantIDs    []string
		wantRes    string
		wantScore  Score
		wantWrong  []string
		wantDisc   []string
		wantIgnore []string
	}{
		{
			name: "3+2 from A", player: "PlayerA", tc: tc3p2, others: []TimeControl{tc1p2, tc0p2}, expected: 2, reported: rep(1.5, 0.5),
			wantIDs: []string{"SynTh001", "SynTh002"}, wantRes: "1=", wantScore: *rep(1.5, 0.5),
			wantWrong: []string{}, wantDisc: []string{"casual_game:SynTh006"},
			wantIgnore: []string{"SynTh003", "SynTh004", "SynTh005", "SynTh006"},
		},
		{
			name: "3+2 from B, score reported wrongly", player: "playerb", tc: tc3p2, others: []TimeControl{tc1p2, tc0p2}, expected: 2, reported: rep(1, 1),
			wantIDs: []string{"SynTh001", "SynTh002"}, wantRes: "0=", wantScore: *rep(0.5, 1.5),
			wantWrong: []string{}, wantDisc: []string{"casual_game:SynTh006", "score_mismatch:"},
			wantIgnore: []string{"SynTh003", "SynTh004", "SynTh005", "SynTh006"},
		},
		{
			name: "1+2 from A", player: "PlayerA", tc: tc1p2, others: []TimeControl{tc3p2, tc0p2}, expected: 1, reported: rep(0, 1),
			wantIDs: []string{"SynTh003"}, wantRes: "0", wantScore: *rep(0, 1),
			wantWrong: []string{}, wantDisc: []string{},
			wantIgnore: []string{"SynTh001", "SynTh002", "SynTh004", "SynTh005", "SynTh006"},
		},
		{
			name: "0+2 from B", player: "PlayerB", tc: tc0p2, others: []TimeControl{tc3p2, tc1p2}, expected: 1,
			wantIDs: []string{"SynTh004"}, wantRes: "1", wantScore: *rep(1, 0),
			wantWrong: []string{}, wantDisc: []string{},
			wantIgnore: []string{"SynTh001", "SynTh002", "SynTh003", "SynTh005", "SynTh006"},
		},
		{
			// Alone (no other parts declared), the 1+2 and 0+2 games are wrong time control.
			name: "3+2 alone, 4 expected", player: "PlayerA", tc: tc3p2, expected: 4,
			wantIDs: []string{"SynTh001", "SynTh002"}, wantRes: "1=", wantScore: *rep(1.5, 0.5),
			wantWrong:  []string{"SynTh003", "SynTh004"},
			wantDisc:   []string{"wrong_time_control:SynTh003", "wrong_time_control:SynTh004", "casual_game:SynTh006", "missing_games:"},
			wantIgnore: []string{"SynTh005", "SynTh006"},
		},
		{
			name: "3+2, only 1 expected", player: "PlayerA", tc: tc3p2, others: []TimeControl{tc1p2, tc0p2}, expected: 1,
			wantIDs: []string{"SynTh001"}, wantRes: "1", wantScore: *rep(1, 0),
			wantWrong: []string{}, wantDisc: []string{"casual_game:SynTh006", "extra_games:"},
			wantIgnore: []string{"SynTh003", "SynTh004", "SynTh005", "SynTh006"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := synSpec
			spec.Player = tc.player
			if tc.player != "PlayerA" && tc.player != "playera" {
				spec.Opponent = "PlayerA"
			}
			spec.TimeControl, spec.OtherParts, spec.Expected, spec.Reported = tc.tc, tc.others, tc.expected, tc.reported
			v, err := VerifyPart(games, spec)
			if err != nil {
				t.Fatal(err)
			}
			if got := partIDs(v.Games); !slices.Equal(got, tc.wantIDs) {
				t.Errorf("games %v, want %v", got, tc.wantIDs)
			}
			if got := results(v.Games); got != tc.wantRes {
				t.Errorf("results %q, want %q", got, tc.wantRes)
			}
			if v.Score != tc.wantScore {
				t.Errorf("score %s, want %s", v.Score, tc.wantScore)
			}
			if got := partIDs(v.WrongTimeControl); !slices.Equal(got, tc.wantWrong) {
				t.Errorf("wrong TC %v, want %v", got, tc.wantWrong)
			}
			if got := kinds(v.Discrepancies); !slices.Equal(got, tc.wantDisc) {
				t.Errorf("discrepancies %v, want %v (%+v)", got, tc.wantDisc, v.Discrepancies)
			}
			ign := gameIDs(v.Ignored, func(g IgnoredGame) string { return g.ID })
			slices.Sort(ign)
			if !slices.Equal(ign, tc.wantIgnore) {
				t.Errorf("ignored %v, want %v", ign, tc.wantIgnore)
			}
			if v.Consistent() != (len(tc.wantDisc) == 0) {
				t.Errorf("Consistent() = %v", v.Consistent())
			}
		})
	}
}

func TestVerifyCasualAllowed(t *testing.T) {
	games := loadGames(t, "synthetic/games_antichess_match.ndjson")
	spec := synSpec
	spec.TimeControl, spec.Expected, spec.AllowCasual = tc3p2, 3, true
	spec.OtherParts = []TimeControl{tc1p2, tc0p2}
	v, err := VerifyPart(games, spec)
	if err != nil {
		t.Fatal(err)
	}
	// SynTh006 (casual, A black wins by resignation) now counts: 1 = 1.
	if got := partIDs(v.Games); !slices.Equal(got, []string{"SynTh001", "SynTh002", "SynTh006"}) || results(v.Games) != "1=1" {
		t.Errorf("games %v results %q", got, results(v.Games))
	}
	if v.Games[2].Color != "black" || v.Score != (Score{arbiter.P(2.5), arbiter.P(0.5)}) || !v.Consistent() {
		t.Errorf("%+v", v)
	}
}

// TestVerifyFixtureGames runs the spec's example games through the verifier
// (results read by hand: nfjOkkBQ white wins, q7ZvsdUF drawn, TJxUmbWK white wins).
func TestVerifyFixtureGames(t *testing.T) {
	var games []Game
	games = append(games, loadGames(t, "GET_api_games_user_username.ndjson")...)
	games = append(games, loadGames(t, "POST_api_games_export__ids.ndjson")...)
	one, err := os.ReadFile(testshared.Path(t, "lichess-api", "fixtures", "GET_game_export_gameId.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g Game
	if err := g.UnmarshalJSON(one); err != nil {
		t.Fatal(err)
	}
	games = append(games, g)
	wide := func(p, o string, tc TimeControl, casual bool) PartSpec {
		return PartSpec{Player: p, Opponent: o, TimeControl: tc, Variant: VariantStandard, Expected: 1, AllowCasual: casual,
			From: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	for _, tc := range []struct {
		spec   PartSpec
		id     string
		color  string
		result Result
		disc   []string
	}{
		{wide("cherrywall", "Lance5500", TimeControl{60, 0}, true), "nfjOkkBQ", "black", Loss, []string{}},
		{wide("lance5500", "cherrywall", TimeControl{60, 0}, false), "", "", "", []string{"casual_game:nfjOkkBQ", "missing_games:"}},
		{wide("Lance5500", "TryingHard87", TimeControl{300, 3}, false), "q7ZvsdUF", "white", Draw, []string{}},
		{wide("jerc-12jesus", "arex", TimeControl{600, 0}, false), "TJxUmbWK", "black", Loss, []string{}},
		{wide("arex", "jerc-12jesus", TimeControl{300, 0}, false), "", "", "", []string{"wrong_time_control:TJxUmbWK", "missing_games:"}},
	} {
		v, err := VerifyPart(games, tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := kinds(v.Discrepancies); !slices.Equal(got, tc.disc) {
			t.Errorf("%s vs %s: discrepancies %v, want %v", tc.spec.Player, tc.spec.Opponent, got, tc.disc)
		}
		if tc.id == "" {
			if len(v.Games) != 0 {
				t.Errorf("%s: unexpected games %v", tc.spec.Player, partIDs(v.Games))
			}
			continue
		}
		if len(v.Games) != 1 || v.Games[0].ID != tc.id || v.Games[0].Color != tc.color || v.Games[0].Result != tc.result {
			t.Errorf("%s: games %+v", tc.spec.Player, v.Games)
		}
		if len(v.Ignored) != 2 { // the other two fixture games involve other players
			t.Errorf("%s: ignored %+v", tc.spec.Player, v.Ignored)
		}
	}
}

// synth builds a finished rated game between a and b created at minute m of synDay.
func synth(id, white, black, winner, status string, tc TimeControl, m int) Game {
	return Game{ID: id, Rated: true, Variant: VariantAntichess, Status: status, Winner: winner,
		White: GamePlayer{UserID: white}, Black: GamePlayer{UserID: black},
		Clock: &Clock{Initial: tc.Base, Increment: tc.Increment}, CreatedAt: synDay.Add(time.Duration(m) * time.Minute)}
}

// TestVerifyRKCCSet: a 16-game 0.75+0 set (R3) with one game in 1+0 by
// mistake (R6 needs it), one still running and one with an unknown finish.
func TestVerifyRKCCSet(t *testing.T) {
	tc45 := TimeControl{45, 0}
	var games []Game
	const want = "10010=10010010" // alice's results, oldest first
	for i := range 14 {
		w, b := "alice", "bob"
		if i%2 == 1 {
			w, b = b, w
		}
		// alice wins every third game, draws game 5, loses the rest.
		winner := map[bool]string{true: "white", false: "black"}[w == "alice"]
		switch {
		case i == 5:
			winner = ""
		case i%3 != 0:
			winner = map[bool]string{true: "black", false: "white"}[w == "alice"]
		}
		games = append(games, synth(string(rune('a'+i))+"game", w, b, winner, "resign", tc45, 10+i))
	}
	games = append(games,
		synth("wrongTC", "alice", "bob", "white", "outoftime", TimeControl{60, 0}, 30),
		synth("running", "alice", "bob", "", StatusStarted, tc45, 31),
		synth("mystery", "bob", "alice", "", StatusUnknownFinish, tc45, 32),
		synth("other", "alice", "carol", "white", "resign", tc45, 33),
		synth("late", "alice", "bob", "white", "resign", tc45, 60*24+1),
	)
	slices.Reverse(games) // the export is newest first
	spec := PartSpec{Player: "Alice", Opponent: "Bob", TimeControl: tc45, Variant: VariantAntichess, Expected: 16,
		From: synDay, To: synDay.AddDate(0, 0, 1), OtherParts: []TimeControl{{180, 2}, {90, 1}},
		Reported: &Score{arbiter.P(5.5), arbiter.P(8.5)}}
	v, err := VerifyPart(games, spec)
	if err != nil {
		t.Fatal(err)
	}
	if results(v.Games) != want || len(v.Games) != 14 {
		t.Errorf("results %q, want %q", results(v.Games), want)
	}
	// Alice: wins at i = 0,3,6,9,12 (5), draw at 5, so 5.5 - 8.5.
	if v.Score != (Score{arbiter.P(5.5), arbiter.P(8.5)}) {
		t.Errorf("score %s", v.Score)
	}
	wantDisc := []string{"wrong_time_control:wrongTC", "unfinished_game:running", "unknown_result:mystery", "missing_games:"}
	if got := kinds(v.Discrepancies); !slices.Equal(got, wantDisc) {
		t.Errorf("discrepancies %v, want %v", got, wantDisc)
	}
	if partIDs(v.WrongTimeControl)[0] != "wrongTC" || v.WrongTimeControl[0].TimeControl != (TimeControl{60, 0}) || v.WrongTimeControl[0].Result != Win {
		t.Errorf("wrong TC %+v", v.WrongTimeControl)
	}
	if v.Games[1].Color != "black" || v.Games[0].Color != "white" {
		t.Errorf("colours %s %s", v.Games[0].Color, v.Games[1].Color)
	}
}

// TestVerifyEndsWhenDecided: ACWC W4, a 10-game match ends once a player
// has more than 5 points; the games after that are extra.
func TestVerifyEndsWhenDecided(t *testing.T) {
	tc := TimeControl{60, 2}
	var games []Game
	for i := range 7 { // PlayerA wins 6 in a row, then a 7th is played anyway
		games = append(games, synth("g"+string(rune('0'+i)), "playera", "playerb", "white", "variantEnd", tc, i))
	}
	spec := PartSpec{Player: "PlayerA", Opponent: "PlayerB", TimeControl: tc, Variant: VariantAntichess, Expected: 10,
		From: synDay, To: synDay.AddDate(0, 0, 7), EndsWhenDecided: true}
	v, err := VerifyPart(games, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Games) != 6 || v.Score != (Score{arbiter.P(6), 0}) || partIDs(v.Extra)[0] != "g6" {
		t.Errorf("games %v score %s extra %v", partIDs(v.Games), v.Score, partIDs(v.Extra))
	}
	if got := kinds(v.Discrepancies); !slices.Equal(got, []string{"extra_games:"}) {
		t.Errorf("discrepancies %v", got)
	}
	// 5-5 after ten games is complete, not missing; with only 5 played it is missing.
	games = games[:0]
	for i := range 10 {
		games = append(games, synth("h"+string(rune('0'+i))+"x", "playera", "playerb", []string{"white", "black"}[i%2], "resign", tc, i))
	}
	v, _ = VerifyPart(games, spec)
	if len(v.Games) != 10 || v.Score != (Score{arbiter.P(5), arbiter.P(5)}) || !v.Consistent() {
		t.Errorf("5-5: %v %s %v", partIDs(v.Games), v.Score, v.Discrepancies)
	}
	v, _ = VerifyPart(games[:5], spec)
	if got := kinds(v.Discrepancies); !slices.Equal(got, []string{"missing_games:"}) {
		t.Errorf("after 5 games: %v", got)
	}
}

func TestVerifyWindowBounds(t *testing.T) {
	tc := TimeControl{60, 2}
	start := synth("start", "playera", "playerb", "white", "resign", tc, 0)    // at From: in
	end := synth("end", "playera", "playerb", "white", "resign", tc, 60*24)    // at To: out
	before := synth("before", "playera", "playerb", "white", "resign", tc, -1) // out
	std := synth("std", "playera", "playerb", "white", "resign", tc, 5)        // standard: out
	corr := synth("corr", "playerb", "playera", "black", "resign", tc, 6)      // no clock: wrong TC
	std.Variant = VariantStandard
	corr.Clock, corr.Days = nil, 3
	spec := synSpec
	spec.TimeControl, spec.Expected = tc, 1
	v, err := VerifyPart([]Game{end, corr, std, before, start}, spec)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(partIDs(v.Games), []string{"start"}) || !slices.Equal(partIDs(v.WrongTimeControl), []string{"corr"}) {
		t.Errorf("games %v wrong %v", partIDs(v.Games), partIDs(v.WrongTimeControl))
	}
	if v.Discrepancies[0].Message != "game corr was played without a clock, not 1+2" {
		t.Errorf("message %q", v.Discrepancies[0].Message)
	}
	reasons := map[string]string{}
	for _, g := range v.Ignored {
		reasons[g.ID] = g.Reason
	}
	if reasons["end"] != "outside the round window" || reasons["before"] != "outside the round window" ||
		reasons["std"] != "variant standard, the part is antichess" {
		t.Errorf("reasons %v", reasons)
	}
}

func TestVerifyPartSpecErrors(t *testing.T) {
	ok := synSpec
	ok.TimeControl, ok.Expected = tc3p2, 2
	for _, tc := range []struct {
		field string
		edit  func(*PartSpec)
	}{
		{"player", func(s *PartSpec) { s.Player = " " }},
		{"opponent", func(s *PartSpec) { s.Opponent = "" }},
		{"opponent", func(s *PartSpec) { s.Opponent = "playera" }},
		{"time_control", func(s *PartSpec) { s.TimeControl = TimeControl{} }},
		{"variant", func(s *PartSpec) { s.Variant = "" }},
		{"expected", func(s *PartSpec) { s.Expected = 0 }},
		{"window", func(s *PartSpec) { s.To = s.From }},
	} {
		s := ok
		tc.edit(&s)
		_, err := VerifyPart(nil, s)
		var e *arbiter.Error
		if err == nil || arbiter.ErrorCode(err) != arbiter.EINVALID {
			t.Errorf("%s: err %v", tc.field, err)
			continue
		}
		if errors.As(err, &e); e.Field != tc.field {
			t.Errorf("field %q, want %q", e.Field, tc.field)
		}
	}
}
