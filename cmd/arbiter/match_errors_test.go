package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMatchCLIBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	acwc := func(stage, sheet string, extra ...string) cliCase {
		return cliCase{args: append([]string{"match", "score", "acwc-2023", "--stage", stage, "-"}, extra...), stdin: sheet, code: 3}
	}
	with := func(c cliCase, name string, want ...string) cliCase {
		c.name, c.want = name, want
		return c
	}
	score := func(preset, stage, sheet string) cliCase {
		return cliCase{args: []string{"match", "score", preset, "--stage", stage, "-"}, stdin: sheet, code: 3}
	}
	ten := `"parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0"}]`
	badFormat := writeFormatVariant(t, dir, "badformat", `"games": 10`, `"games": 0`)
	runCLICases(t, []cliCase{
		{"missing sheet file", []string{"match", "score", "acwc-2023", "--stage", "qualification", filepath.Join(dir, "none.json")}, "", 3, []string{"SHEET: cannot read match sheet", "no such file", "rule sheet.file"}},
		{"sheet is a directory", []string{"match", "score", "acwc-2023", "--stage", "qualification", dir}, "", 3, []string{"SHEET:", "is a directory", "rule sheet.file"}},
		{"wrong preset name", []string{"match", "score", "acwc", "--stage", "qualification", "-"}, "{}", 3, []string{`FORMAT: no preset "acwc"`, "rule format.preset"}},
		{"bad format file", []string{"match", "score", badFormat, "--stage", "qualification", "-"}, "{}", 3, []string{"stages[0].match.parts[0].games: must be 1 to 1000, got 0", "rule format.part.games"}},
		with(acwc("semifinal", `{"home": "a", "away": "b", `+ten+`}`), "unknown stage", `stage: format acwc-2023 has no stage "semifinal" (stages: qualification, candidates, knockout)`, "rule score.stage"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [`), "bad JSON", "1:38:", "rule sheet.syntax"),
		with(acwc("qualification", ``), "empty sheet", "empty input", "rule sheet.syntax"),
		with(acwc("qualification", `{"home": "a", "away": "b", "colour": "white", `+ten+`}`), "unknown field", `colour: unknown field "colour"`, "rule sheet.unknown_field"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": 10}]}`), "results of the wrong type", "parts[0].results: want a string", "rule sheet.results"),
		with(acwc("qualification", `{"home": 1, "away": "b", `+ten+`}`), "entrant of the wrong type", "home: want a string, got a number", "rule sheet.type"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 0 1 0"}]}`), "too few games", "parts[0].results: 4 of 10 games of part 1+2; the match is not decided yet", "rule score.games"),
		with(acwc("candidates", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 0 1 0 1 0 1 0 1 0 1"}]}`), "too many games", "parts[0].results[10]: part 1+2 has 10 games, the sheet gives 11", "rule score.games"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 1 0"}]}`), "game after the early end (W4)", "parts[0].results[6]: game played after the match was decided at parts[0].results[5]", "rule score.after_decided"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [{"tc": "3+2", "results": "1 0"}]}`), "unknown part", "parts[0].tc: this match has no 3+2 part (parts: 1+2)", "rule score.unknown_part"),
		with(acwc("qualification", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 0 w"}]}`), "unknown result", `parts[0].results[2]: unknown result "w"`, "rule score.result"),
		with(acwc("qualification", `{"home": "a", "away": "b", "forfeit": "both"}`), "unknown match forfeit", `forfeit: want double, full_draw, home or away, got "both"`, "rule score.forfeit"),
		with(acwc("qualification", `{"home": "a", "away": "b", "forfeit": "home", `+ten+`}`), "forfeit and games", "forfeit: a forfeited match has no games", "rule score.forfeit"),
		with(score("rkcc-team-three-tc", "swiss", `{"home": "a", "away": "b", "sets": [{"tc": "3+2", "forfeit": "white"}]}`), "unknown set forfeit", `sets[0].forfeit: want double, full_draw, home or away, got "white"`, "rule score.forfeit"),
		with(score("rkcc-team-three-tc", "swiss", `{"home": "a", "away": "b", "sets": [{"tc": "3+2", "forfeit": "home", "results": "1"}]}`), "set forfeit and results", "sets[0].forfeit: give the results or a forfeit of the part, not both", "rule score.forfeit"),
		with(score("rkcc-team-three-tc", "swiss", `{"home": "a", "away": "b", `+ten+`}`), "parts for a sets match", "parts: a team_sets match lists its sets, not parts", "rule score.kind"),
		with(score("antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "x"}, {"board": 2, "forfeit": "home"}, {"board": 3, "forfeit": "home"}]}`), "unknown board forfeit", `boards[0].forfeit: want double, full_draw, home or away, got "x"`, "rule score.forfeit"),
		with(score("antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}]}`), "board count (A9)", "boards: want 3 or 4 boards, got 1", "rule score.boards"),
		with(score("antichess-team-cup", "swiss", `{"home": "a", "away": "b", "boards": [{"board": 1, "forfeit": "home"}, {"board": 1, "forfeit": "home"}, {"board": 3, "forfeit": "home"}]}`), "board given twice", "boards[1].board: board 1 already given at boards[0]", "rule score.boards"),
		with(score("antichess-team-cup", "swiss", `{"home": "a", "away": "b", "forfeit": "home"}`), "forfeit without a team size", "entrants: a forfeited match lists no boards", "3 or 4 boards", "rule score.boards"),
		with(acwc("knockout", `{"home": "a", "away": "b", `+ten+`}`), "tied knockout without tie data (W10)", "tie.armageddon: the tie goes to an armageddon game", "rule score.tie"),
		with(acwc("knockout", `{"home": "a", "away": "b", "parts": [{"tc": "1+2", "results": "1 1 1 1 1 1"}], "tie": {"games": "1"}}`), "tie data for a decided match", "tie: the match is not tied", "rule score.tie"),
		with(acwc("knockout", `{"home": "a", "away": "b", `+ten+`, "tie": {"armageddon": {"home_bid": 90, "away_bid": 90, "result": "1"}}}`), "equal bids without white (W12)", "tie.armageddon.white: equal bids: give who got White by rock_paper_scissors", "rule score.armageddon"),
		with(acwc("knockout", `{"home": "a", "away": "b", "match": "semi", `+ten+`}`), "unknown match", `match: want "", final or third_place, got "semi"`, "rule score.match"),
		with(acwc("qualification", `{"home": "a", "away": "a", `+ten+`}`), "entrant plays itself", "away: an entrant cannot play itself", "rule score.entrants"),
		{"missing --stage", []string{"match", "score", "acwc-2023", "-"}, "", 2, []string{"--stage NAME is required"}},
		{"negative --entrants", []string{"match", "score", "antichess-team-cup", "--stage", "swiss", "--entrants", "-4", "-"}, "", 2, []string{"--entrants N must be >= 0"}},
		{"one argument", []string{"match", "score", "acwc-2023", "--stage", "qualification"}, "", 2, []string{"want two arguments"}},
		{"unknown subcommand", []string{"match", "play"}, "", 2, []string{`unknown subcommand "play"`}},
	})
	if _, err := os.Stat(badFormat); err != nil {
		t.Fatal(err)
	}
}
