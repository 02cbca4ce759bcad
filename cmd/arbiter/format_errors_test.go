package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliCase is one bad invocation: the exit status and the pieces the error
// must hold (the field and the rule for bad input, status 3; the problem
// for usage errors, status 2).
type cliCase struct {
	name  string
	args  []string
	stdin string
	code  int
	want  []string
}

func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		code, _, errs := runCLI(t, c.stdin, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d; stderr %q", c.name, code, c.code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, w, errs)
			}
		}
	}
}

// writeFormatVariant writes the acwc-2023 preset with one edit applied.
func writeFormatVariant(t *testing.T, dir, name, old, new string) string {
	t.Helper()
	_, out, _ := runCLI(t, "", "format", "show", "acwc-2023")
	edited := strings.Replace(out, old, new, 1)
	if edited == out {
		t.Fatalf("%s: %q not in the preset", name, old)
	}
	p := filepath.Join(dir, name+".json")
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFormatCLIBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	variant := func(name, old, new string) string { return writeFormatVariant(t, dir, name, old, new) }
	runCLICases(t, []cliCase{
		{"missing file", []string{"format", "show", filepath.Join(dir, "nope.json")}, "", 3, []string{"FORMAT: no format file", "rule format.file"}},
		{"wrong preset name", []string{"format", "explain", "acwc-2024", "--entrants", "40"}, "", 3, []string{`FORMAT: no preset "acwc-2024"`, "acwc-2023, antichess-team-cup", "rule format.preset"}},
		{"directory", []string{"format", "show", dir}, "", 3, []string{"is a directory", "rule format.file"}},
		{"empty file", []string{"format", "show", write("empty.json", "")}, "", 3, []string{"1:1: empty input", "rule format.syntax"}},
		{"truncated JSON", []string{"format", "show", write("trunc.json", "{\n  \"name\": \"x\",")}, "", 3, []string{"2:15:", "ends inside a value", "rule format.syntax"}},
		{"bad JSON", []string{"format", "show", write("syntax.json", "{\n  \"name\" \"x\"}")}, "", 3, []string{"2:10:", "rule format.syntax"}},
		{"trailing data", []string{"format", "show", write("trail.json", "{}\n{}")}, "", 3, []string{"2:1: unexpected data after the JSON value", "rule format.syntax"}},
		{"a list, not an object", []string{"format", "show", write("list.json", "[]")}, "", 3, []string{"$: want an object, got a list", "rule format.type"}},
		{"wrong type", []string{"format", "show", variant("games", `"games": 10`, `"games": "10"`)}, "", 3, []string{"stages[0].match.parts[0].games: want a whole number, got a string", "rule format.type"}},
		{"fraction where a whole number goes", []string{"format", "show", variant("cycles", `"cycles": 2`, `"cycles": 1.5`)}, "", 3, []string{"stages[1].cycles: want a whole number, got 1.5", "rule format.type"}},
		{"unknown field", []string{"format", "show", variant("legs", `"cycles": 2`, `"cycles": 2, "legs": 2`)}, "", 3, []string{`stages[1].legs: unknown field "legs"`, "rule format.unknown_field"}},
		{"old calendar break", []string{"format", "show", variant("oldbreak", `"rounds_per_week": 1,`, `"rounds_per_week": 1, "break_weeks_between_stages": 1,`)}, "", 3, []string{"calendar.break_weeks_between_stages: no longer a calendar setting", "break_weeks_before", "rule format.unknown_field"}},
		{"break before the first stage", []string{"format", "show", variant("firstbreak", `"kind": "swiss",`, `"kind": "swiss", "break_weeks_before": 1,`)}, "", 3, []string{"stages[0].break_weeks_before: the first stage opens the event", "rule format.stage.break"}},
		{"bad time control", []string{"format", "show", variant("tc", `"tc": "1+2"`, `"tc": "1+two"`)}, "", 3, []string{"stages[0].match.parts[0].tc", "increment must be whole seconds", "rule format.tc"}},
		{"draw not half a win", []string{"format", "show", variant("draw", `"draw": 0.5`, `"draw": 0.4`)}, "", 3, []string{"stages[0].match.parts[0].draw: a draw must be worth half a win", "rule format.part.points"}},
		{"pools miss a place", []string{"format", "show", variant("pools", "[\n            12,", "[\n            13,")}, "", 3, []string{"stages[1].pools", "12 is missing", "rule format.stage.pools"}},
		{"bad equal bids", []string{"format", "show", variant("bids", `"rock_paper_scissors"`, `"dice"`)}, "", 3, []string{"armageddon.equal_bids", `got "dice"`, "rule format.armageddon"}},
		{"negative entrants", []string{"format", "explain", "acwc-2023", "--entrants", "-3"}, "", 2, []string{"--entrants N is required (N >= 0)"}},
		{"entrants not a number", []string{"format", "explain", "acwc-2023", "--entrants", "forty"}, "", 2, []string{`invalid value "forty" for flag -entrants`}},
		{"two formats", []string{"format", "show", "acwc-2023", "rkcc-team-three-tc"}, "", 2, []string{"want exactly one argument"}},
		{"list takes no argument", []string{"format", "list", "acwc-2023"}, "", 2, []string{"format list takes no arguments"}},
		{"no subcommand", []string{"format"}, "", 2, []string{"missing subcommand"}},
	})
}
